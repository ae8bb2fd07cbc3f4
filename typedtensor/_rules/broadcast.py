"""Broadcasting over dim items (``broadcast_shapes``) and its inverse, ``reduce_to_shape``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .errors import BroadcastError, ReduceToShapeError

__all__ = ["broadcast_shapes", "reduce_to_shape"]

D = TypeVar("D")


def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) else None


def broadcast_shapes(
    *shapes: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    unknown: D | None = None,
    render: Callable[[Sequence[D]], str] | None = None,
) -> tuple[D, ...]:
    """numpy broadcasting over dim items.

    A known size of 1 yields to the other dim; two equal items are kept; a known size other
    than 1 against a symbolic/unknown dim is the result (the other must be 1 or equal at run
    time); two different symbolic/unknown dims give ``unknown``. Raises ``BroadcastError``
    when two known sizes differ and neither is 1.

    >>> broadcast_shapes((8, 1), (3,))
    (8, 3)
    """
    if not shapes:
        return ()
    show = render or (lambda s: str(tuple(s)))
    result: list[D] = list(shapes[0])
    result_src = shapes[0]
    for shape in shapes[1:]:
        n = max(len(result), len(shape))
        left = [None] * (n - len(result)) + list(result)
        right = [None] * (n - len(shape)) + list(shape)
        merged: list[D] = []
        for i, (a, b) in enumerate(zip(left, right, strict=True)):
            position = i - n
            if a is None:
                merged.append(b)  # type: ignore[arg-type]
                continue
            if b is None:
                merged.append(a)
                continue
            sa, sb = size_of(a), size_of(b)
            if sa is not None and sb is not None:
                if sa == sb or sb == 1:
                    merged.append(a)
                elif sa == 1:
                    merged.append(b)
                else:
                    raise BroadcastError(
                        position,
                        a,
                        b,
                        f"cannot broadcast dim {sa} with dim {sb} at position {position}: "
                        f"shapes {show(result_src)} and {show(shape)}",
                    )
            elif sa is not None:
                merged.append(b if sa == 1 else a)
            elif sb is not None:
                merged.append(a if sb == 1 else b)
            elif a == b:
                merged.append(a)
            else:
                merged.append(unknown)  # type: ignore[arg-type]
        result = merged
        result_src = shape if len(shape) >= len(result_src) else result_src
    return tuple(result)


def reduce_to_shape(
    src: Sequence[D],
    dst: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    render: Callable[[Sequence[D]], str] | None = None,
) -> tuple[int, ...]:
    """Axes of ``src`` to reduce so that the result (keepdims) broadcasts to ``dst``'s shape.

    oneDNN-style: each dst dim equals the src dim or is 1 (reduced, kept as 1). ``dst`` may have
    a lower rank; its missing leading dims are reduced and dropped (the inverse of
    broadcasting). The caller reduces over the returned axes with keepdims and then drops the
    leading ``len(src) - len(dst)`` dims. Pairs that cannot be decided (symbolic dims) are
    treated as kept. Raises ``ReduceToShapeError``.

    >>> reduce_to_shape((8, 3, 32, 32), (1, 3, 1, 1))
    (0, 2, 3)
    """
    show = render or (lambda s: str(tuple(s)))
    if len(dst) > len(src):
        raise ReduceToShapeError(
            f"cannot reduce shape {show(src)} to {show(dst)}: the target has more dims "
            f"({len(dst)}) than the source ({len(src)})"
        )
    lead = len(src) - len(dst)
    axes = list(range(lead))
    for i, (s, d) in enumerate(zip(src[lead:], dst, strict=True)):
        sd, ss = size_of(d), size_of(s)
        if sd == 1:
            if ss != 1:
                axes.append(lead + i)
        elif sd is not None and ss is not None and sd != ss:
            raise ReduceToShapeError(
                f"cannot reduce shape {show(src)} to {show(dst)}: target dim {sd} at position "
                f"{i - len(dst)} is neither 1 nor the source dim {ss}"
            )
    return tuple(axes)
