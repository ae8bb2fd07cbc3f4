"""The standard's elementwise functions (``tt.tanh``, ``tt.atan2``, ``tt.round``...): the shape
kept (unary) or broadcast (binary), the dtype by ``rules.elementwise_unary_dtype`` /
``elementwise_binary_dtype``; a dtype numpy has no loop for is a ``typedtensor-shape`` error."""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import FunctionContext
from mypy.types import AnyType, Type, TypeOfAny

from . import errorcodes
from ._args import find_arg
from ._broadcasting import StaticBroadcastError, broadcast, report_broadcast_failure
from ._dtypes import _candidates, _family_of, dtype_instance, scalar_kind
from ._interop import numpy_scalar_dtype
from ._rules import rules
from ._tensortypes import Shape, TensorView, as_tensor, make_tensor, render_dtype, unknown_star

__all__ = ["binary_hook", "round_hook", "unary_hook"]


def _summary(ctx: FunctionContext, results: list[str | None]) -> Type:
    """The tightest family holding every result dtype, or ``Any`` (where one raises)."""
    if any(r is None for r in results) or not results:
        return AnyType(TypeOfAny.special_form)
    distinct = sorted({r for r in results if r is not None})
    found = _family_of(ctx.api, distinct)
    return found if found is not None else AnyType(TypeOfAny.special_form)


def _no_loop(ctx: FunctionContext, name: str, shown: str) -> Type:
    ctx.api.fail(
        f"tt.{name} does not take {shown} (numpy has no loop for it: a TypeError at run "
        "time); convert first with astype",
        ctx.context,
        code=errorcodes.SHAPE,
    )
    return AnyType(TypeOfAny.from_error)


def _unary_result(ctx: FunctionContext, name: str, view: TensorView) -> Type:
    """``name`` applied to a tensor of type ``view``: its shape, the rules' dtype."""
    candidates = _candidates(ctx.api, view.dtype)
    if candidates is None:
        return make_tensor(view.info, AnyType(TypeOfAny.special_form), view.shape)
    results = [rules.elementwise_unary_dtype(name, c) for c in candidates]
    if all(r is None for r in results):
        dtype = _no_loop(ctx, name, f"{render_dtype(view.dtype)} tensors")
        return make_tensor(view.info, dtype, view.shape)
    if results == candidates:  # kept: the operand's own (possibly generic) dtype
        return make_tensor(view.info, view.dtype, view.shape)
    return make_tensor(view.info, _summary(ctx, results), view.shape)


def unary_hook(name: str) -> Callable[[FunctionContext], Type]:
    """Hook for a unary function of ``rules.UNARY_FUNCTIONS`` or ``REAL_PART_FUNCTIONS``."""

    def hook(ctx: FunctionContext) -> Type:
        arg = find_arg(ctx, "x", 0)
        view = as_tensor(arg.type) if arg.given and not arg.opaque and arg.type else None
        if view is None:
            return ctx.default_return_type
        return _unary_result(ctx, name, view)

    return hook


def round_hook(ctx: FunctionContext) -> Type:
    """``tt.round(x, decimals)``: shape and dtype kept; bool tensors an error."""
    arg = find_arg(ctx, "x", 0)
    view = as_tensor(arg.type) if arg.given and not arg.opaque and arg.type else None
    if view is None:
        return ctx.default_return_type
    if _candidates(ctx.api, view.dtype) == ["bool"]:
        return make_tensor(view.info, _no_loop(ctx, "round", "bool tensors"), view.shape)
    return make_tensor(view.info, view.dtype, view.shape)


def binary_hook(name: str) -> Callable[[FunctionContext], Type]:
    """Hook for a binary function of ``rules.BINARY_FUNCTIONS``."""

    def hook(ctx: FunctionContext) -> Type:
        sides: list[tuple[TensorView | None, list[str] | None, bool]] = []
        for param, position in (("a", 0), ("b", 1)):
            arg = find_arg(ctx, param, position)
            if not arg.given or arg.opaque or arg.type is None:
                return ctx.default_return_type
            view = as_tensor(arg.type)
            if view is not None:
                sides.append((view, _candidates(ctx.api, view.dtype), False))
                continue
            kind = scalar_kind(arg.type)
            numpy_name = numpy_scalar_dtype(arg.type) if kind is None else None
            if numpy_name is not None:  # a rank-0 operand of its dtype (NEP 50: not weak)
                sides.append((None, [numpy_name], False))
            elif kind is not None:
                sides.append((None, [kind], True))
            else:
                return ctx.default_return_type
        (va, ca, sa), (vb, cb, sb) = sides
        tensor = va if va is not None else vb
        if tensor is None or (sa and sb):
            return ctx.default_return_type
        shape: Shape | None = tensor.shape
        if va is not None and vb is not None:
            try:
                shape = broadcast(va.shape, vb.shape)
            except StaticBroadcastError as failure:
                report_broadcast_failure(
                    ctx, failure, (va.dtype, va.shape), (vb.dtype, vb.shape), ctx.context
                )
                return make_tensor(
                    tensor.info, AnyType(TypeOfAny.from_error), Shape((), unknown_star(ctx.api))
                )
        if shape is None:
            shape = Shape((), unknown_star(ctx.api))
        if ca is None or cb is None:
            return make_tensor(tensor.info, AnyType(TypeOfAny.special_form), shape)
        results = [
            rules.elementwise_binary_dtype(name, a, b, a_scalar=sa, b_scalar=sb)
            for a in ca
            for b in cb
        ]
        if all(r is None for r in results):
            shown = " and ".join(
                f"Python {c[0]}" if s else render_dtype(v.dtype) if v else f"numpy {c[0]}"
                for v, c, s in ((va, ca, sa), (vb, cb, sb))
            )
            return make_tensor(tensor.info, _no_loop(ctx, name, shown), shape)
        if len(results) == 1 and results[0] is not None:
            return make_tensor(tensor.info, dtype_instance(ctx.api, results[0]), shape)
        return make_tensor(tensor.info, _summary(ctx, results), shape)

    return hook
