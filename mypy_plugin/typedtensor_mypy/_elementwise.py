"""Binary elementwise ops (Tensor operator dunders, ``tt.maximum``/``tt.minimum``): the
broadcast result shape by the shared rule, the result dtype by ``elementwise_dtype``, and
``typedtensor-shape`` errors for literal dims that cannot broadcast."""

from __future__ import annotations

from collections.abc import Callable
from typing import Union

from mypy.nodes import ComparisonExpr, Context, Expression, OpExpr
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Type

from ._args import CallContext, find_arg
from ._broadcasting import StaticBroadcastError, broadcast, report_broadcast_failure
from ._dtypes import Scalar, elementwise_result_dtype, scalar_kind, unary_float_result_dtype
from ._tensortypes import (
    Shape,
    TensorView,
    as_tensor,
    make_tensor,
    unknown_star,
)

__all__ = [
    "binary_function_hook",
    "binary_method_hook",
    "scalar_equality_hook",
    "unary_float_hook",
]

Operand = Union[TensorView, Scalar]  # a tensor, or a Python scalar kind ("int"...)


def binary_method_hook(kind: str, reflected: bool) -> Callable[[MethodContext], Type]:
    """Hook for an operator dunder of Tensor (``reflected``: ``__radd__`` and friends)."""

    def hook(ctx: MethodContext) -> Type:
        me = as_tensor(ctx.type)
        arg = find_arg(ctx, "other", 0)
        other = _operand(arg.type) if arg.given and not arg.opaque else None
        if me is None or other is None:
            return ctx.default_return_type
        left, right = (other, me) if reflected else (me, other)
        return _combine(ctx, kind, left, right, arg.anchor(ctx), _operator_operands(ctx))

    return hook


def scalar_equality_hook(ctx: MethodContext) -> Type:
    """Hook for ``int.__eq__``/``__ne__`` (and float, complex, bool): ``2 == x`` with a Tensor
    ``x`` is the bool Tensor of ``x``'s shape (``int.__eq__`` returns NotImplemented, so Python
    calls ``x.__eq__(2)``); mypy would answer ``bool`` from typeshed's ``int.__eq__``.
    ``(2, 3) tensor: 2 == x -> Tensor[bool_, L[2], L[3]]``."""
    me = as_tensor(ctx.arg_types[0][0]) if ctx.arg_types and ctx.arg_types[0] else None
    scalar = scalar_kind(ctx.type)
    if me is None or scalar is None:
        return ctx.default_return_type
    return _combine(ctx, "compare", Scalar(scalar), me, ctx.context)


def binary_function_hook(kind: str) -> Callable[[FunctionContext], Type]:
    """Hook for ``tt.maximum(a, b)`` / ``tt.minimum(a, b)``."""

    def hook(ctx: FunctionContext) -> Type:
        a, b = find_arg(ctx, "a", 0), find_arg(ctx, "b", 1)
        left = _operand(a.type) if a.given and not a.opaque else None
        right = _operand(b.type) if b.given and not b.opaque else None
        if left is None or right is None or (isinstance(left, str) and isinstance(right, str)):
            return ctx.default_return_type
        return _combine(ctx, kind, left, right, b.anchor(ctx), (a.expr, b.expr))

    return hook


def _operand(t: Type | None) -> Operand | None:
    if t is None:
        return None
    view = as_tensor(t)
    if view is not None:
        return view
    kind = scalar_kind(t)
    return Scalar(kind) if kind is not None else None


def _operator_operands(ctx: MethodContext) -> tuple[Expression | None, Expression | None]:
    """The operand expressions of ``a - b`` (or of ``a.__sub__(b)``), left first."""
    node = ctx.context
    if isinstance(node, OpExpr):
        return node.left, node.right
    if isinstance(node, ComparisonExpr) and len(node.operands) == 2:
        return node.operands[0], node.operands[1]
    return None, None


def _combine(
    ctx: CallContext,
    kind: str,
    left: Operand,
    right: Operand,
    anchor: Context,
    operands: tuple[Expression | None, Expression | None] = (None, None),
) -> Type:
    tensor = left if isinstance(left, TensorView) else right
    assert isinstance(tensor, TensorView)
    dtype = elementwise_result_dtype(
        ctx.api,
        kind,
        left.dtype if isinstance(left, TensorView) else left,
        right.dtype if isinstance(right, TensorView) else right,
    )
    if not isinstance(left, TensorView) or not isinstance(right, TensorView):
        return make_tensor(tensor.info, dtype, tensor.shape)
    try:
        shape = broadcast(left.shape, right.shape)
    except StaticBroadcastError as failure:
        report_broadcast_failure(
            ctx, failure, (left.dtype, left.shape), (right.dtype, right.shape), anchor, operands
        )
        return make_tensor(tensor.info, dtype, Shape((), unknown_star(ctx.api)))
    if shape is None:
        shape = Shape((), unknown_star(ctx.api))
    return make_tensor(tensor.info, dtype, shape)


def unary_float_hook(ctx: FunctionContext) -> Type:
    """``tt.exp/log/sqrt``: the shape kept, the dtype by ``rules.unary_float_dtype``."""
    arg = find_arg(ctx, "x", 0)
    view = as_tensor(arg.type) if arg.given and not arg.opaque and arg.type is not None else None
    if view is None:
        return ctx.default_return_type
    return make_tensor(view.info, unary_float_result_dtype(ctx.api, view.dtype), view.shape)
