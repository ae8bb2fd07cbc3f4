"""The order-statistics family: median, quantile, percentile and their NaN-aware forms.

Registered in ``registry``: each operation's numpy reference is numpy's own function; the
numba backend binds ``median`` and ``nanmedian`` of float32/float64 and integer inputs to
``_numba.selection.middle_pairs`` (the two middle values of each row, found by selection)
and finishes each row with numpy's own arithmetic on those values (``_finish_median``), so
the answer is numpy's bit for bit. quantile/percentile (methods linear, lower, higher,
nearest, midpoint) bind ``_numba.selection.order_values`` the same way, finished by numpy's
own steps (``_backend/_quantile_steps.py``), and so do their nan forms (each row's non-NaN
values, ranked by their count).

    >>> import numpy as np
    >>> reference_median(np.array([[1.0, 3.0, 2.0]]), (1,), False, {})
    array([2.])
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import numpy.typing as npt

from .._rules.quantiles import QUANTILE_METHODS  # numpy's method= names
from .registry import Operation, Run, register

__all__ = [
    "QUANTILE_METHODS",
    "bind_median",
    "bind_quantile",
    "reference_median",
    "reference_quantile",
]

Array = npt.NDArray[Any]

#: numpy's ``nanmedian`` sorts masked rows (``np.ma.median``) below this row length when
#: more than one row is reduced, and takes each row's median otherwise
_NUMPY_NANMEDIAN_SMALL = 600
#: dtypes the selection kernel takes (the others run numpy's reference)
_KERNEL_KINDS = frozenset("iuf")


def _axis(a: Array, axes: tuple[int, ...]) -> tuple[int, ...] | None:
    return None if len(axes) == a.ndim else axes


def reference_median(
    a: Array, axes: tuple[int, ...], keepdims: bool, params: dict[str, Any]
) -> Array:
    """numpy's median (``params["skip_nan"]``: nanmedian) as an ndarray; (2, 3) axis 1 -> (2,)."""
    fn = np.nanmedian if params.get("skip_nan") else np.median
    return np.asarray(fn(a, axis=_axis(a, axes), keepdims=keepdims))


def reference_quantile(
    a: Array, axes: tuple[int, ...], keepdims: bool, params: dict[str, Any]
) -> Array:
    """numpy's quantile/percentile (``params``: ``q``, ``method``, ``percent``, ``skip_nan``)
    as an ndarray; a 1-D ``q`` of 4 on (2, 3) axis 1 -> (4, 2)."""
    if params.get("percent"):
        fn = np.nanpercentile if params.get("skip_nan") else np.percentile
    else:
        fn = np.nanquantile if params.get("skip_nan") else np.quantile
    q = params["q"]
    return np.asarray(
        fn(a, q, axis=_axis(a, axes), keepdims=keepdims, method=params.get("method", "linear"))
    )


def _selection_kernel_takes(shape: tuple[int, ...], dtype: np.dtype[Any]) -> bool:
    """The selection kernels take a non-empty input of rank >= 1 whose dtype is a native
    integer or float32/float64 (not bool, float16 or complex)."""
    if not shape or 0 in shape or dtype.kind not in _KERNEL_KINDS or not dtype.isnative:
        return False
    return not (dtype.kind == "f" and dtype.itemsize < 4)


def _reduced_layout(
    shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(the kept dims, the result's dims, the reduced length): ``(2, 3, 4)`` over axis 1 is
    ``((2, 4), (2, 4), 3)``, with keepdims ``((2, 4), (2, 1, 4), 3)``."""
    kept = tuple(d for i, d in enumerate(shape) if i not in axes)
    result = tuple(1 if i in axes else d for i, d in enumerate(shape)) if keepdims else kept
    return kept, result, math.prod(shape[i] for i in axes)


def bind_median(
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    dtype: np.dtype[Any],
    axes: tuple[int, ...],
    keepdims: bool,
) -> Run | None:
    """The numba runner of median/nanmedian for one layout, or ``None`` (numpy's reference)
    for rank 0, empty inputs and dtypes the kernel does not take (bool, float16, complex)."""
    if not _selection_kernel_takes(shape, dtype):
        return None
    kept, result_shape, n = _reduced_layout(shape, axes, keepdims)
    rows = math.prod(kept)
    # numpy's nanmedian: np.ma.median's arithmetic (x + y) / 2 on short rows of a
    # multi-row reduction, np.median's mean of the middle values on the others
    masked_steps = len(axes) < len(shape) and n < _NUMPY_NANMEDIAN_SMALL
    from ._numba.selection import middle_pairs  # numba on first use

    def run(a: Array, params: dict[str, Any]) -> Array:
        skip_nan = bool(params.get("skip_nan")) and a.dtype.kind == "f"
        rows2 = np.moveaxis(a, axes, tuple(range(-len(axes), 0))).reshape(rows, n)
        lo = np.empty(rows, a.dtype)
        hi = np.empty(rows, a.dtype)
        count = np.empty(rows, np.int64)
        middle_pairs(rows2, skip_nan, lo, hi, count)
        result = _finish_median(lo, hi, count, skip_nan, masked_steps)
        return result.reshape(result_shape)

    return run


def _finish_median(lo: Array, hi: Array, count: Array, skip_nan: bool, masked: bool) -> Array:
    """Each row's median from its middle values, by numpy's own steps: ``np.median``'s mean of
    the middle one or two values (NaN where the row held one), or for ``masked``
    (``_NUMPY_NANMEDIAN_SMALL``) ``np.nanmedian`` on ``[lo, hi]`` pairs, numpy's masked
    median of the same two middle values (a lone middle value counted twice, as numpy does)."""
    odd = (count % 2 == 1) | (count <= 0)
    if masked and skip_nan:
        hi = np.where(odd, lo, hi)
        pairs = np.stack([lo, hi], axis=-1)
        pairs[count == 0] = np.nan
        return np.asarray(np.nanmedian(pairs, axis=-1))
    # np.median: mean(part[middle], axis) over one (odd) or two (even) values
    means = np.mean(np.stack([lo, hi], axis=-1), axis=-1)
    result: Array = np.asarray(np.where(odd, np.mean(lo[:, None], axis=-1), means))
    if skip_nan:
        empty = count == 0
        for _ in range(int(np.count_nonzero(empty))):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=6)
        result[empty] = np.nan
    else:
        result[count < 0] = np.nan
    return result


#: methods the selection kernel serves (the others run numpy's reference)
_KERNEL_METHODS = frozenset({"linear", "lower", "higher", "nearest", "midpoint"})


def bind_quantile(
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    dtype: np.dtype[Any],
    axes: tuple[int, ...],
    keepdims: bool,
) -> Run | None:
    """The numba runner of quantile/percentile and their nan forms for one layout (methods
    ``_KERNEL_METHODS``; numpy's reference for the others, for rank 0, empty inputs and the
    dtypes the median kernel does not take): ``_numba.selection.order_values`` finds the
    order statistics each ``q`` needs (of each row's non-NaN values for the nan forms), and
    ``_quantile_steps`` finishes them with numpy's own index, gamma and lerp."""
    if not _selection_kernel_takes(shape, dtype):
        return None
    from . import _quantile_steps as steps

    if not steps.AVAILABLE:
        return None
    kept, result_kept, n = _reduced_layout(shape, axes, keepdims)

    def run(a: Array, params: dict[str, Any]) -> Array:
        method = params.get("method", "linear")
        if method not in _KERNEL_METHODS:
            return reference_quantile(a, axes, keepdims, params)
        rows2 = np.moveaxis(a, axes, tuple(range(-len(axes), 0))).reshape(-1, n)
        percent = bool(params.get("percent"))
        of_rows = steps.nanquantile_of_rows if params.get("skip_nan") else steps.quantile_of_rows
        result = of_rows(rows2, params["q"], method, percent, not kept)
        return result.reshape(result.shape[: result.ndim - (1 if kept else 0)] + result_kept)

    return run


register(
    Operation("median", reference_median, bind_median),
    Operation("nanmedian", reference_median, bind_median, options=(("skip_nan", True),)),
    Operation("quantile", reference_quantile, bind_quantile),
    Operation("percentile", reference_quantile, bind_quantile, options=(("percent", True),)),
    Operation("nanquantile", reference_quantile, bind_quantile, options=(("skip_nan", True),)),
    Operation(
        "nanpercentile",
        reference_quantile,
        bind_quantile,
        options=(("skip_nan", True), ("percent", True)),
    ),
)
