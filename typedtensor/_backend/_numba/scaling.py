# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""The scaling pass of l2_normalize: every element divided by its row's (or column block's)
denominator."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from ._cache import kernel
from ._primitives import _as


# ----------------------------------------------------------------------------- scaling pass
# error_model="numpy": a zero denominator gives inf/NaN as numpy's division does (numba's
# default raised ZeroDivisionError for l2_normalize(eps=0) of a zero row, and its per-element
# check kept the division scalar: ~3x numpy's time over columns)
@njit(fastmath={"nsz", "contract"}, error_model="numpy")
def _scale_task(x: Any, d: Any, out: Any, ni: int, t: int, ns: int, rb: int) -> None:
    nr = x.shape[1] // ni
    blk = t // ns
    s = t - blk * ns
    r0 = (s * nr) // ns
    r1 = ((s + 1) * nr) // ns
    o0 = blk * rb
    o1 = min(x.shape[0], o0 + rb)
    z = out[0, 0]
    if ni == 1 and ns == 1:  # whole short rows: direct indexing, no per-row slices
        for o in range(o0, o1):
            dv = d[o, 0]
            for k in range(nr):
                out[o, k] = _as(z, x[o, k]) / dv
    elif ni == 1:
        for o in range(o0, o1):
            dv = d[o, 0]
            xo = x[o, r0:r1]
            oo = out[o, r0:r1]
            for k in range(xo.shape[0]):
                oo[k] = _as(z, xo[k]) / dv
    else:
        for o in range(o0, o1):
            do = d[o]
            for r in range(r0, r1):
                xr = x[o, r * ni : (r + 1) * ni]
                orow = out[o, r * ni : (r + 1) * ni]
                for j in range(ni):
                    orow[j] = _as(z, xr[j]) / do[j]


@kernel()
def scale(x: Any, d: Any, out: Any, ni: int, rb: int) -> None:
    """out[o, r*I + j] = x[o, r*I + j] / d[o, j] (x, out (O, R*I), d (O, I)); serial."""
    for t in range(-(-x.shape[0] // rb)):
        _scale_task(x, d, out, ni, t, 1, rb)


@kernel(parallel=True)
def scale_par(x: Any, d: Any, out: Any, ni: int, ns: int, rb: int) -> None:
    """scale over (block of outer rows, segment of R) tasks in parallel."""
    for t in prange(-(-x.shape[0] // rb) * ns):
        _scale_task(x, d, out, ni, np.int64(t), ns, rb)
