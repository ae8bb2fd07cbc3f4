# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""argmax and argmin (first occurrence, first NaN wins): horizontal, vertical and short-row
kernels writing (value, index) partials."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from ._cache import kernel
from ._primitives import CH, FM, _as, _empty, _full, _n_span, _tr
from .extremes import _chunk_max, _chunk_min
from .simd_argextremes import NOT_TAKEN, VECTOR_BYTES, simd_argmax, simd_argmin
from .sums import _column_task_span


# ----------------------------------------------------------------------------- argmax / argmin
@njit(fastmath=FM, inline="always")
def _find_first(seg: Any, m: Any, c0: int) -> Any:
    """First index of the NaN (m is NaN) or of m in a chunk whose max (min) is m."""
    if m != m:
        for i in range(seg.shape[0]):
            if seg[i] != seg[i]:
                return c0 + i
    for i in range(seg.shape[0]):
        if seg[i] == m:
            return c0 + i
    return c0


@njit(fastmath=FM, inline="always")
def _simd_first_extreme(row: Any, ismax: bool) -> Any:
    """``simd_argextremes``' first index of the max (min) where it applies (a contiguous float
    row of one vector or more); NAN_SEEN or NOT_TAKEN otherwise."""
    n = row.shape[0]
    if n < VECTOR_BYTES // row.itemsize or n >= 2**31 or row.strides[0] != row.itemsize:
        return NOT_TAKEN
    return simd_argmax(row) if ismax else simd_argmin(row)


@njit(fastmath=FM)
def _row_arg_extreme_by_chunks(row: Any, ismax: bool) -> Any:
    """(value, first index) of the max (min) of a row; the first NaN wins, as numpy. One
    vectorised max (min) pass per L1 chunk; the chunk is searched again only when it beats the
    best so far."""
    n = row.shape[0]
    c1 = min(CH, n)
    seg = row[0:c1]
    best = _chunk_max(seg) if ismax else _chunk_min(seg)
    bi = _find_first(seg, best, 0)
    if best != best:
        return best, bi
    for ci in range(1, (n + CH - 1) // CH):
        c0 = ci * CH
        seg = row[c0 : min(c0 + CH, n)]
        m = _chunk_max(seg) if ismax else _chunk_min(seg)
        if m != m:
            return m, _find_first(seg, m, c0)
        if (m > best) if ismax else (m < best):
            best = m
            bi = _find_first(seg, m, c0)
    return best, bi


@njit(fastmath=FM)
def _arg_rows_task(x: Any, pval: Any, pidx: Any, ismax: bool, t: int, ns: int, rb: int) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    # the vectors first, the rows they leave (NaN, short, other dtypes) in a second loop: a
    # fallback call inside the first loop made it ~1.6x slower (rows of 256 float32)
    for r in range(r0, r1):
        pidx[r, s] = _simd_first_extreme(x[r, lo:hi], ismax)
    for r in range(r0, r1):
        k = pidx[r, s]
        if k >= 0:
            pval[r, s] = x[r, lo + k]
        else:
            v, k = _row_arg_extreme_by_chunks(x[r, lo:hi], ismax)
            pval[r, s] = v
        pidx[r, s] = lo + k


@kernel()
def arg_h(x: Any, pval: Any, pidx: Any, ismax: bool, rb: int) -> None:
    """First index of the max (min) of each row segment, NaN first; serial."""
    ns = pval.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _arg_rows_task(x, pval, pidx, ismax, t, ns, rb)


@kernel(parallel=True)
def arg_h_par(x: Any, pval: Any, pidx: Any, ismax: bool, rb: int) -> None:
    """arg_h in parallel."""
    ns = pval.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _arg_rows_task(x, pval, pidx, ismax, np.int64(t), ns, rb)


@kernel()
def arg_rows(x: Any, out: Any, ismax: bool) -> None:
    """out[r] = first index of the max (min) of row r of x (O, R), NaN first; serial. arg_h
    without partials, for the plan-bound calls (``direct.py``): two arrays to pass, none to
    allocate."""
    for r in range(x.shape[0]):
        out[r] = _simd_first_extreme(x[r], ismax)
    for r in range(x.shape[0]):  # the rows the vectors left (see _arg_rows_task)
        if out[r] < 0:
            out[r] = _row_arg_extreme_by_chunks(x[r], ismax)[1]


@njit(fastmath=FM)
def _arg_columns_task(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, t: int, ns: int,
                wb: int) -> None:  # fmt: skip
    o, s, r0, r1, j0, j1 = _column_task_span(x, t, ns, wb)
    w = j1 - j0
    best = pval[o, s, j0:j1]
    bidx = _full(w, zi)  # float-typed running index: the select vectorises
    x0 = x[o, r0, j0:j1]
    for j in range(w):
        best[j] = x0[j]
    one = _as(zi, 1)
    rf = zi
    nan = 0
    if ismax:
        for r in range(r0 + 1, r1):
            rf += one
            xr = x[o, r, j0:j1]
            for j in range(w):
                v = xr[j]
                c = v > best[j]
                best[j] = v if c else best[j]
                bidx[j] = rf if c else bidx[j]
                nan += 1 if v != v else 0
    else:
        for r in range(r0 + 1, r1):
            rf += one
            xr = x[o, r, j0:j1]
            for j in range(w):
                v = xr[j]
                c = v < best[j]
                best[j] = v if c else best[j]
                bidx[j] = rf if c else bidx[j]
                nan += 1 if v != v else 0
    out = pidx[o, s, j0:j1]
    for j in range(w):
        out[j] = r0 + np.int64(bidx[j])
    if nan:  # rare: redo the columns holding a NaN, the first NaN wins
        for j in range(w):
            if best[j] != best[j]:
                continue
            for r in range(r0, r1):
                v = x[o, r, j0 + j]
                if v != v:
                    best[j] = v
                    out[j] = r
                    break


@kernel()
def arg_v(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, wb: int) -> None:
    """First index along axis 1 of the max (min) of x (O, R, I) per segment; serial."""
    ns = pval.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _arg_columns_task(x, pval, pidx, ismax, zi, t, ns, wb)


@kernel(parallel=True)
def arg_v_par(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, wb: int) -> None:
    """arg_v in parallel."""
    ns = pval.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _arg_columns_task(x, pval, pidx, ismax, zi, np.int64(t), ns, wb)


@njit(fastmath=FM)
def _arg_short_rows_task(
    x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, t: int, rb: int
) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    bv = _empty((1, 1, w), pval.dtype)
    bi = _empty((1, 1, w), pidx.dtype)
    _arg_columns_task(_tr(x, r0, r1), bv, bi, ismax, zi, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        pval[r0 + i] = bv[0, 0, i]
        pidx[r0 + i] = bi[0, 0, i]


@kernel()
def arg_n(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, rb: int) -> None:
    """First index of the max (min) of each short row of x (O, R), NaN first; serial."""
    for t in range(-(-x.shape[0] // rb)):
        _arg_short_rows_task(x, pval, pidx, ismax, zi, t, rb)


@kernel(parallel=True)
def arg_n_par(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, rb: int) -> None:
    """arg_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _arg_short_rows_task(x, pval, pidx, ismax, zi, np.int64(t), rb)
