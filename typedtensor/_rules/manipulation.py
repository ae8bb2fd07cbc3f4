"""Shape manipulation: dim orders (``transpose``, ``permute_dims``, ``swapaxes``, ``moveaxis``,
``mT``), ``reshape``, ``expand_dims``/``squeeze``, ``concatenate``/``stack``/``split`` and
``broadcast_to``, generic over the dim item.

Three kinds of dim item, as in ``broadcast``: a known size (``size_of`` gives it), a symbolic dim
(``is_symbolic``: a TypeVar or ``tt.Dim`` marker in the plugin) and an unknown dim (anything
else, ``Any`` in the plugin). Where a rule builds a new size it calls ``make_dim(n)``; where the
answer is not determined statically it puts ``unknown``. Two dims that must be equal (the other
dims of a concatenate, a broadcast target) follow the symbolic rule: a symbol equals only
itself and an unknown dim.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import TypeVar

from .axes import _as_axis_int, normalize_axes
from .errors import AxisRangeError, AxisTypeError, PermutationError, ShapeMismatchError

__all__ = [
    "broadcast_to_shape",
    "concat_shape",
    "expand_dims_shape",
    "matrix_transpose_order",
    "moveaxis_order",
    "permute_shape",
    "reshape_shape",
    "single_axis",
    "split_shape",
    "squeeze_shape",
    "stack_shape",
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
def _factor(
    dims: Sequence[D], size_of: Callable[[D], int | None], is_symbolic: Callable[[D], bool]
) -> tuple[int, list[D], bool]:
    """(product of the known sizes, the symbolic dims, whether an unknown dim is present)."""
    known, symbols, unknown = 1, [], False
    for d in dims:
        s = size_of(d)
        if s is not None:
            known *= s
        elif is_symbolic(d):
            symbols.append(d)
        else:
            unknown = True
    return known, symbols, unknown


def reshape_shape(
    dims: Sequence[D],
    target: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    make_dim: Callable[[int], D] = _same,  # type: ignore[assignment]
    unknown: D | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render: Callable[[Sequence[D]], str] | None = None,
    render_dim: Callable[[D], str] = str,
) -> tuple[D, ...]:
    """Shape of ``reshape(x, target)``: the target with its one negative entry (-1, the inferred
    dim) solved. Symbolic dims that appear on both sides cancel, so ``(B, 3, 4) -> (B, -1)``
    is ``(B, 12)`` and ``(B, 3) -> (3, -1)`` is ``(3, B)``; an inferred dim that does not
    reduce to a known size or one symbol is ``unknown``. Raises ``ShapeMismatchError`` for two
    inferred dims, an element count that differs (when it is decided statically) and an
    inferred dim that does not divide (or sits next to a 0).

    >>> reshape_shape((2, 3, 4), (-1, 4))
    (6, 4)
    >>> sym = lambda d: isinstance(d, str)
    >>> reshape_shape(("B", 3, 4), ("B", -1), size_of=lambda d: None if sym(d) else d,
    ...               is_symbolic=sym)
    ('B', 12)
    """
    show = render or _show
    inferred = [i for i, t in enumerate(target) if (s := size_of(t)) is not None and s < 0]
    where = f"cannot reshape {show(dims)} to {show(target)}"
    if len(inferred) > 1:
        raise ShapeMismatchError(
            f"{where}: only one target dim may be -1 (inferred), got {len(inferred)}; "
            "spell the other sizes out"
        )
    rest = [t for i, t in enumerate(target) if i not in inferred]
    src_known, src_symbols, src_unknown = _factor(dims, size_of, is_symbolic)
    dst_known, dst_symbols, dst_unknown = _factor(rest, size_of, is_symbolic)
    left = list(src_symbols)
    extra = []
    for sym in dst_symbols:
        if sym in left:
            left.remove(sym)
        else:
            extra.append(sym)
    decided = not (src_unknown or dst_unknown or left or extra)
    src_text = _count_text(src_known, src_symbols, render_dim)
    dst_text = _count_text(dst_known, dst_symbols, render_dim)
    if not inferred:
        if decided and src_known != dst_known:
            raise ShapeMismatchError(
                f"{where}: {src_text} do not fit in {dst_text}; the element count must not change"
            )
        return tuple(target)
    if dst_known == 0:
        raise ShapeMismatchError(
            f"{where}: the -1 dim cannot be inferred when another target dim is 0 "
            "(any size would do); spell it out"
        )
    solved: D | None
    if decided:
        if src_known % dst_known:
            raise ShapeMismatchError(
                f"{where}: the -1 dim cannot be inferred: {src_text} are not a multiple of the "
                f"{dst_text} of the other target dims"
            )
        solved = make_dim(src_known // dst_known)
    elif not (src_unknown or dst_unknown or extra) and len(left) == 1 and src_known == dst_known:
        solved = left[0]
    else:
        solved = unknown
    out: list[D | None] = list(target)
    out[inferred[0]] = solved
    return tuple(out)  # type: ignore[arg-type]


def _count_text(known: int, symbols: Sequence[D], render_dim: Callable[[D], str]) -> str:
    if not symbols:
        return f"{known} element{'s' if known != 1 else ''}"
    factors = [render_dim(s) for s in symbols]
    return f"{' * '.join([str(known), *factors]) if known != 1 else ' * '.join(factors)} elements"


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
) -> tuple[D, ...] | None:
    """Shape of ``squeeze(x, axis)``; ``None`` when ``axis=None`` meets a dim whose size is not
    known (it may be 1). A selected dim of a known size other than 1 raises
    ``ShapeMismatchError``; one of unknown size is assumed to be 1 (numpy checks it).

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
        if s is not None and s != 1:
            raise ShapeMismatchError(
                f"cannot squeeze axis {a} of shape {(render or _show)(dims)}: "
                f"its size is {s}, not 1; only size-1 dims can be squeezed"
            )
    return tuple(d for i, d in enumerate(dims) if i not in axes)


def _text(d: object, size_of: Callable[[D], int | None]) -> object:
    s = size_of(d)  # type: ignore[arg-type]
    return s if s is not None else (getattr(d, "name", None) or d)


# ------------------------------------------------------------------ concatenate / stack
_FAIL = object()


def _equal_dims(
    a: D, b: D, size_of: Callable[[D], int | None], is_symbolic: Callable[[D], bool]
) -> object:
    """The dim two equal dims have (the more precise one), or ``_FAIL`` if they cannot be."""
    sa, sb = size_of(a), size_of(b)
    if sa is not None and sb is not None:
        return a if sa == sb else _FAIL
    if a == b:
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
    mismatch: Callable[[int, int, D, D], str],
) -> list[D]:
    """The first shape with each dim but ``skip`` merged with the same dim of every other
    shape (``_equal_dims``); ``mismatch(dim, tensor, a, b)`` words the error."""
    result = list(shapes[0])
    for i, s in enumerate(shapes[1:], 1):
        for k, (a, b) in enumerate(zip(result, s, strict=True)):
            merged = a if k == skip else _equal_dims(a, b, size_of, is_symbolic)
            if merged is _FAIL:
                symbolic = size_of(a) is None or size_of(b) is None
                raise ShapeMismatchError(mismatch(k, i, a, b), symbolic=symbolic)
            result[k] = merged  # type: ignore[assignment]
    return result


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
) -> tuple[D, ...]:
    """Shape of ``concatenate(tensors, axis)``: the sizes along ``axis`` add up (``unknown`` if
    one is not known), every other dim must be equal; ``axis=None`` flattens every tensor.

    >>> concat_shape([(2, 3), (4, 3)]), concat_shape([(2, 3), (2, 1)], axis=-1)
    ((6, 3), (2, 4))
    """
    show = render or _show
    text = render_dim or (lambda d: str(_text(d, size_of)))
    _check_tensors(shapes, "concatenate")
    if axis is None:
        sizes = [size_of(d) for s in shapes for d in s]
        if any(s is None for s in sizes):
            return (unknown,)  # type: ignore[return-value]
        return (make_dim(sum(math.prod(size_of(d) or 0 for d in s) for s in shapes)),)
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
        lambda k, i, a, b: (
            f"cannot concatenate along axis {axis}: dim {k} is {text(a)} in "
            f"tensor 0 of shape {show(shapes[0])} but {text(b)} in tensor {i} of shape "
            f"{show(shapes[i])}; every dim except the concatenation axis must match"
        ),
    )
    sizes = [size_of(s[ax]) for s in shapes]
    if any(n is None for n in sizes):
        result[ax] = shapes[0][ax] if len(shapes) == 1 else unknown  # type: ignore[assignment]
    else:
        result[ax] = make_dim(sum(n or 0 for n in sizes))
    return tuple(result)


def stack_shape(
    shapes: Sequence[Sequence[D]],
    axis: object = 0,
    size_of: Callable[[D], int | None] = _int_size,
    make_dim: Callable[[int], D] = _same,  # type: ignore[assignment]
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render: Callable[[Sequence[D]], str] | None = None,
    render_dim: Callable[[D], str] | None = None,
) -> tuple[D, ...]:
    """Shape of ``stack(tensors, axis)``: every shape equal, a new dim of size
    ``len(tensors)`` at ``axis`` (an axis of the RESULT).

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
) -> tuple[D, ...]:
    """The shape of each of the ``sections`` equal parts of ``split(x, sections, axis)``.

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
        out[ax] = dims[ax] if sections == 1 else unknown  # type: ignore[assignment]
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
) -> tuple[D, ...]:
    """Shape of ``broadcast_to(x, target)``: the target, where each of ``x``'s dims (aligned
    from the right) is 1 or equal to the target dim (an unknown target dim becomes the known
    size it must equal).

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
        merged = _equal_dims(d, t, size_of, is_symbolic)
        if merged is _FAIL:
            raise ShapeMismatchError(
                f"{where}: dim {text(d)} at position {i - len(dims)} is neither 1 nor the "
                f"target dim {text(t)}",
                symbolic=size_of(d) is None or size_of(t) is None,
            )
        out[lead + i] = merged  # type: ignore[assignment]
    return tuple(out)
