"""Result types of ``tt.quantile``/``percentile``/``nanquantile``/``nanpercentile``: the
reduced shape behind the leading dim of a 1-D ``q``, numpy's dtype (``rules.quantiles``) and
the ``typedtensor-axis`` error of an unknown ``method=``."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Expression, FloatExpr, IntExpr, ListExpr, TupleExpr, UnaryExpr
from mypy.types import AnyType, Instance, Type, TypeOfAny, get_proper_type

from . import errorcodes
from ._args import Arg, CallContext, arg_value, find_arg
from ._dtype_classes import dtype_instance
from ._names import dtype_numpy_name
from ._reductions import _axis_value, check_out, reduce_dims
from ._rules import rules
from ._tensortypes import Shape, as_tensor, literal_dim, make_tensor, unknown_star

__all__ = ["quantile_hook"]


def _number_kind(expr: Expression) -> str | None:
    """``"float"``/``"int"`` for a (signed) number literal, else ``None``."""
    while isinstance(expr, UnaryExpr) and expr.op in ("-", "+"):
        expr = expr.expr
    if isinstance(expr, FloatExpr):
        return "float"
    if isinstance(expr, IntExpr):
        return "int"
    return None


def _q_form(ctx: CallContext, q: Arg) -> tuple[tuple[Type, ...] | None, str]:
    """The dims ``q`` puts in front (``()`` for a scalar, ``None`` unknown) and its kind for
    ``rules.quantile_result_dtype``."""
    if not q.given or q.opaque or q.expr is None or q.type is None:
        return None, "other"
    kind = _number_kind(q.expr)
    if kind is not None:
        return (), kind
    if isinstance(q.expr, (ListExpr, TupleExpr)):
        kinds = [_number_kind(item) for item in q.expr.items]
        if kinds and None not in kinds:
            return (literal_dim(ctx.api, len(kinds)),), "floats" if "float" in kinds else "ints"
        return None, "other"
    view = as_tensor(q.type)
    if view is not None and view.shape.exact and not view.shape.suffix:
        if len(view.shape.prefix) <= 1:
            return view.shape.prefix, "other"
        return None, "other"
    p = get_proper_type(q.type)
    if isinstance(p, Instance) and p.type.fullname in ("builtins.float", "builtins.int"):
        return (), "other"
    return None, "other"


def quantile_hook(name: str) -> Callable[[CallContext], Type]:
    """The hook of quantile family function ``name``."""

    def hook(ctx: CallContext) -> Type:
        x = find_arg(ctx, "x", 0)
        view = as_tensor(x.type) if x.given and not x.opaque and x.type is not None else None
        if view is None:
            return ctx.default_return_type
        method_arg = find_arg(ctx, "method")
        method = arg_value(method_arg, "linear")
        if isinstance(method, str):
            try:
                rules.check_quantile_method(name, method)
            except rules.QuantileMethodError as err:
                ctx.api.fail(str(err), method_arg.anchor(ctx), code=errorcodes.AXIS)
                return ctx.default_return_type
        lead, q_kind = _q_form(ctx, find_arg(ctx, "q", 1))
        axis_arg = find_arg(ctx, "axis")
        axis = _axis_value(axis_arg, None)
        keepdims = arg_value(find_arg(ctx, "keepdims"), False)
        reduced = reduce_dims(ctx, view.shape, axis, keepdims, False, axis_arg.anchor(ctx))
        if reduced is None or lead is None:
            shape = Shape((), unknown_star(ctx.api))
        else:
            shape = Shape((*lead, *reduced.prefix), reduced.star, reduced.suffix)
        dtype: Type = AnyType(TypeOfAny.special_form)
        given = get_proper_type(view.dtype)
        given_name = dtype_numpy_name(given.type.fullname) if isinstance(given, Instance) else None
        if given_name is not None and isinstance(method, str):
            result_name = rules.quantile_result_dtype(name, given_name, method, q_kind)
            if result_name is not None:
                dtype = dtype_instance(ctx.api, result_name)
        result = make_tensor(view.info, dtype, shape)
        check_out(ctx, name, result)
        return result

    return hook
