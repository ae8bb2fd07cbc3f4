# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""The product of a row for the accumulate kernels (``sums.py``): integer and plain products
in SIMD chunks (``_row_prod``), and float products in numpy's order of multiplication where
that order overflows or underflows (``_row_prod_in_order``): blocks multiplied in lanes
within bounds that prove no prefix product leaves the range, sub-blocks and a sequential loop
where they do not, and the sign alone once the running product is zero or infinite."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from ._lanes import EXACT
from ._primitives import CH, PB32, PB64, _as


@njit(fastmath=EXACT, inline="always")
def _chunk_prod(seg: Any, zc: Any) -> Any:
    s = zc
    for i in range(seg.shape[0]):
        s *= _as(zc, seg[i])
    return s


@njit(fastmath=EXACT, inline="always")
def _row_prod(row: Any, zc: Any, zt: Any) -> Any:
    n = row.shape[0]
    if n <= CH:  # one chunk: no slice (keeps short rows cheap)
        return zt * _as(zt, _chunk_prod(row, zc))
    tot = zt
    for ci in range((n + CH - 1) // CH):  # a step range would divide per row
        c0 = ci * CH
        tot *= _as(zt, _chunk_prod(row[c0 : min(c0 + CH, n)], zc))
    return tot


@njit(inline="always")
def _sequential_prod(seg: Any, tot: Any) -> Any:
    """``tot * seg[0] * seg[1] * ...`` in this order, numpy's, so the partial products overflow
    and underflow exactly where numpy's do. A callee's own fastmath flags do not protect it
    (numba applies the caller's flags to the code it links in), so the loop is kept out of
    SIMD lanes by its early exit: LLVM does not vectorise a loop that can leave early. The
    exit is exact: a NaN total stays NaN whatever it is multiplied by. An infinite total
    (an overflow) hands the rest to ``_infinite_times``."""
    n = seg.shape[0]
    for i in range(n):
        tot *= _as(tot, seg[i])
        if tot != tot:
            break
        if math.isinf(tot) and i + 1 < n:
            return _infinite_times(seg[i + 1 :], tot)
    return tot


@njit(inline="always")
def _infinite_times(seg: Any, tot: Any) -> Any:
    """``tot * seg[0] * seg[1] * ...`` for an infinite ``tot``: without a zero or a NaN in
    ``seg`` only the sign changes (one pass in SIMD lanes, no early exit); else numpy's order
    (``inf * 0`` is the NaN numpy gives, a NaN element's payload passes on as in numpy)."""
    sign = 1.0
    nonzero = 0
    for i in range(seg.shape[0]):
        v = seg[i]
        sign *= math.copysign(1.0, v)
        nonzero += 1 if abs(v) > 0 else 0  # neither 0 nor NaN
    if nonzero == seg.shape[0]:
        return tot * _as(tot, sign)
    for i in range(seg.shape[0]):
        tot *= _as(tot, seg[i])
        if tot != tot:
            break
    return tot


@njit(fastmath=EXACT, inline="always")
def _chunk_prod_bounds(seg: Any, zc: Any) -> Any:
    """(product in SIMD lanes, U, L): U = prod max(|x|, 1) and L = prod min(|x|, 1) bound
    every partial product of ``seg`` in any order; a NaN element makes U and L NaN. All three
    in the chunk type (float32 keeps 8 lanes: 2.6x faster than float64 bounds)."""
    s = zc
    one = _as(zc, 1)
    u = one
    lo = one
    for i in range(seg.shape[0]):
        v = _as(zc, seg[i])
        s *= v
        a = abs(v)
        u *= a if not (a <= one) else one
        lo *= a if not (a >= one) else one
    return s, u, lo


@njit(fastmath=EXACT, inline="always")
def _sign_prod(seg: Any) -> float:
    s = 1.0
    for i in range(seg.shape[0]):
        s *= math.copysign(1.0, seg[i])
    return s


#: elements of the sub-blocks a block is split into when its bounds fail (a block that
#: overflows runs sequentially only up to the sub-block where numpy's product overflows)
_SUB_BLOCK = 32


@njit(fastmath=EXACT, inline="always")
def _sub_block_prod(seg: Any, tot: Any, zt: Any, big: float, small: float) -> Any:
    """``tot`` times ``seg`` in numpy's order (``_row_prod_in_order``'s rules): in SIMD lanes
    within the bounds, a zero total times finite elements and an infinite one times nonzero
    ones by their signs, else sequentially."""
    s, u32, lo32 = _chunk_prod_bounds(seg, zt)
    u, lo, t = np.float64(u32), np.float64(lo32), abs(np.float64(tot))
    if u <= big and lo >= small and t * u <= big and t * lo >= small:
        return tot * s
    if tot == 0 and u <= 1.7976931348623157e308:  # finite elements: 0 stays 0
        return tot * _as(tot, _sign_prod(seg))
    if lo > 0 and math.isinf(tot):  # no zero, no NaN (L would be 0 or NaN): inf stays inf
        return tot * _as(tot, _sign_prod(seg))
    return _sequential_prod(seg, tot)


@njit(fastmath=EXACT, inline="always")
def _by_sub_blocks(seg: Any, tot: Any, zt: Any, big: float, small: float) -> Any:
    """``tot`` times a block whose bounds failed, by sub-blocks of ``_SUB_BLOCK``."""
    for c0 in range(0, seg.shape[0], _SUB_BLOCK):
        sub = seg[c0 : min(c0 + _SUB_BLOCK, seg.shape[0])]
        tot = _sub_block_prod(sub, tot, zt, big, small)
    return tot


@njit(fastmath=EXACT, inline="always")
def _row_prod_in_order(row: Any, zt: Any, big: float) -> Any:
    """Product of a float row with numpy's result where numpy's sequential order overflows or
    underflows (``[1e300, 1e-300, ...]``: lanes would multiply inf by 0). Blocks of PB64/PB32
    elements are multiplied in SIMD lanes when the bounds U, L of ``_chunk_prod_bounds`` show
    that neither the lanes nor any prefix product of numpy's order (running total times a
    prefix of the block) can leave [1/big, big]. A zero total times finite elements, and an
    infinite one times nonzero elements, only change sign. Any other block goes by sub-blocks
    of ``_SUB_BLOCK`` under the same rules (``_sub_block_prod``), the sub-blocks that fail them
    sequentially (``_sequential_prod``). Float64 rows of 256 values x100, which overflow
    midway, ran 1.31-1.33x numpy's time when a failing block ran sequentially to its end."""
    n = row.shape[0]
    if n <= 16:
        return _sequential_prod(row, zt)
    small = 1.0 / big
    pb = PB64 if big > 1e300 else PB32  # big is 2^1020 for float64, 2^124 for float32
    tot = zt
    for bi in range((n + pb - 1) // pb):
        b0 = bi * pb
        seg = row[b0 : min(b0 + pb, n)]
        s, u32, lo32 = _chunk_prod_bounds(seg, zt)
        u, lo, t = np.float64(u32), np.float64(lo32), abs(np.float64(tot))
        if u <= big and lo >= small and t * u <= big and t * lo >= small:
            tot *= s
        elif (tot == 0 and u <= 1.7976931348623157e308) or (lo > 0 and math.isinf(tot)):
            tot *= _as(tot, _sign_prod(seg))  # the whole block at once, as a sub-block would
        else:
            tot = _by_sub_blocks(seg, tot, zt, big, small)
    return tot
