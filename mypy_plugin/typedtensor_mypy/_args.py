"""Finding call arguments by parameter name and reading literal values from them.

Literal sources: literals spelled in the call (``1``, ``-1``, ``(0, -1)``, ``True``), ``Final``
names and variables typed ``Literal[...]``: mypy gives all of these a literal type (or an
``int`` instance carrying ``last_known_value``). Anything else is ``UNKNOWN``.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple, Union

from mypy.nodes import ArgKind, Context, Expression, FloatExpr, IntExpr, UnaryExpr
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Instance, LiteralType, NoneType, TupleType, Type, get_proper_type

__all__ = ["UNKNOWN", "Arg", "Unknown", "arg_value", "find_arg", "literal_number", "literal_value"]

CallContext = Union[FunctionContext, MethodContext]


class Unknown(enum.Enum):
    """Marker for a value that is not known statically."""

    UNKNOWN = "UNKNOWN"


UNKNOWN: Final = Unknown.UNKNOWN


class Arg(NamedTuple):
    """One formal parameter's actual argument: absent, a single expression, or opaque
    (passed through ``*args``/``**kwargs``, so its value is unknown)."""

    given: bool
    type: Type | None = None
    expr: Expression | None = None
    opaque: bool = False

    def anchor(self, ctx: CallContext) -> Context:
        """Where an error about this argument belongs: the argument, else the call."""
        return self.expr if self.expr is not None else ctx.context


_ARG_STAR: Final = ArgKind.ARG_STAR
_ARG_STAR2: Final = ArgKind.ARG_STAR2
_ABSENT: Final = Arg(given=False)
_OPAQUE: Final = Arg(given=True, opaque=True)


def find_arg(ctx: CallContext, name: str | None, position: int | None = None) -> Arg:
    """The argument for parameter ``name`` (or formal ``position`` when names are absent)."""
    formals = ctx.callee_arg_names
    try:
        index = formals.index(name)
    except ValueError:
        if position is None or position >= len(formals):
            return _OPAQUE  # an unexpected signature (a stub overload with other names...)
        index = position
    actuals = ctx.args[index] if index < len(ctx.args) else None
    if not actuals:
        return _ABSENT
    kind = ctx.arg_kinds[index][0]
    # `is`, not `in` a set: hashing an Enum member runs Python code (this is a hot path)
    if len(actuals) != 1 or kind is _ARG_STAR or kind is _ARG_STAR2:
        return Arg(True, None, actuals[0], True)
    return Arg(True, ctx.arg_types[index][0], actuals[0])


def literal_value(t: Type | None) -> object:
    """The literal value of a type: ``None``, an int/bool/str, a (nested) tuple; else UNKNOWN."""
    if t is None:
        return UNKNOWN
    if type(t) is Instance:  # the common case first: `1` is `int` with a last known value
        last = t.last_known_value
        return UNKNOWN if last is None else literal_value(last)
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        return UNKNOWN if p.is_enum_literal() else p.value
    if isinstance(p, NoneType):
        return None
    if isinstance(p, Instance) and p.last_known_value is not None:
        return literal_value(p.last_known_value)
    if isinstance(p, TupleType):
        items = [literal_value(i) for i in p.items]
        return UNKNOWN if any(i is UNKNOWN for i in items) else tuple(items)
    return UNKNOWN


def arg_value(arg: Arg, default: object) -> object:
    """The literal value of an argument, ``default`` when it is absent, else UNKNOWN."""
    if not arg.given:
        return default
    if arg.opaque:
        return UNKNOWN
    return literal_value(arg.type)


def literal_number(arg: Arg) -> float | int | Unknown:
    """A literal int or float argument (``2``, ``-1``, ``-0.5``), else UNKNOWN."""
    if not arg.given or arg.opaque:
        return UNKNOWN
    value = literal_value(arg.type)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    expr, sign = arg.expr, 1
    while isinstance(expr, UnaryExpr) and expr.op in ("-", "+"):
        sign = -sign if expr.op == "-" else sign
        expr = expr.expr
    if isinstance(expr, (IntExpr, FloatExpr)):
        return sign * expr.value
    return UNKNOWN
