"""Sizes as values: ``x.shape[i]`` arithmetic keeps its dim expression, and ``x.shape``
types an unknown dim ``int``.

``x.shape[0] * 2`` on ``x: Tensor[DT, B, ...]`` (``B`` a TypeVar bound to ``int``) is the
value type ``tt.Mul[L[2], B]`` (the expression classes subclass ``int``, so it is an ``int``
anywhere one is expected), and ``tt.zeros((x.shape[0] * 2,))`` reads it back as the dim
``2 * B``. Literal arithmetic folds (``64 // 8`` is ``Literal[8]?``, mypy's own form for an
int literal). A floor division keeps its expression, exact where the rules prove it
(``(4 * D) // 4`` is ``D``) and otherwise ``tt.IntDiv``, which claims no divisibility:
``x.shape[1] // 4`` is ``tt.IntDiv[D, L[4]]``, and ``(x.shape[1] // 4) * 4`` stays
``4 * (D // 4)``, never ``D``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mypy.plugin import AttributeContext, MethodContext
from mypy.types import AnyType, Instance, LiteralType, TupleType, Type, get_proper_type

from . import _names as names
from ._args import literal_value
from ._rules import rules
from ._tensortypes import as_tensor, dim_expr, make_expr_dim

if TYPE_CHECKING:
    from typedtensor._rules.dimexpr import DimExpr

__all__ = ["INT_OPERATORS", "int_operator_hook", "shape_attribute_hook"]

#: ``int`` dunders whose operands may be dims -> (operator, reflected); mypy names the method
#: ``builtins.int.__mul__`` for an int receiver, ``__mul__ of int`` for a TypeVar bound to int,
#: ``typedtensor._dims.Mul.__add__`` for an expression value
INT_OPERATORS: dict[str, tuple[str, bool]] = {}
for _op, _name in (("+", "add"), ("-", "sub"), ("*", "mul"), ("//", "floordiv")):
    for _reflected in (False, True):
        _dunder = f"__{'r' if _reflected else ''}{_name}__"
        for _owner in (names.INT, *names.DIM_EXPRESSIONS):  # int, and tt.Mul[...] values
            INT_OPERATORS[f"{_owner}.{_dunder}"] = (_op, _reflected)
        INT_OPERATORS[f"{_dunder} of int"] = (_op, _reflected)


def _operand(t: Type) -> DimExpr | None:
    """An operand as an expression; ``None`` for a plain ``int`` (the common case, fast) and
    anything that is not a dim."""
    if type(t) is Instance and t.type.fullname == names.INT and t.last_known_value is None:
        return None
    value = literal_value(t)
    if isinstance(value, int) and not isinstance(value, bool):
        return rules.DimExpr.const(value)
    return dim_expr(t)


def _combine(op: str, a: DimExpr, b: DimExpr) -> DimExpr | None:
    """``a op b``: a floor division not known to divide is inexact (``tt.IntDiv``); ``None``
    for a division by 0."""
    return a.apply(op, b, exact=False)


def int_operator_hook(op: str, reflected: bool) -> Callable[[MethodContext], Type]:
    """The hook for one ``int`` dunder: both operands dims -> the expression's type."""

    def hook(ctx: MethodContext) -> Type:
        if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
            return ctx.default_return_type
        left = _operand(ctx.type)
        right = _operand(ctx.arg_types[0][0]) if left is not None else None
        if left is None or right is None:
            return ctx.default_return_type
        result = _combine(op, right, left) if reflected else _combine(op, left, right)
        if result is None:
            return ctx.default_return_type
        dim = make_expr_dim(ctx.api)(result)
        if result.constant is not None:  # mypy's form of an int literal value: Literal[8]?
            int_type = ctx.api.named_generic_type(names.INT, [])
            assert isinstance(dim, LiteralType)
            return int_type.copy_modified(last_known_value=dim)
        return dim

    return hook


def shape_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.shape``: the dims, an unknown one (``Any``) typed ``int``."""
    view = as_tensor(ctx.type)
    p = get_proper_type(ctx.default_attr_type)
    if view is None or not isinstance(p, TupleType):
        return ctx.default_attr_type
    int_type = ctx.api.named_generic_type(names.INT, [])
    items = [int_type if isinstance(get_proper_type(i), AnyType) else i for i in p.items]
    return p.copy_modified(items=items)
