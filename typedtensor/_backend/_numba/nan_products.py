# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""nanprod kernels (dispatched by ``nan_reductions``): numpy's answer where its order of
multiplication decides overflow and underflow.

numpy's ``nanprod`` copies the input with NaN replaced by 1 and runs ``prod``, which multiplies
floats one after the other in index order; a partial product that overflows to inf and one that
underflows to 0 then meet as ``inf * 0 = NaN`` only where numpy's order has them meet. These
kernels read a NaN as 1 (no copy) and keep that order where it matters, as the plain ``prod``
kernel does (``sums._h_prodf``):

- rows: blocks of ``PB64``/``PB32`` elements multiplied in SIMD lanes when the bounds
  ``U = prod max(|x|, 1)`` and ``L = prod min(|x|, 1)`` prove that no partial product of
  numpy's order (running total times a prefix of the block) can leave ``[1/big, big]``;
  otherwise the block is multiplied sequentially;
- columns (a strided reduced axis): one accumulator per column, rows multiplied in order,
  SIMD across the columns.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, prange

from ._cache import kernel
from ._lanes import EXACT
from ._primitives import PB32, PB64, _as

__all__ = ["nanprod_columns", "nanprod_columns_par", "nanprod_rows", "nanprod_rows_par"]


@njit(inline="always")
def _seq(seg: Any, tot: Any) -> Any:
    """``tot * seg[0] * seg[1] * ...`` in this order (a NaN element counts as 1); the early
    exit is exact: a NaN total (``inf * 0``) stays NaN."""
    one = _as(tot, 1)
    for i in range(seg.shape[0]):
        v = _as(tot, seg[i])
        tot *= v if v == v else one
        if tot != tot:
            break
    return tot


@njit(fastmath=EXACT, inline="always")
def _lanes_and_bounds(seg: Any, z: Any) -> Any:
    """(product in SIMD lanes, U, L) of ``seg`` with NaN read as 1, in the input's type."""
    one = _as(z, 1)
    s = one
    u = one
    lo = one
    for i in range(seg.shape[0]):
        v = seg[i]
        v = v if v == v else one
        s *= v
        a = abs(v)
        u *= a if not (a <= one) else one
        lo *= a if not (a >= one) else one
    return s, u, lo


@njit(fastmath=EXACT, inline="always")
def _signs(seg: Any) -> float:
    s = 1.0
    for i in range(seg.shape[0]):
        s *= math.copysign(1.0, seg[i]) if seg[i] == seg[i] else 1.0
    return s


@njit(fastmath=EXACT, inline="always")
def _row_nanprod(row: Any, big: float) -> Any:
    n = row.shape[0]
    tot = _as(row[0], 1)
    if n <= 16:
        return _seq(row, tot)
    small = 1.0 / big
    pb = PB64 if big > 1e300 else PB32  # big: 2^1020 (float64), 2^124 (float32)
    for bi in range((n + pb - 1) // pb):
        b0 = bi * pb
        seg = row[b0 : min(b0 + pb, n)]
        s, u_, lo_ = _lanes_and_bounds(seg, tot)
        u, lo, t = np.float64(u_), np.float64(lo_), abs(np.float64(tot))
        if u <= big and lo >= small and t * u <= big and t * lo >= small:
            tot *= s
        elif tot == 0 and u <= 1.7976931348623157e308:  # finite elements: 0 stays 0
            tot *= _as(tot, _signs(seg))
        else:
            tot = _seq(seg, tot)
    return tot


@kernel(fastmath=EXACT)
def nanprod_rows(x: Any, out: Any, big: float) -> None:
    """out[o] = product of the non-NaNs of row o of x (O, R), in numpy's order; serial."""
    for o in range(x.shape[0]):
        out[o] = _row_nanprod(x[o], big)


@kernel(fastmath=EXACT, parallel=True)
def nanprod_rows_par(x: Any, out: Any, big: float) -> None:
    """nanprod_rows with rows in parallel."""
    for o in prange(x.shape[0]):
        out[o] = _row_nanprod(x[o], big)


@njit(fastmath=EXACT, inline="always")
def _columns_task(x: Any, out: Any, wb: int, t: int) -> None:
    w = x.shape[2]
    nb = -(-w // wb)
    o = t // nb
    j0 = (t % nb) * wb
    j1 = min(j0 + wb, w)
    acc = out[o, j0:j1]
    one = _as(acc[0], 1)
    for j in range(j1 - j0):
        acc[j] = one
    for k in range(x.shape[1]):
        xr = x[o, k, j0:j1]
        for j in range(j1 - j0):
            v = xr[j]
            acc[j] *= v if v == v else one


@kernel(fastmath=EXACT)
def nanprod_columns(x: Any, out: Any, wb: int) -> None:
    """out[o, j] = product of the non-NaNs of column j of x (O, R, I) over R, in order;
    (outer, block of ``wb`` columns) tasks; serial."""
    for t in range(x.shape[0] * -(-x.shape[2] // wb)):
        _columns_task(x, out, wb, t)


@kernel(fastmath=EXACT, parallel=True)
def nanprod_columns_par(x: Any, out: Any, wb: int) -> None:
    """nanprod_columns over its tasks in parallel."""
    for t in prange(x.shape[0] * -(-x.shape[2] // wb)):
        _columns_task(x, out, wb, np.int64(t))
