"""Indexing shapes (numpy's basic and advanced indexing): ``slice_length``, ``index_shape`` and
``assign_check`` for ``x[index] = value``.

An index is an item or a tuple of items; an item is an ``int``, a ``slice`` of ints/None,
``None`` (a new axis of size 1), ``Ellipsis``, or one of the markers below for what is not known
statically (``UnknownInt``, ``UnknownSlice``) or depends on data (``ArrayIndex``: an integer
array or a boolean mask, whose selected sizes are known only at run time).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .broadcast import broadcast_shapes
from .errors import (
    AssignShapeError,
    BroadcastError,
    IndexFormError,
    IndexRangeError,
    SliceStepError,
    SymbolicIndexError,
)

__all__ = [
    "ArrayIndex",
    "UnknownInt",
    "UnknownSlice",
    "assign_check",
    "index_shape",
    "slice_length",
]

D = TypeVar("D")


@dataclass(frozen=True)
class UnknownInt:
    """An int index whose value is not known statically (the dim is removed, unchecked)."""


@dataclass(frozen=True)
class UnknownSlice:
    """A slice whose bounds or step are not all known statically."""


@dataclass(frozen=True)
class ArrayIndex(Generic[D]):
    """An integer array (``boolean=False``) or a boolean mask: ``shape`` is the index array's
    shape (dim items), ``None`` if its rank is unknown."""

    shape: tuple[D, ...] | None
    boolean: bool = False


def slice_length(start: int | None, stop: int | None, step: int | None, size: int) -> int:
    """Number of elements ``x[start:stop:step]`` selects from a dim of ``size`` (numpy's
    clamping; negative bounds count from the end; negative steps walk backwards). Raises
    ``SliceStepError`` for step 0.

    >>> slice_length(1, None, None, 5), slice_length(None, None, -2, 5)
    (4, 3)
    >>> slice_length(-10, 2, 1, 5)
    2
    """
    if step == 0:
        raise SliceStepError("slice step cannot be zero; use a positive or a negative step")
    return len(range(*slice(start, stop, step).indices(size)))


def _keeps_length(s: slice) -> bool:
    """Whether ``s`` selects every element of any dim: ``:``, ``0:``, ``::1``, ``::-1``."""
    if s.step == -1:
        return s.start is None and s.stop is None
    return s.start in (None, 0) and s.stop is None and s.step in (None, 1)


def _consumes(item: object) -> int | None:
    if item is None or item is Ellipsis:
        return 0
    if isinstance(item, ArrayIndex) and item.boolean:
        return None if item.shape is None else len(item.shape)
    return 1


def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) and not isinstance(d, bool) else None


def index_shape(
    dims: Sequence[D],
    index: object,
    *,
    make: Callable[[int], D],
    unknown: D,
    size_of: Callable[[D], int | None] = _int_size,
    is_symbolic: Callable[[D], bool] | None = None,
    render_dim: Callable[[D], str] = str,
) -> tuple[D, ...] | None:
    """Result shape of ``x[index]`` for ``x`` of shape ``dims``; ``None`` where the rank itself
    is not known (an index array or mask of unknown rank).

    ints drop their dim (checked against a known size: ``IndexRangeError``); slices give their
    exact length on a known size (``make(n)``), keep a symbolic or unknown dim when they select
    all of it (``:``, ``::-1``), else ``unknown``; ``None`` adds a dim of 1; ``...`` stands for
    the dims not indexed. Integer arrays and masks select data-dependent sizes: their dims
    (broadcast together, a mask counting as one ``unknown`` dim) replace the indexed dims in
    place when the array indices (ints included) are adjacent, else come first, as in numpy.
    Too many indices, two ellipses or a mask of the wrong shape raise ``IndexFormError``.

    >>> index_shape((4, 5, 6), (0, slice(1, None), None), make=int, unknown=-1)
    (4, 1, 6)
    >>> index_shape(("B", 5), (Ellipsis, slice(None, None, 2)), make=str, unknown="?",
    ...             size_of=lambda d: d if isinstance(d, int) else None)
    ('B', '3')
    """
    items = index if isinstance(index, tuple) else (index,)
    if sum(1 for i in items if i is Ellipsis) > 1:
        raise IndexFormError("an index can only have a single ellipsis ('...')")
    counts = [_consumes(i) for i in items]
    if any(c is None for c in counts) or any(
        isinstance(i, ArrayIndex) and i.shape is None for i in items
    ):
        return None
    total = sum(c for c in counts if c is not None)
    rank = len(dims)
    if total > rank:
        raise IndexFormError(
            f"too many indices for a rank-{rank} tensor: the index selects {total} dims"
        )
    if any(i is Ellipsis for i in items):
        at = next(k for k, i in enumerate(items) if i is Ellipsis)
        fill: tuple[object, ...] = (slice(None),) * (rank - total)
        expanded = (*items[:at], *fill, *items[at + 1 :])
    else:
        expanded = (*items, *(slice(None),) * (rank - total))
    advanced = any(isinstance(i, ArrayIndex) for i in expanded)
    out: list[tuple[D] | None] = []  # a result dim, or None where the advanced dims go
    arrays: list[tuple[D, ...]] = []
    pos = 0
    for item in expanded:
        if item is None:
            out.append((make(1),))
            continue
        if isinstance(item, ArrayIndex):
            assert item.shape is not None
            if item.boolean:
                k = len(item.shape)
                symbol = is_symbolic or (lambda d: False)
                for j, (m, d) in enumerate(zip(item.shape, dims[pos : pos + k], strict=True)):
                    sm, sd = size_of(m), size_of(d)
                    if sm is not None and sd is not None and sm != sd:
                        raise IndexFormError(
                            f"boolean index did not match the indexed tensor along dim "
                            f"{pos + j}: the dim has size {sd} but the mask has size {sm}"
                        )
                    ym, yd = sm is None and symbol(m), sd is None and symbol(d)
                    if (ym or yd) and m != d and (ym or sm is not None) and (yd or sd is not None):
                        raise SymbolicIndexError(  # a symbol matches only itself
                            f"boolean index may not match the indexed tensor along dim "
                            f"{pos + j}: the dim is {render_dim(d)} but the mask's is "
                            f"{render_dim(m)}, equal only for "
                            "some sizes; give the mask the indexed tensor's dims"
                        )
                arrays.append((unknown,))
                pos += k
            else:
                arrays.append(item.shape)
                pos += 1
            out.append(None)
            continue
        dim = dims[pos]
        size = size_of(dim)
        if isinstance(item, bool) or not isinstance(item, (int, UnknownInt, slice, UnknownSlice)):
            raise IndexFormError(
                f"unsupported index item {item!r}: use ints, slices, None, ... or integer / "
                "boolean arrays"
            )
        if isinstance(item, (int, UnknownInt)):
            if isinstance(item, int) and size is not None and not -size <= item < size:
                raise IndexRangeError(item, pos, size)
            if advanced:
                arrays.append(())
                out.append(None)
        elif isinstance(item, slice):
            if item.step == 0:
                slice_length(0, 0, 0, 0)  # raises SliceStepError
            if size is not None:
                out.append((make(slice_length(item.start, item.stop, item.step, size)),))
            else:
                out.append((dim,) if _keeps_length(item) else (unknown,))
        else:
            out.append((unknown,))
        pos += 1
    if not advanced:
        return tuple(d[0] for d in out if d is not None)
    symbolic = is_symbolic or (lambda d: False)
    try:
        adv = broadcast_shapes(*arrays, size_of=size_of, unknown=unknown, is_symbolic=symbolic)
    except BroadcastError as err:
        raise IndexFormError(f"the index arrays cannot be broadcast together: {err}") from None
    slots = [k for k, d in enumerate(out) if d is None]
    basic = [d[0] for d in out if d is not None]
    if slots[-1] - slots[0] + 1 == len(slots):  # adjacent: in place
        before = sum(1 for d in out[: slots[0]] if d is not None)
        return (*basic[:before], *adv, *basic[before:])
    return (*adv, *basic)


def assign_check(
    target: Sequence[D],
    value: Sequence[D],
    *,
    size_of: Callable[[D], int | None] = _int_size,
    is_symbolic: Callable[[D], bool] | None = None,
    render: Callable[[Sequence[D]], str] | None = None,
) -> None:
    """Check that ``value`` broadcasts to ``target`` (``x[index] = value``): aligned from the
    right, each value dim is 1 or the target dim, extra leading value dims are 1. An unknown
    target dim accepts any value dim. Raises ``AssignShapeError``.

    >>> assign_check((4, 3), (1, 3))
    >>> assign_check((4, 3), (2, 3))  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    AssignShapeError: cannot assign a value of shape (2, 3) to an indexed shape (4, 3)
    """
    show = render or (lambda s: str(tuple(s)))
    symbolic = is_symbolic or (lambda d: False)
    lead = len(value) - len(target)
    for i, v in enumerate(value):
        t = target[i - lead] if i >= lead else None
        sv = size_of(v)
        if t is None:
            if sv == 1 or (sv is None and not symbolic(v)):
                continue
            problem = f"value dim {_text(v, sv)} at position {i - len(value)} is not 1"
        else:
            st = size_of(t)
            if (
                sv == 1
                or v == t
                or (st is None and not symbolic(t))
                or (sv is None and not symbolic(v) and st is not None)
            ):
                continue
            if sv is not None and st is not None and sv == st:
                continue
            problem = (
                f"value dim {_text(v, sv)} at position {i - len(value)} is neither 1 nor "
                f"{_text(t, st)}"
            )
        raise AssignShapeError(
            f"cannot assign a value of shape {show(value)} to an indexed shape "
            f"{show(target)}: {problem}"
        )


def _text(d: object, size: int | None) -> str:
    return str(size) if size is not None else str(d)
