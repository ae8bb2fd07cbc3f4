"""``tt.Add/Sub/Mul/FloorDiv[A, B]`` in annotations, read into the canonical form.

mypy compares types structurally, so every expression dim must have one spelling: this type
analyze hook rewrites an annotation's expression into the canonical type of its
``rules.DimExpr`` (``Mul[B, L[2]]`` -> ``Mul[L[2], B]``, ``Mul[L[2], L[3]]`` -> ``Literal[6]``,
``Add[B, L[0]]`` -> ``B``), the same type the hooks build for a computed dim.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import AnalyzeTypeContext
from mypy.types import AnyType, LiteralType, Type, TypeOfAny

from . import _names as names
from ._tensortypes import dim_expr, expr_dim

__all__ = ["analyze_dim_expression"]


def analyze_dim_expression(cls: str) -> Callable[[AnalyzeTypeContext], Type]:
    """The hook for the class ``cls`` (``tt.Mul[L[2], B]`` and friends): two dims in, the
    canonical dim out."""
    return lambda ctx: _analyze(cls, ctx)


def _analyze(cls: str, ctx: AnalyzeTypeContext) -> Type:
    unbound = ctx.type
    op = names.DIM_EXPRESSIONS[cls]
    short = cls.rpartition(".")[2]
    if len(unbound.args) != 2:
        ctx.api.fail(
            f"tt.{short} takes two dims (tt.{short}[A, B] is A {op} B), got {len(unbound.args)}",
            ctx.context,
        )
        return AnyType(TypeOfAny.from_error)
    args = [ctx.api.analyze_type(a) for a in unbound.args]
    spelled = ctx.api.named_type(cls, args)
    expr = dim_expr(spelled)
    if expr is None:  # an Any or a not-yet-known argument: kept as spelled
        return spelled
    int_type = ctx.api.named_type(names.INT, [])
    return expr_dim(
        expr, lambda n: LiteralType(n, int_type), lambda name, a: ctx.api.named_type(name, a)
    )
