"""In-place operators (``x += y``, ``x @= y``...): ``x`` keeps its type, as the runtime writes
into ``x``'s buffer; an operand that would change ``x``'s shape or dtype (``x (3,) += y (2,
3)``, ``x_int32 /= 2``) is a ``typedtensor-shape`` error, as the runtime raises. The result of
the out-of-place operator (its hook, with its errors) decides; where that is unknown (``//=
%= <<= >>=``, unknown operands) nothing is reported."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from mypy.plugin import MethodContext
from mypy.types import AnyType, Instance, Type, TypeOfAny, get_proper_type

from . import _names as names
from . import errorcodes
from ._tensortypes import TensorView, as_tensor, dim_size, render_tensor

__all__ = ["inplace_hook"]

#: ``x <op>= y`` -> the hook of ``x <op> y``: (module, factory, arguments)
_OUT_OF_PLACE: dict[str, tuple[str, str, tuple[object, ...]]] = {
    "+=": ("_interop", "operator_hook", ("add", False)),
    "-=": ("_interop", "operator_hook", ("subtract", False)),
    "*=": ("_interop", "operator_hook", ("multiply", False)),
    "/=": ("_interop", "operator_hook", ("true_divide", False)),
    "**=": ("_interop", "operator_hook", ("power", False)),
    "&=": ("_interop", "bitwise_hook", ("__and__", False)),
    "|=": ("_interop", "bitwise_hook", ("__or__", False)),
    "^=": ("_interop", "bitwise_hook", ("__xor__", False)),
    "@=": ("_linalg", "matmul_method_hook", (False,)),
}


def inplace_hook(symbol: str) -> Callable[[MethodContext], Type]:
    """The hook of ``x <symbol> y``: ``x``'s own type, or an error where the out-of-place
    result's known dtype or dims differ from ``x``'s."""
    spec = _OUT_OF_PLACE.get(symbol)
    out_of_place = None
    if spec is not None:
        module, factory, args = spec
        out_of_place = getattr(importlib.import_module(f"{__package__}.{module}"), factory)(*args)

    def hook(ctx: MethodContext) -> Type:
        me = as_tensor(ctx.type)
        if me is None or out_of_place is None:
            return ctx.type if me is not None else ctx.default_return_type
        unknown = AnyType(TypeOfAny.special_form)
        result = as_tensor(out_of_place(ctx._replace(default_return_type=unknown)))
        if result is not None and _changes(me, result):
            op = symbol[:-1]
            ctx.api.fail(
                f"x {symbol} y makes {render_tensor(result.dtype, result.shape.items)}, but "
                f"an in-place operator keeps x's {render_tensor(me.dtype, me.shape.items)} (the "
                f"runtime raises); write x = x {op} y for a new tensor",
                ctx.context,
                code=errorcodes.SHAPE,
            )
        return ctx.type

    return hook


def _changes(me: TensorView, result: TensorView) -> bool:
    """Whether ``result`` surely differs from ``me``: two concrete dtypes that differ, or
    known ranks or literal sizes that differ (symbols and unknowns never count)."""
    dtypes = [_concrete_dtype(t.dtype) for t in (me, result)]
    if None not in dtypes and dtypes[0] != dtypes[1]:
        return True
    if not (me.shape.exact and result.shape.exact):
        return False
    if len(me.shape.prefix) != len(result.shape.prefix):
        return True
    for mine, theirs in zip(me.shape.prefix, result.shape.prefix, strict=True):
        a, b = dim_size(mine), dim_size(theirs)
        if a is not None and b is not None and a != b:
            return True
    return False


def _concrete_dtype(dtype: Type) -> str | None:
    p = get_proper_type(dtype)
    return names.dtype_numpy_name(p.type.fullname) if isinstance(p, Instance) else None
