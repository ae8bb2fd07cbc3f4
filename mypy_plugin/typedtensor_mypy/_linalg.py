"""``a @ b``, ``tt.matmul(a, b)`` and ``tt.einsum``: the result shape by ``rules.matmul_shape``
(1-D operands promoted and removed, batch dims broadcast by ``_broadcasting.broadcast``) and
``rules.einsum_shape``, the result dtype by numpy's promotion, and ``typedtensor-shape``
errors for inner dims that differ."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import ArgKind, Context
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Type

from . import errorcodes
from ._args import CallContext, find_arg, literal_value
from ._broadcasting import StaticBroadcastError, broadcast, is_symbolic_dim, never_broadcast_text
from ._dtypes import elementwise_result_dtype
from ._operator_errors import past_operator_trial
from ._rules import rules
from ._tensortypes import (
    Shape,
    TensorView,
    any_dim,
    as_tensor,
    dim_expr,
    dim_size,
    make_tensor,
    render_dim,
    render_tensor,
    unknown_star,
)

__all__ = ["einsum_hook", "matmul_function_hook", "matmul_method_hook"]


def matmul_method_hook(reflected: bool) -> Callable[[MethodContext], Type]:
    """Hook for ``Tensor.__matmul__`` (``reflected``: ``__rmatmul__``)."""

    def hook(ctx: MethodContext) -> Type:
        me = as_tensor(ctx.type)
        arg = find_arg(ctx, "other", 0)
        other = as_tensor(arg.type) if arg.given and not arg.opaque and arg.type else None
        if me is None or other is None:
            return ctx.default_return_type
        left, right = (other, me) if reflected else (me, other)
        return matmul_type(ctx, left, right, ctx.context)

    return hook


def matmul_function_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.matmul(a, b)``."""
    a, b = find_arg(ctx, "a", 0), find_arg(ctx, "b", 1)
    left = as_tensor(a.type) if a.given and not a.opaque and a.type else None
    right = as_tensor(b.type) if b.given and not b.opaque and b.type else None
    if left is None or right is None:
        return ctx.default_return_type
    return matmul_type(ctx, left, right, ctx.context)


def _split(shape: Shape) -> tuple[Shape, tuple[Type, ...]] | None:
    """``(batch dims, core dims)``: the last two dims (one for a rank-1 tensor) are the core;
    ``None`` when the core is not known (an unpacked part among the last two dims)."""
    if shape.exact:
        dims = shape.prefix
        n = min(2, len(dims))
        return Shape(dims[: len(dims) - n]), dims[len(dims) - n :]
    if len(shape.suffix) < 2:
        return None
    return Shape(shape.prefix, shape.star, shape.suffix[:-2]), shape.suffix[-2:]


def matmul_type(ctx: CallContext, left: TensorView, right: TensorView, anchor: Context) -> Type:
    """The type of ``left @ right``, reporting shape errors at ``anchor``."""
    dtype = elementwise_result_dtype(ctx.api, "add", left.dtype, right.dtype)
    unknown = make_tensor(left.info, dtype, Shape((), unknown_star(ctx.api)))
    a, b = _split(left.shape), _split(right.shape)
    if a is None or b is None:
        return unknown
    (batch_a, core_a), (batch_b, core_b) = a, b
    try:
        core = rules.matmul_shape(
            core_a,
            core_b,
            size_of=dim_size,
            unknown=any_dim(),
            is_symbolic=is_symbolic_dim,
            render_dim=render_dim,
            expr_of=dim_expr,
        )
    except rules.MatmulShapeError as err:
        with past_operator_trial(ctx):
            ctx.api.fail(
                f"{err.problem}: {render_tensor(left.dtype, left.shape.items)} @ "
                f"{render_tensor(right.dtype, right.shape.items)}; {err.hint}",
                anchor,
                code=errorcodes.SYMBOLIC if err.symbolic else errorcodes.SHAPE,
            )
        return unknown
    try:
        batch = broadcast(batch_a, batch_b)
    except StaticBroadcastError as failure:
        bad = failure.err
        symbolic = isinstance(bad, rules.SymbolicBroadcastError)
        dims = render_dim(bad.left), render_dim(bad.right)  # type: ignore[arg-type]
        with past_operator_trial(ctx):
            ctx.api.fail(
                f"matmul batch dims cannot broadcast: dim {dims[0]} with dim {dims[1]}: "
                f"{render_tensor(left.dtype, left.shape.items)} @ "
                f"{render_tensor(right.dtype, right.shape.items)}; the dims before the last two "
                f"must broadcast as in elementwise operations{never_broadcast_text(bad)}",
                anchor,
                code=errorcodes.SYMBOLIC if symbolic else errorcodes.SHAPE,
            )
        return unknown
    if batch is None:
        return unknown
    if batch.exact:
        return make_tensor(left.info, dtype, Shape((*batch.prefix, *core)))
    return make_tensor(left.info, dtype, Shape(batch.prefix, batch.star, (*batch.suffix, *core)))


def einsum_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.einsum(subscripts, *operands)``: the exact result for literal subscripts
    and operands whose ranks are known (``rules.einsum_shape``), the dtype numpy's promotion
    of the operands'; an error with the rule's message where a label joins dims that differ
    or the subscripts do not fit."""
    spelled = find_arg(ctx, "subscripts", 0)
    subscripts = literal_value(spelled.type)  # a string literal, a Final or Literal name
    if not isinstance(subscripts, str) or len(ctx.args) != 2:
        return ctx.default_return_type
    if any(kind != ArgKind.ARG_POS for kind in ctx.arg_kinds[1]):
        return ctx.default_return_type  # *operands spread from a sequence: ranks unknown
    views = [as_tensor(t) for t in ctx.arg_types[1]]
    if not views or any(v is None or not v.shape.exact for v in views):
        return ctx.default_return_type
    tensors = [v for v in views if v is not None]
    dtype = tensors[0].dtype
    for view in tensors[1:]:
        dtype = elementwise_result_dtype(ctx.api, "add", dtype, view.dtype)
    try:
        dims = rules.einsum_shape(
            subscripts,
            [view.shape.prefix for view in tensors],
            size_of=dim_size,
            unknown=any_dim(),
            is_symbolic=is_symbolic_dim,
            render_dim=render_dim,
            expr_of=dim_expr,
        )
    except rules.EinsumSubscriptsError as err:
        ctx.api.fail(str(err), spelled.anchor(ctx), code=errorcodes.SHAPE)
        return make_tensor(tensors[0].info, dtype, Shape((), unknown_star(ctx.api)))
    except rules.ShapeMismatchError as err:
        code = errorcodes.SYMBOLIC if err.symbolic else errorcodes.SHAPE
        ctx.api.fail(str(err), ctx.context, code=code)
        return make_tensor(tensors[0].info, dtype, Shape((), unknown_star(ctx.api)))
    return make_tensor(tensors[0].info, dtype, Shape(tuple(dims)))
