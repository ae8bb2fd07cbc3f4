"""Dim expressions in annotations: ``tt.Add[A, B]``, ``tt.Sub``, ``tt.Mul``, ``tt.FloorDiv``,
``tt.IntDiv``.

Generic marker classes whose arguments are dims (``Literal[n]``, a TypeVar, a ``tt.Dim``
marker, or another expression), nestable: a function can declare
``-> Tensor[tt.float32, B, T, L[8], tt.FloorDiv[D, L[8]]]``. The mypy plugin reads them as
dim expressions in canonical form (``Mul[B, L[2]]`` and ``Mul[L[2], B]`` are one type,
``Mul[L[2], L[3]]`` is ``Literal[6]``) and prints them as Python arithmetic (``2 * B``,
``D // 8``, ``B + N``). A ``FloorDiv[P, Q]`` dim of a tensor denotes an exact division (the
reshapes and splits that make one check it at run time, ``x.assert_shape`` checks it), so
``FloorDiv[D, H]`` times ``H`` is ``D``. ``IntDiv[P, Q]`` is Python's ``P // Q`` with no claim
that ``Q`` divides (``x.shape[1] // 4`` as a value), so ``IntDiv[D, L[4]]`` times 4 stays
``4 * (D // 4)``. ``@tt.shapecheck`` and ``x.assert_shape`` check the
value of every expression dim once its symbols are bound by plain dims. Other checkers
(pyright) accept them as opaque dims.
"""

from __future__ import annotations

import typing
from typing import Generic, Literal, get_args, get_origin

from typing_extensions import TypeVar

from ._rules.dimexpr import DimExpr

__all__ = [
    "DIM_EXPRESSIONS",
    "Add",
    "FloorDiv",
    "IntDiv",
    "Mul",
    "Sub",
    "annotation_expr",
    "declared_exact_divisions",
]

Left = TypeVar("Left")
Right = TypeVar("Right")


class _DimExpression(int, Generic[Left, Right]):
    """A marker in types; never instantiated. An ``int`` for the checkers, so that
    ``x.shape[0] * 2`` (typed ``Mul[L[2], B]`` by the plugin) is an ``int`` value."""

    def __new__(cls, *args: object, **kwargs: object) -> _DimExpression[Left, Right]:
        raise TypeError(f"{cls.__name__} is a dim expression for annotations; it has no instances")


class Add(_DimExpression[Left, Right]):
    """The dim ``Left + Right``: ``Tensor[DT, tt.Add[B, N]]`` after concatenating ``B`` and
    ``N`` rows."""


class Sub(_DimExpression[Left, Right]):
    """The dim ``Left - Right``: ``Tensor[DT, tt.Sub[T, L[1]]]`` for ``x[1:]`` of ``T``."""


class Mul(_DimExpression[Left, Right]):
    """The dim ``Left * Right``: ``Tensor[DT, tt.Mul[L[2], B]]`` for ``(B, 10) -> (-1, 5)``."""


class FloorDiv(_DimExpression[Left, Right]):
    """The dim ``Left // Right`` (an exact division): ``Tensor[DT, B, L[8], tt.FloorDiv[D,
    L[8]]]`` for ``D`` split into 8 heads."""


class IntDiv(_DimExpression[Left, Right]):
    """The dim ``Left // Right`` rounded down, with no claim that ``Right`` divides ``Left``:
    ``tt.zeros((x.shape[1] // 4,))`` on ``x: Tensor[DT, B, D]`` is ``Tensor[DT, tt.IntDiv[D,
    L[4]]]``; ``(D // 4) * 4`` of it is not ``D``."""


#: class -> the Python operator it spells (printing, run-time checks)
DIM_EXPRESSIONS: dict[type, str] = {Add: "+", Sub: "-", Mul: "*", FloorDiv: "//", IntDiv: "//"}


def annotation_expr(
    item: object,
    name: typing.Callable[[object], str],
    is_marker: typing.Callable[[object], bool] = lambda d: False,
) -> DimExpr | None:
    """A dim of an annotation at run time as an expression: ``Literal[n]`` a constant, a
    TypeVar or a marker (``is_marker``: a ``tt.Dim`` subclass) a symbol named ``name(item)``,
    ``tt.Mul[L[2], B]`` the arithmetic (a ``FloorDiv`` exact, an ``IntDiv`` not); ``None`` for
    anything else.

    >>> B = TypeVar("B")
    >>> str(annotation_expr(Mul[Literal[2], B], lambda d: d.__name__))
    '2 * B'
    """
    origin = get_origin(item)
    if origin is Literal:
        values = get_args(item)
        ok = len(values) == 1 and type(values[0]) is int
        return DimExpr.const(values[0]) if ok else None
    if isinstance(item, (typing.TypeVar, TypeVar)) or is_marker(item):
        return DimExpr.symbol(item, name(item))
    op = DIM_EXPRESSIONS.get(origin) if isinstance(origin, type) else None
    args = get_args(item)
    if op is None or len(args) != 2:
        return None
    left, right = (annotation_expr(a, name, is_marker) for a in args)
    if left is None or right is None:
        return None
    return left.apply(op, right, exact=origin is not IntDiv)


def declared_exact_divisions(
    item: object,
    name: typing.Callable[[object], str],
    is_marker: typing.Callable[[object], bool] = lambda d: False,
) -> list[tuple[DimExpr, DimExpr]]:
    """The ``(numerator, denominator)`` of every ``FloorDiv`` an annotation dim spells, nested
    ones too, as written: the claims a run-time check must test, which the canonical form may
    have simplified away (``IntDiv[D, FloorDiv[D, L[5]]]`` is 5 where 5 divides D).

    >>> D = TypeVar("D")
    >>> [(str(n), str(d)) for n, d in declared_exact_divisions(
    ...     IntDiv[D, FloorDiv[D, Literal[5]]], lambda d: d.__name__)]
    [('D', '5')]
    """
    origin = get_origin(item)
    if not (isinstance(origin, type) and origin in DIM_EXPRESSIONS):
        return []
    args = get_args(item)
    found = [pair for a in args for pair in declared_exact_divisions(a, name, is_marker)]
    if origin is FloorDiv and len(args) == 2:
        num, den = (annotation_expr(a, name, is_marker) for a in args)
        if num is not None and den is not None:
            found.append((num, den))
    return found
