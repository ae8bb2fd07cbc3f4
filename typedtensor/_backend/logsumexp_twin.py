"""numpy twins of the float32 logsumexp kernels (``_numba/logsumexp.py``), for
``kernel_twins``: the same (max, sum of exp(x - max)) partials, bit for bit.

The kernels' exp (``_primitives._expneg``) is a range reduction and a Taylor polynomial, each
step one ``llvm.fmuladd``, which fuses into one rounding where the CPU numba compiles for has
FMA. numpy has no fused multiply-add. For float32 one is exact in numpy: the product of two
float32 is exact in float64, the float64 sum's error is exact (``two_sum``), and rounding the
sum to odd at 53 bits then to nearest at 24 rounds the exact value once (Boldo and
Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to
odd", IEEE Trans. Computers 57(4), 2008). float64 would need a product of 106 bits: float64
logsumexp has no twin. Nor has it where numba compiles for a CPU other than this one's
(``NUMBA_CPU_NAME``): whether ``fmuladd`` fuses is then not this CPU's to say.

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

_host_fma: list[bool] = []


def twinned(z0: Any) -> bool:
    """Can the twins reproduce the kernels for the compute type of ``z0``? float32 on numba's
    host target."""
    if np.asarray(z0).dtype != np.float32:
        return False
    return _fma() is not None


def _fma() -> bool | None:
    """Does numba's ``fmuladd`` fuse? (None: numba compiles for a CPU named in its config.)"""
    if not _host_fma:
        from llvmlite import binding  # type: ignore[import-untyped]
        from numba.core import config

        if getattr(config, "CPU_NAME", None) or getattr(config, "CPU_FEATURES", None):
            return None
        _host_fma.append(bool(binding.get_host_cpu_features().get("fma", False)))
    return _host_fma[0]


#: the bits a float64 has beyond a float32's, and their pattern at a float32 midpoint
_BELOW_FLOAT32 = (1 << 29) - 1
_MIDPOINT = 1 << 28
#: elements per block of the exp (its float64 temporaries stay in the L2 cache)
_EXP_BLOCK = 1 << 14


class _Scratch:
    """The exp's work arrays for blocks of up to ``n`` elements, allocated once per thread and
    reused (numpy's temporaries of a block are 64-128 KB each: fresh ones cost page faults
    on every step)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.product, self.total, self.wide = np.empty(n), np.empty(n), np.empty(n)
        self.x, self.minus_k, self.high, self.r = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
        self.rounded, self.k = np.empty(n, np.float32), np.empty(n, np.float32)
        self.clamped, self.scale = np.empty(n, np.float32), np.empty(n, np.float32)
        self.bits, self.exponent = np.empty(n, np.int64), np.empty(n, np.int32)
        self.midpoint = np.empty(n, bool)


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


def _fused(a: Any, b: Any, c: Any, work: _Scratch | None = None) -> Array:
    """``a * b + c`` of float32 values, given as their (exact) float64 images, in float32 as
    ``llvm.fmuladd`` computes it here: one rounding of the exact value where the CPU fuses,
    else a rounded product and a rounded sum. With ``work`` (of the operands' size) the
    result is ``work.rounded``, overwritten by the next call."""
    if not _fma():
        f32 = [np.asarray(v).astype(np.float32) for v in (a, b, c)]
        return np.asarray(f32[0] * f32[1] + f32[2])
    if work is None:
        work = _Scratch(np.broadcast(a, b, c).size)
    p, s = work.product, work.total
    np.multiply(a, b, out=p)  # exact: 24 + 24 bits
    np.add(p, c, out=s)
    fused = work.rounded
    np.copyto(fused, s, casting="unsafe")
    # rounding the float64 sum again to float32 rounds the exact value once, except where
    # the sum fell on a float32 midpoint and was inexact: there the exact value decides
    midpoint = work.midpoint
    np.equal(
        np.bitwise_and(s.view(np.int64), _BELOW_FLOAT32, out=work.bits), _MIDPOINT, out=midpoint
    )
    if midpoint.any():
        fused[midpoint] = _round_past_midpoint(
            p[midpoint], np.broadcast_to(c, s.shape)[midpoint], s[midpoint]
        )
    return fused


def _round_past_midpoint(p: Array, c: Array, s: Array) -> Array:
    """float32 of ``p + c`` where ``s``, its float64 sum, is a float32 midpoint: the
    neighbour on the side of the sum's rounding error (``two_sum``), ``s`` rounded to even
    where it is exact."""
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    nearest = s.astype(np.float32)
    up = np.where(nearest > s, nearest, np.nextafter(nearest, np.float32(np.inf)))
    down = np.where(nearest < s, nearest, np.nextafter(nearest, np.float32(-np.inf)))
    return np.where(err > 0, up, np.where(err < 0, down, nearest))


def _expneg32(x: Array) -> Array:
    """``_primitives._expneg`` for float32 (x <= 0; NaN and below -87 clamp to -87), by blocks
    of ``_EXP_BLOCK`` elements."""
    flat = np.ascontiguousarray(x, np.float32).reshape(-1)
    out = np.empty_like(flat)
    for i in range(0, flat.size, _EXP_BLOCK):
        block = flat[i : i + _EXP_BLOCK]
        _expneg32_block(block, out[i : i + _EXP_BLOCK], _scratch_for(block.size))
    return out.reshape(np.shape(x))


_F32, _F64 = np.float32, np.float64
#: the kernel's constants as the float64 images of their float32 values
_TAYLOR = [_F64(_F32(1.0 / math.factorial(i))) for i in range(8)]
_LOG2E, _HALF = _F64(_F32(1.4426950408889634)), _F64(_F32(0.5))
_LN2_HIGH, _LN2_LOW = _F64(_F32(0.693359375)), _F64(_F32(-2.12194440e-4))


def _expneg32_block(x: Array, out: Array, work: _Scratch) -> None:
    """``_expneg32`` of one block into ``out``, its float32 steps carried as exact float64
    images in ``work``."""
    np.fmax(x, _F32(-87.0), out=work.clamped)  # NaN too: the kernel's ``x > -87`` is False
    np.copyto(work.x, work.clamped)
    np.floor(_fused(work.x, _LOG2E, _HALF, work), out=work.k)
    np.negative(work.k, out=work.minus_k)
    np.copyto(work.high, _fused(work.minus_k, _LN2_HIGH, work.x, work))
    np.copyto(work.r, _fused(work.minus_k, _LN2_LOW, work.high, work))
    np.copyto(work.wide, _TAYLOR[7])
    for i in range(6, -1, -1):
        poly = _fused(work.wide, work.r, _TAYLOR[i], work)
        np.copyto(work.wide, poly)
    np.copyto(work.exponent, work.k, casting="unsafe")
    np.ldexp(_F32(1.0), work.exponent, out=work.scale)
    np.multiply(poly, work.scale, out=out)


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
