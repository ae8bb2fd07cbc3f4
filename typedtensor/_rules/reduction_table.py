"""The reduction table, ``REDUCTIONS``: name -> result-dtype rule, identity, axis form, extra
parameters, the ``tt.`` function's signature and docstring and the method's docstring
(``python -m stubs.generate`` writes ``typedtensor/reductions.py`` and the Tensor methods,
``typedtensor/_tensor_reduction_methods.py``, from it)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .dtypes import DTypeRule

__all__ = ["L2_VARIANTS", "NORM_MODES", "REDUCTIONS", "Arg", "ReductionSpec"]


NORM_MODES: tuple[str, ...] = ("plain", "lp_max", "lp_sum", "power_p_max", "power_p_sum")
L2_VARIANTS: tuple[str, ...] = ("tensorflow", "pytorch", "openvino-add", "openvino-max")


@dataclass(frozen=True)
class Arg:
    """A parameter of a reduction's ``tt.`` function as source text, ``name: annotation =
    default`` (``keyword``: keyword-only; the annotation names builtins and names of
    ``typedtensor._tensor``, the default is a literal); ``python -m stubs.generate`` writes the
    functions of ``typedtensor/reductions.py`` from them (``ReductionSpec.function_args``)."""

    name: str
    annotation: str
    default: str
    keyword: bool = False


_AXIS = Arg("axis", "Axis", "None")
_ONE_AXIS = Arg("axis", "int | None", "None")
_KEEPDIMS = Arg("keepdims", "bool", "False")
_CORRECTION = (
    Arg("correction", "float | None", "None", keyword=True),
    Arg("ddof", "float | None", "None", keyword=True),
)
_DTYPE = Arg("dtype", "object", "None", keyword=True)
_OUT = Arg("out", "AnyTensor | None", "None", keyword=True)


@dataclass(frozen=True)
class ReductionSpec:
    """One row of the reduction table."""

    name: str
    dtype_rule: DTypeRule
    #: identity for an empty reduction, or None when numpy raises (max/min/argmax/argmin)
    identity: float | bool | None
    #: argmax/argmin take one axis, never a tuple
    single_axis: bool = False
    #: l2_normalize keeps the input shape and only reduces internally
    keeps_shape: bool = False
    #: supports ``keepdims``
    keepdims: bool = True
    #: extra keyword parameters (beyond axis/keepdims/out)
    params: tuple[str, ...] = field(default=())
    #: norm mode for the norm_lp_* family
    norm_mode: str | None = None
    #: the ``tt.`` function's docstring, with a shape example (generated ``reductions.py``)
    doc: str = ""
    #: the Tensor method's docstring (generated ``_tensor_reduction_methods.py``; argmax's and
    #: argmin's hand-written methods read theirs); empty for a function only
    method_doc: str = ""
    #: a Tensor method as well as a ``tt.`` function (numpy's ndarray has no ``nan*`` methods);
    #: the function calls the method, or ``Tensor._reduce`` for a function only
    method: bool = True
    #: takes numpy's ``dtype=`` (the accumulation dtype)
    dtype_arg: bool = False
    #: the ``tt.`` function's parameters after ``x`` where they are not ``function_args``'s
    #: standard ones (the norms, ``l2_normalize``)
    args: tuple[Arg, ...] | None = None

    def function_args(self) -> tuple[Arg, ...]:
        """The ``tt.`` function's parameters after ``x``: ``args``, else ``axis`` (one int
        for ``single_axis``), ``keepdims``, then keyword-only ``correction``/``ddof`` (with
        the ``correction`` param), ``dtype`` (``dtype_arg``) and ``out``.

        >>> [a.name for a in REDUCTIONS["var"].function_args()]
        ['axis', 'keepdims', 'correction', 'ddof', 'dtype', 'out']
        """
        if self.args is not None:
            return self.args
        return (
            _ONE_AXIS if self.single_axis else _AXIS,
            *((_KEEPDIMS,) if self.keepdims else ()),
            *(_CORRECTION if "correction" in self.params else ()),
            *((_DTYPE,) if self.dtype_arg else ()),
            _OUT,
        )


#: the norm_lp_* functions' docstrings: (formula, the example's axis argument) by mode
_NORM_MODE_DOCS = {
    "lp_max": ("max(sum|x|^p, eps)^(1/p)", "axis=-1"),
    "lp_sum": ("(sum|x|^p + eps)^(1/p)", "axis=-1"),
    "power_p_max": ("max(sum|x|^p, eps)", "-1"),
    "power_p_sum": ("sum|x|^p + eps", "-1"),
}
_P = Arg("p", "float", "2")


def _table() -> dict[str, ReductionSpec]:
    s = DTypeRule
    nan_warns = "; an all-NaN\nslice gives NaN and numpy's RuntimeWarning."
    rows = [
        ReductionSpec(
            "sum",
            s.SUM,
            0,
            dtype_arg=True,
            doc="Sum over ``axis``: ``tt.sum(x, axis=1)`` on (8, 3, 4) -> (8, 4); "
            "``dtype=tt.float64``\naccumulates in float64 (numpy's ``dtype=``, also on prod, "
            "mean, var, std).",
            method_doc="Sum over ``axis``: ``(8, 3, 4).sum(axis=1) -> (8, 4)``; ints widen to "
            "int64/uint64.\n\n``dtype=`` (a dtype class, numpy dtype or name) accumulates in "
            "and returns that dtype,\nas numpy's: ``x.sum(dtype=tt.float64)`` of float32. So do "
            "prod, mean, var and std.",
        ),
        ReductionSpec(
            "prod",
            s.SUM,
            1,
            dtype_arg=True,
            doc="Product over ``axis``: ``tt.prod(x, axis=0)`` on (8, 3) -> (3,).",
            method_doc="Product over ``axis``: ``(8, 3).prod(axis=0) -> (3,)``; ints widen to "
            "int64/uint64.",
        ),
        ReductionSpec(
            "mean",
            s.FLOAT,
            math.nan,
            dtype_arg=True,
            doc="Mean over ``axis``: ``tt.mean(x, axis=-1, keepdims=True)`` on (8, 3) -> (8, 1).",
            method_doc="Mean over ``axis``: ``(8, 3).mean(axis=-1, keepdims=True) -> (8, 1)``; "
            "ints: float64.",
        ),
        ReductionSpec(
            "max",
            s.SAME,
            None,
            doc="Maximum over ``axis`` (NaN propagates): ``tt.max(x, axis=0)`` on (8, 3) -> (3,).",
            method_doc="Maximum over ``axis`` (NaN propagates): ``(8, 3).max(axis=0) -> (3,)``.",
        ),
        ReductionSpec(
            "min",
            s.SAME,
            None,
            doc="Minimum over ``axis`` (NaN propagates): ``tt.min(x, axis=0)`` on (8, 3) -> (3,).",
            method_doc="Minimum over ``axis`` (NaN propagates): ``(8, 3).min(axis=0) -> (3,)``.",
        ),
        ReductionSpec(
            "any",
            s.BOOL,
            False,
            doc="Logical or: ``tt.any(x, axis=1)`` on (8, 3) -> (8,) of bool.",
            method_doc="Logical or over ``axis``, a bool tensor: ``(8, 3).any(axis=1) -> (8,)``.",
        ),
        ReductionSpec(
            "all",
            s.BOOL,
            True,
            doc="Logical and: ``tt.all(x)`` on (8, 3) -> () of bool.",
            method_doc="Logical and over ``axis``, a bool tensor: ``(8, 3).all() -> ()``.",
        ),
        ReductionSpec(
            "var",
            s.REAL,
            math.nan,
            params=("correction",),
            dtype_arg=True,
            doc="Variance: ``tt.var(x, axis=0, correction=1)`` on (8, 3) -> (3,).",
            method_doc="Variance over ``axis`` divided by ``N - correction``: "
            "``(8, 3).var(axis=0) -> (3,)``.\n\n``ddof`` is numpy's name for ``correction``; "
            "give at most one. ints -> float64.",
        ),
        ReductionSpec(
            "std",
            s.REAL,
            math.nan,
            params=("correction",),
            dtype_arg=True,
            doc="Standard deviation: ``tt.std(x, axis=0)`` on (8, 3) -> (3,).",
            method_doc="Standard deviation over ``axis``: "
            "``(8, 3).std(axis=0, correction=1) -> (3,)``.",
        ),
        ReductionSpec(
            "argmax",
            s.INDEX,
            None,
            single_axis=True,
            doc="Index of the first maximum: ``tt.argmax(x, axis=1)`` on (8, 3) -> (8,) of int64.",
            method_doc="Index of the first maximum (first NaN wins), int64: "
            "``(8, 3).argmax(axis=1) -> (8,)``.\n\nAlong one axis, or into the flattened tensor "
            "for ``axis=None``.",
        ),
        ReductionSpec(
            "argmin",
            s.INDEX,
            None,
            single_axis=True,
            doc="Index of the first minimum: ``tt.argmin(x, axis=0)`` on (8, 3) -> (3,) of int64.",
            method_doc="Index of the first minimum (first NaN wins), int64: "
            "``(8, 3).argmin(axis=0) -> (3,)``.\n\nAlong one axis, or into the flattened tensor "
            "for ``axis=None``.",
        ),
        ReductionSpec(
            "logsumexp",
            s.FLOAT,
            -math.inf,
            doc="Stable log-sum-exp: ``tt.logsumexp(x, axis=-1)`` on (8, 10) -> (8,).",
            method_doc="``log(sum(exp(x)))`` computed stably: "
            "``(8, 10).logsumexp(axis=-1) -> (8,)``.",
        ),
        ReductionSpec(
            "norm",
            s.REAL,
            0.0,
            params=("p", "eps", "mode"),
            args=(
                _P,
                _AXIS,
                _KEEPDIMS,
                Arg("eps", "float", "0.0", keyword=True),
                Arg("mode", "NormMode", '"plain"', keyword=True),
                _OUT,
            ),
            doc="Lp norm: ``tt.norm(x, 2, axis=-1)`` on (8, 64) -> (8,). See ``Tensor.norm``.",
            method_doc="Lp norm over ``axis``: ``(8, 64).norm(2, axis=-1) -> (8,)``.\n\n"
            "``p`` is any nonzero float, ``inf``/``-inf`` (max/min of ``|x|``) or 0 (count of\n"
            "nonzeros). ``mode`` selects oneDNN's eps handling (finite ``p > 0`` only):\n"
            "``lp_max`` = max(sum|x|^p, eps)^(1/p), ``lp_sum`` = (sum|x|^p + eps)^(1/p),\n"
            "``power_p_max`` / ``power_p_sum`` the same without the root.",
        ),
    ]
    # NaN-aware (numpy's nan* functions: NaNs are skipped; ints behave as the plain ones)
    rows += [
        ReductionSpec(
            "nansum",
            s.SUM,
            0,
            method=False,
            dtype_arg=True,
            doc="Sum ignoring NaNs (all-NaN slices give 0): ``tt.nansum(x, axis=1)``, "
            "(8, 3) -> (8,).",
        ),
        ReductionSpec(
            "nanprod",
            s.SUM,
            1,
            method=False,
            dtype_arg=True,
            doc="Product ignoring NaNs (all-NaN slices give 1): ``tt.nanprod(x, 0)``, "
            "(8, 3) -> (3,).",
        ),
        ReductionSpec(
            "nanmean",
            s.FLOAT,
            math.nan,
            method=False,
            dtype_arg=True,
            doc="Mean of the non-NaNs: ``tt.nanmean(x, axis=-1)``, (8, 3) -> (8,)" + nan_warns,
        ),
        ReductionSpec(
            "nanmax",
            s.SAME,
            None,
            method=False,
            doc="Maximum ignoring NaNs: ``tt.nanmax(x, axis=0)``, (8, 3) -> (3,); an all-NaN "
            "slice\ngives NaN and numpy's RuntimeWarning.",
        ),
        ReductionSpec(
            "nanmin",
            s.SAME,
            None,
            method=False,
            doc="Minimum ignoring NaNs: ``tt.nanmin(x, axis=0)``, (8, 3) -> (3,); an all-NaN "
            "slice\ngives NaN and numpy's RuntimeWarning.",
        ),
        ReductionSpec(
            "nanvar",
            s.REAL,
            math.nan,
            method=False,
            params=("correction",),
            dtype_arg=True,
            doc="Variance of the non-NaNs over ``N - correction``: ``tt.nanvar(x, 0)``, "
            "(8, 3) -> (3,);\nno degrees of freedom left gives NaN and numpy's RuntimeWarning.",
        ),
        ReductionSpec(
            "nanstd",
            s.REAL,
            math.nan,
            method=False,
            params=("correction",),
            dtype_arg=True,
            doc="Standard deviation of the non-NaNs: ``tt.nanstd(x, 0, ddof=1)``, (8, 3) -> (3,).",
        ),
        ReductionSpec(
            "nanargmax",
            s.INDEX,
            None,
            single_axis=True,
            method=False,
            doc="Index of the first maximum ignoring NaNs: ``tt.nanargmax(x, 1)``, (8, 3) -> "
            "(8,)\nof int64; an all-NaN slice raises ValueError, as numpy.",
        ),
        ReductionSpec(
            "nanargmin",
            s.INDEX,
            None,
            single_axis=True,
            method=False,
            doc="Index of the first minimum ignoring NaNs: ``tt.nanargmin(x, 0)``, (8, 3) -> "
            "(3,)\nof int64; an all-NaN slice raises ValueError, as numpy.",
        ),
        ReductionSpec(
            "count_nonzero",
            s.INDEX,
            0,
            method=False,
            doc="Number of nonzero (true) elements: ``tt.count_nonzero(x, axis=(0, 1))``,\n"
            "(8, 3, 4) -> (4,) of int64; on a rank-0 tensor ``axis=0`` or ``-1`` counts its "
            "element,\nas in numpy (``rules.rank0_axis``).",
        ),
    ]
    # order statistics (the runtime registry's first family: _backend/order_statistics.py)
    rows += [
        ReductionSpec(
            "median",
            s.FLOAT,
            math.nan,
            doc="Median as numpy's (a NaN in a slice gives NaN; ints give float64):\n"
            "``tt.median(x, axis=1)``, (8, 3) -> (8,).",
            method_doc="Median, numpy's (a NaN in a slice gives NaN; ints give float64):\n"
            "``(8, 3).median(axis=0) -> (3,)``.",
        ),
        ReductionSpec(
            "nanmedian",
            s.FLOAT,
            math.nan,
            method=False,
            doc="Median of the non-NaNs: ``tt.nanmedian(x, axis=0)``, (8, 3) -> (3,)" + nan_warns,
        ),
    ]
    for mode in NORM_MODES[1:]:
        name = _norm_method_name(mode)
        formula, axis = _NORM_MODE_DOCS[mode]
        rows.append(
            ReductionSpec(
                name,
                s.REAL,
                0.0,  # the empty sum of |x|^p, then the mode's eps rule
                params=("p", "eps"),
                norm_mode=mode,
                args=(_P, Arg("eps", "float", "0.0"), _AXIS, _KEEPDIMS, _OUT),
                doc=f"oneDNN {formula}: ``tt.{name}(x, 2, 1e-6, {axis})``, (8, 64) -> (8,).",
                method_doc=f"oneDNN ``{name}``: {formula}: ``(8, 64) axis=-1 -> (8,)``.",
            )
        )
    rows.append(
        ReductionSpec(
            "l2_normalize",
            s.FLOAT,
            None,
            keeps_shape=True,
            keepdims=False,
            params=("eps", "variant"),
            args=(
                Arg("axis", "Axis", "-1"),
                Arg("eps", "float", "1e-12"),
                Arg("variant", "L2Variant", '"tensorflow"'),
                _OUT,
            ),
            doc="``x / ||x||_2`` over ``axis``, shape kept: "
            '``tt.l2_normalize(x, -1, variant="pytorch")``.',
            method_doc="``x`` divided by its L2 norm over ``axis``; the shape is kept: ``(8, 64) "
            "-> (8, 64)``.\n\n``variant``: ``tensorflow`` x/max(sum x^2, eps)^0.5, ``pytorch`` "
            "x/max((sum x^2)^0.5,\neps), ``openvino-add`` x/(sum x^2 + eps)^0.5, "
            "``openvino-max`` x/max(sum x^2, eps)^0.5.",
        )
    )
    return {r.name: r for r in rows}


def _norm_method_name(mode: str) -> str:
    """``lp_max -> norm_lp_max``, ``power_p_max -> norm_lp_power_p_max`` (oneDNN's names)."""
    return "norm_" + (mode if mode.startswith("lp_") else "lp_" + mode)


#: name -> spec, for every reduction that takes ``axis``.
REDUCTIONS: dict[str, ReductionSpec] = _table()
