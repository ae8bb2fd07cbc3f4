"""Axis arguments: ``normalize_axes`` (None, int, tuple; negatives; duplicates) and the result
shape of a reduction, ``reduce_shape``."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TypeVar

from .errors import AxisRangeError, AxisTypeError, DuplicateAxisError

__all__ = ["normalize_axes", "reduce_shape"]

D = TypeVar("D")


def _as_axis_int(value: object) -> int:
    if isinstance(value, bool):
        raise AxisTypeError(f"axis must be an int or a tuple of ints, got bool {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise AxisTypeError(
            f"axis must be None, an int or a tuple of ints, got {type(value).__name__} {value!r}"
        ) from None


def normalize_axes(axis: object, ndim: int, *, single: bool = False) -> tuple[int, ...]:
    """Return the reduced dims as sorted non-negative ints.

    ``axis`` is ``None`` (every dim), an int or a tuple of ints; negative axes count from the
    end. With ``single=True`` (argmax/argmin) a tuple is rejected. Raises ``AxisRangeError``,
    ``DuplicateAxisError`` or ``AxisTypeError``.

    >>> normalize_axes((-1, 0), 3)
    (0, 2)
    """
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):  # numpy takes tuples only (a list is a TypeError there too)
        if single:
            raise AxisTypeError(
                f"this reduction takes a single axis (an int or None), got the tuple "
                f"{tuple(axis)!r}; reduce over one axis at a time"
            )
        spelled = [_as_axis_int(a) for a in axis]
    else:
        spelled = [_as_axis_int(axis)]
    for a in spelled:  # ranges first, then duplicates, in numpy's order
        if not -ndim <= a < ndim:
            raise AxisRangeError(a, ndim)
    seen: dict[int, int] = {}
    for a in spelled:
        dim = a + ndim if a < 0 else a
        if dim in seen:
            raise DuplicateAxisError(seen[dim], a, dim, ndim)
        seen[dim] = a
    return tuple(sorted(seen))


def reduce_shape(
    dims: Sequence[D], axis: object, keepdims: bool, one: D, *, single: bool = False
) -> tuple[D, ...]:
    """Shape of a reduction of ``dims`` over ``axis``; reduced dims become ``one`` if kept.

    >>> reduce_shape((2, 3, 4), 1, False, 1)
    (2, 4)
    >>> reduce_shape(("B", "C"), -1, True, "1")
    ('B', '1')
    """
    axes = set(normalize_axes(axis, len(dims), single=single))
    if keepdims:
        return tuple(one if i in axes else d for i, d in enumerate(dims))
    return tuple(d for i, d in enumerate(dims) if i not in axes)
