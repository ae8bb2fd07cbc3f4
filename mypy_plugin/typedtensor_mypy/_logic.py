"""Bool and integer tensors: ``~ & | ^`` (floats are a ``typedtensor-shape`` error, as numpy
raises a TypeError for them) and ``tt.where(cond, x, y)`` (three-way broadcast, numpy's dtype of
``x`` with ``y``, Python scalars weak)."""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Type

from . import errorcodes
from ._args import find_arg
from ._broadcasting import StaticBroadcastError, broadcast, report_broadcast_failure
from ._dtypes import Scalar, _candidates, dtype_instance, elementwise_result_dtype, scalar_kind
from ._elementwise import binary_method_hook
from ._rules import rules
from ._tensortypes import Shape, TensorView, as_tensor, make_tensor, render_dtype, unknown_star

__all__ = ["bitwise_method_hook", "invert_hook", "where_hook"]

_BITWISE_KINDS = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_SYMBOLS = {"__and__": "&", "__or__": "|", "__xor__": "^"}


def _never_bitwise(ctx: MethodContext | FunctionContext, dtype: Type | Scalar) -> bool:
    """Whether no dtype ``dtype`` can stand for supports bitwise ops (floats, a float scalar)."""
    if isinstance(dtype, Scalar):
        return str(dtype) in ("float", "complex")
    candidates = _candidates(ctx.api, dtype)
    return candidates is not None and not any(c in _BITWISE_KINDS for c in candidates)


def bitwise_method_hook(dunder: str, reflected: bool) -> Callable[[MethodContext], Type]:
    """Hook for ``Tensor.__and__``/``__or__``/``__xor__`` and their reflected forms: the
    broadcast shape and promoted dtype of ``+``, a float operand an error."""
    promote_hook = binary_method_hook("add", reflected)
    symbol = _SYMBOLS[dunder.replace("__r", "__")]

    def hook(ctx: MethodContext) -> Type:
        me = as_tensor(ctx.type)
        arg = find_arg(ctx, "other", 0)
        if me is None or not arg.given or arg.opaque or arg.type is None:
            return ctx.default_return_type
        other_view = as_tensor(arg.type)
        kind = scalar_kind(arg.type)
        other: Type | Scalar | None = (
            other_view.dtype if other_view is not None else Scalar(kind) if kind else None
        )
        for dtype in (me.dtype, other):
            if dtype is not None and _never_bitwise(ctx, dtype):
                shown = f"Python {dtype}" if isinstance(dtype, Scalar) else render_dtype(dtype)
                ctx.api.fail(
                    f"operator {symbol} needs bool or integer tensors, got a {shown} operand "
                    "(numpy raises a TypeError); compare first (x > 0) or use astype",
                    ctx.context,
                    code=errorcodes.SHAPE,
                )
                return make_tensor(me.info, me.dtype, Shape((), unknown_star(ctx.api)))
        return promote_hook(ctx)

    return hook


def invert_hook(ctx: MethodContext) -> Type:
    """``~x``: the type kept for bool and integer tensors, an error for floats."""
    me = as_tensor(ctx.type)
    if me is not None and _never_bitwise(ctx, me.dtype):
        ctx.api.fail(
            f"operator ~ needs a bool or integer tensor, got {render_dtype(me.dtype)} (numpy "
            "raises a TypeError); use x == 0 or a comparison for a mask",
            ctx.context,
            code=errorcodes.SHAPE,
        )
    return ctx.default_return_type


_SCALAR_DTYPES = {
    "bool": "bool",
    "int": "int64",
    "float": "float64",
    "complex": "complex128",
}


def where_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.where(condition, x, y)``."""
    operands: list[TensorView | Scalar] = []
    for name, position in (("condition", 0), ("x", 1), ("y", 2)):
        arg = find_arg(ctx, name, position)
        if not arg.given or arg.opaque or arg.type is None:
            return ctx.default_return_type
        view = as_tensor(arg.type)
        kind = scalar_kind(arg.type) if view is None else None
        if view is None and kind is None:
            return ctx.default_return_type
        operands.append(view if view is not None else Scalar(kind))
    tensors = [o for o in operands if isinstance(o, TensorView)]
    x, y = operands[1], operands[2]
    if isinstance(x, Scalar) and isinstance(y, Scalar):
        name = rules.promote(_SCALAR_DTYPES[str(x)], _SCALAR_DTYPES[str(y)])
        dtype = dtype_instance(ctx.api, name)
    else:
        dtype = elementwise_result_dtype(
            ctx.api,
            "add",
            x.dtype if isinstance(x, TensorView) else x,
            y.dtype if isinstance(y, TensorView) else y,
        )
    if not tensors:
        return ctx.default_return_type
    info = tensors[0].info
    shape: Shape | None = Shape(())
    shown: tuple[Type, Shape] = (dtype, Shape(()))
    for operand in tensors:
        assert shape is not None
        try:
            shape = broadcast(shape, operand.shape)
        except StaticBroadcastError as failure:
            report_broadcast_failure(
                ctx, failure, shown, (operand.dtype, operand.shape), ctx.context
            )
            return make_tensor(info, dtype, Shape((), unknown_star(ctx.api)))
        if shape is None:
            return make_tensor(info, dtype, Shape((), unknown_star(ctx.api)))
        shown = (operand.dtype, shape)
    assert shape is not None
    return make_tensor(info, dtype, shape)
