"""numpy twins of the float32 logsumexp kernels (``_numba/logsumexp.py``), for
``kernel_twins``: the same (max, sum of exp(x - max)) partials, bit for bit.

The kernels' exp (``_primitives._expneg``) is a range reduction and a Taylor polynomial whose
every step is a rounded float32 product or sum (no fused multiply-add), so numpy's float32
arithmetic, step by step in the kernel's order, gives its bits on any CPU. float64 logsumexp
has no twin yet.

The running max's rescale, ``tot *= exp(big - max)``, runs ``math.exp`` per row: numba calls
the C library's ``exp`` for it, as Python's ``math.exp`` does (numpy's own ``exp`` may round
differently).
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from ._twin_orders import chunked, constants, fold, lane_add, running_total

__all__ = ["lse_h", "lse_n", "lse_v", "twinned"]

Array = npt.NDArray[Any]


def twinned(z0: Any) -> bool:
    """Can the twins reproduce the kernels for the compute type of ``z0``? float32."""
    return bool(np.asarray(z0).dtype == np.float32)


#: elements per block of the exp (its work arrays stay in the L2 cache)
_EXP_BLOCK = 1 << 14


class _Scratch:
    """The exp's work arrays for blocks of up to ``n`` elements, allocated once per thread and
    reused (fresh temporaries of a block would cost page faults on every step)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.clamped, self.k = np.empty(n, np.float32), np.empty(n, np.float32)
        self.r, self.poly = np.empty(n, np.float32), np.empty(n, np.float32)
        self.step = np.empty(n, np.float32)
        self.exponent = np.empty(n, np.int32)


_scratch = threading.local()


def _scratch_for(m: int) -> _Scratch:
    """Work arrays of ``m`` elements: this thread's own for a whole block, new ones for the
    last, shorter block of an input."""
    if m != _EXP_BLOCK:
        return _Scratch(m)
    work: _Scratch | None = getattr(_scratch, "work", None)
    if work is None or work.n != _EXP_BLOCK:
        work = _scratch.work = _Scratch(_EXP_BLOCK)
    return work


def _expneg32(x: Array) -> Array:
    """``_primitives._expneg`` for float32 (x <= 0; NaN and below -87 clamp to -87), by blocks
    of ``_EXP_BLOCK`` elements."""
    flat = np.ascontiguousarray(x, np.float32).reshape(-1)
    out = np.empty_like(flat)
    for i in range(0, flat.size, _EXP_BLOCK):
        block = flat[i : i + _EXP_BLOCK]
        _expneg32_block(block, out[i : i + _EXP_BLOCK], _scratch_for(block.size))
    return out.reshape(np.shape(x))


def _expneg32_block(x: Array, out: Array, work: _Scratch) -> None:
    """``_expneg32`` of one block into ``out``: the kernel's float32 steps in its order, with
    its own constants (``_primitives``: a twin that disagreed with them would disagree with
    the kernels)."""
    from ._numba import _primitives as kernel

    np.fmax(x, kernel._LO32, out=work.clamped)  # NaN too: the kernel's ``x > -87`` is False
    k, r, poly, step = work.k, work.r, work.poly, work.step
    np.multiply(work.clamped, kernel._L2E32, out=k)
    np.add(k, kernel._HALF32, out=k)
    np.floor(k, out=k)
    np.multiply(k, kernel._LN2HI32, out=step)
    np.subtract(work.clamped, step, out=r)
    np.multiply(k, kernel._LN2LO32, out=step)
    np.subtract(r, step, out=r)
    taylor = kernel._C32
    np.multiply(r, taylor[7], out=poly)
    np.add(poly, taylor[6], out=poly)
    for i in range(5, -1, -1):
        np.multiply(poly, r, out=poly)
        np.add(poly, taylor[i], out=poly)
    np.copyto(work.exponent, k, casting="unsafe")
    np.ldexp(poly, work.exponent, out=out)  # exact, as the kernel's ``p * 2**k``


def _libm_exp(v: Array) -> Array:
    """The C library's ``exp`` of each element (numba's ``math.exp``)."""
    return np.array([math.exp(e) for e in v.tolist()], np.float64).reshape(v.shape)


def _shifted(flags: Array) -> Array:
    """``flags`` one chunk later along the last axis: each chunk sees its predecessors'."""
    before = np.zeros_like(flags)
    before[..., 1:] = flags[..., :-1]
    return before


def _row_states(seg: Array) -> tuple[Array, Array]:
    """``logsumexp._row_logsumexp`` of each row of ``seg`` ``(R, m)`` float32: (M, S). The
    running max after each chunk depends on the chunks' maxima alone, so every chunk's
    state (skipped, rescaling, its shift) is known before its exps, which run for all chunks
    at once; the running sum then adds the chunks' sums in order, rescaled where the max
    grew."""
    groups = chunked(seg, constants()["CH"])  # (R, chunks, chunk) each
    if not groups:
        return np.full(seg.shape[0], -np.inf), np.zeros(seg.shape[0])
    maxima = np.concatenate([np.max(g, axis=2) for g in groups], axis=1).astype(np.float64)
    # a NaN ends the row (NaN); a +inf max ends it as +inf; -inf chunks add nothing
    nan = np.logical_or.accumulate(maxima != maxima, axis=1)
    posinf = np.logical_or.accumulate(~nan & (maxima == np.inf), axis=1)
    active = ~nan & ~_shifted(posinf) & np.isfinite(maxima)
    big = np.maximum.accumulate(np.where(active, maxima, -np.inf), axis=1)
    big_before = np.concatenate([np.full((seg.shape[0], 1), -np.inf), big[:, :-1]], axis=1)
    # 0 * exp(...) is 0: no rescale where nothing is summed yet
    rescale = active & (maxima > big_before) & _shifted(np.logical_or.accumulate(active, axis=1))
    shifts = np.where(active, big, 0.0).astype(np.float32)
    sums, c0 = [], 0
    for g in groups:
        terms = _expneg32(g - shifts[:, c0 : c0 + g.shape[1], None])
        sums.append(fold(lane_add(terms, constants()["LANES"])).astype(np.float64))
        c0 += g.shape[1]
    # an inactive chunk adds +0.0, which leaves a total of +0.0 or more as it is
    addend = np.where(active, np.concatenate(sums, axis=1), 0.0)
    tot = np.zeros(seg.shape[0])
    start = 0
    for ci in [*np.flatnonzero(rescale.any(axis=0)).tolist(), addend.shape[1]]:
        if ci > start:  # chunks [start, ci) added one by one, in order (cumsum's order)
            tot = np.cumsum(np.concatenate([tot[:, None], addend[:, start:ci]], axis=1), axis=1)
            tot = tot[:, -1].copy()
        if ci < addend.shape[1]:
            grew = rescale[:, ci]
            tot[grew] *= _libm_exp(big_before[grew, ci] - maxima[grew, ci])
            start = ci
    final_big = big[:, -1].copy()
    final_big[posinf[:, -1]], tot[posinf[:, -1]] = np.inf, 1.0
    final_big[nan[:, -1]], tot[nan[:, -1]] = np.nan, 1.0
    return final_big, tot


def lse_h(x: Array, pm: Array, ps: Array, z0: Any, rb: int) -> None:
    """``logsumexp.lse_h``: per row segment, the (max, sum of exp) state."""
    ns = pm.shape[1]
    n = x.shape[1]
    for s in range(ns):
        pm[:, s], ps[:, s] = _row_states(x[:, (s * n) // ns : ((s + 1) * n) // ns])


def _column_states(rows: Array) -> tuple[Array, Array]:
    """``logsumexp._logsumexp_columns_task`` of ``rows`` ``(O, R, W)`` float32: blocks of
    ``VB`` rows, each rescaled to the running max before its exps are summed row by row."""
    vb = constants()["VB"]
    big = np.full((rows.shape[0], rows.shape[2]), -np.inf)
    tot = np.zeros_like(big)
    colmax = rows[:, 0].copy()
    for b0 in range(0, rows.shape[1], vb):
        block = rows[:, b0 : b0 + vb]
        colmax = np.maximum(colmax, np.max(block, axis=1))  # NaN propagating, as ``_vmax``
        m = colmax.astype(np.float64)
        grows = m > big
        rescale = grows & (tot != 0.0)
        if rescale.any():
            tot[rescale] *= _libm_exp(big[rescale] - m[rescale])
        big[grows] = m[grows]
        shift = big.astype(np.float32)[:, None, :]
        tot += running_total(_expneg32(block - shift), 1).astype(np.float64)
    c = colmax.astype(np.float64)
    big[c == -np.inf], tot[c == -np.inf] = -np.inf, 0.0
    big[c == np.inf], tot[c == np.inf] = np.inf, 1.0
    big[c != c], tot[c != c] = np.nan, 1.0
    return big, tot


def lse_v(x: Array, pm: Array, ps: Array, z0: Any, wb: int) -> None:
    """``logsumexp.lse_v``: per column and segment of rows, the (max, sum of exp) state
    (columns are independent: the kernel's column blocks do not matter)."""
    ns = pm.shape[1]
    nr = x.shape[1]
    for s in range(ns):
        pm[:, s], ps[:, s] = _column_states(x[:, (s * nr) // ns : ((s + 1) * nr) // ns])


def lse_n(x: Array, pm: Array, ps: Array, z0: Any, rb: int) -> None:
    """``logsumexp.lse_n``: the short rows transposed, reduced as columns."""
    big, tot = _column_states(x.T[None])
    pm[:], ps[:] = big[0], tot[0]
