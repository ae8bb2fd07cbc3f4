"""Scans: cumulative sums and products along one axis, ``tt.cumsum(x, axis=1)`` and friends.

numpy's ``cumsum``/``cumprod`` (``axis=None`` scans the C-order flattening) and the Array API's
``cumulative_sum``/``cumulative_prod`` (``include_initial=True`` puts the identity first, so
the axis grows by one; ``axis`` may be left out only up to rank 1), and numpy's NaN-aware
``nancumsum``/``nancumprod`` (a NaN counts as 0 / 1; functions only, as in numpy). A rank-0
input scans as rank 1. Result dtypes follow ``sum``/``prod`` (bool and signed ints -> int64,
unsigned -> uint64, floats kept) unless ``dtype=`` names one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _rules as rules
from ._backend._scan import scan as _run_scan
from ._creation import asarray
from ._dtypes import BY_NAME, as_dtype_class
from ._tensor import AnyTensor, Tensor, _raise_rule_error, _store

__all__ = ["cumprod", "cumsum", "cumulative_prod", "cumulative_sum", "nancumprod", "nancumsum"]


def _scan(
    name: str,
    x: Any,
    axis: object,
    dtype: object,
    out: AnyTensor | None,
    include_initial: bool = False,
) -> AnyTensor:
    t: AnyTensor = x if isinstance(x, Tensor) else asarray(x)
    data = t._data  # a dask array for a dask-backed Tensor (scanned lazily below)
    if not isinstance(include_initial, (bool, np.bool_)):
        raise TypeError(f"include_initial must be a bool, got {include_initial!r}")
    try:
        rules.scan_shape(
            data.shape,
            axis,
            size_of=lambda d: d,
            make=lambda n: n,
            include_initial=bool(include_initial),
            axis_required=name.startswith("cumulative_"),
        )
        ax = 0 if axis is None else rules.normalize_axes(axis, max(data.ndim, 1), single=True)[0]
    except rules.RuleError as err:
        _raise_rule_error(err)
        raise  # unreachable
    op = rules.SCANS[name]
    if dtype is None:
        rule = rules.REDUCTIONS[op].dtype_rule
        result_dtype = BY_NAME[rules.result_dtype(rule, t.dtype.name)].numpy_dtype
    else:
        result_dtype = np.dtype(as_dtype_class(dtype).numpy_dtype)
    flatten = axis is None or data.ndim == 0
    if type(data) is not np.ndarray:
        from ._dask.tensor import scan_dask

        return scan_dask(op, data, ax, result_dtype, bool(include_initial), out, name, flatten)
    a = data.reshape(-1) if flatten else data
    result = _run_scan(op, a, ax, result_dtype, bool(include_initial))
    return _store(result, out, name)


def cumsum(
    x: AnyTensor, axis: int | None = None, dtype: object = None, *, out: AnyTensor | None = None
) -> AnyTensor:
    """Cumulative sum along ``axis`` (``None``: of the flattening): (8, 3) axis=0 -> (8, 3),
    axis=None -> (24,)."""
    return _scan("cumsum", x, axis, dtype, out)


def cumprod(
    x: AnyTensor, axis: int | None = None, dtype: object = None, *, out: AnyTensor | None = None
) -> AnyTensor:
    """Cumulative product along ``axis`` (``None``: of the flattening): (8, 3) axis=1 -> (8, 3)."""
    return _scan("cumprod", x, axis, dtype, out)


def nancumsum(
    x: AnyTensor, axis: int | None = None, dtype: object = None, *, out: AnyTensor | None = None
) -> AnyTensor:
    """Cumulative sum counting NaNs as 0 (numpy's ``nancumsum``): (8, 3) axis=0 -> (8, 3).

    ``axis=None`` scans the flattening ((8, 3) -> (24,)); a run of NaNs gives 0 (no warning);
    integers and bool scan exactly as ``cumsum``."""
    return _scan("nancumsum", x, axis, dtype, out)


def nancumprod(
    x: AnyTensor, axis: int | None = None, dtype: object = None, *, out: AnyTensor | None = None
) -> AnyTensor:
    """Cumulative product counting NaNs as 1 (numpy's ``nancumprod``): (8, 3) axis=1 -> (8, 3).

    ``axis=None`` scans the flattening ((8, 3) -> (24,)); a run of NaNs gives 1 (no warning);
    integers and bool scan exactly as ``cumprod``."""
    return _scan("nancumprod", x, axis, dtype, out)


def cumulative_sum(
    x: AnyTensor,
    *,
    axis: int | None = None,
    dtype: object = None,
    include_initial: bool = False,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Array API cumulative sum: (8, 3) axis=1 -> (8, 3); ``include_initial=True`` -> (8, 4)
    starting with 0. ``axis`` is required above rank 1."""
    return _scan("cumulative_sum", x, axis, dtype, out, include_initial)


def cumulative_prod(
    x: AnyTensor,
    *,
    axis: int | None = None,
    dtype: object = None,
    include_initial: bool = False,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Array API cumulative product: (8, 3) axis=0 -> (8, 3); ``include_initial=True`` ->
    (9, 3) starting with 1. ``axis`` is required above rank 1."""
    return _scan("cumulative_prod", x, axis, dtype, out, include_initial)
