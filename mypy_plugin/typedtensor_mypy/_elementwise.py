"""Binary elementwise ops (Tensor operator dunders, ``tt.maximum``/``tt.minimum``): the
broadcast result shape by the shared rule, the result dtype by ``elementwise_dtype``, and
``typedtensor-shape`` errors for literal dims that cannot broadcast."""

from __future__ import annotations

from collections.abc import Callable
from typing import Union

from mypy.nodes import Context
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Type, TypeVarTupleType, get_proper_type

from . import errorcodes
from ._args import CallContext, find_arg
from ._dtypes import Scalar, elementwise_result_dtype, scalar_kind, unary_float_result_dtype
from ._rules import rules
from ._tensortypes import (
    Shape,
    TensorView,
    any_dim,
    as_tensor,
    dim_size,
    make_tensor,
    render_tensor,
    unknown_star,
)

__all__ = ["binary_function_hook", "binary_method_hook", "unary_float_hook"]

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
        return _combine(ctx, kind, left, right, arg.anchor(ctx))

    return hook


def binary_function_hook(kind: str) -> Callable[[FunctionContext], Type]:
    """Hook for ``tt.maximum(a, b)`` / ``tt.minimum(a, b)``."""

    def hook(ctx: FunctionContext) -> Type:
        a, b = find_arg(ctx, "a", 0), find_arg(ctx, "b", 1)
        left = _operand(a.type) if a.given and not a.opaque else None
        right = _operand(b.type) if b.given and not b.opaque else None
        if left is None or right is None or (isinstance(left, str) and isinstance(right, str)):
            return ctx.default_return_type
        return _combine(ctx, kind, left, right, b.anchor(ctx))

    return hook


def _operand(t: Type | None) -> Operand | None:
    if t is None:
        return None
    view = as_tensor(t)
    if view is not None:
        return view
    kind = scalar_kind(t)
    return Scalar(kind) if kind is not None else None


def _combine(ctx: CallContext, kind: str, left: Operand, right: Operand, anchor: Context) -> Type:
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
        shape = _broadcast(left.shape, right.shape)
    except (rules.BroadcastError, _PrefixBroadcastError) as exc:
        err = exc.err if isinstance(exc, _PrefixBroadcastError) else exc
        where = "" if isinstance(exc, _PrefixBroadcastError) else f" at position {err.position}"
        ctx.api.fail(
            f"cannot broadcast dim {dim_size(err.left)} with dim {dim_size(err.right)}{where}: "
            f"{render_tensor(left.dtype, left.shape.items)} vs "
            f"{render_tensor(right.dtype, right.shape.items)}",
            anchor,
            code=errorcodes.SHAPE,
        )
        return make_tensor(tensor.info, dtype, Shape((), unknown_star(ctx.api)))
    if shape is None:
        shape = Shape((), unknown_star(ctx.api))
    return make_tensor(tensor.info, dtype, shape)


class _PrefixBroadcastError(Exception):
    """A broadcast error in the dims before an unpacked part (no position from the end)."""

    def __init__(self, err: rules.BroadcastError) -> None:
        super().__init__(str(err))
        self.err = err


def _bcast(a: tuple[Type, ...], b: tuple[Type, ...]) -> tuple[Type, ...]:
    return tuple(rules.broadcast_shapes(a, b, size_of=dim_size, unknown=any_dim()))


def _broadcast(left: Shape, right: Shape) -> Shape | None:
    """The broadcast shape; ``None`` where the alignment of dims is not known statically.

    Shapes align from the right. Exact ranks: the shared rule. One side ``*prefix, *star,
    *suffix`` and the other of rank ``r <= len(suffix)``: only the suffix meets it. Both sides
    unpacking the same TypeVarTuple with suffixes of equal length: the stars line up (they
    have one length), so prefixes and suffixes broadcast pairwise.
    """
    if left.exact and right.exact:
        return Shape(_bcast(left.prefix, right.prefix))
    if left.items == right.items:  # e.g. two Tensor[DT, B, *Rest]
        return left
    if left.exact or right.exact:
        part, full = (left, right) if left.exact else (right, left)
        if len(part.prefix) > len(full.suffix):
            return None
        merged = (
            _bcast(full.suffix, part.prefix) if part is right else _bcast(part.prefix, full.suffix)
        )
        return Shape(full.prefix, full.star, merged)
    assert left.star is not None and right.star is not None
    same_star = isinstance(get_proper_type(left.star.type), TypeVarTupleType) and (
        left.star == right.star
    )
    if same_star and len(left.suffix) == len(right.suffix):
        try:
            prefix = _bcast(left.prefix, right.prefix)
        except rules.BroadcastError as err:  # a prefix position does not count from the end
            raise _PrefixBroadcastError(err) from None
        return Shape(prefix, left.star, _bcast(left.suffix, right.suffix))
    return None


def unary_float_hook(ctx: FunctionContext) -> Type:
    """``tt.exp/log/sqrt``: the shape kept, the dtype by ``rules.unary_float_dtype``."""
    arg = find_arg(ctx, "x", 0)
    view = as_tensor(arg.type) if arg.given and not arg.opaque and arg.type is not None else None
    if view is None:
        return ctx.default_return_type
    return make_tensor(view.info, unary_float_result_dtype(ctx.api, view.dtype), view.shape)
