"""``x[index]``, ``x[index] = value`` and ``x.ndim``: the result shape by ``rules.index_shape``
(literal ints and slice bounds read from the index expression), ``typedtensor-index`` errors
for ints out of range of literal dims, ``typedtensor-shape`` errors for values that do not
broadcast to the indexed shape, and a ``Literal`` rank for ``ndim``."""

from __future__ import annotations

from collections.abc import Sequence

from mypy.nodes import (
    Context,
    EllipsisExpr,
    Expression,
    IntExpr,
    ListExpr,
    NameExpr,
    RefExpr,
    SliceExpr,
    TupleExpr,
    UnaryExpr,
    Var,
)
from mypy.plugin import AttributeContext, CheckerPluginInterface, MethodContext
from mypy.types import AnyType, Instance, NoneType, TupleType, Type, get_proper_type

from . import _names as names
from . import errorcodes
from ._args import find_arg, literal_value
from ._broadcasting import is_symbolic_dim
from ._rules import rules
from ._tensortypes import (
    Shape,
    any_dim,
    as_tensor,
    dim_size,
    literal_dim,
    make_tensor,
    render_dim,
    unknown_star,
)

__all__ = ["getitem_hook", "ndim_hook", "setitem_hook"]

_NOT_STATIC = object()  # an index item the plugin cannot describe (the whole answer is unknown)


# ------------------------------------------------------------------------ reading the index
def _bound(expr: Expression | None) -> int | object | None:
    """A literal slice bound: ``None`` when absent, an int, else ``_NOT_STATIC``."""
    if expr is None:
        return None
    if isinstance(expr, NameExpr) and expr.fullname == "builtins.None":
        return None
    sign = 1
    while isinstance(expr, UnaryExpr) and expr.op in ("-", "+"):
        sign = -sign if expr.op == "-" else sign
        expr = expr.expr
    if isinstance(expr, IntExpr):
        return sign * expr.value
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        value = expr.node.final_value
        if isinstance(value, int) and not isinstance(value, bool):
            return sign * value
    return _NOT_STATIC


def _bool_literal(expr: Expression) -> bool | None:
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False"):
        return expr.fullname == "builtins.True"
    return None


def _item(api: CheckerPluginInterface, expr: Expression | None, t: Type | None) -> object:
    """One index item in the rules' terms, from its expression and type."""
    if isinstance(expr, SliceExpr):
        bounds = [_bound(e) for e in (expr.begin_index, expr.end_index, expr.stride)]
        if any(b is _NOT_STATIC for b in bounds):
            return rules.UnknownSlice()
        return slice(*bounds)
    if isinstance(expr, EllipsisExpr):
        return Ellipsis
    if isinstance(expr, ListExpr) and expr.items:  # [0, 2] / [True, False]: a 1-D array
        flags = [_bool_literal(e) for e in expr.items]
        if all(f is not None for f in flags):  # a mask: its length must match the dim
            return rules.ArrayIndex((literal_dim(api, len(expr.items)),), boolean=True)
        if all(isinstance(_bound(e), int) for e in expr.items):
            return rules.ArrayIndex((literal_dim(api, len(expr.items)),), boolean=False)
    if t is None:
        return _NOT_STATIC
    p = get_proper_type(t)
    if isinstance(p, NoneType):
        return None
    value = literal_value(p)
    if isinstance(value, bool):
        return rules.ArrayIndex((), boolean=True)
    if isinstance(value, int):
        return value
    view = as_tensor(p)
    if view is not None:
        is_bool = names.dtype_numpy_name(_fullname(view.dtype)) == "bool"
        shape = view.shape.prefix if view.shape.exact else None
        return rules.ArrayIndex(shape, boolean=is_bool)
    if isinstance(p, Instance):
        name = p.type.fullname
        if name == names.BOOL:
            return rules.ArrayIndex((), boolean=True)
        if name == names.INT or p.type.has_base(names.INT) or p.type.has_base(names.NP_INTEGER):
            return rules.UnknownInt()
        if name == names.ELLIPSIS:
            return Ellipsis
        if name == names.SLICE:
            return rules.UnknownSlice()
        if name == names.LIST and p.args:
            inner = get_proper_type(p.args[0])
            if isinstance(inner, Instance) and inner.type.fullname in (names.INT, names.BOOL):
                return rules.ArrayIndex((any_dim(),), boolean=inner.type.fullname == names.BOOL)
        if name == names.NDARRAY:
            return rules.ArrayIndex(None)
    return _NOT_STATIC


def _fullname(t: Type) -> str:
    p = get_proper_type(t)
    return p.type.fullname if isinstance(p, Instance) else ""


def _index_items(
    api: CheckerPluginInterface, expr: Expression | None, t: Type | None
) -> tuple[object, ...] | None:
    """The index as a tuple of the rules' items; ``None`` if any item is not static."""
    p = get_proper_type(t) if t is not None else None
    if isinstance(expr, TupleExpr):
        types: Sequence[Type | None] = (
            p.items if isinstance(p, TupleType) and len(p.items) == len(expr.items) else []
        ) or [None] * len(expr.items)
        items = tuple(_item(api, e, ti) for e, ti in zip(expr.items, types, strict=True))
    elif isinstance(p, TupleType):
        items = tuple(_item(api, None, ti) for ti in p.items)
    elif isinstance(p, AnyType):
        return None
    else:
        items = (_item(api, expr, t),)
    return None if any(i is _NOT_STATIC for i in items) else items


# --------------------------------------------------------------------------- the shape rule
class _RejectedError(Exception):
    """The rule rejected the index (already reported)."""


def _apply(
    api: CheckerPluginInterface, dims: Sequence[Type], items: tuple[object, ...]
) -> tuple[Type, ...] | None:
    result = rules.index_shape(
        dims,
        items,
        make=lambda n: literal_dim(api, n),
        unknown=any_dim(),
        size_of=dim_size,
        is_symbolic=is_symbolic_dim,
        render_dim=render_dim,
    )
    return None if result is None else tuple(result)


def _consumed(items: Sequence[object]) -> int | None:
    total = 0
    for i in items:
        if isinstance(i, rules.ArrayIndex):
            return None  # advanced indexing may move dims: only with a known rank
        if i is not None and i is not Ellipsis:
            total += 1
    return total


def indexed_shape(
    api: CheckerPluginInterface, shape: Shape, items: tuple[object, ...], anchor: Context
) -> Shape | None:
    """The shape of ``x[items]`` for ``x`` of ``shape``; ``None`` when not known statically.
    Reports the rule's errors (``typedtensor-index``) and raises ``_RejectedError`` after one."""
    try:
        if shape.exact:
            result = _apply(api, shape.prefix, items)
            return None if result is None else Shape(result)
        ell = [k for k, i in enumerate(items) if i is Ellipsis]
        before = items[: ell[0]] if ell else items
        after = items[ell[0] + 1 :] if ell else ()
        n_before, n_after = _consumed(before), _consumed(after)
        if len(ell) > 1 or n_before is None or n_after is None:
            return None
        if n_before > len(shape.prefix) or n_after > len(shape.suffix):
            return None
        prefix = _apply(api, shape.prefix, (*before, Ellipsis))
        suffix = _apply(api, shape.suffix, (Ellipsis, *after))
        if prefix is None or suffix is None:
            return None
        return Shape(prefix, shape.star, suffix)
    except (rules.IndexRangeError, rules.IndexFormError, rules.SliceStepError) as err:
        code = (
            errorcodes.SYMBOLIC if isinstance(err, rules.SymbolicIndexError) else errorcodes.INDEX
        )
        api.fail(str(err), anchor, code=code)
        raise _RejectedError from None


def getitem_hook(ctx: MethodContext) -> Type:
    """Hook for ``Tensor.__getitem__``."""
    me = as_tensor(ctx.type)
    arg = find_arg(ctx, "index", 0)
    if me is None or not arg.given or arg.opaque:
        return ctx.default_return_type
    unknown = make_tensor(me.info, me.dtype, Shape((), unknown_star(ctx.api)))
    items = _index_items(ctx.api, arg.expr, arg.type)
    if items is None:
        return unknown
    try:
        shape = indexed_shape(ctx.api, me.shape, items, arg.anchor(ctx))
    except _RejectedError:
        return unknown
    return unknown if shape is None else make_tensor(me.info, me.dtype, shape)


def setitem_hook(ctx: MethodContext) -> Type:
    """Hook for ``Tensor.__setitem__``: the index checked as for ``x[index]``, and a Tensor
    value's shape checked to broadcast to the indexed shape."""
    me = as_tensor(ctx.type)
    index, value = find_arg(ctx, "index", 0), find_arg(ctx, "value", 1)
    if me is None or not index.given or index.opaque:
        return ctx.default_return_type
    items = _index_items(ctx.api, index.expr, index.type)
    if items is None:
        return ctx.default_return_type
    try:
        target = indexed_shape(ctx.api, me.shape, items, index.anchor(ctx))
    except _RejectedError:
        return ctx.default_return_type
    view = as_tensor(value.type) if value.given and not value.opaque and value.type else None
    if target is None or view is None or not target.exact or not view.shape.exact:
        return ctx.default_return_type
    try:
        rules.assign_check(
            target.prefix,
            view.shape.prefix,
            size_of=dim_size,
            is_symbolic=is_symbolic_dim,
            render=_show,
        )
    except rules.AssignShapeError as err:
        ctx.api.fail(str(err), value.anchor(ctx), code=errorcodes.SHAPE)
    return ctx.default_return_type


def _show(dims: Sequence[Type]) -> str:
    parts = [render_dim(d) for d in dims]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def ndim_hook(ctx: AttributeContext) -> Type:
    """``x.ndim`` is ``Literal[rank]`` for a known rank, else ``int``."""
    me = as_tensor(ctx.type)
    if me is None or not me.shape.exact or ctx.is_lvalue:
        return ctx.default_attr_type
    return literal_dim(ctx.api, len(me.shape.prefix))
