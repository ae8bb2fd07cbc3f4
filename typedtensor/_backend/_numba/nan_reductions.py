# mypy: disable-error-code="call-arg,var-annotated,import-untyped,no-untyped-call"
"""NaN-aware reductions (numba), one pass over memory, numpy's semantics and warnings.

Each reduction is canonicalised by the backend's ``_canon`` to ``(O, R, I)`` reduced over
``R`` (reduced dims that are not adjacent in memory are copied once into (kept..., reduced...)
order). ``I == 1`` runs a row kernel (one contiguous run per output, split into segments
when there are few rows), ``I > 1`` a column kernel (a block of ``I`` accumulators, rows
streamed, SIMD across the block). The kernels are short loops, numbagg-style:

- ``nansum_count``: the sum of the non-NaNs and their count (``nansum``, ``nanmean``); float32
  runs accumulate 2048-element chunks in float32 lanes, chunk totals in float64;
- ``nanextreme``: ``llvm.maxnum``/``minnum`` folds from NaN (a NaN operand is skipped, so an
  all-NaN slice stays NaN, as numpy's);
- ``nanmoments``: count, mean and M2 of the non-NaNs: two passes over each cache-sized chunk
  (or block of rows), merged with Chan's formula (``nanvar``, ``nanstd``);
- ``nanarg``: the first index of the extreme non-NaN (-1 for an all-NaN slice: ValueError).

Ints and bool have no NaN: they run the plain reductions (numpy's rule too). ``nanprod``
(numpy's order of multiplication decides overflow) and other dtypes return ``None``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from ... import _rules as rules
from ._cache import kernel

__all__ = ["NAN_OPS"]

Array = npt.NDArray[Any]

FM = {"reassoc", "nsz", "contract"}  # never nnan/ninf: the NaN tests must stay
CH = 2048  # row chunk (elements) summed in the input dtype inside SIMD lanes
VB = 64  # column kernels: rows per two-pass block of the moments
LANES = 64  # row extremes: independent accumulators (a SIMD-friendly fold)


# ----------------------------------------------------------------------------- intrinsics
@intrinsic
def _fold_extreme(typingctx: Any, a: Any, b: Any, ismax: Any) -> Any:
    """``maxnum(a, b)`` / ``minnum(a, b)``: the non-NaN operand when one is NaN."""
    if a != b or not isinstance(a, types.Float):
        return None
    sig = a(a, b, ismax)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        t = args[0].type
        fty = ir.FunctionType(t, [t, t])
        hi = builder.call(builder.module.declare_intrinsic("llvm.maxnum", [t], fty), args[:2])
        lo = builder.call(builder.module.declare_intrinsic("llvm.minnum", [t], fty), args[:2])
        return builder.select(args[2], hi, lo)

    return sig, codegen


def _nan_skipping(name: str) -> Any:
    @intrinsic
    def fold(typingctx: Any, a: Any, b: Any) -> Any:
        if a != b or not isinstance(a, types.Float):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            t = args[0].type
            fty = ir.FunctionType(t, [t, t])
            return builder.call(builder.module.declare_intrinsic(name, [t], fty), args)

        return a(a, b), codegen

    return fold


_maxnum = _nan_skipping("llvm.maxnum")  # maxnum(a, NaN) = a: the NaN-skipping max
_minnum = _nan_skipping("llvm.minnum")


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


@njit(fastmath=FM)
def _row_sum_count(xs: Any, z: Any) -> tuple[float, int]:
    tot = 0.0
    cnt = 0
    n = xs.shape[0]
    for c0 in range(0, n, CH):
        part = xs[c0 : min(c0 + CH, n)]
        acc = z
        for k in range(part.shape[0]):
            v = part[k]
            keep = v == v
            acc += v if keep else z
            cnt += 1 if keep else 0
        tot += np.float64(acc)
    return tot, cnt


@kernel(fastmath=FM)
def nansum_count_rows(x: Any, sums: Any, cnts: Any, z: Any) -> None:
    """sums/cnts[o, s] = sum and count of the non-NaNs of segment s of row o; serial."""
    ns = sums.shape[1]
    for t in range(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        sums[o, s], cnts[o, s] = _row_sum_count(x[o, r0:r1], z)


@kernel(fastmath=FM, parallel=True)
def nansum_count_rows_par(x: Any, sums: Any, cnts: Any, z: Any) -> None:
    """nansum_count_rows over (row, segment) tasks in parallel."""
    ns = sums.shape[1]
    for t in prange(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        sums[o, s], cnts[o, s] = _row_sum_count(x[o, r0:r1], z)


@njit(fastmath=FM)
def _row_extreme(xs: Any, ismax: bool, nan: Any, lanes: Any) -> Any:
    """Folded as a (n / LANES, LANES) block into ``lanes`` (SIMD), then across them."""
    for j in range(LANES):
        lanes[j] = nan
    n = xs.shape[0]
    m = n - n % LANES
    block = xs[:m].reshape(m // LANES, LANES)
    for k in range(block.shape[0]):
        row = block[k]
        if ismax:
            for j in range(LANES):
                lanes[j] = _maxnum(lanes[j], row[j])
        else:
            for j in range(LANES):
                lanes[j] = _minnum(lanes[j], row[j])
    acc = nan
    for j in range(LANES):
        acc = _fold_extreme(acc, lanes[j], ismax)
    for k in range(m, n):
        acc = _fold_extreme(acc, xs[k], ismax)
    return acc


@kernel(fastmath=FM)
def nanextreme_rows(x: Any, ext: Any, ismax: bool, nan: Any) -> None:
    """ext[o, s] = max/min of the non-NaNs of segment s of row o (NaN if none); serial."""
    ns = ext.shape[1]
    lanes = np.empty(LANES, x.dtype)
    for t in range(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        ext[o, s] = _row_extreme(x[o][r0:r1], ismax, nan, lanes)


@kernel(fastmath=FM, parallel=True)
def nanextreme_rows_par(x: Any, ext: Any, ismax: bool, nan: Any) -> None:
    """nanextreme_rows over (row, segment) tasks in parallel."""
    ns = ext.shape[1]
    for t in prange(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        ext[o, s] = _row_extreme(x[o][r0:r1], ismax, nan, np.empty(LANES, x.dtype))


@njit(fastmath=FM)
def _row_moments(xs: Any, z: Any) -> tuple[float, float, float]:
    """(count, mean, M2) of the non-NaNs: two passes per chunk (in L1) in the input dtype's
    SIMD lanes (``z`` is its zero), chunks merged in float64 with Chan's formula."""
    n = 0.0
    mean = 0.0
    m2 = 0.0
    size = xs.shape[0]
    for c0 in range(0, size, CH):
        part = xs[c0 : min(c0 + CH, size)]
        s = z
        c = 0
        for k in range(part.shape[0]):
            v = part[k]
            keep = v == v
            s += v if keep else z
            c += 1 if keep else 0
        if c == 0:
            continue
        mz = _as(z, np.float64(s) / c)  # about the chunk mean, in the input dtype
        q = z
        e = z
        for k in range(part.shape[0]):
            v = part[k]
            d = v - mz if v == v else z
            q += d * d
            e += d
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


@kernel(fastmath=FM)
def nanmoments_rows(x: Any, cnt: Any, mean: Any, m2: Any, z: Any) -> None:
    """(count, mean, M2)[o, s] of the non-NaNs of segment s of row o; serial."""
    ns = cnt.shape[1]
    for t in range(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        cnt[o, s], mean[o, s], m2[o, s] = _row_moments(x[o, r0:r1], z)


@kernel(fastmath=FM, parallel=True)
def nanmoments_rows_par(x: Any, cnt: Any, mean: Any, m2: Any, z: Any) -> None:
    """nanmoments_rows over (row, segment) tasks in parallel."""
    ns = cnt.shape[1]
    for t in prange(x.shape[0] * ns):
        o, s = t // ns, t % ns
        r0, r1 = _span(x.shape[1], s, ns)
        cnt[o, s], mean[o, s], m2[o, s] = _row_moments(x[o, r0:r1], z)


@njit(fastmath=FM)
def _row_arg(xs: Any, ismax: bool, nan: Any, lanes: Any) -> int:
    """Per cache-sized chunk: its extreme (the SIMD fold), then, only where it beats the best
    so far, the first index holding it. numpy replaces NaN by -inf (max) before its argmax:
    when the extreme is -inf, the first NaN or -inf wins."""
    n = xs.shape[0]
    best = nan
    at = -1
    for c0 in range(0, n, CH):
        part = xs[c0 : min(c0 + CH, n)]
        m = _row_extreme(part, ismax, nan, lanes)
        if m == m and (at < 0 or (m > best if ismax else m < best)):
            best = m
            first = CH
            for k in range(part.shape[0]):  # a branch-free min: vectorises
                first = min(first, k if part[k] == m else CH)
            at = c0 + first
    if at > 0 and best == (-np.inf if ismax else np.inf):
        for k in range(at):
            if xs[k] != xs[k]:
                return k
    return at


@kernel()
def nanarg_rows(x: Any, idx: Any, ismax: bool, nan: Any) -> None:
    """idx[o] = index of the first max/min non-NaN of row o (-1: all NaN); serial."""
    lanes = np.empty(LANES, x.dtype)
    for o in range(x.shape[0]):
        idx[o] = _row_arg(x[o], ismax, nan, lanes)


@kernel(parallel=True)
def nanarg_rows_par(x: Any, idx: Any, ismax: bool, nan: Any) -> None:
    """nanarg_rows with rows in parallel."""
    for o in prange(x.shape[0]):
        idx[o] = _row_arg(x[o], ismax, nan, np.empty(LANES, x.dtype))


# ----------------------------------------------------------------------------- column kernels
@njit(inline="always")
def _block(t: int, nb: int, ns: int, r: int, w: int, wb: int) -> tuple[int, int, int, int, int]:
    """Task t of (outer, row segment, column block): (o, r0, r1, j0, j1)."""
    o = t // (ns * nb)
    s = (t // nb) % ns
    j0 = (t % nb) * wb
    return o, s * r // ns, (s + 1) * r // ns, j0, min(j0 + wb, w)


@njit(fastmath=FM)
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


@kernel(fastmath=FM)
def nansum_count_columns(x: Any, sums: Any, cnts: Any, wb: int) -> None:
    """sums/cnts[o, s, j] over row segment s of column j of x (O, R, I); serial."""
    for t in range(x.shape[0] * sums.shape[1] * -(-x.shape[2] // wb)):
        _columns_sum_count(x, sums, cnts, t, wb)


@kernel(fastmath=FM, parallel=True)
def nansum_count_columns_par(x: Any, sums: Any, cnts: Any, wb: int) -> None:
    """nansum_count_columns over (outer, segment, column block) tasks in parallel."""
    for t in prange(x.shape[0] * sums.shape[1] * -(-x.shape[2] // wb)):
        _columns_sum_count(x, sums, cnts, t, wb)


@njit(fastmath=FM)
def _columns_extreme(x: Any, ext: Any, ismax: bool, t: int, wb: int) -> None:
    ns, w = ext.shape[1], x.shape[2]
    nb = -(-w // wb)
    o, r0, r1, j0, j1 = _block(t, nb, ns, x.shape[1], w, wb)
    acc = ext[o, t // nb % ns, j0:j1]
    for j in range(j1 - j0):
        acc[j] = np.nan
    for k in range(r0, r1):
        xr = x[o, k, j0:j1]
        if ismax:
            for j in range(j1 - j0):
                acc[j] = _maxnum(acc[j], xr[j])
        else:
            for j in range(j1 - j0):
                acc[j] = _minnum(acc[j], xr[j])


@kernel(fastmath=FM)
def nanextreme_columns(x: Any, ext: Any, ismax: bool, wb: int) -> None:
    """ext[o, s, j] = max/min of the non-NaNs of row segment s of column j; serial."""
    for t in range(x.shape[0] * ext.shape[1] * -(-x.shape[2] // wb)):
        _columns_extreme(x, ext, ismax, t, wb)


@kernel(fastmath=FM, parallel=True)
def nanextreme_columns_par(x: Any, ext: Any, ismax: bool, wb: int) -> None:
    """nanextreme_columns over (outer, segment, column block) tasks in parallel."""
    for t in prange(x.shape[0] * ext.shape[1] * -(-x.shape[2] // wb)):
        _columns_extreme(x, ext, ismax, t, wb)


@njit(fastmath=FM)
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


@kernel(fastmath=FM)
def nanmoments_columns(x: Any, cnt: Any, mean: Any, m2: Any, wb: int) -> None:
    """(count, mean, M2)[o, s, j] of the non-NaNs of row segment s of column j; serial."""
    for t in range(x.shape[0] * cnt.shape[1] * -(-x.shape[2] // wb)):
        _columns_moments(x, cnt, mean, m2, t, wb)


@kernel(fastmath=FM, parallel=True)
def nanmoments_columns_par(x: Any, cnt: Any, mean: Any, m2: Any, wb: int) -> None:
    """nanmoments_columns over (outer, segment, column block) tasks in parallel."""
    for t in prange(x.shape[0] * cnt.shape[1] * -(-x.shape[2] // wb)):
        _columns_moments(x, cnt, mean, m2, t, wb)


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


# ----------------------------------------------------------------------------- dispatch
_WB = 1 << 12  # column block: accumulators stay in L1/L2
_MIN_SEG = 1 << 14  # a row is split into segments of at least this many elements


def _warn(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=5)


def _three(a: Array, axes: tuple[int, ...]) -> tuple[Any, Array]:
    """(canon, x3 (O, R, I)): one reduced group; non-adjacent reduced dims are copied once
    into (kept..., reduced...) order."""
    from . import _Canon, _canon, _split

    c = _canon(a, axes)
    if sum(1 for _, red in c.groups if red) == 1:
        _, o, r, i = _split(c.groups)
        return c, c.b.reshape(o, r, i)
    red = set(axes)
    perm = [d for d in range(a.ndim) if d not in red] + sorted(red)
    r = math.prod(a.shape[d] for d in red)
    b = np.ascontiguousarray(a.transpose(perm)).reshape(-1, r)
    return _Canon(b, [(b.shape[0], False), (r, True)], perm, [], True), b.reshape(-1, r, 1)


def _plan(x3: Array) -> tuple[bool, int, int]:
    """(parallel, row segments, column block)."""
    from . import _parallel, _segments

    o, r, i = x3.shape
    par = _parallel(x3.size)
    wb = min(i, _WB)
    nb = -(-i // wb) if i > 1 else 1
    return par, _segments(o, r, nb, par, _MIN_SEG if i == 1 else 64), wb


def _run(serial: Any, parallel: Any, par: bool, *args: Any) -> None:
    from . import _launch

    _launch(serial, parallel, par, *args)


def _sum_count(a: Array, axes: tuple[int, ...]) -> tuple[Any, Array, Array]:
    c, x3 = _three(a, axes)
    o, r, i = x3.shape
    par, ns, wb = _plan(x3)
    if i == 1:
        sums, cnts = np.empty((o, ns)), np.empty((o, ns), np.int64)
        z = x3.dtype.type(0)
        _run(nansum_count_rows, nansum_count_rows_par, par, x3.reshape(o, r), sums, cnts, z)
    else:
        sums, cnts = np.empty((o, ns, i)), np.empty((o, ns, i), np.int64)
        _run(nansum_count_columns, nansum_count_columns_par, par, x3, sums, cnts, wb)
    return c, sums.sum(axis=1).reshape(o, i), cnts.sum(axis=1).reshape(o, i)


def _nansum(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    from . import _finish

    c, sums, _ = _sum_count(a, axes)
    return _finish(c, a, axes, keepdims, dtype, sums)


def _nanmean(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    from . import _finish

    c, sums, cnts = _sum_count(a, axes)
    if not cnts.all():
        _warn("Mean of empty slice")
    with np.errstate(invalid="ignore", divide="ignore"):
        return _finish(c, a, axes, keepdims, dtype, sums / cnts)


def _extreme(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, ismax: bool) -> Array:
    from . import _finish

    c, x3 = _three(a, axes)
    o, r, i = x3.shape
    par, ns, wb = _plan(x3)
    if i == 1:
        ext = np.empty((o, ns), x3.dtype)
        nan = x3.dtype.type(np.nan)
        _run(nanextreme_rows, nanextreme_rows_par, par, x3.reshape(o, r), ext, ismax, nan)
    else:
        ext = np.empty((o, ns, i), x3.dtype)
        _run(nanextreme_columns, nanextreme_columns_par, par, x3, ext, ismax, wb)
    with np.errstate(invalid="ignore"):
        res = (np.fmax if ismax else np.fmin).reduce(ext, axis=1).reshape(o, i)
    if np.isnan(res).any():
        _warn("All-NaN slice encountered")
    return _finish(c, a, axes, keepdims, dtype, res)


def _nanmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _extreme(a, axes, keepdims, dtype, True)


def _nanmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _extreme(a, axes, keepdims, dtype, False)


def _nanvar(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, correction: float
) -> Array:
    from . import _finish

    c, x3 = _three(a, axes)
    o, r, i = x3.shape
    par, ns, wb = _plan(x3)
    shape = (o, ns) if i == 1 else (o, ns, i)
    cnt, mean, m2 = np.empty(shape), np.empty(shape), np.empty(shape)
    if i == 1:
        z = x3.dtype.type(0)
        _run(nanmoments_rows, nanmoments_rows_par, par, x3.reshape(o, r), cnt, mean, m2, z)
    else:
        _run(nanmoments_columns, nanmoments_columns_par, par, x3, cnt, mean, m2, wb)
    cnt, mean, m2 = (p.reshape(o, ns, i) for p in (cnt, mean, m2))
    with np.errstate(invalid="ignore", divide="ignore"):
        n = cnt.sum(axis=1)
        if ns > 1:  # Chan's merge of the segments
            mu = (cnt * mean).sum(axis=1) / n
            m2 = m2.sum(axis=1) + (cnt * (mean - mu[:, None, :]) ** 2).sum(axis=1)
        else:
            m2 = m2[:, 0, :]
        dof = n - correction
        if (dof <= 0).any():
            _warn("Degrees of freedom <= 0 for slice.")
        var = np.where(dof > 0, m2 / np.where(dof > 0, dof, 1.0), np.nan)
    return _finish(c, a, axes, keepdims, dtype, var)


def _nanstd(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, correction: float
) -> Array:
    return np.sqrt(_nanvar(a, axes, keepdims, dtype, correction))


def _nanarg(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, ismax: bool) -> Array:
    from . import _finish, _kept_shape

    if len(axes) != 1 or a.ndim == 1:  # every axis: the index into the C-order flattening
        x3 = np.ascontiguousarray(a).reshape(1, -1, 1)
        c = None
    else:
        from . import _canon, _split

        c = _canon(a, axes, flip_red=False)
        _, o, r, i = _split(c.groups)
        x3 = c.b.reshape(o, r, i)
    o, r, i = x3.shape
    par = _plan(x3)[0]
    idx = np.empty((o, i), np.int64)
    if i == 1:
        nan = x3.dtype.type(np.nan)
        _run(nanarg_rows, nanarg_rows_par, par, x3.reshape(o, r), idx.reshape(o), ismax, nan)
    else:
        _run(nanarg_columns, nanarg_columns_par, par, x3, idx, ismax, min(i, _WB))
    if (idx < 0).any():
        from .._numpy_nan import all_nan_error

        raise all_nan_error()
    if c is None:
        return idx.reshape(_kept_shape(a, tuple(range(a.ndim)), keepdims)).astype(dtype)
    return _finish(c, a, axes, keepdims, dtype, idx)


def _nanargmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _nanarg(a, axes, keepdims, dtype, True)


def _nanargmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _nanarg(a, axes, keepdims, dtype, False)


def _count_nonzero(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    from . import _finish, _nnz

    c, res = _nnz(a, axes)
    return _finish(c, a, axes, keepdims, dtype, res)


_FLOAT_OPS: dict[str, Callable[..., Array | None]] = {
    "nansum": _nansum,
    "nanmean": _nanmean,
    "nanmax": _nanmax,
    "nanmin": _nanmin,
    "nanvar": _nanvar,
    "nanstd": _nanstd,
    "nanargmax": _nanargmax,
    "nanargmin": _nanargmin,
}
#: ints and bool: no NaN, the plain reduction (numpy's nan* functions do the same)
_PLAIN = {"nansum": "sum", "nanmean": "mean", "nanmax": "max", "nanmin": "min", "nanvar": "var"}
_PLAIN.update(nanstd="std", nanargmax="argmax", nanargmin="argmin")


def reduce_nan(
    op: str, a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, **params: Any
) -> Array | None:
    """Run ``op`` (a nan* reduction or count_nonzero); ``None`` where numpy must (nanprod,
    float16/complex, a ``dtype=`` other than the rule's)."""
    from .. import _numpy as _ref
    from . import _SUPPORTED

    if a.dtype.char not in _SUPPORTED or not a.dtype.isnative:
        return None
    if np.dtype(dtype).name != rules.result_dtype(rules.REDUCTIONS[op].dtype_rule, a.dtype.name):
        return None
    if a.ndim == 0 or a.size == 0 or not axes:
        return _ref.reduce(op, a, axes, keepdims, dtype, **params)  # type: ignore[no-any-return]
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    if op == "count_nonzero":
        return _count_nonzero(a, axes, keepdims, dtype)
    if a.dtype.kind == "f":
        fn = _FLOAT_OPS.get(op)
        return None if fn is None else fn(a, axes, keepdims, dtype, **params)
    plain = _PLAIN.get(op)
    if plain is None:
        return None
    if plain in ("var", "std"):
        n = math.prod(a.shape[d] for d in axes)
        if n - params["correction"] <= 0:
            _warn("Degrees of freedom <= 0 for slice")
    from . import _OPS

    return _OPS[plain](a, axes, keepdims, dtype, **params)


NAN_OPS = frozenset((*_FLOAT_OPS, "nanprod", "count_nonzero"))
