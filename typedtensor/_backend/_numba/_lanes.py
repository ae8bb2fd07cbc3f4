# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""Horizontal float accumulation in an order the code defines, not the compiler.

With the ``reassoc`` fast-math flag LLVM picks a loop's vector width, its interleave and the
tree that combines the partial sums at the end, and it may pick differently each time it
optimises the same code. numba optimises a helper once on its own and again inside each
kernel that links it in: a kernel compiled in the running process calls the first copy, the
same kernel loaded from the disk cache its own (``tests/runtime/test_cache_determinism.py``),
and a parallel kernel a third. So the order-sensitive families (sums, norms, products,
moments, logsumexp) compile without ``reassoc`` (``EXACT``) and reach SIMD speed through
explicit lanes: element ``i`` of a run goes to lane ``i % LANES``, each lane adds its elements
four blocks of ``LANES`` at a time (``(a + b) + (c + d)``), and ``fold`` combines the lanes by a
fixed pairwise tree. An elementwise loop over the lanes vectorises without ``reassoc``, and its
result is the same whatever vector width LLVM picks. The lane count is read from the lane
array's length at run time so that LLVM does not unroll the lane loop into scalars.

The sums take their lane count from the run's length (``lanes_for``: a pure function of the
shape, never of the threads or the route): a short run pays per lane to fill, spill and fold
them, a long one streaming from memory keeps more loads in flight with more lanes. The kernel
allocates each count's lanes in a branch of its own, so that LLVM knows the lane loops' trip
count (``benchmarks/bench_exact_lanes.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit

from ._primitives import _as

#: fast-math flags of the order-sensitive families: none (``nsz`` would let the sign of a zero
#: total depend on what LLVM folds, ``contract`` whether a product and a sum fuse)
EXACT = False
#: lanes per run of the moments, logsumexp and NaN-aware families: 32 float32 (four AVX2
#: vectors) keep loads in flight
LANES = 32
#: the sums' lane counts (``lanes_for``): one AVX2 vector of float32 for runs shorter than
#: SHORT_RUN, four from there (measured against 64: ``benchmarks/README.md``, "Lane count")
MIN_LANES = 8
MAX_LANES = 32
SHORT_RUN = 512


@njit(inline="always")
def lanes_for(n: int) -> int:
    """The sums' lane count for a run of ``n`` elements: ``MIN_LANES`` below ``SHORT_RUN``,
    else ``MAX_LANES``."""
    return MIN_LANES if n < SHORT_RUN else MAX_LANES


def lane_adder(elem: Callable[..., Any]) -> Any:
    """``add(seg, lanes, c)``: ``lanes[i % L] += elem(lanes[0], c, seg[i])`` for every ``i`` of
    the 1-D ``seg``, in a fixed order; ``elem(z, c, v)`` maps an element ``v`` into the lanes'
    type ``type(z)`` with the run's constant ``c`` (a mean, a power, a shift)."""

    @njit(fastmath=EXACT, inline="always")
    def add(seg: Any, lanes: Any, c: Any) -> None:
        nl = lanes.shape[0]
        m = seg.shape[0]
        z = lanes[0]
        r = 0
        while r + 4 * nl <= m:
            a = seg[r : r + nl]
            b = seg[r + nl : r + 2 * nl]
            d = seg[r + 2 * nl : r + 3 * nl]
            e = seg[r + 3 * nl : r + 4 * nl]
            for k in range(nl):
                lanes[k] += (elem(z, c, a[k]) + elem(z, c, b[k])) + (
                    elem(z, c, d[k]) + elem(z, c, e[k])
                )
            r += 4 * nl
        while r + nl <= m:
            a = seg[r : r + nl]
            for k in range(nl):
                lanes[k] += elem(z, c, a[k])
            r += nl
        for i in range(r, m):
            lanes[i - r] += elem(z, c, seg[i])

    return add


@njit(fastmath=EXACT, inline="always")
def fill(lanes: Any, v: Any) -> None:
    """Every lane set to ``v``."""
    for k in range(lanes.shape[0]):
        lanes[k] = v


@njit(fastmath=EXACT, inline="always")
def spill(lanes: Any, into: Any) -> None:
    """``into[k] += lanes[k]`` (converted to ``into``'s type), lane by lane."""
    z = into[0]
    for k in range(lanes.shape[0]):
        into[k] += _as(z, lanes[k])


@njit(fastmath=EXACT, inline="always")
def fold(lanes: Any) -> Any:
    """The lanes' total by a fixed pairwise tree (``LANES`` a power of two); the lanes are
    overwritten."""
    h = lanes.shape[0]
    while h > 1:
        h //= 2
        for k in range(h):
            lanes[k] += lanes[k + h]
    return lanes[0]


@njit(fastmath=EXACT, inline="always")
def _value(z: Any, c: Any, v: Any) -> Any:
    return _as(z, v)


@njit(fastmath=EXACT, inline="always")
def _squared_deviation(z: Any, c: Any, v: Any) -> Any:
    w = _as(z, v) - c
    return w * w


add_values = lane_adder(_value)
#: ``(v - c)**2`` with ``c`` in the lanes' type: a chunk's second pass around its mean
add_squared_deviations = lane_adder(_squared_deviation)
