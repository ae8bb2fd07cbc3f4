"""Broadcasting over dim items (``broadcast_shapes``) and its inverse, ``reduce_to_shape``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .dimexpr import DimExpr
from .dimexpr_relations import Relation, relation
from .errors import BroadcastError, ReduceToShapeError, SymbolicBroadcastError

__all__ = [
    "broadcast_shapes",
    "never_broadcast",
    "never_equal",
    "never_one",
    "reduce_to_shape",
    "same_dim",
]

D = TypeVar("D")
ExprOf = Callable[[D], "DimExpr | None"]
_ONE = DimExpr.const(1)


def same_dim(a: D, b: D, expr_of: ExprOf[D] | None) -> bool:
    """Whether dims ``a`` and ``b`` are one size: the same item, or equal expressions read by
    ``expr_of`` (an exact ``D // 2`` from a split and a ``D // 2`` computed as a value are
    two plugin types but one size)."""
    if a == b:
        return True
    if expr_of is None:
        return False
    ea, eb = expr_of(a), expr_of(b)
    return ea is not None and eb is not None and relation(ea, eb) is Relation.EQUAL


def never_equal(a: D, b: D, expr_of: ExprOf[D] | None) -> bool:
    """Whether dims ``a`` and ``b`` differ for every size >= 1 of their symbols (``B + 1``
    and ``B``, ``2 * B`` and ``3``), as dim expressions read by ``expr_of``; ``False``
    without ``expr_of``, for an unknown dim, and where it cannot be proved."""
    if expr_of is None:
        return False
    ea, eb = expr_of(a), expr_of(b)
    return ea is not None and eb is not None and relation(ea, eb) is Relation.DIFFERENT


def never_broadcast(a: D, b: D, expr_of: ExprOf[D] | None) -> bool:
    """Whether ``a`` and ``b`` fail to broadcast for every size >= 1 of their symbols: they
    never agree and neither is ever 1 (``2 * B`` and ``2 * B + 1``; not ``B`` and ``B + 1``,
    which broadcast for ``B = 1``)."""
    if expr_of is None or not never_equal(a, b, expr_of):
        return False
    ea, eb = expr_of(a), expr_of(b)
    assert ea is not None and eb is not None  # never_equal read both
    return never_one(a, expr_of) and never_one(b, expr_of)


def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) else None


def _never_symbolic(d: object) -> bool:
    return False


def _dim_text(d: object, size: int | None) -> str:
    return str(size) if size is not None else str(d)


_FAIL = object()


def never_one(d: D, expr_of: ExprOf[D] | None) -> bool:
    """Whether dim ``d`` is not 1 for any size >= 1 of its symbols (``2 * B``, ``B + 1``; not
    ``B``, ``B - 1``), as a dim expression read by ``expr_of``; ``False`` where unreadable."""
    expr = expr_of(d) if expr_of is not None else None
    return expr is not None and relation(expr, _ONE) is Relation.DIFFERENT


def _broadcast_pair(
    a: D,
    b: D,
    sa: int | None,
    sb: int | None,
    ya: bool,
    yb: bool,
    unknown: D | None,
    expr_of: ExprOf[D] | None,
) -> object:
    """One aligned pair of dims (sizes ``sa``/``sb``, symbolic ``ya``/``yb``), or ``_FAIL``."""
    if sa is not None and sb is not None:  # two known sizes
        return a if sa == sb or sb == 1 else b if sa == 1 else _FAIL
    if sa == 1:  # a known 1 yields to anything
        return b
    if sb == 1:
        return a
    if ya and yb:  # two symbols: only the same one
        return a if same_dim(a, b, expr_of) else _FAIL
    # a symbol against a known n != 1 fails; against an unknown dim it is the symbol where that
    # is never 1 (2 * B: the unknown dim must be 1 or equal), else unknown (B = 1 stretches)
    if ya:
        return _FAIL if sb is not None else a if never_one(a, expr_of) else unknown
    if yb:
        return _FAIL if sa is not None else b if never_one(b, expr_of) else unknown
    if sa is not None:  # an unknown dim against a known n: n (gradual)
        return a
    if sb is not None:
        return b
    return a if a == b else unknown


def broadcast_shapes(
    *shapes: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    unknown: D | None = None,
    render: Callable[[Sequence[D]], str] | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render_dim: Callable[[D], str] | None = None,
    expr_of: ExprOf[D] | None = None,
) -> tuple[D, ...]:
    """numpy broadcasting over dim items, sound for symbolic dims.

    Three kinds of dim item: a known size (``size_of`` gives it), a symbolic dim
    (``is_symbolic``: a TypeVar or ``tt.Dim`` marker in the plugin, a name in the stubs) and an
    unknown dim (``Any``). Per aligned pair:

    - two known sizes: equal, or one is 1 (it yields to the other); else ``BroadcastError``;
    - a symbolic dim broadcasts with itself and with a known 1 (the symbol is the result) and
      with an unknown dim (the symbol where it is never 1, such as ``2 * B``; else ``unknown``,
      since a symbol at 1 stretches to the unknown size); against a known size other than 1 or a
      different symbol it is a ``SymbolicBroadcastError`` (it would fail for most sizes),
      unless the two provably never broadcast (``never_broadcast`` over the dim expressions
      ``expr_of`` reads: ``2 * B`` against ``2 * B + 1`` or ``3``): a ``BroadcastError``;
    - an unknown dim is gradual: against a known size ``n != 1`` the result is ``n`` (the
      unknown dim must be 1 or ``n`` at run time), against 1 it stays unknown, two unknown dims
      give ``unknown``.

    >>> broadcast_shapes((8, 1), (3,))
    (8, 3)
    >>> sym = lambda d: isinstance(d, str)
    >>> broadcast_shapes(("B", 1), (1, 3), is_symbolic=sym)
    ('B', 3)
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
            if a is None or b is None:
                merged.append(a if b is None else b)  # type: ignore[arg-type]
                continue
            sa, sb = size_of(a), size_of(b)
            ya, yb = sa is None and is_symbolic(a), sb is None and is_symbolic(b)
            pair = _broadcast_pair(a, b, sa, sb, ya, yb, unknown, expr_of)
            if pair is not _FAIL:
                merged.append(pair)  # type: ignore[arg-type]
                continue
            texts = [
                render_dim(d) if render_dim is not None else _dim_text(d, size)
                for d, size in ((a, sa), (b, sb))
            ]
            where = f"at position {position}: shapes {show(result_src)} and {show(shape)}"
            if (ya or yb) and never_broadcast(a, b, expr_of):
                raise BroadcastError(
                    position,
                    a,
                    b,
                    f"cannot broadcast dim {texts[0]} with dim {texts[1]} {where}; they differ, "
                    "and neither is 1, for every size of the symbols",
                )
            if ya or yb:
                symbol = texts[0] if ya else texts[1]
                raise SymbolicBroadcastError(
                    position,
                    a,
                    b,
                    f"cannot broadcast dim {texts[0]} with dim {texts[1]} {where}; the "
                    f"symbolic dim {symbol} broadcasts only with {symbol}, 1 and Any",
                )
            raise BroadcastError(
                position, a, b, f"cannot broadcast dim {texts[0]} with dim {texts[1]} {where}"
            )
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
