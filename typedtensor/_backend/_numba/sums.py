# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""Sum-like reductions (sum, product, sum of |x|, of x**2, of |x|**p, count of nonzeros): the
horizontal (contiguous rows), vertical (strided axis) and short-row kernels of the accumulate
family, op-coded (``SUM``, ``PROD``...). The products of a row, in numpy's order where it
overflows or underflows, are ``products.py``'s."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from ._cache import kernel
from ._lanes import (
    EXACT,
    MAX_LANES,
    MIN_LANES,
    fold,
    lanes_for,
)
from ._primitives import (
    CH,
    PROD,
    PRODF,
    SUM,
    SUMABS,
    SUMPOW,
    SUMSQ,
    VB,
    _as,
    _empty,
    _full,
    _n_span,
    _tr,
)
from .products import _row_prod, _row_prod_in_order

# ----------------------------------------------------------------------------- accumulate
# zc: chunk accumulator (type and identity), zt: total accumulator (type and identity).
# The sums of a row run in explicit lanes (``_lanes``, ``lanes_for(n)`` of them): chunks of CH
# elements in lanes of the chunk type, each chunk's lanes added to lanes of the total type,
# those folded pairwise.


@njit(fastmath=EXACT, inline="always")
def _row_sum_powers(row: Any, p: float, zc: Any, zt: Any) -> Any:
    tot = zt
    for i in range(row.shape[0]):
        tot += _as(zt, abs(_as(zc, row[i])) ** _as(zc, p))
    return tot


@njit(fastmath=EXACT, inline="always")
def _row_count_nonzero(row: Any) -> Any:
    cnt = 0
    for i in range(row.shape[0]):
        cnt += 1 if row[i] != 0 else 0
    return cnt


@njit(fastmath=EXACT, inline="always")
def _row_task_span(x: Any, t: int, ns: int, rb: int) -> Any:
    """Task t of a horizontal kernel on x (R, N): (s, lo, hi, r0, r1), i.e. segment s of the
    rows [r0, r1), the columns [lo, hi)."""
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    r0 = blk * rb
    return s, (s * n) // ns, ((s + 1) * n) // ns, r0, min(x.shape[0], r0 + rb)


def _lane_sums_task(term: Any) -> Any:
    """``task(x, part, zc, zt, t, ns, rb)``: task t of a horizontal sum of ``term(x)``: short
    segments (16 elements or fewer) term by term, longer ones in lanes. One op per task, so
    that a kernel of one op compiles that op's loops alone (``sum_h``...) and ``acc_h`` runs
    the same code."""

    @njit(fastmath=EXACT)
    def rows(x: Any, part: Any, r0: int, r1: int, s: int, lo: int, hi: int, zc: Any, zt: Any,
             lc: Any, lt: Any) -> None:  # fmt: skip
        """Each row's ``term`` sum in ``lc.shape[0]`` lanes (``_lanes.lane_adder``'s order):
        chunks of ``CH`` elements summed in the chunk lanes ``lc`` (from ``zc``) and spilled
        into the total lanes ``lt`` (from ``zt``), folded pairwise. The row is indexed
        directly, not sliced per block: from memory one thread streamed float64 at ~29-31
        GB/s, against ~24 GB/s through the lane adder's slices (``benchmarks/README.md``,
        "Sums from memory")."""
        nl = lc.shape[0]  # read at run time, as the lane adder does
        m = hi - lo
        for r in range(r0, r1):
            seg = x[r, lo:hi]
            for k in range(nl):
                lt[k] = zt
            for ci in range((m + CH - 1) // CH):  # a step range would divide per row
                c = ci * CH
                end = min(c + CH, m)
                for k in range(nl):
                    lc[k] = zc
                while c + 4 * nl <= end:
                    for k in range(nl):
                        lc[k] += (term(_as(zc, seg[c + k])) + term(_as(zc, seg[c + nl + k]))) + (
                            term(_as(zc, seg[c + 2 * nl + k])) + term(_as(zc, seg[c + 3 * nl + k]))
                        )
                    c += 4 * nl
                while c + nl <= end:
                    for k in range(nl):
                        lc[k] += term(_as(zc, seg[c + k]))
                    c += nl
                for i in range(c, end):
                    lc[i - c] += term(_as(zc, seg[i]))
                for k in range(nl):  # ``spill``
                    lt[k] += _as(zt, lc[k])
            part[r, s] = fold(lt)

    @njit(fastmath=EXACT)
    def short_rows(x: Any, part: Any, r0: int, r1: int, s: int, lo: int, hi: int, zc: Any,
                   zt: Any) -> None:  # fmt: skip
        """``rows`` of runs shorter than ``SHORT_RUN`` (one chunk in ``MIN_LANES`` lanes) by
        direct indexing: the lane adder's order and ``fold``'s tree without its slices, whose
        cost per block outweighs a short row's additions (``benchmarks/README.md``, "Sums of
        short rows")."""
        lc = _full(MIN_LANES, zc)
        lt = _full(MIN_LANES, zt)
        m = hi - lo
        for r in range(r0, r1):
            seg = x[r, lo:hi]  # indices from 0: LLVM proves them non-negative and vectorises
            for k in range(MIN_LANES):
                lc[k] = zc
            c = 0
            while c + 4 * MIN_LANES <= m:
                for k in range(MIN_LANES):
                    lc[k] += (term(_as(zc, seg[c + k])) + term(_as(zc, seg[c + MIN_LANES + k]))) + (
                        term(_as(zc, seg[c + 2 * MIN_LANES + k]))
                        + term(_as(zc, seg[c + 3 * MIN_LANES + k]))
                    )
                c += 4 * MIN_LANES
            while c + MIN_LANES <= m:
                for k in range(MIN_LANES):
                    lc[k] += term(_as(zc, seg[c + k]))
                c += MIN_LANES
            for i in range(c, m):
                lc[i - c] += term(_as(zc, seg[i]))
            for k in range(MIN_LANES):  # ``spill`` into zeroed total lanes
                lt[k] = zt
                lt[k] += _as(zt, lc[k])
            part[r, s] = fold(lt)

    @njit(fastmath=EXACT)
    def task(x: Any, part: Any, zc: Any, zt: Any, t: int, ns: int, rb: int) -> None:
        s, lo, hi, r0, r1 = _row_task_span(x, t, ns, rb)
        if hi - lo <= 16:  # short rows: direct indexing, no slices
            for r in range(r0, r1):
                a = zt
                for k in range(lo, hi):
                    a += _as(zt, term(_as(zc, x[r, k])))
                part[r, s] = a
        elif lanes_for(hi - lo) == MIN_LANES:  # a constant lane count per branch
            short_rows(x, part, r0, r1, s, lo, hi, zc, zt)
        else:
            rows(x, part, r0, r1, s, lo, hi, zc, zt, _full(MAX_LANES, zc), _full(MAX_LANES, zt))

    return task


@njit(fastmath=EXACT, inline="always")
def _itself(v: Any) -> Any:
    return v


@njit(fastmath=EXACT, inline="always")
def _abs(v: Any) -> Any:
    return abs(v)


@njit(fastmath=EXACT, inline="always")
def _squared(v: Any) -> Any:
    return v * v


_row_sums_task = _lane_sums_task(_itself)
_row_sums_abs_task = _lane_sums_task(_abs)
_row_sums_squares_task = _lane_sums_task(_squared)


@njit(fastmath=EXACT)
def _accumulate_rows_task(x: Any, part: Any, op: int, p: float, zc: Any, zt: Any, t: int, ns: int,
                rb: int) -> None:  # fmt: skip
    # rows [r0, r1) of segment s; the op branch sits outside the row loop and each row is
    # handed to a branch-free function as a slice (keeps numba's refcounting out of the loop)
    if op == SUM:
        _row_sums_task(x, part, zc, zt, t, ns, rb)
        return
    if op == SUMSQ:
        _row_sums_squares_task(x, part, zc, zt, t, ns, rb)
        return
    if op == SUMABS:
        _row_sums_abs_task(x, part, zc, zt, t, ns, rb)
        return
    s, lo, hi, r0, r1 = _row_task_span(x, t, ns, rb)
    if op == PRODF:  # floats: numpy's overflow and underflow; p is the bound ``big``
        for r in range(r0, r1):
            part[r, s] = _row_prod_in_order(x[r, lo:hi], zt, p)
    elif hi - lo <= 16 and op != SUMPOW:  # short rows: direct indexing, no slices
        for r in range(r0, r1):
            a = zt
            for k in range(lo, hi):
                v = _as(zc, x[r, k])
                if op == PROD:
                    a *= _as(zt, v)
                else:
                    a += _as(zt, 1) if v != 0 else _as(zt, 0)
            part[r, s] = a
    elif op == PROD:  # integers only (floats: PRODF): exact in any order
        for r in range(r0, r1):
            part[r, s] = _row_prod(x[r, lo:hi], zc, zt)
    elif op == SUMPOW:
        for r in range(r0, r1):
            part[r, s] = _row_sum_powers(x[r, lo:hi], p, zc, zt)
    else:
        for r in range(r0, r1):
            part[r, s] = _row_count_nonzero(x[r, lo:hi])


@kernel()
def acc_h(x: Any, part: Any, op: int, p: float, zc: Any, zt: Any, rb: int) -> None:
    """part[r, s] = op-accumulate of segment s of row r of x (R, N); serial."""
    ns = part.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _accumulate_rows_task(x, part, op, p, zc, zt, t, ns, rb)


@kernel()
def sum_h(x: Any, part: Any, zc: Any, zt: Any, rb: int) -> None:
    """acc_h of SUM alone: the same code (``_row_sums_task``) and bits without the other ops'
    loops, so that a program's first sum compiles in a fraction of acc_h's time
    (``benchmarks/cold_profile.py``); serial."""
    ns = part.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _row_sums_task(x, part, zc, zt, t, ns, rb)


@kernel(parallel=True)
def sum_h_par(x: Any, part: Any, zc: Any, zt: Any, rb: int) -> None:
    """sum_h over (row, segment) tasks in parallel."""
    ns = part.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _row_sums_task(x, part, zc, zt, np.int64(t), ns, rb)


@kernel()
def sumsq_h(x: Any, part: Any, zc: Any, zt: Any, rb: int) -> None:
    """acc_h of SUMSQ alone (the L2 norm, l2_normalize), as ``sum_h``; serial."""
    ns = part.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _row_sums_squares_task(x, part, zc, zt, t, ns, rb)


@kernel(parallel=True)
def sumsq_h_par(x: Any, part: Any, zc: Any, zt: Any, rb: int) -> None:
    """sumsq_h in parallel."""
    ns = part.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _row_sums_squares_task(x, part, zc, zt, np.int64(t), ns, rb)


@kernel(parallel=True)
def acc_h_par(x: Any, part: Any, op: int, p: float, zc: Any, zt: Any, rb: int) -> None:
    """acc_h over (row, segment) tasks in parallel."""
    ns = part.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _accumulate_rows_task(x, part, op, p, zc, zt, np.int64(t), ns, rb)


@njit(fastmath=EXACT)
def _accumulate_column_block(x: Any, o: int, r0: int, r1: int, j0: int, j1: int, acc: Any,
                             op: int, p: float, zc: Any) -> None:  # fmt: skip
    w = j1 - j0
    zt = acc[0]
    for j in range(w):
        acc[j] = _as(zt, 1) if op == PROD else _as(zt, 0)
    if op == SUM and w >= 64 and r1 - r0 >= VB:
        # blocks of VB rows summed in the chunk type (float32 stays 8 lanes wide), each block
        # total added to the float64 accumulators: numpy's speed, better accuracy. Up to 4096
        # columns (accumulators in L1) one row per pass, wider 4 rows per pass (accumulators
        # in L2: a quarter of their traffic); benchmarks/README.md, "Sums over a middle axis"
        ac = _full(w, zc)
        for b0 in range(r0, r1, VB):
            b1 = min(b0 + VB, r1)
            for j in range(w):
                ac[j] = zc
            r = b0
            if w > 4096:
                while r + 4 <= b1:
                    xa = x[o, r, j0:j1]
                    xb = x[o, r + 1, j0:j1]
                    xc = x[o, r + 2, j0:j1]
                    xd = x[o, r + 3, j0:j1]
                    for j in range(w):
                        ac[j] += (_as(zc, xa[j]) + _as(zc, xb[j])) + (
                            _as(zc, xc[j]) + _as(zc, xd[j])
                        )
                    r += 4
            for rr in range(r, b1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    ac[j] += _as(zc, xr[j])
            for j in range(w):
                acc[j] += _as(zt, ac[j])
    elif op == SUM:  # narrow or short blocks: 4 rows per pass straight into the accumulators
        r = r0
        while r + 4 <= r1:
            xa = x[o, r, j0:j1]
            xb = x[o, r + 1, j0:j1]
            xc = x[o, r + 2, j0:j1]
            xd = x[o, r + 3, j0:j1]
            for j in range(w):
                acc[j] += (_as(zt, xa[j]) + _as(zt, xb[j])) + (_as(zt, xc[j]) + _as(zt, xd[j]))
            r += 4
        for rr in range(r, r1):
            xr = x[o, rr, j0:j1]
            for j in range(w):
                acc[j] += _as(zt, xr[j])
    elif op == PROD:
        for r in range(r0, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] *= _as(zt, xr[j])
    else:
        for r in range(r0, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] += _as(zt, 1) if xr[j] != 0 else _as(zt, 0)


@njit(fastmath=EXACT)
def _norm_column_block(x: Any, o: int, r0: int, r1: int, j0: int, j1: int, acc: Any,
                       op: int, p: float, zc: Any) -> None:  # fmt: skip
    """The norm family (SUMABS, SUMSQ, SUMPOW) of ``_accumulate_column_block``: its own
    kernels, so a sum compiles without the norm loops (half the cold compile)."""
    w = j1 - j0
    zt = acc[0]
    for j in range(w):
        acc[j] = _as(zt, 0)
    if op == SUMABS:
        if w > 4096:  # accumulators in L2: 4 rows per pass halves their traffic
            r = r0
            while r + 4 <= r1:
                xa = x[o, r, j0:j1]
                xb = x[o, r + 1, j0:j1]
                xc = x[o, r + 2, j0:j1]
                xd = x[o, r + 3, j0:j1]
                for j in range(w):
                    acc[j] += (abs(_as(zt, xa[j])) + abs(_as(zt, xb[j]))) + (
                        abs(_as(zt, xc[j])) + abs(_as(zt, xd[j]))
                    )
                r += 4
            for rr in range(r, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    acc[j] += abs(_as(zt, xr[j]))
        else:  # accumulators in L1: row by row (measured faster than unrolled)
            for rr in range(r0, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    acc[j] += abs(_as(zt, xr[j]))
    elif op == SUMSQ:
        if w > 4096:  # accumulators in L2: 4 rows per pass halves their traffic
            r = r0
            while r + 4 <= r1:
                xa = x[o, r, j0:j1]
                xb = x[o, r + 1, j0:j1]
                xc = x[o, r + 2, j0:j1]
                xd = x[o, r + 3, j0:j1]
                for j in range(w):
                    va = _as(zt, xa[j])
                    vb = _as(zt, xb[j])
                    vc = _as(zt, xc[j])
                    vd = _as(zt, xd[j])
                    acc[j] += (va * va + vb * vb) + (vc * vc + vd * vd)
                r += 4
            for rr in range(r, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    v = _as(zt, xr[j])
                    acc[j] += v * v
        else:  # accumulators in L1: row by row (measured faster than unrolled)
            for rr in range(r0, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    v = _as(zt, xr[j])
                    acc[j] += v * v
    else:
        for r in range(r0, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] += _as(zt, abs(_as(zc, xr[j])) ** _as(zc, p))


@njit(fastmath=EXACT, inline="always")
def _column_task_span(x: Any, t: int, ns: int, wb: int) -> Any:
    """Task t of a vertical kernel on x (O, R, I): (o, s, r0, r1, j0, j1), i.e. outer index,
    segment of R and its rows, column block."""
    _, nr, ni = x.shape
    nb = (ni + wb - 1) // wb
    o = t // (ns * nb)
    rem = t - o * ns * nb
    s = rem // nb
    b = rem - s * nb
    j0 = b * wb
    return o, s, (s * nr) // ns, ((s + 1) * nr) // ns, j0, min(ni, j0 + wb)


@njit(fastmath=EXACT)
def _accumulate_columns_task(
    x: Any, part: Any, op: int, p: float, zc: Any, t: int, ns: int, wb: int
) -> None:
    o, s, r0, r1, j0, j1 = _column_task_span(x, t, ns, wb)
    _accumulate_column_block(x, o, r0, r1, j0, j1, part[o, s, j0:j1], op, p, zc)


@njit(fastmath=EXACT)
def _norm_columns_task(
    x: Any, part: Any, op: int, p: float, zc: Any, t: int, ns: int, wb: int
) -> None:
    o, s, r0, r1, j0, j1 = _column_task_span(x, t, ns, wb)
    _norm_column_block(x, o, r0, r1, j0, j1, part[o, s, j0:j1], op, p, zc)


@kernel()
def acc_v(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """part[o, s, j] = op-accumulate over segment s of axis 1 of x (O, R, I); serial."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _accumulate_columns_task(x, part, op, p, zc, t, ns, wb)


@kernel(parallel=True)
def acc_v_par(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """acc_v over (outer, segment, column block) tasks in parallel."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _accumulate_columns_task(x, part, op, p, zc, np.int64(t), ns, wb)


@kernel()
def nrm_v(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """acc_v for the norm family (SUMABS, SUMSQ, SUMPOW); serial."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _norm_columns_task(x, part, op, p, zc, t, ns, wb)


@kernel(parallel=True)
def nrm_v_par(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """nrm_v in parallel."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _norm_columns_task(x, part, op, p, zc, np.int64(t), ns, wb)


@njit(fastmath=EXACT)
def _accumulate_short_rows_task(x: Any, part: Any, op: int, p: float, zc: Any, t: int, rb: int,
                norm: Any) -> None:  # fmt: skip
    # ``norm`` None: the sum family; True: the norm family. numba prunes the other branch at
    # compile time (an ``is None`` test on an argument), so each family compiles on its own.
    r0, r1, w, z = _n_span(x, t, rb)
    acc = _empty((1, 1, w), part.dtype)
    if norm is None:
        _accumulate_columns_task(_tr(x, r0, r1), acc, op, p, zc, z, z + 1, w)
    else:
        _norm_columns_task(_tr(x, r0, r1), acc, op, p, zc, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        part[r0 + i] = acc[0, 0, i]


@kernel()
def acc_n(x: Any, part: Any, op: int, p: float, zc: Any, rb: int, norm: Any) -> None:
    """part[r] = op-accumulate of the short row r of x (O, R); ``norm``: None for the sum
    family (SUM, PROD, NNZ), True for the norm family; serial."""
    for t in range(-(-x.shape[0] // rb)):
        _accumulate_short_rows_task(x, part, op, p, zc, t, rb, norm)


@kernel(parallel=True)
def acc_n_par(x: Any, part: Any, op: int, p: float, zc: Any, rb: int, norm: Any) -> None:
    """acc_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _accumulate_short_rows_task(x, part, op, p, zc, np.int64(t), rb, norm)
