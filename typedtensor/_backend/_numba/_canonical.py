"""The numba backend's canonical form: any (shape, strides, axes) as a C-contiguous array of
merged dims, alternately kept and reduced (``_canon``), and the way back from results in that
order to the caller's axis order (``_finish``, ``_place``, ``_unplace_full``).

Dims of size 1 are dropped, negative strides flipped, adjacent dims of the same kind merged
into groups; a layout that is not a permutation of one contiguous block (slices with gaps,
broadcast views) is copied once in the order its memory runs, which makes it one. ``_split``
names the last reduced group as an ``(O, R, I)`` view for one stage of kernels (``_stages``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._layouts import one_block

Array = npt.NDArray[Any]


@dataclass
class _Canon:
    b: Array  # C-contiguous, shape = sizes of the groups
    groups: list[tuple[int, bool]]  # (size, reduced) per merged group
    perm: list[int]  # every original axis, in the order b's memory follows
    flips: list[int]  # original axes reversed to make strides positive
    copied: bool


def _groups(sizes_red: list[tuple[int, bool]]) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    for size, red in sizes_red:
        if size == 1:
            continue
        if out and out[-1][1] == red:
            out[-1] = (out[-1][0] * size, red)
        else:
            out.append((size, red))
    if not any(red for _, red in out):  # every reduced dim has size 1: a trivial stage
        out.append((1, True))
    return out


def _canon(a: Array, axes: tuple[int, ...], flip_red: bool = True) -> _Canon:
    red = set(axes)
    nd = a.ndim
    ones = [d for d in range(nd) if a.shape[d] == 1]
    dims = [d for d in range(nd) if a.shape[d] != 1]
    flips = [d for d in dims if a.strides[d] < 0]
    ok = (flip_red or not (set(flips) & red)) and one_block(a.shape, a.strides, a.itemsize)
    if not ok:
        # one copy that streams the input in its memory order (dims by decreasing |stride|,
        # ties and each dim in index order): copying into (kept..., reduced...) order instead
        # transposed the memory, 2-4x numpy's time for var/logsumexp of x[::2] over axis 0
        perm = ones + sorted(dims, key=lambda d: -abs(a.strides[d]))
        b = np.ascontiguousarray(a.transpose(perm))
        groups = _groups([(a.shape[d], d in red) for d in perm])
        return _Canon(b.reshape([s for s, _ in groups]), groups, perm, [], True)
    view = a
    if flips:
        index = tuple(slice(None, None, -1) if d in flips else slice(None) for d in range(nd))
        view = a[index]
    perm = ones + sorted(dims, key=lambda d: -view.strides[d])
    groups = _groups([(a.shape[d], d in red) for d in perm])
    b = view.transpose(perm).reshape([s for s, _ in groups])
    return _Canon(b, groups, perm, flips, False)


def _place(c: _Canon, a: Array, axes: tuple[int, ...], res: Array, out: Array) -> Array:
    """Write ``res`` (kept groups in canonical order) into ``out`` (kept dims, original order)."""
    red = set(axes)
    kept = [d for d in c.perm if d not in red]
    r = res.reshape([a.shape[d] for d in kept]).transpose(np.argsort(kept))
    korder = sorted(kept)
    fl = [korder.index(d) for d in c.flips if d not in red]
    if fl:
        r = r[tuple(slice(None, None, -1) if i in fl else slice(None) for i in range(r.ndim))]
    out[...] = r.reshape(out.shape) if r.shape != out.shape else r
    return out


def _unplace_full(c: _Canon, a: Array, full: Array) -> Array:
    """A full-size result computed in canonical order, viewed in the original axis order."""
    r: Array = full.reshape([a.shape[d] for d in c.perm]).transpose(np.argsort(c.perm))
    if c.flips:
        r = r[tuple(slice(None, None, -1) if d in c.flips else slice(None) for d in range(a.ndim))]
    return r


def _split(groups: list[tuple[int, bool]]) -> tuple[int, int, int, int]:
    k = max(i for i, (_, red) in enumerate(groups) if red)
    outer = math.prod(s for s, _ in groups[:k])
    inner = math.prod(s for s, _ in groups[k + 1 :])
    return k, outer, groups[k][0], inner


def _in_numpy_product_order(a: Array, axes: tuple[int, ...]) -> tuple[_Canon, Array] | None:
    """The canonical view of ``a`` as ``(outer, reduced, inner)`` where multiplying along the
    reduced axis repeats numpy's float product order, or ``None`` (let numpy run it). numpy
    multiplies floats one after the other, reduced axes by decreasing |stride|, each in index
    order (negative strides are not flipped), and where a partial product overflows or
    underflows its answer depends on that order (``prod``; ``nanprod`` is ``prod`` of a copy
    with NaN replaced by 1). The canonical copy keeps the reduced axes in index order: numpy's
    when their strides fall; the reduced dims must also form one group."""
    c = _canon(a, axes, flip_red=False)
    steps = [abs(a.strides[d]) for d in axes if a.shape[d] > 1]
    falling = all(s > t for s, t in itertools.pairwise(steps)) and 0 not in steps
    if (c.copied and not falling) or sum(red for _, red in c.groups) != 1:
        return None
    _, o, r, i = _split(c.groups)
    return c, c.b.reshape(o, r, i)


def _rest(groups: list[tuple[int, bool]], k: int) -> list[tuple[int, bool]]:
    return groups[:k] + groups[k + 1 :]


def _kept_shape(a: Array, axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if d in axes else s for d, s in enumerate(a.shape))
    return tuple(s for d, s in enumerate(a.shape) if d not in axes)


def _finish(
    c: _Canon, a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, res: Array
) -> Array:
    red = set(axes)
    kept = [d for d in c.perm if d not in red]
    if kept == sorted(kept) and not any(d not in red for d in c.flips):
        r = res.astype(dtype, copy=False)  # res is a fresh partial: no copy when it fits
        if r.flags.c_contiguous:
            return r.reshape(_kept_shape(a, axes, keepdims))
    out = np.empty(_kept_shape(a, axes, False), dtype=dtype)
    _place(c, a, axes, res, out)
    return out.reshape(_kept_shape(a, axes, keepdims))
