"""Shape manipulation of one tensor: dim orders (``transpose``, ``permute_dims``, ``swapaxes``,
``moveaxis``, ``mT``), ``reshape`` and ``expand_dims``/``squeeze``, generic over the dim item.
Joining, splitting and ``broadcast_to`` are in ``joining``.

Three kinds of dim item, as in ``broadcast``: a known size (``size_of`` gives it), a symbolic dim
(``is_symbolic``: a TypeVar or ``tt.Dim`` marker in the plugin) and an unknown dim (anything
else, ``Any`` in the plugin). Where a rule builds a new size it calls ``make_dim(n)``; where the
answer is not determined statically it puts ``unknown``. Two dims that must be equal (the other
dims of a concatenate, a broadcast target) follow the symbolic rule: a symbol equals only
itself and an unknown dim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .axes import _as_axis_int, normalize_axes
from .dimexpr import DimExpr, FloorDivAtom, Symbol, cancel_common
from .dimexpr_convert import expr_maker, expr_reader
from .dimexpr_relations import Relation, never_divides, product, relation
from .errors import AxisRangeError, AxisTypeError, PermutationError, ShapeMismatchError

__all__ = [
    "expand_dims_shape",
    "matrix_transpose_order",
    "moveaxis_order",
    "permute_shape",
    "reshape_shape",
    "single_axis",
    "squeeze_shape",
    "swapaxes_order",
    "transpose_order",
]

D = TypeVar("D")


def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) and not isinstance(d, bool) else None


def _never_symbolic(d: object) -> bool:
    return False


def _same(n: int) -> int:
    return n


def _show(dims: Sequence[object]) -> str:
    return str(tuple(dims))


# ------------------------------------------------------------------------------ dim orders
def single_axis(axis: object, ndim: int) -> int:
    """One axis (an int, negative from the end) as a non-negative int.

    >>> single_axis(-1, 3)
    2
    """
    if axis is None or isinstance(axis, (tuple, list)):
        raise AxisTypeError(f"axis must be a single int here, got {axis!r}")
    a = _as_axis_int(axis)
    if not -ndim <= a < ndim:
        raise AxisRangeError(a, ndim)
    return a + ndim if a < 0 else a


def _ordered_axes(axes: object, ndim: int) -> tuple[int, ...]:
    """An int or a sequence of ints, validated (range, duplicates), non-negative, in order."""
    if isinstance(axes, list):
        axes = tuple(axes)
    spelled = axes if isinstance(axes, tuple) else (axes,)
    normalize_axes(tuple(spelled), ndim)  # raises in numpy's order: types, range, duplicates
    return tuple(a + ndim if a < 0 else a for a in map(_as_axis_int, spelled))


def transpose_order(ndim: int, axes: object = None) -> tuple[int, ...]:
    """The dim order of ``transpose(x, axes)``: ``None`` reverses the dims, else ``axes`` names
    every dim exactly once (negatives count from the end).

    >>> transpose_order(3), transpose_order(3, (0, -1, 1))
    ((2, 1, 0), (0, 2, 1))
    """
    if axes is None:
        return tuple(reversed(range(ndim)))
    if not isinstance(axes, (tuple, list)):
        raise AxisTypeError(
            f"axes must be None or a tuple of ints, got {type(axes).__name__} {axes!r}"
        )
    if len(axes) != ndim:
        every = f"each of the axes 0..{ndim - 1}" if ndim else "no axes, ()"
        raise PermutationError(
            f"axes {tuple(axes)!r} are not a permutation of the dims of a rank-{ndim} tensor: "
            f"{len(axes)} given; give {every} exactly once"
        )
    return _ordered_axes(tuple(axes), ndim)


def permute_shape(dims: Sequence[D], axes: object = None) -> tuple[D, ...]:
    """Shape of ``transpose``/``permute_dims``: ``dims`` in the order ``transpose_order`` gives.

    >>> permute_shape(("B", 3, 4), (2, 0, 1))
    (4, 'B', 3)
    """
    return tuple(dims[i] for i in transpose_order(len(dims), axes))


def swapaxes_order(ndim: int, axis1: object, axis2: object) -> tuple[int, ...]:
    """The dim order of ``swapaxes(x, axis1, axis2)``.

    >>> swapaxes_order(3, 0, -1)
    (2, 1, 0)
    """
    a, b = single_axis(axis1, ndim), single_axis(axis2, ndim)
    order = list(range(ndim))
    order[a], order[b] = order[b], order[a]
    return tuple(order)


def matrix_transpose_order(ndim: int) -> tuple[int, ...]:
    """The dim order of ``x.mT`` (the last two dims swapped); needs rank >= 2.

    >>> matrix_transpose_order(3)
    (0, 2, 1)
    """
    if ndim < 2:
        raise ShapeMismatchError(
            f"mT swaps the last two dims and needs a tensor of rank >= 2, got rank {ndim}; "
            "use .T (reverses all dims) or expand_dims first"
        )
    return (*range(ndim - 2), ndim - 1, ndim - 2)


def moveaxis_order(ndim: int, source: object, destination: object) -> tuple[int, ...]:
    """The dim order of ``moveaxis(x, source, destination)`` (ints or tuples of ints): the
    ``source`` dims end up at the ``destination`` positions, the others keep their order.

    >>> moveaxis_order(4, 0, -1), moveaxis_order(4, (0, 1), (2, 3))
    ((1, 2, 3, 0), (2, 3, 0, 1))
    """
    src = _ordered_axes(source, ndim)
    dst = _ordered_axes(destination, ndim)
    if len(src) != len(dst):
        raise PermutationError(
            f"moveaxis source {source!r} names {len(src)} axes but destination "
            f"{destination!r} names {len(dst)}; give one destination per source axis"
        )
    order = [n for n in range(ndim) if n not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return tuple(order)


# --------------------------------------------------------------------------------- reshape
def reshape_shape(
    dims: Sequence[D],
    target: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    make_dim: Callable[[int], D] = _same,  # type: ignore[assignment]
    unknown: D | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render: Callable[[Sequence[D]], str] | None = None,
    render_dim: Callable[[D], str] = str,
    expr_of: Callable[[D], DimExpr | None] | None = None,
    make_expr: Callable[[DimExpr], D] | None = None,
) -> tuple[D, ...]:
    """Shape of ``reshape(x, target)``: the target with its one negative entry (-1, the inferred
    dim) solved, as dim expressions (``expr_of``; ``None`` for an unknown dim, which makes the
    answer unknown where it matters).

    The element counts are products of expressions. Without a -1 they must be provably equal:
    provably different is a ``ShapeMismatchError``, not provable (``(2, B) -> (6, 5)``) is one
    with ``symbolic`` set. The -1 is the source count divided by the other target dims,
    simplified: ``(B, 10) -> (-1, 5)`` is ``2 * B``, ``(B, T, D) -> (B, T, 8, -1)`` is
    ``D // 8``. Where the division is not provably exact the answer is the *exact* quotient
    ``p // q`` anyway: numpy's reshape raises at run time unless ``q`` divides ``p``, so past
    the call it does (and ``(p // q) * q`` simplifies back to ``p``); a division that can never
    be exact (``(2 * B + 1) // 2``) is an error. Raises ``ShapeMismatchError`` for two
    inferred dims and a -1 next to a 0.

    >>> reshape_shape((2, 3, 4), (-1, 4))
    (6, 4)
    >>> B = DimExpr.symbol("B")
    >>> [str(d) for d in reshape_shape((B, 10), (-1, 5), expr_of=DimExpr.of, make_expr=str)]
    ['2 * B', '5']
    """
    show = render or _show
    read = expr_of or expr_reader(size_of, is_symbolic, render_dim)
    build = make_expr or expr_maker(make_dim, unknown)
    inferred = [i for i, t in enumerate(target) if (s := size_of(t)) is not None and s < 0]
    where = f"cannot reshape {show(dims)} to {show(target)}"
    if len(inferred) > 1:
        raise ShapeMismatchError(
            f"{where}: only one target dim may be -1 (inferred), got {len(inferred)}; "
            "spell the other sizes out"
        )
    src_exprs = [read(d) for d in dims]
    dst_exprs = [read(t) for i, t in enumerate(target) if i not in inferred]
    if None in src_exprs or None in dst_exprs:  # an unknown dim: nothing to check or solve
        out: list[D | None] = list(target)
        if inferred:
            out[inferred[0]] = unknown
        return tuple(out)  # type: ignore[arg-type]
    src = product(e for e in src_exprs if e is not None)
    dst = product(e for e in dst_exprs if e is not None)
    src_text, dst_text = _count_text(src), _count_text(dst)
    if not inferred:
        found = relation(src, dst)
        if found is Relation.EQUAL:
            return tuple(target)
        checked = _divisions_reshape_checks(src, [e for e in dst_exprs if e is not None])
        if checked is not None:
            return tuple(t if e is None else build(e) for t, e in zip(target, checked, strict=True))
        if found is Relation.DIFFERENT:
            raise ShapeMismatchError(
                f"{where}: {src_text} do not fit in {dst_text}; the element count must not change"
            )
        raise ShapeMismatchError(
            f"{where}: {src_text} fit in {dst_text} only for some sizes of the symbols (the "
            "counts are not provably equal); spell the target with the same symbols, or use -1",
            symbolic=True,
        )
    if dst.constant == 0:
        raise ShapeMismatchError(
            f"{where}: the -1 dim cannot be inferred when another target dim is 0 "
            "(any size would do); spell it out"
        )
    num, den = cancel_common(src, dst)
    if (num.constant is not None and den.constant is not None and num.constant % den.constant) or (
        never_divides(num, den)
    ):
        raise ShapeMismatchError(
            f"{where}: the -1 dim cannot be inferred: {src_text} are not a multiple of the "
            f"{dst_text} of the other target dims"
        )
    out = list(target)
    out[inferred[0]] = build(num.floordiv(den, exact=True))
    return tuple(out)  # type: ignore[arg-type]


def _divisions_reshape_checks(src: DimExpr, dst: list[DimExpr]) -> list[DimExpr | None] | None:
    """The target dims with their floor divisions made exact, where the reshape itself proves
    them exact; ``None`` where it does not. Each changed dim (the others are ``None``) is
    ``c * (p // q)``, an inexact division (``x.shape[1] // 4``) of positive ``p`` and ``q``,
    the source count is positive, and the counts are equal once the divisions are exact:
    ``(B, H) -> (B, H // 4, 4)``. At run time each such dim is at most ``c * p / q``, strictly
    less unless ``q`` divides ``p``, so numpy's check that the counts are equal fails unless
    every division is exact (symbols are sizes >= 1; a count of 0 would fit any division).
    With a -1 it proves nothing: the -1 absorbs the remainder."""
    if not _positive(src):
        return None
    out: list[DimExpr | None] = []
    for e in dst:
        division = _lone_division(e)
        if division is None and not _has_inexact(e):
            out.append(None)
        elif division is None:
            return None
        else:
            coef, atom = division
            out.append(coef * atom.num.floordiv(atom.den, exact=True))
    if all(e is None for e in out):
        return None
    exact = product(x if x is not None else e for x, e in zip(out, dst, strict=True))
    return out if relation(src, exact) is Relation.EQUAL else None


def _lone_division(e: DimExpr) -> tuple[int, FloorDivAtom] | None:
    """``(c, p // q)`` for ``e == c * (p // q)``, ``c >= 1``, an inexact division of
    ``_positive`` expressions; else ``None``."""
    if len(e.terms) != 1:
        return None
    ((mono, coef),) = e.terms.items()
    if coef < 1 or len(mono) != 1:
        return None
    (atom,) = mono
    if isinstance(atom, FloorDivAtom) and not atom.exact:
        return (coef, atom) if _positive(atom.num) and _positive(atom.den) else None
    return None


def _positive(e: DimExpr) -> bool:
    """Whether ``e >= 1`` for all sizes >= 1 of its symbols, read off its form: positive
    coefficients over symbols and exact divisions of such expressions."""
    return bool(e.terms) and all(
        coef > 0
        and all(
            isinstance(a, Symbol) or (a.exact and _positive(a.num) and _positive(a.den))
            for a in mono
        )
        for mono, coef in e.terms.items()
    )


def _has_inexact(e: DimExpr) -> bool:
    """Whether ``e`` holds a floor division not known to be exact, nested ones too."""
    return any(
        isinstance(a, FloorDivAtom) and (not a.exact or _has_inexact(a.num) or _has_inexact(a.den))
        for a in e.atoms()
    )


def _count_text(count: DimExpr) -> str:
    n = count.constant
    return f"{count} element{'s' if n != 1 else ''}"


# ------------------------------------------------------------------------ expand / squeeze
def expand_dims_shape(dims: Sequence[D], axis: object, one: D) -> tuple[D, ...]:
    """Shape of ``expand_dims(x, axis)``: a ``one`` at each axis, axes indexing the RESULT.

    >>> expand_dims_shape((3, 4), (0, -1), 1)
    (1, 3, 4, 1)
    """
    if isinstance(axis, list):
        axis = tuple(axis)
    count = len(axis) if isinstance(axis, tuple) else 1
    if axis is None:
        raise AxisTypeError("expand_dims needs an axis (an int or a tuple of ints), got None")
    axes = set(normalize_axes(axis, len(dims) + count))
    source = iter(dims)
    return tuple(one if i in axes else next(source) for i in range(len(dims) + count))


def squeeze_shape(
    dims: Sequence[D],
    axis: object = None,
    size_of: Callable[[D], int | None] = _int_size,
    render: Callable[[Sequence[D]], str] | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render_dim: Callable[[D], str] = str,
) -> tuple[D, ...] | None:
    """Shape of ``squeeze(x, axis)``; ``None`` when ``axis=None`` meets a dim whose size is not
    known (it may be 1). A selected dim of a known size other than 1 raises
    ``ShapeMismatchError``, a symbolic one too (with ``symbolic`` set: it is 1 only for one
    size); one of unknown size is assumed to be 1 (numpy checks it).

    >>> squeeze_shape((1, 3, 1), None), squeeze_shape((1, 3, 1), -1)
    ((3,), (1, 3))
    """
    if isinstance(axis, list):
        axis = tuple(axis)
    if axis is None:
        sizes = [size_of(d) for d in dims]
        if any(s is None for s in sizes):
            return None
        return tuple(d for d, s in zip(dims, sizes, strict=True) if s != 1)
    if not dims and axis in (0, -1) and not isinstance(axis, bool):
        return ()  # numpy's legacy rule: a rank-0 array squeezes with axis 0 or -1
    axes = normalize_axes(axis, len(dims))
    for a in axes:
        s = size_of(dims[a])
        if s is None and is_symbolic(dims[a]):
            raise ShapeMismatchError(
                f"cannot squeeze axis {a} of shape {(render or _show)(dims)}: its size is "
                f"{render_dim(dims[a])}, which is 1 only for some sizes; only size-1 dims can "
                "be squeezed (index it with [..., 0] if that is what you mean)",
                symbolic=True,
            )
        if s is not None and s != 1:
            raise ShapeMismatchError(
                f"cannot squeeze axis {a} of shape {(render or _show)(dims)}: "
                f"its size is {s}, not 1; only size-1 dims can be squeezed"
            )
    return tuple(d for i, d in enumerate(dims) if i not in axes)
