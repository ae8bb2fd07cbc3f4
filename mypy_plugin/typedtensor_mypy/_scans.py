"""Result types of the scans: ``cumsum``/``cumprod`` (methods and ``tt.`` functions), the
Array API ``cumulative_sum``/``cumulative_prod`` and numpy's ``nancumsum``/``nancumprod``
(functions only, typed as ``cumsum``/``cumprod``), by the shared rule ``rules.scan_shape``.

``axis=None`` flattens (the product of literal sizes, else ``Any``); ``include_initial=True``
grows the axis dim by one (``Literal[n + 1]``, a symbolic or unknown dim becomes ``Any``). The
result dtype is the literal ``dtype=`` class, else ``sum``/``prod``'s dtype rule (the same rule
as ``nansum``/``nanprod``'s, which the NaN-aware scans follow). Axis errors are reported as
``typedtensor-axis``; anything not known statically gives an unknown shape.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.types import AnyType, CallableType, Instance, Type, TypeOfAny, TypeType, get_proper_type

from . import _names as names
from ._args import UNKNOWN, CallContext, arg_value, find_arg
from ._dtypes import reduction_result_dtype
from ._guard import fallback, self_guarded
from ._reductions import check_out, receiver, report_rule_error
from ._rules import rules
from ._tensortypes import Shape, any_dim, dim_size, literal_dim, make_tensor, unknown_star

__all__ = ["scan_hook"]


def scan_hook(op: str, method: bool) -> Callable[[CallContext], Type]:
    """The hook for scan ``op`` (a key of ``rules.SCANS``) as a method or a function."""
    cumulative = op.startswith("cumulative_")

    @self_guarded
    def hook(ctx: CallContext) -> Type:
        try:
            return _scan(ctx, op, method, cumulative)
        except Exception:
            return fallback(ctx)

    return hook


def _scan(ctx: CallContext, op: str, method: bool, cumulative: bool) -> Type:
    view = receiver(ctx, method)
    if view is None:
        return ctx.default_return_type
    dtype = _dtype_argument(ctx)
    if dtype is None:
        dtype = reduction_result_dtype(ctx.api, rules.SCANS[op], view.dtype)
    axis_arg = find_arg(ctx, "axis")
    axis = arg_value(axis_arg, None)
    initial = arg_value(find_arg(ctx, "include_initial"), False) if cumulative else False
    unknown = Shape((), unknown_star(ctx.api))
    shape = unknown
    if axis is not UNKNOWN and isinstance(initial, bool):
        if view.shape.exact:

            def make(n: int | None) -> Type:
                return any_dim() if n is None else literal_dim(ctx.api, n)

            try:
                dims = rules.scan_shape(
                    view.shape.prefix,
                    axis,
                    size_of=dim_size,
                    make=make,
                    include_initial=initial,
                    axis_required=cumulative,
                )
            except rules.RuleError as err:
                report_rule_error(ctx, err, axis_arg.anchor(ctx))
                return make_tensor(view.info, dtype, unknown)
            shape = Shape(tuple(dims))
        elif axis is None and not cumulative:
            shape = Shape((any_dim(),))  # the flattening of an unknown rank
        elif isinstance(axis, int) and not isinstance(axis, bool) and not initial:
            shape = view.shape  # the shape is kept (the rank is not known: nor is the range)
    result = make_tensor(view.info, dtype, shape)
    check_out(ctx, op, result)
    return result


def _dtype_argument(ctx: CallContext) -> Type | None:
    """The ``dtype=`` argument: its class when it is a concrete typedtensor dtype class,
    ``Any`` for any other given value, ``None`` when absent or ``None`` (the rule decides)."""
    arg = find_arg(ctx, "dtype")
    if not arg.given:
        return None
    if arg.opaque or arg.type is None:
        return AnyType(TypeOfAny.special_form)
    p = get_proper_type(arg.type)
    if arg_value(arg, UNKNOWN) is None:
        return None
    info = None
    if isinstance(p, CallableType) and p.is_type_obj():
        info = p.type_object()
    elif isinstance(p, TypeType) and isinstance(p.item, Instance):
        info = p.item.type
    if info is not None and names.dtype_numpy_name(info.fullname) is not None:
        return Instance(info, [])
    return AnyType(TypeOfAny.special_form)
