"""Joining and splitting shapes: ``concatenate``/``stack``/``split`` and ``broadcast_to``,
generic over the dim item (the three kinds of dim item of ``manipulation``: a known size, a
symbolic dim, an unknown dim). Two dims that must be equal (the other dims of a concatenate, a
broadcast target) follow the symbolic rule: a symbol equals only itself and an unknown dim.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

from .broadcast import never_one, same_dim
from .dimexpr import DimExpr
from .dimexpr_convert import expr_maker, expr_reader
from .dimexpr_relations import Relation, never_divides, product, relation
from .errors import AxisTypeError, ShapeMismatchError
from .manipulation import D, _int_size, _never_symbolic, _same, _show, single_axis

__all__ = ["broadcast_to_shape", "concat_shape", "split_shape", "stack_shape"]


def _text(d: object, size_of: Callable[[D], int | None]) -> object:
    s = size_of(d)  # type: ignore[arg-type]
    return s if s is not None else (getattr(d, "name", None) or d)


# ------------------------------------------------------------------ concatenate / stack
_FAIL = object()


def _equal_dims(
    a: D,
    b: D,
    size_of: Callable[[D], int | None],
    is_symbolic: Callable[[D], bool],
    read: Callable[[D], DimExpr | None] | None = None,
) -> object:
    """The dim two equal dims have (the more precise one), or ``_FAIL`` if they cannot be;
    ``read`` (dim expressions) finds two spellings of one size equal."""
    sa, sb = size_of(a), size_of(b)
    if sa is not None and sb is not None:
        return a if sa == sb else _FAIL
    if same_dim(a, b, read):
        return a
    ya, yb = sa is None and is_symbolic(a), sb is None and is_symbolic(b)
    if ya or yb:  # a symbol equals only itself and an unknown dim
        if ya and (yb or sb is not None):
            return _FAIL
        if yb and sa is not None:
            return _FAIL
        return a if ya else b
    return a if sa is not None else b  # unknown against known or unknown: the more precise


def _merge_equal(
    shapes: Sequence[Sequence[D]],
    skip: int,
    size_of: Callable[[D], int | None],
    is_symbolic: Callable[[D], bool],
    read: Callable[[D], DimExpr | None],
    mismatch: Callable[[int, int, D, D], str],
) -> list[D]:
    """The first shape with each dim but ``skip`` merged with the same dim of every other
    shape (``_equal_dims``); ``mismatch(dim, tensor, a, b)`` words the error."""
    result = list(shapes[0])
    for i, s in enumerate(shapes[1:], 1):
        for k, (a, b) in enumerate(zip(result, s, strict=True)):
            merged = a if k == skip else _equal_dims(a, b, size_of, is_symbolic, read)
            if merged is _FAIL:
                raise ShapeMismatchError(
                    mismatch(k, i, a, b), symbolic=_not_provably_different(a, b, read)
                )
            result[k] = merged  # type: ignore[assignment]
    return result


def _not_provably_different(a: D, b: D, read: Callable[[D], DimExpr | None]) -> bool:
    """Whether two dims that are not provably equal may still be equal for some sizes (the
    symbolic rule's case), rather than differ for every size (``B + 1`` and ``B``)."""
    ea, eb = read(a), read(b)
    return ea is None or eb is None or relation(ea, eb) is not Relation.DIFFERENT


def _check_tensors(shapes: Sequence[Sequence[D]], op: str) -> None:
    if not shapes:
        raise ShapeMismatchError(
            f"{op} needs at least one tensor, got an empty sequence; pass a list or tuple of "
            "tensors"
        )


def concat_shape(
    shapes: Sequence[Sequence[D]],
    axis: object = 0,
    size_of: Callable[[D], int | None] = _int_size,
    make_dim: Callable[[int], D] = _same,  # type: ignore[assignment]
    unknown: D | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render: Callable[[Sequence[D]], str] | None = None,
    render_dim: Callable[[D], str] | None = None,
    expr_of: Callable[[D], DimExpr | None] | None = None,
    make_expr: Callable[[DimExpr], D] | None = None,
) -> tuple[D, ...]:
    """Shape of ``concatenate(tensors, axis)``: the sizes along ``axis`` add up as dim
    expressions (``B + N``; ``unknown`` if one is not known), every other dim must be equal;
    ``axis=None`` flattens every tensor.

    >>> concat_shape([(2, 3), (4, 3)]), concat_shape([(2, 3), (2, 1)], axis=-1)
    ((6, 3), (2, 4))
    """
    show = render or _show
    text = render_dim or (lambda d: str(_text(d, size_of)))
    read = expr_of or expr_reader(size_of, is_symbolic, text)
    build = make_expr or expr_maker(make_dim, unknown)
    _check_tensors(shapes, "concatenate")
    if axis is None:
        flat = [read(d) for s in shapes for d in s]
        if None in flat:
            return (unknown,)  # type: ignore[return-value]
        return (build(sum((product(map(read, s)) for s in shapes), DimExpr.const(0))),)  # type: ignore[arg-type]
    rank = len(shapes[0])
    if rank == 0:
        raise ShapeMismatchError(
            "cannot concatenate rank-0 tensors (they have no axis to join along); use stack"
        )
    ax = single_axis(axis, rank)  # numpy checks the axis first
    for i, s in enumerate(shapes):
        if len(s) != rank:
            raise ShapeMismatchError(
                f"cannot concatenate tensors of different ranks: tensor 0 has shape "
                f"{show(shapes[0])} (rank {rank}) but tensor {i} has shape {show(s)} "
                f"(rank {len(s)}); every tensor needs the same rank"
            )
    result = _merge_equal(
        shapes,
        ax,
        size_of,
        is_symbolic,
        read,
        lambda k, i, a, b: (
            f"cannot concatenate along axis {axis}: dim {k} is {text(a)} in "
            f"tensor 0 of shape {show(shapes[0])} but {text(b)} in tensor {i} of shape "
            f"{show(shapes[i])}; every dim except the concatenation axis must match"
        ),
    )
    known = [size_of(s[ax]) for s in shapes]
    if None not in known:  # the runtime's case: sizes
        result[ax] = make_dim(sum(known))  # type: ignore[arg-type]
        return tuple(result)
    sizes = [read(s[ax]) for s in shapes]
    if None in sizes:
        result[ax] = shapes[0][ax] if len(shapes) == 1 else unknown  # type: ignore[assignment]
    else:
        result[ax] = build(sum((e for e in sizes if e is not None), DimExpr.const(0)))
    return tuple(result)


def stack_shape(
    shapes: Sequence[Sequence[D]],
    axis: object = 0,
    size_of: Callable[[D], int | None] = _int_size,
    make_dim: Callable[[int], D] = _same,  # type: ignore[assignment]
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render: Callable[[Sequence[D]], str] | None = None,
    render_dim: Callable[[D], str] | None = None,
    expr_of: Callable[[D], DimExpr | None] | None = None,
) -> tuple[D, ...]:
    """Shape of ``stack(tensors, axis)``: every shape equal, a new dim of size
    ``len(tensors)`` at ``axis`` (an axis of the RESULT); dims that differ for every size of
    their symbols (``expr_of``'s dim expressions) are a plain error, not a symbolic one.

    >>> stack_shape([(2, 3), (2, 3)]), stack_shape([(2, 3)] * 4, axis=-1)
    ((2, 2, 3), (2, 3, 4))
    """
    show = render or _show
    text = render_dim or (lambda d: str(_text(d, size_of)))
    _check_tensors(shapes, "stack")
    rank = len(shapes[0])
    for i, s in enumerate(shapes):
        if len(s) != rank:
            raise ShapeMismatchError(
                f"cannot stack tensors of different shapes: tensor 0 has shape "
                f"{show(shapes[0])} but tensor {i} has shape {show(s)}; every tensor needs "
                "the same shape"
            )
    result = _merge_equal(
        shapes,
        -1,
        size_of,
        is_symbolic,
        expr_of or expr_reader(size_of, is_symbolic),
        lambda k, i, a, b: (
            f"cannot stack tensors of different shapes: dim {k} is {text(a)} "
            f"in tensor 0 of shape {show(shapes[0])} but {text(b)} in tensor {i} of shape "
            f"{show(shapes[i])}; every tensor needs the same shape"
        ),
    )
    ax = single_axis(axis, rank + 1)
    result.insert(ax, make_dim(len(shapes)))
    return tuple(result)


def split_shape(
    dims: Sequence[D],
    sections: object,
    axis: object = 0,
    size_of: Callable[[D], int | None] = _int_size,
    make_dim: Callable[[int], D] = _same,  # type: ignore[assignment]
    unknown: D | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    expr_of: Callable[[D], DimExpr | None] | None = None,
    make_expr: Callable[[DimExpr], D] | None = None,
) -> tuple[D, ...]:
    """The shape of each of the ``sections`` equal parts of ``split(x, sections, axis)``: the
    split dim divided by ``sections`` as an exact division (``D // 4``; numpy raises at run
    time unless it divides), an error where it never can (``2 * B + 1`` into 2).

    >>> split_shape((6, 4), 3), split_shape((6, 4), 2, axis=1)
    ((2, 4), (6, 2))
    """
    if isinstance(sections, bool) or not isinstance(sections, int):
        try:
            if isinstance(sections, bool):
                raise TypeError
            sections = operator.index(sections)  # type: ignore[arg-type]
        except TypeError:
            raise AxisTypeError(
                f"sections must be an int (the number of equal parts), got "
                f"{type(sections).__name__} {sections!r}"
            ) from None
    assert isinstance(sections, int)
    if sections < 1:
        raise ShapeMismatchError(
            f"sections must be >= 1 (the number of equal parts), got {sections}"
        )
    ax = single_axis(axis, len(dims))
    n = size_of(dims[ax])
    out = list(dims)
    if n is None:
        size = (expr_of or expr_reader(size_of, is_symbolic))(dims[ax])
        if sections == 1:
            return tuple(out)
        if size is not None and never_divides(size, DimExpr.const(sections)):
            raise ShapeMismatchError(
                f"cannot split axis {axis} of size {size} into {sections} equal sections: "
                f"{size} is a multiple of {sections} for no size of its symbols"
            )
        part = None if size is None else size.floordiv(sections, exact=True)
        build = make_expr or expr_maker(make_dim, unknown)
        out[ax] = unknown if part is None else build(part)  # type: ignore[assignment]
        return tuple(out)
    if n % sections:
        raise ShapeMismatchError(
            f"cannot split axis {axis} of size {n} into {sections} equal sections: {n} is not "
            f"a multiple of {sections}"
        )
    out[ax] = make_dim(n // sections)
    return tuple(out)


# ---------------------------------------------------------------------------- broadcast_to
def broadcast_to_shape(
    dims: Sequence[D],
    target: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render: Callable[[Sequence[D]], str] | None = None,
    render_dim: Callable[[D], str] | None = None,
    expr_of: Callable[[D], DimExpr | None] | None = None,
) -> tuple[D, ...]:
    """Shape of ``broadcast_to(x, target)``: the target, where each of ``x``'s dims (aligned
    from the right) is 1 or equal to the target dim (an unknown target dim becomes the known
    size it must equal; ``expr_of`` finds two spellings of one size equal).

    >>> broadcast_to_shape((3, 1), (2, 3, 4))
    (2, 3, 4)
    """
    show = render or _show
    text = render_dim or (lambda d: str(_text(d, size_of)))
    where = f"cannot broadcast shape {show(dims)} to {show(target)}"
    for t in target:
        s = size_of(t)
        if s is not None and s < 0:
            raise ShapeMismatchError(f"{where}: target dims must be >= 0, got {s}")
    if len(target) < len(dims):
        raise ShapeMismatchError(
            f"{where}: the target has fewer dims ({len(target)}) than the tensor ({len(dims)})"
        )
    out = list(target)
    lead = len(target) - len(dims)
    for i, d in enumerate(dims):
        t = target[lead + i]
        if size_of(d) == 1:
            continue
        unknown_target = size_of(t) is None and not is_symbolic(t)
        if unknown_target and size_of(d) is None and not never_one(d, expr_of):
            continue  # a symbolic or unknown dim may be 1 and stretch to the unknown target
        merged = _equal_dims(d, t, size_of, is_symbolic, expr_of)
        if merged is _FAIL:
            raise ShapeMismatchError(
                f"{where}: dim {text(d)} at position {i - len(dims)} is neither 1 nor the "
                f"target dim {text(t)}",
                symbolic=size_of(d) is None or size_of(t) is None,
            )
        out[lead + i] = merged  # type: ignore[assignment]
    return tuple(out)
