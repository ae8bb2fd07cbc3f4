"""The reductions' checks (empty input, ``dtype=``, numpy's rank-0 axis) on the table of
``reduction_table``, and the result shape of a scan (``cumsum``, ``cumulative_sum``...),
``scan_shape``."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import TypeVar

from .axes import normalize_axes
from .errors import DTypeArgumentError, EmptyReductionError, ScanAxisError
from .reduction_table import REDUCTIONS

__all__ = [
    "MOMENTS",
    "VARIANCES",
    "SCANS",
    "check_dtype_argument",
    "check_nonempty",
    "rank0_axis",
    "reduction_identity",
    "scan_shape",
]

D = TypeVar("D")


def reduction_identity(name: str, p: float | None = None) -> float | bool | None:
    """The value of reduction ``name`` over zero elements, ``None`` where numpy raises: the
    table's identity, except the norm with ``p=-inf`` (the minimum of ``|x|``, no identity;
    ``p=inf`` is the maximum of ``|x|`` with numpy's identity 0).

    >>> reduction_identity("sum"), reduction_identity("max"), reduction_identity("norm", -math.inf)
    (0, None, None)
    """
    spec = REDUCTIONS[name]
    if spec.norm_mode is None and "p" in spec.params and p == -math.inf:
        return None
    return spec.identity


#: reductions that take numpy's legacy int axis on a rank-0 input (``rank0_axis``)
RANK0_INT_AXIS: frozenset[str] = frozenset({"count_nonzero"})


def rank0_axis(name: str, axis: object, ndim: int) -> object:
    """The axis reduction ``name`` runs with: numpy's ``count_nonzero`` (a ufunc's reduce)
    takes a bare int axis ``0`` or ``-1`` on a rank-0 input and counts its one element (a
    rank-0 result, with or without keepdims), so that is ``axis=None``; any other axis is
    returned as given (a tuple such as ``(0,)`` and other ints stay errors, as in numpy).
    typedtensor's other reductions reject every int axis on rank 0 (README).

    >>> rank0_axis("count_nonzero", -1, 0), rank0_axis("count_nonzero", (0,), 0)
    (None, (0,))
    >>> rank0_axis("sum", 0, 0), rank0_axis("count_nonzero", 0, 2)
    (0, 0)
    """
    if ndim != 0 or name not in RANK0_INT_AXIS or isinstance(axis, (bool, tuple)):
        return axis
    try:
        value = operator.index(axis)  # type: ignore[arg-type]
    except TypeError:
        return axis
    return None if value in (0, -1) else axis


def check_nonempty(
    name: str,
    dims: Sequence[D],
    axes: Sequence[int],
    *,
    size_of: Callable[[D], int | None],
    p: float | None = None,
) -> None:
    """Raise ``EmptyReductionError`` where numpy does: reduction ``name`` without an identity
    (see ``reduction_identity``) over reduced ``axes`` (normalized) of ``dims`` that hold zero
    elements. Unknown sizes (``size_of`` gives ``None``) are not known to be zero.

    >>> check_nonempty("max", (3, 0), (0,), size_of=lambda d: d)  # (0,): fine, as in numpy
    >>> check_nonempty("norm", (3, 0), (1,), size_of=lambda d: d, p=-math.inf)
    Traceback (most recent call last):
    ...
    typedtensor._rules.errors.EmptyReductionError: norm with p=-inf (the minimum of |x|) of an \
empty reduction: the reduced dims of shape (3, 0) hold no elements and it has no identity \
(numpy raises here too); check the input is not empty
    """
    spec = REDUCTIONS[name]
    if spec.keeps_shape or reduction_identity(name, p) is not None:
        return
    if not any(size_of(dims[a]) == 0 for a in axes):
        return
    what = f"{name} with p=-inf (the minimum of |x|)" if spec.identity is not None else name
    shape = "(" + ", ".join(str(size_of(d) if size_of(d) is not None else d) for d in dims)
    shape += ",)" if len(dims) == 1 else ")"
    raise EmptyReductionError(
        f"{what} of an empty reduction: the reduced dims of shape {shape} hold no elements "
        f"and {'it' if spec.identity is not None else name} has no identity (numpy raises "
        "here too); check the input is not empty"
    )


#: the variance family (``check_dtype_argument``; ``_dask`` follows numpy's steps for them)
VARIANCES: tuple[str, ...] = ("var", "std", "nanvar", "nanstd")
#: the moments: their ``dtype=`` must be a float or complex dtype (``check_dtype_argument``)
MOMENTS: tuple[str, ...] = ("mean", "nanmean", *VARIANCES)
_FLOAT_OR_COMPLEX = ("float16", "float32", "float64", "complex64", "complex128")
#: what numpy does with an integer or bool ``dtype=`` on each moment
_NUMPY_WITH_INTEGER_DTYPE = {
    "mean": "sums in that dtype (wrapping around on overflow) and truncates the quotient",
    "nanmean": "raises for float input and truncates the quotient of integer input",
    "var": "truncates every squared deviation and its mean",
    "nanvar": "truncates every squared deviation, and raises for float input",
    "std": "raises UFuncTypeError for array results and truncates for axis=None",
    "nanstd": "raises for float input and truncates the rest",
}


def check_dtype_argument(name: str, dtype: str, named: str) -> None:
    """Raise ``DTypeArgumentError`` for a ``dtype=named`` reduction ``name`` of a ``dtype``
    input does not compute in (dtypes by numpy name); every other ``dtype=`` is numpy's
    accumulation dtype (a real one for the variance of complex input too: numpy casts the mean
    to it, dropping its imaginary part with a ``ComplexWarning``, and not the values).

    ``mean``/``nanmean``/``var``/``std``/``nanvar``/``nanstd`` take a float or complex
    ``dtype=`` only: numpy's answers in an integer or bool dtype are accidents of its steps
    (``var`` truncates each squared deviation, ``std`` raises for array results), and the Array
    API standard has no ``dtype=`` on them.

    >>> check_dtype_argument("var", "float32", "float64")
    >>> check_dtype_argument("mean", "int16", "int32")
    Traceback (most recent call last):
    ...
    typedtensor._rules.errors.DTypeArgumentError: mean(dtype=int32) is not supported: numpy's \
mean sums in that dtype (wrapping around on overflow) and truncates the quotient; compute in a \
float dtype, x.astype(tt.float64).mean(...), or pass dtype=tt.float64, then .astype(int) the \
result if integers are needed
    """
    if name in MOMENTS and named not in _FLOAT_OR_COMPLEX:
        in_float = (
            f"tt.{name}(x.astype(tt.float64), ...)"
            if name.startswith("nan")  # functions only, as in numpy
            else f"x.astype(tt.float64).{name}(...)"
        )
        raise DTypeArgumentError(
            f"{name}(dtype={named}) is not supported: numpy's {name} "
            f"{_NUMPY_WITH_INTEGER_DTYPE[name]}; compute in a float dtype, {in_float}, or pass "
            "dtype=tt.float64, then .astype(int) the result if integers are needed"
        )


#: scans (cumulative reductions) -> the reduction whose dtype rule they follow
SCANS: dict[str, str] = {
    "cumsum": "sum",
    "cumprod": "prod",
    "cumulative_sum": "sum",
    "cumulative_prod": "prod",
    # numpy's nancumsum/nancumprod: NaNs count as 0 / 1 (functions only, as in numpy)
    "nancumsum": "nansum",
    "nancumprod": "nanprod",
}


def scan_shape(
    dims: Sequence[D],
    axis: object,
    *,
    size_of: Callable[[D], int | None],
    make: Callable[[int | None], D],
    include_initial: bool = False,
    axis_required: bool = False,
) -> tuple[D, ...]:
    """Result shape of a scan of ``dims`` along ``axis`` (numpy's ``cumsum``/``cumulative_sum``).

    A rank-0 input scans as rank 1 (``(1,)``); ``axis=None`` flattens (``cumsum``), or with
    ``axis_required`` (Array API ``cumulative_sum``) is only allowed up to rank 1;
    ``include_initial`` adds the leading identity, so the axis dim grows by one.
    ``make(n)`` builds a dim of size ``n`` (``None``: an unknown size).

    >>> scan_shape((2, 3), None, size_of=lambda d: d, make=lambda n: n)
    (6,)
    >>> size = lambda d: d if isinstance(d, int) else None
    >>> scan_shape(("B", 3), -1, size_of=size, make=lambda n: n, include_initial=True)
    ('B', 4)
    >>> scan_shape(("B", 3), 0, size_of=size, make=lambda n: n or "?", include_initial=True)
    ('?', 3)
    """
    if len(dims) == 0:
        dims = (make(1),)
    if axis is None:
        if axis_required and len(dims) > 1:
            raise ScanAxisError(
                f"axis is required for a rank-{len(dims)} tensor (only rank 0 and 1 have one "
                "axis to scan); pass axis=-1 or another axis"
            )
        sizes = [size_of(d) for d in dims]
        total = None if None in sizes else math.prod(s for s in sizes if s is not None)
        flat = dims[0] if len(dims) == 1 else make(total)
        return (_grow(flat, size_of, make) if include_initial else flat,)
    (ax,) = normalize_axes(axis, len(dims), single=True)
    if not include_initial:
        return tuple(dims)
    return tuple(_grow(d, size_of, make) if i == ax else d for i, d in enumerate(dims))


def _grow(d: D, size_of: Callable[[D], int | None], make: Callable[[int | None], D]) -> D:
    size = size_of(d)
    return make(None if size is None else size + 1)
