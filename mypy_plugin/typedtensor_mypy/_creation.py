"""Constructors typed from literal shapes: ``tt.zeros((10, 20), dtype=tt.float32)`` is
``Tensor[float32, Literal[10], Literal[20]]``; ``tt.tensor(arr, shape=(B, 3))`` is the declared
type (``B`` a TypeVar in scope or a ``tt.Dim`` marker); inside a generic function, where mypy
rejects a TypeVar used as a value, a size typed by a dim declares it:
``tt.tensor(arr, shape=(x.shape[0], 3))`` is ``Tensor[Any, B, Literal[3]]`` for ``x`` of
``Tensor[DT, B, ...]``."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from mypy.nodes import (
    ARG_POS,
    Expression,
    FuncItem,
    IntExpr,
    NameExpr,
    TupleExpr,
    TypeInfo,
    TypeVarExpr,
)
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    TupleType,
    Type,
    TypeType,
    TypeVarLikeType,
    TypeVarType,
    get_proper_type,
)

from . import _names as names
from . import errorcodes
from ._args import find_arg, literal_value
from ._broadcasting import is_symbolic_dim
from ._dtypes import dtype_instance, scalar_kind
from ._tensortypes import Shape, any_dim, as_tensor, literal_dim, make_tensor, render_tensor

__all__ = ["arange_hook", "assert_shape_hook", "shape_constructor_hook", "size_dim", "tensor_hook"]

_FULL_DEFAULT = {"int": "int64", "float": "float64", "complex": "complex128", "bool": "bool"}


def _dims_from_literal(ctx: FunctionContext, name: str) -> tuple[Type, ...] | None:
    arg = find_arg(ctx, name, 0)
    if not arg.given or arg.opaque:
        return None
    value = literal_value(arg.type)
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    if isinstance(value, tuple) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        negative = [v for v in value if v < 0]
        if negative:
            ctx.api.fail(
                f"shape entries must be >= 0, got {negative[0]} in {value}",
                arg.anchor(ctx),
                code=errorcodes.SHAPE,
            )
            return None
        return tuple(literal_dim(ctx.api, v) for v in value)
    p = get_proper_type(arg.type) if arg.type is not None else None
    if isinstance(p, TupleType):  # a tuple with some non-literal entries: the rank is known
        out: list[Type] = []
        for item in p.items:
            v = literal_value(item)
            ok = isinstance(v, int) and not isinstance(v, bool) and v >= 0
            out.append(literal_dim(ctx.api, v) if ok else size_dim(item))  # type: ignore[arg-type]
        return tuple(out)
    if p is not None and is_symbolic_dim(p):  # tt.zeros(x.shape[0])
        return (p,)
    return None


def size_dim(t: Type) -> Type:
    """A size typed by a dim (``x.shape[0]``, ``x.shape[0] * 2``) is that dim; else ``Any``."""
    return t if is_symbolic_dim(t) else any_dim()


def shape_constructor_hook(fn: str) -> Callable[[FunctionContext], Type]:
    """Hook for ``zeros ones empty full random``: the shape from a literal ``shape``."""

    def hook(ctx: FunctionContext) -> Type:
        default = as_tensor(ctx.default_return_type)
        if default is None:
            return ctx.default_return_type
        dims = _dims_from_literal(ctx, "shape")
        if dims is None:
            return ctx.default_return_type
        dtype = default.dtype
        if fn == "full" and isinstance(get_proper_type(dtype), AnyType):
            dtype_arg = find_arg(ctx, "dtype")
            fill = find_arg(ctx, "fill_value", 1)
            kind = scalar_kind(fill.type) if fill.type is not None and not fill.opaque else None
            if not dtype_arg.given and kind is not None:
                dtype = dtype_instance(ctx.api, _FULL_DEFAULT[kind])
        return make_tensor(default.info, dtype, Shape(dims))

    return hook


def arange_hook(ctx: FunctionContext) -> Type:
    """``tt.arange(5)`` is ``Tensor[int64, Literal[5]]``, ``tt.arange(x.shape[0])`` is
    ``Tensor[int64, B]``, ``tt.arange(1, 7, 2)`` is ``Tensor[int64, Literal[3]]`` (literal
    ints); other bounds or steps give an unknown dim."""
    default = as_tensor(ctx.default_return_type)
    start = find_arg(ctx, "start", 0)
    stop, step = find_arg(ctx, "stop", 1), find_arg(ctx, "step", 2)
    if default is None or start.opaque or stop.opaque or step.opaque:
        return ctx.default_return_type
    if not step.given and (not stop.given or _is_class_object(stop.type)):  # arange(n[, dtype])
        if start.type is not None and is_symbolic_dim(start.type):
            return make_tensor(default.info, default.dtype, Shape((start.type,)))
        bounds: tuple[object, ...] = (0, literal_value(start.type), 1)
    else:
        bounds = (
            literal_value(start.type),
            literal_value(stop.type) if stop.given else None,
            literal_value(step.type) if step.given else 1,
        )
        if bounds[1] is None:  # arange(n, step=2): from 0 to n
            bounds = (0, bounds[0], bounds[2])
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds):
        return ctx.default_return_type
    first, end, by = cast("tuple[int, int, int]", bounds)
    if by == 0:
        return ctx.default_return_type  # numpy raises ZeroDivisionError at run time
    length = max(0, -((first - end) // by))  # ceil((end - first) / by)
    return make_tensor(default.info, default.dtype, Shape((literal_dim(ctx.api, length),)))


def _is_class_object(t: Type | None) -> bool:
    """A class passed as a value (``tt.float32`` as ``arange``'s second argument)."""
    p = get_proper_type(t) if t is not None else None
    return isinstance(p, TypeType) or (isinstance(p, CallableType) and p.is_type_obj())


def tensor_hook(ctx: FunctionContext) -> Type:
    """``tt.tensor(obj, shape=(B, 3), dtype=tt.float32)``: the declared type (runtime-checked)."""
    default = as_tensor(ctx.default_return_type)
    arg = find_arg(ctx, "shape", 1)
    if default is None or not arg.given or arg.opaque or not isinstance(arg.expr, TupleExpr):
        return ctx.default_return_type
    p = get_proper_type(arg.type) if arg.type is not None else None
    item_types: list[Type | None] = [None] * len(arg.expr.items)
    if isinstance(p, TupleType) and len(p.items) == len(item_types):
        item_types = list(p.items)
    dims = tuple(_declared_dim(ctx, e, t) for e, t in zip(arg.expr.items, item_types, strict=True))
    return make_tensor(default.info, default.dtype, Shape(dims))


def assert_shape_hook(ctx: MethodContext) -> Type:
    """``x.assert_shape(x.shape[0], 3)``: the receiver with the declared dims (runtime-checked);
    the receiver's dtype is kept."""
    me = as_tensor(ctx.type)
    if me is None or len(ctx.args) != 1 or any(k != ARG_POS for k in ctx.arg_kinds[0]):
        return ctx.default_return_type  # `*dims` passed as a splat: the rank is not known
    exprs, types = ctx.args[0], ctx.arg_types[0]
    dims = tuple(_declared_dim(ctx, e, t) for e, t in zip(exprs, types, strict=True))
    if me.shape.exact and len(dims) != len(me.shape.prefix):
        ctx.api.fail(
            f"assert_shape declares {len(dims)} dims but the tensor has rank "
            f"{len(me.shape.prefix)}: {render_tensor(me.dtype, me.shape.items)}",
            ctx.context,
            code=errorcodes.SHAPE,
        )
    return make_tensor(me.info, me.dtype, Shape(dims))


def _declared_dim(ctx: FunctionContext | MethodContext, expr: Expression, t: Type | None) -> Type:
    if isinstance(expr, IntExpr) and expr.value >= 0:
        return literal_dim(ctx.api, expr.value)
    if isinstance(expr, NameExpr):
        node = expr.node
        if isinstance(node, TypeInfo) and node.has_base(names.DIM) and node.fullname != names.DIM:
            return Instance(node, [])
        if isinstance(node, TypeVarExpr):
            found = _type_var_in_scope(ctx, node.fullname)
            if found is not None:
                return found
    value = literal_value(t)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return literal_dim(ctx.api, value)
    if t is not None and is_symbolic_dim(t):  # a size typed by a dim: `x.shape[0]` is `B`
        return t
    return any_dim()


def _type_var_in_scope(ctx: FunctionContext | MethodContext, fullname: str) -> Type | None:
    """The TypeVar ``fullname`` as bound by the enclosing function or class, if any."""
    scope = getattr(ctx.api, "scope", None)
    candidates: list[TypeVarLikeType] = []
    if scope is not None:
        func = scope.top_function()
        if isinstance(func, FuncItem) and func.type is not None:
            candidates.extend(getattr(func.type, "variables", []))
        cls = scope.active_class()
        if isinstance(cls, TypeInfo):
            candidates.extend(cls.defn.type_vars)
    for tv in candidates:
        if isinstance(tv, TypeVarType) and tv.fullname == fullname:
            return tv
    return None
