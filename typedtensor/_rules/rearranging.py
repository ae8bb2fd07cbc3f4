"""Shapes of numpy's rearranging functions: ``hstack``/``vstack`` (``concatenate`` after
``atleast_1d``/``atleast_2d``), ``pad`` (constant widths), ``repeat`` and ``tile``, generic over
the dim item with ``DimItems``' keyword arguments: a size computed from a symbolic dim is a
dim expression (``D + 2``, ``3 * D``), never a guess; a size that depends on values the rule
cannot see (a repeats tensor) is ``unknown``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TypeVar

from .dimitems import DimItems
from .errors import AxisTypeError, ShapeMismatchError
from .joining import concat_shape
from .manipulation import single_axis

__all__ = ["hstack_shape", "pad_shape", "pad_widths", "repeat_shape", "tile_shape", "vstack_shape"]

D = TypeVar("D")


def _one(items: DimItems[D]) -> D:
    return items.make_dim(1)


def hstack_shape(shapes: Sequence[Sequence[D]], **items: object) -> tuple[D, ...]:
    """numpy's ``hstack``: rank-0 tensors as ``(1,)``; joined along dim 0 when the first
    tensor is rank 1, else along dim 1 (``concat_shape``'s rules: the sizes add up).

    >>> hstack_shape([(2, 3), (2, 4)]), hstack_shape([(3,), (4,)]), hstack_shape([(), ()])
    ((2, 7), (7,), (2,))
    """
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    lifted = [tuple(s) if len(s) else (_one(it),) for s in shapes]
    axis = 0 if lifted and len(lifted[0]) == 1 else 1
    return concat_shape(lifted, axis, **items)  # type: ignore[arg-type]


def vstack_shape(shapes: Sequence[Sequence[D]], **items: object) -> tuple[D, ...]:
    """numpy's ``vstack``: rank-0 tensors as ``(1, 1)``, rank-1 ``(N,)`` as ``(1, N)``, joined
    along dim 0.

    >>> vstack_shape([(2, 3), (4, 3)]), vstack_shape([(3,), (3,)])
    ((6, 3), (2, 3))
    """
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    one = _one(it)
    lifted = [
        (one, one) if not len(s) else (one, s[0]) if len(s) == 1 else tuple(s) for s in shapes
    ]
    return concat_shape(lifted, 0, **items)  # type: ignore[arg-type]


def _count(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise AxisTypeError(f"{what} must be ints, got {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise AxisTypeError(f"{what} must be ints, got {type(value).__name__} {value!r}") from None


def _nonnegative_int(value: object, what: str) -> int:
    n = _count(value, what)
    if n < 0:
        raise ShapeMismatchError(f"{what} must be >= 0, got {n}")
    return n


def _negative_count(it: DimItems[D], dim: D, k: int, what: str) -> D:
    """A negative count: numpy accepts it only for an empty dim (the result stays empty)."""
    size = it.size_of(dim)
    if size == 0:
        return dim
    raise ShapeMismatchError(
        f"{what} must be >= 0, got {k} (numpy takes a negative count only for an empty dim, "
        f"and this dim is {it.render_dim(dim)})",
        symbolic=size is None,
    )


def pad_widths(pad_width: object, ndim: int) -> list[tuple[int, int]]:
    """``(before, after)`` per dim from numpy's spellings of ``pad_width`` (broadcast to
    ``(ndim, 2)`` as numpy does): ``1``, ``(1,)``, ``(1, 2)``, ``((1, 2),)``, one pair per dim.

    >>> pad_widths(1, 2), pad_widths((1, 2), 2), pad_widths(((1, 2), (0, 3)), 2)
    ([(1, 1), (1, 1)], [(1, 2), (1, 2)], [(1, 2), (0, 3)])
    """
    spelled = f"pad_width {pad_width!r}"
    rows: list[list[object]]
    if isinstance(pad_width, (list, tuple)):
        if pad_width and all(isinstance(r, (list, tuple)) for r in pad_width):
            rows = [list(r) for r in pad_width]
            if len({len(r) for r in rows}) != 1:
                raise ShapeMismatchError(f"{spelled} is ragged; give one (before, after) per dim")
        elif any(isinstance(r, (list, tuple)) for r in pad_width):
            raise ShapeMismatchError(f"{spelled} mixes numbers and pairs; give pairs per dim")
        else:
            rows = [list(pad_width)]
    else:
        rows = [[pad_width]]
    width = len(rows[0])
    if len(rows) not in (1, ndim) or width not in (1, 2):
        raise ShapeMismatchError(
            f"{spelled} does not fit a rank-{ndim} tensor: numpy takes an int, (before, after) "
            f"or {ndim} pairs ((before, after) per dim)"
        )
    values = [[_nonnegative_int(v, "pad widths") for v in r] for r in rows]
    pairs = [(r[0], r[-1]) for r in values]
    return pairs * ndim if len(pairs) == 1 else pairs


def pad_shape(dims: Sequence[D], pad_width: object, **items: object) -> tuple[D, ...]:
    """``pad(x, pad_width)``: each dim grows by its ``before + after`` (``D + 2`` for a
    symbolic ``D``).

    >>> pad_shape((2, 3), 1), pad_shape((2, 3), ((0, 1), (2, 3)))
    ((4, 5), (3, 8))
    """
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    widths = pad_widths(pad_width, len(dims))
    return tuple(
        it.plus(d, before + after) for d, (before, after) in zip(dims, widths, strict=True)
    )


def repeat_shape(
    dims: Sequence[D], repeats: object, axis: object = None, **items: object
) -> tuple[D, ...]:
    """``repeat(x, repeats, axis)`` with literal repeats: a count ``k`` multiplies the dim
    (``k * D``), a list of counts (one per element, or one for all) sums them; ``axis=None``
    repeats the flattened tensor. ``repeats=None`` stands for counts not known statically.

    >>> repeat_shape((2, 3), 2, 0), repeat_shape((2, 3), 2), repeat_shape((2, 3), [1, 0, 2], 1)
    ((4, 3), (12,), (2, 3))
    """
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    if axis is None:
        at, target = 0, [it.product(dims)]
    else:  # numpy repeats a rank-0 tensor as a rank-1 one along axis 0 or -1
        target = list(dims) if len(dims) else [_one(it)]
        at = single_axis(axis, len(target))
    target[at] = _repeated(it, target[at], repeats)
    return tuple(target)


def _repeated(it: DimItems[D], dim: D, repeats: object) -> D:
    if repeats is None:
        return it.unknown  # type: ignore[return-value]
    if not isinstance(repeats, (list, tuple)) or len(repeats) == 1:
        k = _count(repeats[0] if isinstance(repeats, (list, tuple)) else repeats, "repeats")
        return it.scaled(dim, k) if k >= 0 else _negative_count(it, dim, k, "repeats")
    counts = [_nonnegative_int(r, "repeats") for r in repeats]
    size = it.size_of(dim)
    if size is None:
        if it.read(dim) is not None:  # a symbol: the list's length must equal it
            raise ShapeMismatchError(
                f"repeats lists {len(counts)} counts for a dim of symbolic size "
                f"{it.render_dim(dim)}; give one count (or as many as the dim has elements)",
                symbolic=True,
            )
        return it.unknown  # type: ignore[return-value]
    if size != len(counts):
        raise ShapeMismatchError(
            f"repeats lists {len(counts)} counts for a dim of size {size}; give one count for "
            "all elements or one per element"
        )
    return it.make_dim(sum(counts))


def tile_shape(dims: Sequence[D], reps: object, **items: object) -> tuple[D, ...]:
    """numpy's ``tile``: ``reps`` (an int or a tuple) and the shape are padded with leading
    1s to the same length; each dim is multiplied by its count.

    >>> tile_shape((2, 3), (2, 1)), tile_shape((3,), (2, 2)), tile_shape((2, 3), 2)
    ((4, 3), (2, 6), (2, 6))
    """
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    spelled = tuple(reps) if isinstance(reps, (list, tuple)) else (reps,)
    counts = [_count(r, "tile reps") for r in spelled]
    n = max(len(counts), len(dims))
    counts = [1] * (n - len(counts)) + counts
    padded = [_one(it)] * (n - len(dims)) + list(dims)
    if any(k < 0 for k in counts):  # numpy: only where the tensor is empty (no copy made)
        if 0 not in (it.size_of(d) for d in padded):
            _negative_count(it, it.product(padded), min(counts), "tile reps")
        return tuple(
            d if k >= 0 else _negative_count(it, d, k, "tile reps")
            for d, k in zip(padded, counts, strict=True)
        )
    return tuple(d if k == 1 else it.scaled(d, k) for d, k in zip(padded, counts, strict=True))
