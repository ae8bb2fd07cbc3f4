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


_F32 = np.float32
#: the kernel's float32 constants
_TAYLOR = [_F32(1.0 / math.factorial(i)) for i in range(8)]
_LOG2E, _HALF = _F32(1.4426950408889634), _F32(0.5)
_LN2_HIGH, _LN2_LOW = _F32(0.693359375), _F32(-2.12194440e-4)


def _expneg32_block(x: Array, out: Array, work: _Scratch) -> None:
    """``_expneg32`` of one block into ``out``: the kernel's float32 steps in its order."""
    np.fmax(x, _F32(-87.0), out=work.clamped)  # NaN too: the kernel's ``x > -87`` is False
    k, r, poly, step = work.k, work.r, work.poly, work.step
    np.multiply(work.clamped, _LOG2E, out=k)
    np.add(k, _HALF, out=k)
    np.floor(k, out=k)
    np.multiply(k, _LN2_HIGH, out=step)
    np.subtract(work.clamped, step, out=r)
    np.multiply(k, _LN2_LOW, out=step)
    np.subtract(r, step, out=r)
    np.multiply(r, _TAYLOR[7], out=poly)
    np.add(poly, _TAYLOR[6], out=poly)
    for i in range(5, -1, -1):
        np.multiply(poly, r, out=poly)
        np.add(poly, _TAYLOR[i], out=poly)
    np.copyto(work.exponent, k, casting="unsafe")
    np.ldexp(poly, work.exponent, out=out)  # exact, as the kernel's ``p * 2**k``


def _libm_exp(v: Array) -> Array:
    """The C library's ``exp`` of each element (numba's ``math.exp``)."""
    return np.array([math.exp(e) for e in v.tolist()], np.float64).reshape(v.shape)


def _row_states(seg: Array) -> tuple[Array, Array]:
    """``logsumexp._row_logsumexp`` of each row of ``seg`` ``(R, m)`` float32: (M, S). The
    running max after each chunk depends on the chunks' maxima alone, so every chunk's shift
    is known before its exps, which run for all chunks at once."""
    k = constants()
    rows = seg.shape[0]
    big = np.full(rows, -np.inf)
    tot = np.zeros(rows)
    posinf = np.zeros(rows, bool)
    nan = np.zeros(rows, bool)
    for group in chunked(seg, k["CH"]):  # (R, chunks, chunk)
        maxima = np.max(group, axis=2).astype(np.float64)
        n = group.shape[1]
        active, shifts = np.zeros((rows, n), bool), np.zeros((rows, n))
        rescales: list[tuple[Array, Array]] = []  # per chunk: rows, exp's argument
        summed = tot != 0.0  # 0 * exp(...) is 0: no exp where nothing is summed yet
        for ci in range(n):
            mf = maxima[:, ci]
            nan |= mf != mf
            act = ~nan & ~posinf & (mf != -np.inf)
            posinf |= act & (mf == np.inf)
            act &= mf != np.inf
            grows = act & (mf > big)
            rescale = grows & summed
            rescales.append((rescale, big[rescale] - mf[rescale]))
            big[grows] = mf[grows]
            active[:, ci], shifts[act, ci] = act, big[act]
            summed |= act
        terms = _expneg32(group - shifts.astype(np.float32)[:, :, None])
        sums = fold(lane_add(terms, k["LANES"])).astype(np.float64)
        for ci, (rescale, argument) in enumerate(rescales):
            if rescale.any():
                tot[rescale] *= _libm_exp(argument)
            tot[active[:, ci]] += sums[active[:, ci], ci]
    big[posinf], tot[posinf] = np.inf, 1.0
    big[nan], tot[nan] = np.nan, 1.0
    return big, tot


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
