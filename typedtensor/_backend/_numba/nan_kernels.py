# mypy: disable-error-code="call-arg,var-annotated,import-untyped,no-untyped-call"
"""The numba kernels of the NaN-aware reductions (dispatched by ``nan_reductions``).

Every kernel takes the canonical ``(O, R, I)`` form reduced over ``R``: row kernels
(``*_rows``, ``I == 1``) run over (row, segment) tasks, column kernels (``*_columns``) over
(outer, row segment, column block) tasks with a block of accumulators, SIMD across the block;
each has a serial and a parallel (``*_par``) entry point over the same task body. They are
short loops, numbagg-style:

- ``nansum_count``: the sum of the non-NaNs and their count (``nansum``, ``nanmean``); float32
  rows accumulate 2048-element chunks in float32 lanes, chunk totals in float64 (the sums of
  rows in the explicit lanes of ``_lanes``, fast-math ``EXACT``: an order the code defines);
- nanmax/nanmin: in ``nan_extremes``;
- ``nanmoments``: count, mean and M2 of the non-NaNs: two passes over each cache-sized chunk
  (or block of rows), merged with Chan's formula (``nanvar``, ``nanstd``);
- ``nanarg``: the first index of the extreme non-NaN (-1 for an all-NaN slice); each row
  chunk's extreme comes from ``nan_extremes``' streaming loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange
from numba.extending import intrinsic

from ._cache import kernel
from ._lanes import EXACT, LANES, fill, fold, lane_adder
from ._primitives import _full
from .nan_extremes import _run_max, _run_min

__all__ = ["CH", "VB"]

FM = {"reassoc", "nsz", "contract"}  # never nnan/ninf: the NaN tests must stay
CH = 2048  # row chunk (elements) summed in the input dtype inside SIMD lanes
VB = 64  # column kernels: rows per two-pass block of the moments


# ----------------------------------------------------------------------------- intrinsics
@intrinsic
def _as(typingctx: Any, like: Any, v: Any) -> Any:
    """``v`` converted to the type of ``like``."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.cast(builder, args[1], signature.args[1], signature.args[0])

    return like(like, v), codegen


# ----------------------------------------------------------------------------- row kernels
@njit(fastmath=FM, inline="always")
def _span(n: int, s: int, ns: int) -> tuple[int, int]:
    return s * n // ns, (s + 1) * n // ns


@njit(fastmath=EXACT, inline="always")
def _kept(z: Any, c: Any, v: Any) -> Any:
    return v if v == v else z


@njit(fastmath=EXACT, inline="always")
def _kept_deviation(z: Any, c: Any, v: Any) -> Any:
    return v - c if v == v else z


@njit(fastmath=EXACT, inline="always")
def _kept_squared_deviation(z: Any, c: Any, v: Any) -> Any:
    d = v - c
    return d * d if v == v else z


#: ``lanes[i % L] += v`` (``v - c``, ``(v - c)**2``) for the non-NaN elements ``v`` of a chunk
_add_kept = lane_adder(_kept)
_add_kept_deviations = lane_adder(_kept_deviation)
_add_kept_squared_deviations = lane_adder(_kept_squared_deviation)


@njit(fastmath=EXACT, inline="always")
def _count_kept(part: Any) -> int:
    c = 0
    for k in range(part.shape[0]):
        c += 1 if part[k] == part[k] else 0
    return c


@njit(fastmath=EXACT, inline="always")
def _kept_sum(part: Any, lanes: Any, c: Any) -> Any:
    """The sum of the non-NaNs of ``part`` in ``lanes``' type (``lanes`` overwritten)."""
    fill(lanes, _as(lanes[0], 0))
    _add_kept(part, lanes, c)
    return fold(lanes)


@njit(fastmath=EXACT)
def _row_sum_count(xs: Any, z: Any) -> tuple[float, int]:
    tot = 0.0
    cnt = 0
    n = xs.shape[0]
    lanes = _full(LANES, z)
    for c0 in range(0, n, CH):
        part = xs[c0 : min(c0 + CH, n)]
        tot += np.float64(_kept_sum(part, lanes, z))
        cnt += _count_kept(part)
    return tot, cnt


@kernel(fastmath=EXACT)
def nansum_count_rows(x: Any, sums: Any, cnts: Any, z: Any) -> None:
    """sums/cnts[o, s] = sum and count of the non-NaNs of segment s of row o; serial."""
    ns = sums.shape[1]
    for t in range(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        sums[o, s], cnts[o, s] = _row_sum_count(x[o, r0:r1], z)


@kernel(fastmath=EXACT, parallel=True)
def nansum_count_rows_par(x: Any, sums: Any, cnts: Any, z: Any) -> None:
    """nansum_count_rows over (row, segment) tasks in parallel."""
    ns = sums.shape[1]
    for t in prange(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        sums[o, s], cnts[o, s] = _row_sum_count(x[o, r0:r1], z)


@njit(fastmath=EXACT)
def _row_moments(xs: Any, z: Any) -> tuple[float, float, float]:
    """(count, mean, M2) of the non-NaNs: two passes per chunk (in L1) in the input dtype's
    SIMD lanes (``z`` is its zero), chunks merged in float64 with Chan's formula."""
    n = 0.0
    mean = 0.0
    m2 = 0.0
    size = xs.shape[0]
    lanes = _full(LANES, z)
    for c0 in range(0, size, CH):
        part = xs[c0 : min(c0 + CH, size)]
        c = _count_kept(part)
        if c == 0:
            continue
        fill(lanes, z)
        _add_kept(part, lanes, z)
        mz = _as(z, np.float64(fold(lanes)) / c)  # about the chunk mean, in the input dtype
        fill(lanes, z)
        _add_kept_squared_deviations(part, lanes, mz)
        q = fold(lanes)
        fill(lanes, z)
        _add_kept_deviations(part, lanes, mz)
        e = fold(lanes)
        # M2 around the exact chunk mean mb = mz + e / c: sum (v - mb)^2 = q - e^2 / c
        mb = np.float64(mz) + np.float64(e) / c
        q2 = np.float64(q) - np.float64(e) * np.float64(e) / c
        nb = np.float64(c)
        tot = n + nb
        delta = mb - mean
        mean += delta * nb / tot
        m2 += q2 + delta * delta * n * nb / tot
        n = tot
    return n, mean, m2


@kernel(fastmath=EXACT)
def nanmoments_rows(x: Any, cnt: Any, mean: Any, m2: Any, z: Any) -> None:
    """(count, mean, M2)[o, s] of the non-NaNs of segment s of row o; serial."""
    ns = cnt.shape[1]
    for t in range(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        cnt[o, s], mean[o, s], m2[o, s] = _row_moments(x[o, r0:r1], z)


@kernel(fastmath=EXACT, parallel=True)
def nanmoments_rows_par(x: Any, cnt: Any, mean: Any, m2: Any, z: Any) -> None:
    """nanmoments_rows over (row, segment) tasks in parallel."""
    ns = cnt.shape[1]
    for t in prange(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        cnt[o, s], mean[o, s], m2[o, s] = _row_moments(x[o, r0:r1], z)


@njit(fastmath=FM)
def _row_arg(xs: Any, ismax: bool) -> int:
    """Per cache-sized chunk: its extreme (``nan_extremes``' streaming loop), then, only where
    it beats the best so far, the first index holding it (an all-NaN chunk holds none). numpy
    replaces NaN by -inf (max) before its argmax: when the extreme is -inf, the first NaN or
    -inf wins."""
    n = xs.shape[0]
    best = xs[0]
    at = -1
    for c0 in range(0, n, CH):
        part = xs[c0 : min(c0 + CH, n)]
        m = _run_max(part) if ismax else _run_min(part)
        if at < 0 or (m > best if ismax else m < best):
            first = CH
            for k in range(part.shape[0]):  # a branch-free min: vectorises
                first = min(first, k if part[k] == m else CH)
            if first < CH:
                best = m
                at = c0 + first
    if at > 0 and best == (-np.inf if ismax else np.inf):
        for k in range(at):
            if xs[k] != xs[k]:
                return k
    return at


@kernel()
def nanarg_rows(x: Any, idx: Any, ismax: bool) -> None:
    """idx[o] = index of the first max/min non-NaN of row o (-1: all NaN); serial."""
    for o in range(x.shape[0]):
        idx[o] = _row_arg(x[o], ismax)


@kernel(parallel=True)
def nanarg_rows_par(x: Any, idx: Any, ismax: bool) -> None:
    """nanarg_rows with rows in parallel."""
    for o in prange(x.shape[0]):
        idx[o] = _row_arg(x[o], ismax)


# ----------------------------------------------------------------------------- column kernels
@njit(inline="always")
def _block(t: int, nb: int, ns: int, r: int, w: int, wb: int) -> tuple[int, int, int, int, int]:
    """Task t of (outer, row segment, column block): (o, r0, r1, j0, j1)."""
    o = t // (ns * nb)
    s = (t // nb) % ns
    j0 = (t % nb) * wb
    return o, s * r // ns, (s + 1) * r // ns, j0, min(j0 + wb, w)


@njit(fastmath=EXACT)
def _columns_sum_count(x: Any, sums: Any, cnts: Any, t: int, wb: int) -> None:
    ns, w = sums.shape[1], x.shape[2]
    nb = -(-w // wb)
    o, r0, r1, j0, j1 = _block(t, nb, ns, x.shape[1], w, wb)
    acc = sums[o, t // nb % ns, j0:j1]
    cnt = cnts[o, t // nb % ns, j0:j1]
    for j in range(j1 - j0):
        acc[j] = 0.0
        cnt[j] = 0
    for k in range(r0, r1):
        xr = x[o, k, j0:j1]
        for j in range(j1 - j0):
            v = np.float64(xr[j])
            keep = v == v
            acc[j] += v if keep else 0.0
            cnt[j] += 1 if keep else 0


@kernel(fastmath=EXACT)
def nansum_count_columns(x: Any, sums: Any, cnts: Any, wb: int) -> None:
    """sums/cnts[o, s, j] over row segment s of column j of x (O, R, I); serial."""
    for t in range(x.shape[0] * sums.shape[1] * -(-x.shape[2] // wb)):
        _columns_sum_count(x, sums, cnts, t, wb)


@kernel(fastmath=EXACT, parallel=True)
def nansum_count_columns_par(x: Any, sums: Any, cnts: Any, wb: int) -> None:
    """nansum_count_columns over (outer, segment, column block) tasks in parallel."""
    for t in prange(x.shape[0] * sums.shape[1] * -(-x.shape[2] // wb)):
        _columns_sum_count(x, sums, cnts, np.int64(t), wb)


#: no reassociation or contraction (FMA) here: LLVM applied them differently in the serial and
#: the parallel kernel's copy of this body (float64 M2s 2e-16 apart), and the two must agree
@njit(fastmath={"nsz"})
def _columns_moments(x: Any, cnt: Any, mean: Any, m2: Any, t: int, wb: int) -> None:
    ns, w = cnt.shape[1], x.shape[2]
    nb = -(-w // wb)
    o, r0, r1, j0, j1 = _block(t, nb, ns, x.shape[1], w, wb)
    s = t // nb % ns
    n_, mu, q_ = cnt[o, s, j0:j1], mean[o, s, j0:j1], m2[o, s, j0:j1]
    width = j1 - j0
    bs = np.empty(width)
    bc = np.empty(width)
    bq = np.empty(width)
    for j in range(width):
        n_[j] = 0.0
        mu[j] = 0.0
        q_[j] = 0.0
    for b0 in range(r0, r1, VB):
        b1 = min(b0 + VB, r1)
        for j in range(width):
            bs[j] = 0.0
            bc[j] = 0.0
            bq[j] = 0.0
        for k in range(b0, b1):
            xr = x[o, k, j0:j1]
            for j in range(width):
                v = np.float64(xr[j])
                keep = v == v
                bs[j] += v if keep else 0.0
                bc[j] += 1.0 if keep else 0.0
        for j in range(width):
            bs[j] = bs[j] / bc[j] if bc[j] > 0 else 0.0  # the block mean
        for k in range(b0, b1):
            xr = x[o, k, j0:j1]
            for j in range(width):
                v = np.float64(xr[j])
                d = v - bs[j]
                bq[j] += d * d if v == v else 0.0
        for j in range(width):
            tot = n_[j] + bc[j]
            f = bc[j] / tot if tot > 0 else 0.0
            delta = bs[j] - mu[j]
            mu[j] += delta * f
            q_[j] += bq[j] + delta * delta * n_[j] * f
            n_[j] = tot


@kernel(fastmath=EXACT)
def nanmoments_columns(x: Any, cnt: Any, mean: Any, m2: Any, wb: int) -> None:
    """(count, mean, M2)[o, s, j] of the non-NaNs of row segment s of column j; serial."""
    for t in range(x.shape[0] * cnt.shape[1] * -(-x.shape[2] // wb)):
        _columns_moments(x, cnt, mean, m2, t, wb)


@kernel(fastmath=EXACT, parallel=True)
def nanmoments_columns_par(x: Any, cnt: Any, mean: Any, m2: Any, wb: int) -> None:
    """nanmoments_columns over (outer, segment, column block) tasks in parallel."""
    for t in prange(x.shape[0] * cnt.shape[1] * -(-x.shape[2] // wb)):
        _columns_moments(x, cnt, mean, m2, np.int64(t), wb)


@njit
def _columns_arg(x: Any, idx: Any, ismax: bool, o: int, j0: int, j1: int) -> None:
    width = j1 - j0
    best = np.empty(width, x.dtype)
    at = idx[o, j0:j1]
    for j in range(width):
        at[j] = -1
        best[j] = x[o, 0, j0 + j]
    for k in range(x.shape[1]):
        xr = x[o, k, j0:j1]
        for j in range(width):
            v = xr[j]
            better = v > best[j] if ismax else v < best[j]
            take = v == v and (at[j] < 0 or better)
            best[j] = v if take else best[j]
            at[j] = k if take else at[j]
    worst = -np.inf if ismax else np.inf  # numpy's NaN stand-in: the first NaN or it wins
    for j in range(width):
        if at[j] > 0 and best[j] == worst:
            for k in range(at[j]):
                v = x[o, k, j0 + j]
                if v != v:
                    at[j] = k
                    break


@kernel()
def nanarg_columns(x: Any, idx: Any, ismax: bool, wb: int) -> None:
    """idx[o, j] = first index along R of the max/min non-NaN of column j (-1: none); serial."""
    nb = -(-x.shape[2] // wb)
    for t in range(x.shape[0] * nb):
        j0 = (t % nb) * wb
        _columns_arg(x, idx, ismax, t // nb, j0, min(j0 + wb, x.shape[2]))


@kernel(parallel=True)
def nanarg_columns_par(x: Any, idx: Any, ismax: bool, wb: int) -> None:
    """nanarg_columns over (outer, column block) tasks in parallel."""
    nb = -(-x.shape[2] // wb)
    for t in prange(x.shape[0] * nb):
        j0 = (t % nb) * wb
        _columns_arg(x, idx, ismax, t // nb, j0, min(j0 + wb, x.shape[2]))
