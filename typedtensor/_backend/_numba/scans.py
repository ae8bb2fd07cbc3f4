# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""Cumulative sums and products (numba), one pass over memory; with ``nan`` (``nancumsum``,
``nancumprod``) a NaN input counts as the identity (0 / 1), numpy's NaN replacement without
its copy of the input.

The input is viewed as ``(O, R, I)`` scanned along ``R``: ``I == 1`` is a row scan (a
sequential loop per row), ``I > 1`` a column scan (row ``k`` of the output is row ``k - 1``
plus row ``k`` of the input: SIMD across the contiguous ``I``). Rows (``O``) run in parallel
from ``PAR_MIN`` elements. float32 sums accumulate in float64 (never less accurate than
numpy's sequential float32 sum) and keep numpy's overflow: once a float32 result is inf, the
running sum is that inf (numpy's float32 sum stays inf, or NaN after ``inf - inf``, where a
float64 one would come back to finite values). Products accumulate in the result dtype, in
numpy's order, so overflow to inf and underflow to 0 happen where numpy's do.

Layouts: a C-contiguous input is viewed as is, an F-contiguous one through its (C-contiguous)
transpose; another layout scanned along a strided dim is copied once into C order (numpy's
strided-axis scan is slow: copy + kernel ran 2.4-15x numpy at 64 MB), while one scanned along
its innermost dim returns ``None`` (numpy's loop runs it: a copy + the row kernel ran 0.4-0.9x
numpy there), as do dtypes outside bool/ints/float32/float64 and float inputs scanned in an
integer dtype.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from .._layouts import kernel_dtype
from ._cache import kernel
from ._primitives import _as

__all__ = ["scan"]

Array = npt.NDArray[Any]

PAR_MIN = 1 << 18  # elements: below this a scan runs serially


@njit(inline="always")
def _term(acc0: Any, v: Any, nan: bool) -> Any:
    """``v`` in the accumulator's type (that of the identity ``acc0``); with ``nan`` a NaN
    ``v`` is the identity (numpy's nancumsum/nancumprod replace NaNs by 0 / 1)."""
    t = _as(acc0, v)
    return acc0 if nan and t != t else t


@njit(inline="always")
def _start(acc0: Any, prod: bool) -> Any:
    """The running value before the first element: -0.0 for a float sum (IEEE's additive
    identity: -0.0 + -0.0 stays -0.0, as numpy's scan, which starts from the first element),
    else the identity ``acc0`` (the value ``include_initial`` writes and a NaN counts as)."""
    return acc0 if prod else _as(acc0, -0.0)


@njit(inline="always")
def _row_task(
    x: Any, out: Any, prod: bool, nan: bool, init: int, acc0: Any, narrow: bool, o: int
) -> None:
    """out[o, init + k] = acc0 (+|*) x[o, 0] ... x[o, k]. A float32 sum runs in float64; a
    row whose float32 results overflow is finished as numpy's float32 sum (``_overflowed``)."""
    acc = _start(acc0, prod)
    if init:
        out[o, 0] = acc0
    xs = x[o]
    ys = out[o, init:]
    if prod:
        for k in range(xs.shape[0]):
            acc = acc * _term(acc0, xs[k], nan)
            ys[k] = acc
    else:
        for k in range(xs.shape[0]):
            acc = acc + _term(acc0, xs[k], nan)
            ys[k] = acc
        if narrow:  # float32 results of a float64 sum
            _overflowed(xs, ys, nan)


@njit(inline="always")
def _overflowed(xs: Any, ys: Any, nan: bool) -> None:
    """From the first inf of the float32 running sum ``ys`` on: numpy's float32 sum stays
    inf (or turns NaN on ``inf - inf``) where the float64 one came back to finite values."""
    seen = False  # a vectorised check first (the row is in cache): overflow is rare
    for k in range(ys.shape[0]):
        seen |= abs(ys[k]) == np.inf
    if not seen:
        return
    first = -1
    for k in range(ys.shape[0]):
        if abs(ys[k]) == np.inf:
            first = k
            break
    if first < 0:
        return
    acc = ys[first]
    zero = _as(acc, 0)
    for k in range(first + 1, ys.shape[0]):
        acc = acc + _term(zero, xs[k], nan)
        ys[k] = acc


@kernel()
def _scan_rows(x: Any, out: Any, prod: bool, nan: bool, init: int, acc0: Any, narrow: bool) -> None:
    """Row scans of x (O, R) into out (O, R + init), one row at a time; serial."""
    for o in range(x.shape[0]):
        _row_task(x, out, prod, nan, init, acc0, narrow, o)


@kernel(parallel=True)
def _scan_rows_par(
    x: Any, out: Any, prod: bool, nan: bool, init: int, acc0: Any, narrow: bool
) -> None:
    """_scan_rows with rows in parallel."""
    for o in prange(x.shape[0]):
        _row_task(x, out, prod, nan, init, acc0, narrow, o)


@kernel()
def _scan_columns(
    x: Any, out: Any, prod: bool, nan: bool, init: int, acc0: Any, narrow: bool, wb: int
) -> None:
    """Column scan of (O, R, I) in blocks of ``wb`` columns (float64 running row for float32
    sums: ``acc``); serial."""
    w = x.shape[2]
    acc = np.full(min(w, wb), acc0)
    for t in range(x.shape[0] * (-(-w // wb))):
        _columns_task(x, out, prod, nan, init, acc0, narrow, wb, t, acc)


@kernel(parallel=True)
def _scan_columns_par(
    x: Any, out: Any, prod: bool, nan: bool, init: int, acc0: Any, narrow: bool, wb: int
) -> None:
    """_scan_columns with (row, column block) tasks in parallel."""
    w = x.shape[2]
    nb = -(-w // wb)
    for t in prange(x.shape[0] * nb):
        acc = np.full(min(w, wb), acc0)
        _columns_task(x, out, prod, nan, init, acc0, narrow, wb, np.int64(t), acc)


@njit(inline="always")
def _columns_task(
    x: Any,
    out: Any,
    prod: bool,
    nan: bool,
    init: int,
    acc0: Any,
    narrow: bool,
    wb: int,
    t: int,
    acc: Any,
) -> None:
    nb = -(-x.shape[2] // wb)
    o = t // nb
    j0 = (t % nb) * wb
    j1 = min(j0 + wb, x.shape[2])
    w = j1 - j0
    start = _start(acc0, prod)
    for j in range(w):
        acc[j] = start
    if init:
        first = out[o, 0, j0:j1]
        for j in range(w):
            first[j] = acc0
    for k in range(x.shape[1]):
        xs = x[o, k, j0:j1]
        ys = out[o, k + init, j0:j1]
        if prod:
            for j in range(w):
                acc[j] = acc[j] * _term(acc0, xs[j], nan)
                ys[j] = acc[j]
        elif narrow:  # float32 results of a float64 sum: inf once they overflow (numpy's)
            for j in range(w):
                acc[j] = acc[j] + _term(acc0, xs[j], nan)
                ys[j] = acc[j]
                y = ys[j]
                acc[j] = y if abs(y) == np.inf else acc[j]
        else:
            for j in range(w):
                acc[j] = acc[j] + _term(acc0, xs[j], nan)
                ys[j] = acc[j]


def _parallel(size: int) -> bool:
    from . import _parallel as backend_parallel  # the numba backend's thread policy

    return size >= PAR_MIN and bool(backend_parallel(size))


def scan(op: str, a: Array, axis: int, dtype: np.dtype[Any], include_initial: bool) -> Array | None:
    """Scan ``op`` ("sum"/"prod", "nansum"/"nanprod": a NaN counts as 0 / 1) of ``a`` along
    ``axis`` in ``dtype``; ``None``: numpy runs it."""
    if (
        not kernel_dtype(a.dtype)
        or np.dtype(dtype).char not in "lLfd"
        or a.size == 0
        or (a.dtype.kind == "f" and np.dtype(dtype).kind in "iu")
    ):
        return None  # float -> int: numpy's cast of out-of-range values is the C platform's
    if not a.flags.c_contiguous:
        if a.flags.f_contiguous:  # its transpose is C-contiguous: no copy, numpy's F result
            t = scan(op, a.T, a.ndim - 1 - axis, dtype, include_initial)
            return None if t is None else t.T
        dims = [d for d in range(a.ndim) if a.shape[d] > 1]
        if not dims or min(dims, key=lambda d: abs(a.strides[d])) == axis:
            return None  # along the innermost dim: numpy's strided loop beat a copy + kernel
        a = np.ascontiguousarray(a)  # a strided axis: copy + kernel ran 2.4-15x numpy
    prod = op.endswith("prod")
    nan = op.startswith("nan") and a.dtype.kind == "f"  # ints and bool have no NaN
    o = math.prod(a.shape[:axis])
    r = a.shape[axis]
    i = math.prod(a.shape[axis + 1 :])
    x = (a.view(np.uint8) if a.dtype == np.bool_ else a).reshape(o, r, i)
    init = 1 if include_initial else 0
    out_shape = list(a.shape)
    out_shape[axis] += init
    out: Array = np.empty(out_shape, dtype=dtype)
    out3 = out.reshape(o, r + init, i)
    kind = np.dtype(dtype).kind
    # float32 sums run in float64; everything else in the result dtype (numpy's order)
    acc_type = np.float64 if kind == "f" and not prod else np.dtype(dtype).type
    acc0 = acc_type(1 if prod else 0)
    narrow = not prod and np.dtype(dtype) == np.float32
    par = _parallel(a.size)
    if i == 1:
        rows = (x.reshape(o, r), out3.reshape(o, r + init))  # C layout: contiguous loops
        (_scan_rows_par if par and o > 1 else _scan_rows)(*rows, prod, nan, init, acc0, narrow)
    else:
        wb = 4096
        (_scan_columns_par if par else _scan_columns)(x, out3, prod, nan, init, acc0, narrow, wb)
    return out
