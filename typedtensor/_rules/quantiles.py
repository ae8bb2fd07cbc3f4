"""Static rules of ``quantile``/``percentile`` and their nan forms: the ``method`` names, the
result dtype numpy 2 gives, and the leading dim a 1-D ``q`` adds to the reduced shape."""

from __future__ import annotations

from .errors import RuleError

__all__ = [
    "DISCRETE_QUANTILE_METHODS",
    "QUANTILE_FUNCTIONS",
    "QUANTILE_METHODS",
    "QuantileMethodError",
    "check_quantile_method",
    "quantile_result_dtype",
]

#: the quantile family's function names
QUANTILE_FUNCTIONS: tuple[str, ...] = ("quantile", "percentile", "nanquantile", "nanpercentile")

#: numpy's ``method=`` names, in numpy's order
QUANTILE_METHODS: tuple[str, ...] = (
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "linear",
    "median_unbiased",
    "normal_unbiased",
    "lower",
    "higher",
    "midpoint",
    "nearest",
)

#: methods that pick an element (no arithmetic): the result keeps the input's dtype
DISCRETE_QUANTILE_METHODS: frozenset[str] = frozenset(
    {"inverted_cdf", "closest_observation", "lower", "higher", "nearest"}
)

_FLOAT = ("float16", "float32", "float64")


class QuantileMethodError(RuleError, ValueError):
    """``method=`` is not one of numpy's quantile methods."""


def check_quantile_method(name: str, method: str) -> None:
    """Raise ``QuantileMethodError`` unless ``method`` is one of numpy's names.

    >>> check_quantile_method("quantile", "linear")
    >>> check_quantile_method("quantile", "cubic")
    Traceback (most recent call last):
    ...
    typedtensor._rules.quantiles.QuantileMethodError: quantile: method='cubic' is not a \
quantile method; use one of 'inverted_cdf', 'averaged_inverted_cdf', 'closest_observation', \
'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', 'median_unbiased', \
'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest'
    """
    if method not in QUANTILE_METHODS:
        names = ", ".join(repr(m) for m in QUANTILE_METHODS)
        raise QuantileMethodError(
            f"{name}: method={method!r} is not a quantile method; use one of {names}"
        )


def quantile_result_dtype(name: str, dtype: str, method: str, q_kind: str) -> str | None:
    """The result dtype numpy 2 gives ``name`` (a ``QUANTILE_FUNCTIONS`` entry) of a ``dtype``
    input, or ``None`` where it is not decided statically (numpy promotes with ``q``'s own
    dtype, so it depends on how ``q`` is spelled). ``q_kind``: ``"float"``/``"int"`` for a
    number literal, ``"floats"``/``"ints"`` for a list/tuple literal of them (``"floats"`` when
    any item is a float), anything else for other ``q``. Picking methods keep the dtype; the
    others give float64 for ints, keep a float dtype for a scalar ``q`` and give float64 for a
    list ``q`` (a float64 array); ``percentile`` divides ``q`` by 100, so int literals act as
    floats there; bool and complex inputs (numpy raises TypeError) have no static answer.

    >>> quantile_result_dtype("quantile", "float32", "linear", "float")
    'float32'
    >>> quantile_result_dtype("quantile", "float32", "linear", "floats")
    'float64'
    >>> quantile_result_dtype("nanquantile", "int8", "nearest", "floats")
    'int8'
    >>> quantile_result_dtype("quantile", "int8", "linear", "int") is None  # numpy: int8
    True
    """
    if dtype.startswith("complex"):
        return None
    if method in DISCRETE_QUANTILE_METHODS:
        return dtype
    if dtype == "bool":
        return None
    if name.endswith("percentile"):
        q_kind = {"int": "float", "ints": "floats"}.get(q_kind, q_kind)
    if q_kind not in ("float", "floats"):
        return None
    if dtype in _FLOAT and q_kind == "float":
        return dtype
    return "float64"
