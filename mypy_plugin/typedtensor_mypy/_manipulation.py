"""Shape manipulation hooks: ``x.T``/``x.mT``, ``transpose``/``permute_dims``/``swapaxes``/
``moveaxis``, ``reshape``, ``expand_dims``/``squeeze``, ``concatenate``/``stack``/``split`` and
``broadcast_to``, by the shared rules of ``_rules.manipulation``.

Literal axes and shapes are read from the call; a shape item may also be a typed dim taken from
``x.shape`` (its type is the dim: a ``Literal``, a TypeVar or a ``tt.Dim`` marker). The tensors
of ``concatenate``/``stack`` are read one by one from a tuple or list expression; a list of
unknown length gives ``Any`` along the joined axis. Where the answer is not known statically
the result keeps the dtype with an unknown shape (mypy's own answer).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from mypy.nodes import ArgKind, Context, ListExpr, StarExpr
from mypy.plugin import AttributeContext, FunctionContext
from mypy.types import (
    AnyType,
    Instance,
    TupleType,
    Type,
    TypeVarType,
    UnpackType,
    get_proper_type,
)

from . import _names as names
from . import errorcodes
from ._args import UNKNOWN, Arg, CallContext, arg_value, find_arg, literal_value
from ._broadcasting import is_symbolic_dim
from ._dtypes import elementwise_result_dtype
from ._reductions import receiver
from ._rules import rules
from ._tensortypes import (
    Shape,
    TensorView,
    any_dim,
    as_tensor,
    dim_expr,
    dim_size,
    literal_dim,
    make_expr_dim,
    make_tensor,
    render_dim,
)

__all__ = [
    "broadcast_to_hook",
    "expand_dims_hook",
    "join_hook",
    "matrix_transpose_attribute_hook",
    "moveaxis_hook",
    "reshape_hook",
    "split_hook",
    "squeeze_hook",
    "swapaxes_hook",
    "transpose_attribute_hook",
    "transpose_hook",
]

Hook = Callable[[Any], Type]


class _Failed:
    """A rule reported an error (already reported to mypy)."""


_FAILED = _Failed()


def _show(dims: Sequence[Type]) -> str:
    parts = [render_dim(d) for d in dims]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _code(err: Exception) -> Any:
    if isinstance(err, rules.ShapeMismatchError):
        return errorcodes.SYMBOLIC if err.symbolic else errorcodes.SHAPE
    return errorcodes.AXIS


def _apply(ctx: Any, anchor: Context, rule: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``rule(*args, **kwargs)``; a rule error is reported at ``anchor`` and gives ``_FAILED``."""
    try:
        return rule(*args, **kwargs)
    except rules.RuleError as err:
        ctx.api.fail(str(err), anchor, code=_code(err))
        return _FAILED


def _dim_kwargs(ctx: Any) -> dict[str, Any]:
    """How the rules see mypy types: sizes, symbols, new literal dims, Any, expressions."""
    return {
        "size_of": dim_size,
        "is_symbolic": is_symbolic_dim,
        "make_dim": lambda n: literal_dim(ctx.api, n),
        "unknown": any_dim(),
        "render": _show,
        "expr_of": dim_expr,
        "make_expr": make_expr_dim(ctx.api),
    }


def _without(kw: dict[str, Any], *keys: str) -> dict[str, Any]:
    """``kw`` less the arguments a rule does not take."""
    return {k: v for k, v in kw.items() if k not in keys}


def _result(ctx: CallContext, view: TensorView, dims: object, dtype: Type | None = None) -> Type:
    """``Tensor[dtype, *dims]``; the unknown shape after a reported error or an unknown answer."""
    if dims is _FAILED or dims is None:
        return ctx.default_return_type
    assert isinstance(dims, tuple)
    return make_tensor(view.info, view.dtype if dtype is None else dtype, Shape(dims))


def _exact(ctx: CallContext, method: bool) -> TensorView | None:
    """The subject tensor when its rank is known."""
    view = receiver(ctx, method)
    return view if view is not None and view.shape.exact else None


def _star_items(ctx: CallContext, name: str) -> list[Type] | None:
    """The actual argument types of a ``*name`` parameter (``x.transpose(1, 0)``); ``None`` if
    one is itself unpacked (``*axes``)."""
    try:
        index = ctx.callee_arg_names.index(name)
    except ValueError:
        return None
    if index >= len(ctx.arg_types):
        return []
    if any(kind == ArgKind.ARG_STAR for kind in ctx.arg_kinds[index]):
        return None
    return list(ctx.arg_types[index])


def _star_value(ctx: CallContext, name: str, method: bool, param: str) -> Arg | list[Type] | None:
    """The method form's varargs (one tuple, ``None`` or several items) or the function's
    single argument."""
    if not method:
        return find_arg(ctx, param, 1)
    items = _star_items(ctx, name)
    if items is None:
        return None
    if len(items) == 1:
        p = get_proper_type(items[0])
        expr = ctx.args[ctx.callee_arg_names.index(name)][0]
        if isinstance(p, TupleType) or isinstance(expr, ListExpr) or literal_value(p) is None:
            return Arg(True, items[0], expr)
    return items


def _list_items(ctx: CallContext, arg: Arg) -> list[Type] | None:
    """The item types of a list expression argument (``[1, 0]``, ``[x.shape[0], -1]``), which
    the call's own type (``list[int]``) no longer tells apart; ``None`` for anything else."""
    expr = arg.expr
    if not isinstance(expr, ListExpr) or any(isinstance(e, StarExpr) for e in expr.items):
        return None
    lookup = getattr(ctx.api, "lookup_type_or_none", None)
    if lookup is None:
        return None
    found: list[Type | None] = [lookup(e) for e in expr.items]
    return [t for t in found if t is not None] if None not in found else None


def _value(ctx: CallContext, arg: Arg, default: object) -> object:
    """``arg_value``, and a list expression of literals as the tuple of its values."""
    items = _list_items(ctx, arg) if arg.given and not arg.opaque else None
    if items is None:
        return arg_value(arg, default)
    values = tuple(literal_value(t) for t in items)
    return UNKNOWN if UNKNOWN in values else values


# ------------------------------------------------------------------------------ dim orders
def _attribute_guarded(
    hook: Callable[[AttributeContext], Type],
) -> Callable[[AttributeContext], Type]:
    """An attribute hook that never crashes mypy: an exception gives mypy's own answer
    (re-raised under ``TYPEDTENSOR_MYPY_DEBUG``); marked so ``_guard.guarded`` keeps it."""

    def run(ctx: AttributeContext) -> Type:
        try:
            return hook(ctx)
        except Exception:
            if os.environ.get("TYPEDTENSOR_MYPY_DEBUG"):
                raise
            return ctx.default_attr_type

    run._typedtensor_guarded = True  # type: ignore[attr-defined]
    return run


def _attribute(ctx: AttributeContext, dims: Callable[[TensorView], object]) -> Type:
    """The property's type: ``dims(view)`` is a ``Shape``, a tuple of dims, ``_FAILED`` or
    ``None`` (not known)."""
    view = as_tensor(ctx.type)
    if view is None or ctx.is_lvalue:
        return ctx.default_attr_type
    result = dims(view)
    if isinstance(result, tuple) and not isinstance(result, Shape):
        result = Shape(result)
    if result is _FAILED:
        unknown = UnpackType(ctx.api.named_generic_type(names.TUPLE, [any_dim()]))
        result = Shape((), unknown)
    if isinstance(result, Shape):
        return make_tensor(view.info, view.dtype, result)
    return ctx.default_attr_type


@_attribute_guarded
def transpose_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.T``: every dim reversed."""
    return _attribute(
        ctx, lambda view: tuple(reversed(view.shape.prefix)) if view.shape.exact else None
    )


@_attribute_guarded
def matrix_transpose_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.mT``: the last two dims swapped (rank >= 2, also after an unpacked part)."""

    def dims(view: TensorView) -> object:
        shape = view.shape
        if not shape.exact:
            s = shape.suffix
            return Shape(shape.prefix, shape.star, (*s[:-2], s[-1], s[-2])) if len(s) >= 2 else None
        order = _apply(ctx, ctx.context, rules.matrix_transpose_order, len(shape.prefix))
        return order if order is _FAILED else tuple(shape.prefix[i] for i in order)

    return _attribute(ctx, dims)


def transpose_hook(method: bool, function: str = "transpose") -> Hook:
    """``x.transpose(...)`` (``*axes``), ``tt.transpose(x, axes)``, ``tt.permute_dims``."""

    def hook(ctx: CallContext) -> Type:
        view = _exact(ctx, method)
        if view is None:
            return ctx.default_return_type
        given = _star_value(ctx, "axes", method, "axes")
        if given is None:
            return ctx.default_return_type
        if isinstance(given, list):  # x.transpose(1, 0)
            values = [literal_value(t) for t in given]
            axes: object = None if not values else tuple(values)
            anchor = ctx.context
        else:
            axes = _value(ctx, given, None)
            anchor = given.anchor(ctx)
        if axes is UNKNOWN or (isinstance(axes, tuple) and UNKNOWN in axes):
            return ctx.default_return_type
        dims = view.shape.prefix
        order = _apply(ctx, anchor, rules.transpose_order, len(dims), axes)
        return _result(ctx, view, order if order is _FAILED else tuple(dims[i] for i in order))

    return hook


def swapaxes_hook(method: bool) -> Hook:
    """``x.swapaxes(a, b)`` / ``tt.swapaxes(x, a, b)``."""

    def hook(ctx: CallContext) -> Type:
        view = _exact(ctx, method)
        if view is None:
            return ctx.default_return_type
        a1, a2 = find_arg(ctx, "axis1", 1), find_arg(ctx, "axis2", 2)
        v1, v2 = arg_value(a1, UNKNOWN), arg_value(a2, UNKNOWN)
        if v1 is UNKNOWN or v2 is UNKNOWN:
            return ctx.default_return_type
        dims = view.shape.prefix
        order = _apply(ctx, a1.anchor(ctx), rules.swapaxes_order, len(dims), v1, v2)
        return _result(ctx, view, order if order is _FAILED else tuple(dims[i] for i in order))

    return hook


def moveaxis_hook(ctx: FunctionContext) -> Type:
    """``tt.moveaxis(x, source, destination)``."""
    view = _exact(ctx, False)
    src, dst = find_arg(ctx, "source", 1), find_arg(ctx, "destination", 2)
    vs, vd = _value(ctx, src, UNKNOWN), _value(ctx, dst, UNKNOWN)
    if view is None or vs is UNKNOWN or vd is UNKNOWN:
        return ctx.default_return_type
    dims = view.shape.prefix
    order = _apply(ctx, src.anchor(ctx), rules.moveaxis_order, len(dims), vs, vd)
    return _result(ctx, view, order if order is _FAILED else tuple(dims[i] for i in order))


# --------------------------------------------------------------------------------- shapes
def _dim_item(ctx: CallContext, t: Type) -> Type | None:
    """One item of a literal shape: ``Literal[n]`` (negative too: the inferred dim), a typed
    dim (TypeVar, ``tt.Dim`` marker), ``Any`` for a plain ``int``; ``None`` otherwise."""
    value = literal_value(t)
    if isinstance(value, int) and not isinstance(value, bool):
        return literal_dim(ctx.api, value)
    p = get_proper_type(t)
    if isinstance(p, TypeVarType) or is_symbolic_dim(p):
        return p
    if isinstance(p, AnyType) or (isinstance(p, Instance) and p.type.fullname == names.INT):
        return any_dim()
    return None


def _shape_items(ctx: CallContext, given: Arg | list[Type] | None) -> tuple[Type, ...] | None:
    """A shape argument as dims: an int, a tuple (``(2, -1)``, ``x.shape``, ``(x.shape[0],
    -1)``) or the method's separate items (``x.reshape(2, -1)``)."""
    if given is None:
        return None
    if isinstance(given, Arg):
        if not given.given or given.opaque or given.type is None:
            return None
        p = get_proper_type(given.type)
        listed = _list_items(ctx, given)
        if listed is not None:
            types = listed
        else:
            types = list(p.items) if isinstance(p, TupleType) else [given.type]
    else:
        types = given
    if any(isinstance(t, UnpackType) for t in types):
        return None
    items = [_dim_item(ctx, t) for t in types]
    return None if any(i is None for i in items) else tuple(i for i in items if i is not None)


def reshape_hook(method: bool) -> Hook:
    """``x.reshape(...)`` (``*shape``) / ``tt.reshape(x, shape)``."""

    def hook(ctx: CallContext) -> Type:
        view = _exact(ctx, method)
        target = _shape_items(ctx, _star_value(ctx, "shape", method, "shape"))
        if view is None or target is None or (method and not _star_items(ctx, "shape")):
            return ctx.default_return_type
        kw = _dim_kwargs(ctx)
        dims = _apply(
            ctx,
            ctx.context,
            rules.reshape_shape,
            view.shape.prefix,
            target,
            render_dim=render_dim,
            **kw,
        )
        return _result(ctx, view, dims)

    return hook


def broadcast_to_hook(ctx: FunctionContext) -> Type:
    """``tt.broadcast_to(x, shape)``."""
    view = _exact(ctx, False)
    arg = find_arg(ctx, "shape", 1)
    target = _shape_items(ctx, arg)
    if view is None or target is None:
        return ctx.default_return_type
    kw = _without(_dim_kwargs(ctx), "make_dim", "unknown", "make_expr")
    dims = _apply(
        ctx,
        arg.anchor(ctx),
        rules.broadcast_to_shape,
        view.shape.prefix,
        target,
        render_dim=render_dim,
        **kw,
    )
    return _result(ctx, view, dims)


def expand_dims_hook(ctx: FunctionContext) -> Type:
    """``tt.expand_dims(x, axis)``."""
    view = _exact(ctx, False)
    arg = find_arg(ctx, "axis", 1)
    axis = _value(ctx, arg, UNKNOWN)
    if view is None or axis is UNKNOWN:
        return ctx.default_return_type
    one = literal_dim(ctx.api, 1)
    dims = _apply(ctx, arg.anchor(ctx), rules.expand_dims_shape, view.shape.prefix, axis, one)
    return _result(ctx, view, dims)


def squeeze_hook(method: bool) -> Hook:
    """``x.squeeze(axis)`` / ``tt.squeeze(x, axis)``."""

    def hook(ctx: CallContext) -> Type:
        view = _exact(ctx, method)
        arg = find_arg(ctx, "axis", 1 if not method else 0)
        axis = _value(ctx, arg, None)
        if view is None or axis is UNKNOWN:
            return ctx.default_return_type
        dims = _apply(
            ctx,
            arg.anchor(ctx),
            rules.squeeze_shape,
            view.shape.prefix,
            axis,
            dim_size,
            _show,
            is_symbolic_dim,
            render_dim,
        )
        return _result(ctx, view, dims)

    return hook


# ----------------------------------------------------------------- concatenate / stack
def _tensors(ctx: CallContext, arg: Arg) -> tuple[list[TensorView], bool] | None:
    """The joined tensors and whether their number is known: each item of a tuple type or of
    a list/tuple expression, else the element type of a sequence (number unknown)."""
    if not arg.given or arg.opaque or arg.type is None:
        return None
    p = get_proper_type(arg.type)
    types: list[Type] | None = None
    if isinstance(p, TupleType):
        types = list(p.items)
    else:
        types = _list_items(ctx, arg)
    if types is not None:
        if any(isinstance(t, UnpackType) for t in types):
            return None
        views = [as_tensor(t) for t in types]
        if any(v is None or not v.shape.exact for v in views):
            return None
        return [v for v in views if v is not None], True
    if isinstance(p, Instance) and len(p.args) == 1:  # list[Tensor[...]], Sequence[...]
        view = as_tensor(p.args[0])
        if view is not None and view.shape.exact:
            return [view], False
    return None


def join_hook(kind: str) -> Hook:
    """``tt.concatenate``/``tt.concat`` (``kind="concat"``) and ``tt.stack``."""

    def hook(ctx: FunctionContext) -> Type:
        found = _tensors(ctx, find_arg(ctx, "tensors", 0))
        arg = find_arg(ctx, "axis", 1)
        axis = arg_value(arg, 0)
        if found is None or axis is UNKNOWN:
            return ctx.default_return_type
        views, counted = found
        if not views:  # `tt.stack([])`: the rule reports it
            rule = rules.stack_shape if kind == "stack" else rules.concat_shape
            _apply(ctx, ctx.context, rule, [], axis)
            return ctx.default_return_type
        dtype = views[0].dtype
        for v in views[1:]:
            dtype = elementwise_result_dtype(ctx.api, "add", dtype, v.dtype)
        shapes = [v.shape.prefix for v in views]
        kw = _dim_kwargs(ctx)
        anchor = arg.anchor(ctx) if arg.given else ctx.context
        if kind == "stack":
            kw = _without(kw, "unknown", "make_expr")
            dims = _apply(ctx, anchor, rules.stack_shape, shapes, axis, render_dim=render_dim, **kw)
            if counted or dims is _FAILED:
                return _result(ctx, views[0], dims, dtype)
            at = rules.single_axis(axis, len(shapes[0]) + 1)
            return _result(ctx, views[0], (*dims[:at], any_dim(), *dims[at + 1 :]), dtype)
        dims = _apply(ctx, anchor, rules.concat_shape, shapes, axis, render_dim=render_dim, **kw)
        if counted or dims is _FAILED:
            return _result(ctx, views[0], dims, dtype)
        if axis is None:
            return _result(ctx, views[0], (any_dim(),), dtype)
        at = rules.single_axis(axis, len(shapes[0]))
        return _result(ctx, views[0], (*dims[:at], any_dim(), *dims[at + 1 :]), dtype)

    return hook


def split_hook(ctx: FunctionContext) -> Type:
    """``tt.split(x, sections, axis)``: a list of tensors of the section shape."""
    view = _exact(ctx, False)
    sec, arg = find_arg(ctx, "sections", 1), find_arg(ctx, "axis", 2)
    sections, axis = arg_value(sec, UNKNOWN), arg_value(arg, 0)
    if view is None or sections is UNKNOWN or axis is UNKNOWN:
        return ctx.default_return_type
    kw = _without(_dim_kwargs(ctx), "render")
    dims = _apply(ctx, sec.anchor(ctx), rules.split_shape, view.shape.prefix, sections, axis, **kw)
    if dims is _FAILED:
        return ctx.default_return_type
    part = make_tensor(view.info, view.dtype, Shape(dims))
    return ctx.api.named_generic_type(names.LIST, [part])
