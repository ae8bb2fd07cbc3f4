"""Dim expressions in annotations: ``tt.Add[A, B]``, ``tt.Sub``, ``tt.Mul``, ``tt.FloorDiv``.

Generic marker classes whose arguments are dims (``Literal[n]``, a TypeVar, a ``tt.Dim``
marker, or another expression), nestable: a function can declare
``-> Tensor[tt.float32, B, T, L[8], tt.FloorDiv[D, L[8]]]``. The mypy plugin reads them as
dim expressions in canonical form (``Mul[B, L[2]]`` and ``Mul[L[2], B]`` are one type,
``Mul[L[2], L[3]]`` is ``Literal[6]``) and prints them as Python arithmetic (``2 * B``,
``D // 8``, ``B + N``). A ``FloorDiv[P, Q]`` dim of a tensor denotes an exact division (the
reshapes and splits that make one check it at run time, ``@tt.shapecheck`` checks it at a
function's boundary), so ``FloorDiv[D, H]`` times ``H`` is ``D``. Other checkers (pyright)
accept them as opaque dims.
"""

from __future__ import annotations

from typing import Generic

from typing_extensions import TypeVar

__all__ = ["Add", "DIM_EXPRESSIONS", "FloorDiv", "Mul", "Sub"]

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


#: class -> the Python operator it spells (printing, run-time checks)
DIM_EXPRESSIONS: dict[type, str] = {Add: "+", Sub: "-", Mul: "*", FloorDiv: "//"}
