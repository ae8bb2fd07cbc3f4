"""Linear algebra shapes: ``matmul_shape`` (numpy's ``matmul``/``@``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .broadcast import broadcast_shapes
from .errors import MatmulShapeError

__all__ = ["matmul_shape"]

D = TypeVar("D")


def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) and not isinstance(d, bool) else None


def _never_symbolic(d: object) -> bool:
    return False


def matmul_shape(
    a: Sequence[D],
    b: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    unknown: D | None = None,
    render: Callable[[Sequence[D]], str] | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render_dim: Callable[[D], str] | None = None,
) -> tuple[D, ...]:
    """Result shape of ``a @ b`` (numpy's ``matmul``).

    A 1-D left operand is promoted to ``(1, n)`` and a 1-D right operand to ``(n, 1)``; the
    added dim is removed from the result. The batch dims (all but the last two) broadcast by
    ``broadcast_shapes`` (symbolic dims as there). The inner dims (``a[-1]`` and ``b[-2]``)
    must be equal: two known sizes that differ, a symbolic dim (``is_symbolic``) against a
    known size or another symbol raise ``MatmulShapeError`` naming both; an unknown dim
    (``Any``) matches anything (numpy checks it at run time). A rank-0 operand raises
    ``MatmulShapeError``.

    >>> matmul_shape((8, 2, 3), (3, 4))
    (8, 2, 4)
    >>> matmul_shape((3,), (3,))
    ()
    >>> matmul_shape(("B", "T", "D"), ("D", "K"), size_of=lambda d: None)
    ('B', 'T', 'K')
    """
    show = render or (lambda s: str(tuple(s)))
    for side, dims in (("left", a), ("right", b)):
        if len(dims) == 0:
            raise MatmulShapeError(
                f"matmul needs operands of rank >= 1, but the {side} operand is rank 0 "
                f"(shapes {show(a)} and {show(b)}); multiply a scalar with `*` instead"
            )
    left = list(a) if len(a) >= 2 else None
    right = list(b) if len(b) >= 2 else None
    inner_a = a[-1]
    inner_b = b[-2] if len(b) >= 2 else b[0]
    sa, sb = size_of(inner_a), size_of(inner_b)
    ya = sa is None and is_symbolic(inner_a)
    yb = sb is None and is_symbolic(inner_b)
    if (sa is not None and sb is not None and sa != sb) or (
        (ya or yb) and (sa is not None or sb is not None or (ya and yb and inner_a != inner_b))
    ):
        text = render_dim or (lambda d: str(size_of(d) if size_of(d) is not None else d))
        where_b = "second-to-last" if len(b) >= 2 else "only"
        raise MatmulShapeError(
            f"matmul inner dims differ: the left operand's last dim is {text(inner_a)} but "
            f"the right operand's {where_b} dim is {text(inner_b)} (shapes {show(a)} and "
            f"{show(b)}); they must be equal (transpose an operand?)"
        )
    batch_a = a[:-2] if left is not None else ()
    batch_b = b[:-2] if right is not None else ()
    batch = broadcast_shapes(
        batch_a,
        batch_b,
        size_of=size_of,
        unknown=unknown,
        render=render,
        is_symbolic=is_symbolic,
        render_dim=render_dim,
    )
    rows = (a[-2],) if left is not None else ()
    cols = (b[-1],) if right is not None else ()
    return (*batch, *rows, *cols)
