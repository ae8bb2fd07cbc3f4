# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""max and min (NaN propagates as in numpy): horizontal, vertical and short-row kernels; rows
beyond the caches stream in chunks with software prefetch."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from ._cache import kernel
from ._primitives import FM, PF_CH, PF_DIST, _empty, _n_span, _prefetch, _tr, _vmax, _vmin
from .sums import _column_task_span


# ----------------------------------------------------------------------------- max / min
@njit(fastmath=FM, inline="always")
def _chunk_max(seg: Any) -> Any:
    m = seg[0]
    for i in range(seg.shape[0]):
        m = _vmax(m, seg[i])
    return m


@njit(fastmath=FM, inline="always")
def _chunk_min(seg: Any) -> Any:
    m = seg[0]
    for i in range(seg.shape[0]):
        m = _vmin(m, seg[i])
    return m


@njit(fastmath=FM, inline="always")
def _row_extreme(row: Any, ismax: bool, pf: bool) -> Any:
    """max (min) of a row, NaN propagating; with ``pf`` (the caller's choice, for arrays of
    PF_MIN bytes or more) rows of PF_CH bytes or more go by chunks of PF_CH bytes, each
    preceded by prefetches PF_DIST bytes ahead (past the row's end: the next rows)."""
    n = row.shape[0]
    if not pf or n * row.itemsize < PF_CH:
        return _chunk_max(row) if ismax else _chunk_min(row)
    # The NaN-propagating max costs ~4 instructions a vector, so fewer loads fit the core's
    # out-of-order window than in a sum, and one thread streamed ~26-31 GB/s against the
    # sum's ~39 (numpy's max ~31); with the prefetches ~36-44 GB/s (rows of 128 float32 up to
    # 2^20) from memory. Shorter rows lose by it, and so do arrays in cache (~40-55 GB/s
    # against ~85-120: a horizontal reduction per chunk).
    m = row[0]
    d = PF_DIST // row.itemsize
    line = 64 // row.itemsize
    ch = PF_CH // row.itemsize
    for c in range(0, n, ch):
        c1 = min(c + ch, n)
        for q in range(c + d, c1 + d, line):
            _prefetch(row, q)
        if ismax:  # per chunk, outside the vectorised loops
            m = _vmax(m, _chunk_max(row[c:c1]))
        else:
            m = _vmin(m, _chunk_min(row[c:c1]))
    return m


@njit(fastmath=FM)
def _extreme_rows_task(x: Any, part: Any, ismax: bool, t: int, ns: int, rb: int, pf: bool) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    for r in range(r0, r1):
        part[r, s] = _row_extreme(x[r, lo:hi], ismax, pf)


@kernel()
def ext_h(x: Any, part: Any, ismax: bool, rb: int, pf: bool) -> None:
    """part[r, s] = max (or min) of segment s of row r, NaN propagating; serial."""
    ns = part.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _extreme_rows_task(x, part, ismax, t, ns, rb, pf)


@kernel(parallel=True)
def ext_h_par(x: Any, part: Any, ismax: bool, rb: int, pf: bool) -> None:
    """ext_h in parallel."""
    ns = part.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _extreme_rows_task(x, part, ismax, np.int64(t), ns, rb, pf)


@njit(fastmath=FM, inline="always")
def _fold_row_into_extremes(acc: Any, xr: Any, ismax: bool) -> None:
    """acc = max (min) of acc and xr elementwise, NaN propagating, by chunks of PF_CH bytes,
    each preceded by prefetches PF_DIST bytes ahead of it: in a block of whole rows that is
    the next rows (one thread ~28 -> ~33-37 GB/s, as _row_extreme)."""
    w = xr.shape[0]
    ch = PF_CH // xr.itemsize
    d = PF_DIST // xr.itemsize
    line = 64 // xr.itemsize
    for c in range(0, w, ch):
        c1 = min(c + ch, w)
        for q in range(c + d, c1 + d, line):
            _prefetch(xr, q)
        a = acc[c:c1]  # slices: a loop over range(c, c1) did not vectorise
        b = xr[c:c1]
        if ismax:
            for j in range(c1 - c):
                a[j] = _vmax(a[j], b[j])
        else:
            for j in range(c1 - c):
                a[j] = _vmin(a[j], b[j])


@njit(fastmath=FM)
def _extreme_columns_task(
    x: Any, part: Any, ismax: bool, t: int, ns: int, wb: int, pf: bool
) -> None:
    o, s, r0, r1, j0, j1 = _column_task_span(x, t, ns, wb)
    acc = part[o, s, j0:j1]
    w = j1 - j0
    x0 = x[o, r0, j0:j1]
    for j in range(w):
        acc[j] = x0[j]
    if (
        pf and w * x.itemsize >= PF_CH
    ):  # rows of a chunk or more: prefetched (_fold_row_into_extremes)
        for r in range(r0 + 1, r1):
            _fold_row_into_extremes(acc, x[o, r, j0:j1], ismax)
    elif ismax:
        for r in range(r0 + 1, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] = _vmax(acc[j], xr[j])
    else:
        for r in range(r0 + 1, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] = _vmin(acc[j], xr[j])


@kernel()
def ext_v(x: Any, part: Any, ismax: bool, wb: int, pf: bool) -> None:
    """part[o, s, j] = max (or min) over segment s of axis 1 of x (O, R, I); serial."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _extreme_columns_task(x, part, ismax, t, ns, wb, pf)


@kernel(parallel=True)
def ext_v_par(x: Any, part: Any, ismax: bool, wb: int, pf: bool) -> None:
    """ext_v in parallel."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _extreme_columns_task(x, part, ismax, np.int64(t), ns, wb, pf)


@njit(fastmath=FM)
def _extreme_short_rows_task(x: Any, part: Any, ismax: bool, t: int, rb: int) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    acc = _empty((1, 1, w), part.dtype)
    _extreme_columns_task(_tr(x, r0, r1), acc, ismax, z, z + 1, w, False)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        part[r0 + i] = acc[0, 0, i]


@kernel()
def ext_n(x: Any, part: Any, ismax: bool, rb: int) -> None:
    """part[r] = max (or min) of the short row r of x (O, R), NaN propagating; serial."""
    for t in range(-(-x.shape[0] // rb)):
        _extreme_short_rows_task(x, part, ismax, t, rb)


@kernel(parallel=True)
def ext_n_par(x: Any, part: Any, ismax: bool, rb: int) -> None:
    """ext_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _extreme_short_rows_task(x, part, ismax, np.int64(t), rb)
