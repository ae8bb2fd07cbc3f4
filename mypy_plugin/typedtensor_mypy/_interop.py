"""numpy interop in the plugin (issue #33): a numpy scalar operand (``x * np.float32(2)``) is a
rank-0 tensor of its dtype (NEP 50: numpy's scalars are not weak as Python's are), the operator
dtypes numpy rejects are errors (``bool - bool``), and a dtype family (``tt.Floating``) given
as ``dtype=`` to a constructor is an error (numpy has no dtype for it)."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import TypeInfo
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import AnyType, CallableType, Instance, Type, TypeOfAny, get_proper_type

from . import _names as names
from . import errorcodes
from ._args import find_arg
from ._dtypes import _candidates, dtype_instance, elementwise_result_dtype
from ._elementwise import binary_method_hook
from ._rules import rules
from ._tensortypes import Shape, as_tensor, make_tensor, render_dtype, unknown_star

__all__ = [
    "bitwise_hook",
    "constructor_dtype_hook",
    "default_hook",
    "numpy_comparison_hook",
    "numpy_scalar_dtype",
    "operator_hook",
]

#: numpy's scalar classes by kind (numpy 2 stubs: ``np.float32`` is ``floating[_32Bit]``)
_KINDS = {
    "numpy.signedinteger": "int",
    "numpy.unsignedinteger": "uint",
    "numpy.floating": "float",
    "numpy.complexfloating": "complex",
}
#: numpy's scalar classes of one dtype
_EXACT = {"numpy.bool": "bool", "numpy.float64": "float64", "numpy.complex128": "complex128"}
_SYMBOLS = {"subtract": "-"}


def numpy_scalar_dtype(t: Type) -> str | None:
    """The dtype name of a numpy scalar type (``np.float32(2)``: ``"float32"``), ``None`` for
    anything else or a numpy scalar of unknown precision (``floating[Any]``)."""
    p = get_proper_type(t)
    if not isinstance(p, Instance):
        return None
    exact = _EXACT.get(p.type.fullname)
    if exact is not None:
        return exact
    kind = _KINDS.get(p.type.fullname)
    if kind is None or not p.args:
        return None
    bits = get_proper_type(p.args[0])
    if not isinstance(bits, Instance) or not bits.type.name.startswith("_"):
        return None
    size = bits.type.name.strip("_").removesuffix("Bit")  # "_32Bit" -> "32"
    if not size.isdigit():
        return None
    name = f"{kind}{2 * int(size) if kind == 'complex' else int(size)}"
    return name if name in rules.DTYPE_NAMES else None


def _never(ctx: MethodContext, kind: str, left: Type, right: Type) -> bool:
    """Whether numpy rejects ``kind`` for every dtype pair the two dtype types stand for."""
    lc, rc = _candidates(ctx.api, left), _candidates(ctx.api, right)
    if lc is None or rc is None or kind not in _SYMBOLS:
        return False
    rule = rules.BinaryRule.SUBTRACT
    return all(rules.binary_dtype(rule, rules.promote(a, b)) is None for a in lc for b in rc)


def operator_hook(kind: str, reflected: bool) -> Callable[[MethodContext], Type]:
    """An operator dunder's hook (``binary_method_hook``) that also takes numpy scalars and
    reports the dtypes numpy rejects."""
    plain = binary_method_hook(kind, reflected)

    def hook(ctx: MethodContext) -> Type:
        me = as_tensor(ctx.type)
        arg = find_arg(ctx, "other", 0)
        if me is None or not arg.given or arg.opaque or arg.type is None:
            return plain(ctx)
        other = as_tensor(arg.type)
        scalar = numpy_scalar_dtype(arg.type) if other is None else None
        other_dtype = (
            other.dtype
            if other is not None
            else dtype_instance(ctx.api, scalar)
            if scalar is not None
            else None
        )
        if other_dtype is None:
            return plain(ctx)
        left, right = (other_dtype, me.dtype) if reflected else (me.dtype, other_dtype)
        if _never(ctx, kind, left, right):
            ctx.api.fail(
                f"operator {_SYMBOLS[kind]} does not take {render_dtype(left)} and "
                f"{render_dtype(right)} operands (numpy raises a TypeError); for bool "
                "tensors use ^ (logical xor) or convert with astype",
                ctx.context,
                code=errorcodes.SHAPE,
            )
            return make_tensor(
                me.info, AnyType(TypeOfAny.from_error), Shape((), unknown_star(ctx.api))
            )
        if scalar is None:
            return plain(ctx)
        dtype = elementwise_result_dtype(ctx.api, kind, left, right)  # a rank-0 operand
        return make_tensor(me.info, dtype, me.shape)

    return hook


def bitwise_hook(dunder: str, reflected: bool) -> Callable[[MethodContext], Type]:
    """``& | ^`` (``_logic.bitwise_method_hook``) that also takes numpy scalars."""
    from ._logic import bitwise_method_hook

    plain = bitwise_method_hook(dunder, reflected)
    function = "bitwise_" + dunder.strip("_").removeprefix("r")  # __ror__ -> bitwise_or
    symbol = {"bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"}[function]

    def hook(ctx: MethodContext) -> Type:
        me = as_tensor(ctx.type)
        arg = find_arg(ctx, "other", 0)
        scalar = numpy_scalar_dtype(arg.type) if arg.given and arg.type is not None else None
        candidates = _candidates(ctx.api, me.dtype) if me is not None else None
        if me is None or scalar is None or candidates is None:
            return plain(ctx)
        pairs = [(scalar, c) if reflected else (c, scalar) for c in candidates]
        results = [rules.elementwise_binary_dtype(function, a, b) for a, b in pairs]
        if all(r is None for r in results):
            ctx.api.fail(
                f"operator {symbol} needs bool or integer operands, got {render_dtype(me.dtype)} "
                f"and numpy {scalar} (numpy raises a TypeError); compare first or use astype",
                ctx.context,
                code=errorcodes.SHAPE,
            )
            return make_tensor(me.info, AnyType(TypeOfAny.from_error), me.shape)
        if len(results) == 1 and results[0] is not None:
            return make_tensor(me.info, dtype_instance(ctx.api, results[0]), me.shape)
        return make_tensor(me.info, AnyType(TypeOfAny.special_form), me.shape)

    return hook


def numpy_comparison_hook(ctx: MethodContext) -> Type:
    """``np.float32(1) < x``: numpy's stubs answer ``np.bool`` for any operand with ``__gt__``;
    with a Tensor operand the result is the Tensor's comparison (a bool Tensor of its shape)."""
    arg = find_arg(ctx, None, 0)
    view = as_tensor(arg.type) if arg.given and arg.type is not None else None
    if view is None:
        return ctx.default_return_type
    return make_tensor(view.info, dtype_instance(ctx.api, "bool"), view.shape)


def _family(t: Type | None) -> TypeInfo | None:
    """The class of a ``dtype=`` argument that is a typedtensor dtype family (no numpy dtype)."""
    p = get_proper_type(t) if t is not None else None
    if not isinstance(p, CallableType) or not p.is_type_obj():
        return None
    info = p.type_object()
    return info if info.fullname in names.DTYPE_FAMILIES else None


def constructor_dtype_hook(
    module: str, factory: str, *args: object
) -> Callable[[FunctionContext], Type]:
    """A constructor's hook (``module.factory(*args)``) that first rejects a dtype family as
    ``dtype=`` (``tt.zeros((2,), dtype=tt.Floating)`` raises a TypeError at run time)."""
    import importlib

    made = getattr(importlib.import_module(f"{__package__}.{module}"), factory)
    plain: Callable[[FunctionContext], Type] = made(*args) if args else made

    def hook(ctx: FunctionContext) -> Type:
        arg = find_arg(ctx, "dtype")
        family = _family(arg.type) if arg.given and not arg.opaque else None
        if family is None:
            return plain(ctx)
        ctx.api.fail(
            f"dtype={family.name} is a dtype family, not a concrete dtype (it has no numpy "
            "dtype: the call raises a TypeError); pass one of tt.float32, tt.float64, tt.int64...",
            ctx.context,
            code=errorcodes.SHAPE,
        )
        view = as_tensor(ctx.default_return_type)
        if view is None:
            return ctx.default_return_type
        return make_tensor(
            view.info, AnyType(TypeOfAny.from_error), Shape((), unknown_star(ctx.api))
        )

    return hook


def default_hook(ctx: FunctionContext) -> Type:
    """The declared return type (for ``constructor_dtype_hook`` around ``tt.asarray``)."""
    return ctx.default_return_type
