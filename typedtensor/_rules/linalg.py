"""Linear algebra shapes: ``matmul_shape`` (numpy's ``matmul``/``@``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .broadcast import ExprOf, broadcast_shapes, never_equal
from .errors import BroadcastError, MatmulShapeError, SymbolicBroadcastError

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
    expr_of: ExprOf[D] | None = None,
) -> tuple[D, ...]:
    """Result shape of ``a @ b`` (numpy's ``matmul``).

    A 1-D left operand is promoted to ``(1, n)`` and a 1-D right operand to ``(n, 1)``; the
    added dim is removed from the result. The batch dims (all but the last two) broadcast by
    ``broadcast_shapes`` (symbolic dims as there). The inner dims (``a[-1]`` and ``b[-2]``)
    must be equal: two known sizes that differ, a symbolic dim (``is_symbolic``) against a
    known size or another symbol raise ``MatmulShapeError`` naming both; an unknown dim
    (``Any``) matches anything (numpy checks it at run time). The error is ``symbolic`` unless
    the dims provably differ for every size (``never_equal`` over ``expr_of``'s dim
    expressions: ``B + 1`` against ``B``). A rank-0 operand raises ``MatmulShapeError``.

    >>> matmul_shape((8, 2, 3), (3, 4))
    (8, 2, 4)
    >>> matmul_shape((3,), (3,))
    ()
    >>> matmul_shape(("B", "T", "D"), ("D", "K"), size_of=lambda d: None)
    ('B', 'T', 'K')
    """
    show = render or (lambda s: str(tuple(s)))
    shapes = f"shapes {show(a)} and {show(b)}"
    text = render_dim or (lambda d: str(size_of(d) if size_of(d) is not None else d))
    for side, dims in (("left", a), ("right", b)):
        if len(dims) == 0:
            raise MatmulShapeError(
                f"matmul needs operands of rank >= 1, but the {side} operand is rank 0",
                shapes,
                "multiply by a scalar with `*` instead",
            )
    inner_a = a[-1]
    inner_b = b[-2] if len(b) >= 2 else b[0]
    sa, sb = size_of(inner_a), size_of(inner_b)
    ya = sa is None and is_symbolic(inner_a)
    yb = sb is None and is_symbolic(inner_b)
    if (sa is not None and sb is not None and sa != sb) or (
        (ya or yb) and (sa is not None or sb is not None or (ya and yb and inner_a != inner_b))
    ):
        where_b = "second-to-last" if len(b) >= 2 else "only"
        different = (ya or yb) and never_equal(inner_a, inner_b, expr_of)
        raise MatmulShapeError(
            f"matmul inner dims differ: the left operand's last dim is {text(inner_a)} but "
            f"the right operand's {where_b} dim is {text(inner_b)}",
            shapes,
            "they must be equal (transpose an operand?)"
            + ("; they differ for every size of the symbols" if different else ""),
            symbolic=(ya or yb) and not different,  # provably different: a shape error
        )
    try:
        batch = broadcast_shapes(
            a[:-2] if len(a) >= 2 else (),
            b[:-2] if len(b) >= 2 else (),
            size_of=size_of,
            unknown=unknown,
            is_symbolic=is_symbolic,
            render_dim=render_dim,
            expr_of=expr_of,
        )
    except BroadcastError as err:
        left: D = err.left  # type: ignore[assignment]
        right: D = err.right  # type: ignore[assignment]
        symbolic = isinstance(err, SymbolicBroadcastError)
        raise MatmulShapeError(
            f"matmul batch dims cannot broadcast: dim {text(left)} with dim {text(right)}",
            shapes,
            "the dims before the last two must broadcast as in elementwise operations"
            + ("" if symbolic else _never_text(left, right, is_symbolic)),
            symbolic=symbolic,
        ) from None
    rows = (a[-2],) if len(a) >= 2 else ()
    cols = (b[-1],) if len(b) >= 2 else ()
    return (*batch, *rows, *cols)


def _never_text(left: D, right: D, is_symbolic: Callable[[D], bool]) -> str:
    """The note for two batch dims, one symbolic, that provably never broadcast."""
    if is_symbolic(left) or is_symbolic(right):
        return "; these differ, and neither is 1, for every size of the symbols"
    return ""
