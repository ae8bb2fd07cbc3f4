"""Linear algebra shapes: ``matmul_shape`` (numpy's ``matmul``/``@``) and ``einsum_shape``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .broadcast import broadcast_shapes
from .errors import BroadcastError, MatmulShapeError, ShapeMismatchError, SymbolicBroadcastError

__all__ = ["einsum_shape", "matmul_shape"]

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
        raise MatmulShapeError(
            f"matmul inner dims differ: the left operand's last dim is {text(inner_a)} but "
            f"the right operand's {where_b} dim is {text(inner_b)}",
            shapes,
            "they must be equal (transpose an operand?)",
            symbolic=ya or yb,
        )
    try:
        batch = broadcast_shapes(
            a[:-2] if len(a) >= 2 else (),
            b[:-2] if len(b) >= 2 else (),
            size_of=size_of,
            unknown=unknown,
            is_symbolic=is_symbolic,
            render_dim=render_dim,
        )
    except BroadcastError as err:
        left: D = err.left  # type: ignore[assignment]
        right: D = err.right  # type: ignore[assignment]
        raise MatmulShapeError(
            f"matmul batch dims cannot broadcast: dim {text(left)} with dim {text(right)}",
            shapes,
            "the dims before the last two must broadcast as in elementwise operations",
            symbolic=is_symbolic(left) or is_symbolic(right),
        ) from None
    rows = (a[-2],) if len(a) >= 2 else ()
    cols = (b[-1],) if len(b) >= 2 else ()
    return (*batch, *rows, *cols)


# ---------------------------------------------------------------------------------- einsum
def _einsum_terms(subscripts: str, count: int) -> tuple[list[str], str | None]:
    """The input terms and the output term (``None``: implicit) of ``subscripts``."""
    text = subscripts.replace(" ", "")
    inputs, arrow, output = text.partition("->")
    terms = inputs.split(",")
    if len(terms) != count:
        raise ShapeMismatchError(
            f"einsum subscripts {subscripts!r} name {len(terms)} operand"
            f"{'s' if len(terms) != 1 else ''} but {count} were given"
        )
    for term in [*terms, *([output] if arrow else [])]:
        letters = term.replace("...", "", 1)
        if not all(c.isascii() and c.isalpha() for c in letters):
            raise ShapeMismatchError(
                f"einsum subscripts {subscripts!r}: {term!r} may hold only letters and one '...'"
            )
    return terms, (output if arrow else None)


def einsum_shape(
    subscripts: str,
    shapes: Sequence[Sequence[D]],
    size_of: Callable[[D], int | None] = _int_size,
    unknown: D | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render_dim: Callable[[D], str] | None = None,
) -> tuple[D, ...]:
    """Result shape of ``einsum(subscripts, *operands)`` (numpy's rules): each letter names a
    dim; a letter repeated in one operand (a diagonal) needs equal dims, across operands the
    dims broadcast (1 yields, symbols only with themselves); ``...`` dims broadcast; the
    implicit output is ``...`` then the letters used once, sorted. Raises
    ``ShapeMismatchError`` (``symbolic`` where a symbolic dim does not fit).

    >>> einsum_shape("ij,jk->ik", [(2, 3), (3, 4)]), einsum_shape("ii", [(3, 3)])
    ((2, 4), ())
    >>> einsum_shape("...ij,...jk", [(5, 2, 3), (3, 4)])
    (5, 2, 4)
    """
    text = render_dim or (lambda d: str(size_of(d) if size_of(d) is not None else d))
    terms, output = _einsum_terms(subscripts, len(shapes))
    bound: dict[str, D] = {}
    ellipses: list[Sequence[D]] = []
    for n, (term, dims) in enumerate(zip(terms, shapes, strict=True)):
        letters = term.replace("...", "", 1)
        has_ellipsis = "..." in term
        if len(letters) > len(dims) or (not has_ellipsis and len(letters) != len(dims)):
            raise ShapeMismatchError(
                f"einsum subscripts {subscripts!r}: operand {n} has {len(dims)} dims but "
                f"{term!r} names {len(letters)}"
            )
        head = term.index("...") if has_ellipsis else len(letters)
        spread = len(dims) - len(letters)
        ellipses.append(dims[head : head + spread])
        named = list(dims[:head]) + list(dims[head + spread :])
        own: dict[str, D] = {}
        for letter, d in zip(letters, named, strict=True):
            if letter in own:  # a diagonal: equal sizes, no broadcasting
                merged = _diagonal(own[letter], d, size_of, is_symbolic)
                if merged is None:
                    raise ShapeMismatchError(
                        f"einsum subscripts {subscripts!r}: operand {n} repeats {letter!r} over "
                        f"dims {text(own[letter])} and {text(d)}, which differ",
                        symbolic=size_of(own[letter]) is None or size_of(d) is None,
                    )
                own[letter] = merged
            else:
                own[letter] = d
        for letter, d in own.items():
            if letter not in bound:
                bound[letter] = d
                continue
            try:
                (bound[letter],) = broadcast_shapes(
                    (bound[letter],),
                    (d,),
                    size_of=size_of,
                    unknown=unknown,
                    is_symbolic=is_symbolic,
                    render_dim=render_dim,
                )
            except BroadcastError as err:
                raise ShapeMismatchError(
                    f"einsum subscripts {subscripts!r}: {letter!r} is {text(bound[letter])} in "
                    f"an earlier operand but {text(d)} in operand {n}; the dims a letter names "
                    "must be equal (or 1)",
                    symbolic=isinstance(err, SymbolicBroadcastError),
                ) from None
    try:
        spread_dims = broadcast_shapes(
            *ellipses,
            size_of=size_of,
            unknown=unknown,
            is_symbolic=is_symbolic,
            render_dim=render_dim,
        )
    except BroadcastError as err:
        raise ShapeMismatchError(
            f"einsum subscripts {subscripts!r}: the '...' dims do not broadcast: {err}",
            symbolic=isinstance(err, SymbolicBroadcastError),
        ) from None
    if output is None:
        used = "".join(terms).replace("...", "")
        output = "..." + "".join(sorted(c for c in set(used) if used.count(c) == 1))
    out_letters = output.replace("...", "", 1)
    for letter in out_letters:
        if letter not in bound:
            raise ShapeMismatchError(
                f"einsum subscripts {subscripts!r}: output letter {letter!r} names no input dim"
            )
        if out_letters.count(letter) > 1:
            raise ShapeMismatchError(
                f"einsum subscripts {subscripts!r}: output letter {letter!r} appears twice"
            )
    spread_at = output.index("...") if "..." in output else None
    result = [bound[c] for c in out_letters]
    if spread_at is not None:
        result[spread_at:spread_at] = spread_dims  # an output without '...' sums those dims
    return tuple(result)


def _diagonal(
    a: D, b: D, size_of: Callable[[D], int | None], is_symbolic: Callable[[D], bool]
) -> D | None:
    """The dim of a diagonal over ``a`` and ``b`` (equal sizes), ``None`` if they differ."""
    sa, sb = size_of(a), size_of(b)
    if sa is not None and sb is not None:
        return a if sa == sb else None
    if a == b:
        return a
    if (sa is None and is_symbolic(a)) or (sb is None and is_symbolic(b)):
        return None  # a symbol equals only itself
    return a if sa is not None else b
