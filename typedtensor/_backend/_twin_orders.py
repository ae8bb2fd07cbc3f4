"""The orders the numba kernels add in, as numpy code: the pieces of ``kernel_twins``.

numpy's ``cumsum`` adds along an axis in order, and its elementwise arithmetic on whole
blocks rounds as the kernels' scalar or SIMD arithmetic does (IEEE, no fused multiply-add),
so each piece here gives the bits of the kernel code it names.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["chunked", "constants", "fold", "lane_add", "running_total"]

Array = npt.NDArray[Any]

# the kernels' constants (``_numba/_primitives``, ``_numba/_lanes``), read once from there
# by ``constants``: a twin that disagreed with them would disagree with the kernels
_CONST: dict[str, int] = {}


def constants() -> dict[str, int]:
    """The kernels' chunk, block and lane sizes and op codes, by name."""
    if not _CONST:
        from ._numba import _lanes, _primitives

        _CONST.update(
            CH=_primitives.CH,
            VB=_primitives.VB,
            VBS=_primitives.VBS,
            SUM=_primitives.SUM,
            SUMABS=_primitives.SUMABS,
            SUMSQ=_primitives.SUMSQ,
            LANES=_lanes.LANES,
            MIN_LANES=_lanes.MIN_LANES,
            MAX_LANES=_lanes.MAX_LANES,
            SHORT_RUN=_lanes.SHORT_RUN,
        )
    return _CONST


# ----------------------------------------------------------------------------- orders
def running_total(terms: Array, axis: int) -> Array:
    """``((0 + t0) + t1) + ...`` along ``axis``: ``np.cumsum``'s order, or, along an outer axis
    of a C-contiguous array whose last axis is longer than 1, ``np.add.reduce``'s (numpy
    adds such an axis slice by slice, in order; its pairwise summation is for the innermost
    axis only), which runs vectorised where a ``cumsum`` along it does not. Either starts
    from ``t0`` itself where the kernels start from ``0 + t0``; the two differ only in a
    zero's sign (``0 + -0.0`` is ``+0.0``), which adding ``+0`` to the total settles."""
    axis = axis % terms.ndim
    if terms.shape[axis] == 0:
        return np.zeros(np.delete(terms.shape, axis), terms.dtype)
    if axis < terms.ndim - 1 and terms.shape[-1] > 1 and terms.flags.c_contiguous:
        last = np.add.reduce(terms, axis=axis, dtype=terms.dtype)
    else:
        last = np.take(np.cumsum(terms, axis=axis, dtype=terms.dtype), -1, axis=axis)
    return np.asarray(last + terms.dtype.type(0), terms.dtype)


def lane_add(terms: Array, lanes: int) -> Array:
    """``_lanes.lane_adder`` from zero lanes: element ``i`` of the last axis into lane
    ``i % lanes``, blocks of ``4 * lanes`` added as ``(a + b) + (c + d)``, then whole blocks of
    ``lanes``, then the tail into the first lanes; the ``(..., lanes)`` lanes."""
    m = terms.shape[-1]
    lead = terms.shape[:-1]
    quads = m // (4 * lanes)
    if quads:
        b = terms[..., : quads * 4 * lanes].reshape(*lead, quads, 4, lanes)
        acc = running_total((b[..., 0, :] + b[..., 1, :]) + (b[..., 2, :] + b[..., 3, :]), -2)
    else:
        acc = np.zeros((*lead, lanes), terms.dtype)
    r = quads * 4 * lanes
    while r + lanes <= m:
        acc = acc + terms[..., r : r + lanes]
        r += lanes
    if r < m:
        acc[..., : m - r] += terms[..., r:]
    return acc


def fold(lanes: Array) -> Array:
    """``_lanes.fold``: the lanes' total by the fixed pairwise tree."""
    lanes = lanes.copy()
    h = lanes.shape[-1]
    while h > 1:
        h //= 2
        lanes[..., :h] += lanes[..., h : 2 * h]
    return lanes[..., 0]


def chunked(terms: Array, size: int) -> list[Array]:
    """The last axis of ``terms`` cut into chunks of ``size`` (the full ones as one
    ``(..., k, size)`` array, then the partial one as ``(..., 1, rest)``)."""
    m = terms.shape[-1]
    full = m // size
    parts = []
    if full:
        parts.append(terms[..., : full * size].reshape(*terms.shape[:-1], full, size))
    if m > full * size:
        parts.append(terms[..., full * size :][..., None, :])
    return parts
