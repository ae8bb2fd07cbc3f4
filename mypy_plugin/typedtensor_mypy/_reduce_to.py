"""``reduce_to`` / ``sum_to``: the result has exactly the target shape; a target that is not
the source with some dims set to 1 (or leading dims dropped) is a ``typedtensor-shape`` error."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mypy.types import TupleType, Type, get_proper_type

from . import errorcodes
from ._args import UNKNOWN, CallContext, arg_value, find_arg, literal_value
from ._creation import size_dim
from ._dtypes import reduction_result_dtype
from ._reductions import check_out, receiver, report_rule_error
from ._rules import rules
from ._tensortypes import (
    Shape,
    any_dim,
    dim_size,
    literal_dim,
    make_tensor,
    render_dim,
    unknown_star,
)

__all__ = ["reduce_to_hook"]


def reduce_to_hook(fixed_op: str | None, method: bool) -> Callable[[CallContext], Type]:
    """Hook for ``reduce_to`` (``fixed_op=None``: the op is an argument) or ``sum_to``."""

    def hook(ctx: CallContext) -> Type:
        return _reduce_to(ctx, fixed_op, method)

    return hook


def _render(dims: Sequence[object]) -> str:
    """``(N, 3, 32)``; ``(64,)`` for one dim, like a tuple."""
    parts = [render_dim(d) if isinstance(d, Type) else str(d) for d in dims]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _reduce_to(ctx: CallContext, fixed_op: str | None, method: bool) -> Type:
    view = receiver(ctx, method)
    if view is None:
        return ctx.default_return_type
    op = fixed_op if fixed_op is not None else arg_value(find_arg(ctx, "op"), "sum")
    spec = rules.REDUCTIONS.get(op) if isinstance(op, str) else None
    usable = spec is not None and not _unusable(spec)
    if spec is not None and usable:
        dtype = reduction_result_dtype(ctx.api, spec.name, view.dtype)
    else:
        dtype = any_dim()
        if isinstance(op, str):  # a literal op the runtime rejects
            choices = [n for n, s in rules.REDUCTIONS.items() if not _unusable(s)]
            ctx.api.fail(
                f"reduce_to op must be one of {', '.join(choices)}, got {op!r}",
                find_arg(ctx, "op").anchor(ctx),
                code=errorcodes.AXIS,
            )
    shape_arg = find_arg(ctx, "shape")
    target = arg_value(shape_arg, UNKNOWN)
    if isinstance(target, int) and not isinstance(target, bool):
        target = (target,)
    if isinstance(target, tuple) and all(
        isinstance(d, int) and not isinstance(d, bool) for d in target
    ):
        if view.shape.exact:
            try:
                rules.reduce_to_shape(
                    list(view.shape.prefix), list(target), size_of=dim_size, render=_render
                )
            except rules.ReduceToShapeError as err:
                report_rule_error(ctx, err, shape_arg.anchor(ctx))
                result_shape = Shape((), unknown_star(ctx.api))
                return make_tensor(view.info, dtype, result_shape)
        result_shape = Shape(tuple(literal_dim(ctx.api, d) for d in target))
    else:
        result_shape = _partial_target(ctx, shape_arg.type)
    result = make_tensor(view.info, dtype, result_shape)
    check_out(ctx, fixed_op or (op if isinstance(op, str) else "reduce_to"), result)
    return result


def _unusable(spec: rules.ReductionSpec) -> bool:
    """Reductions ``reduce_to`` does not take (as the runtime's check)."""
    return spec.single_axis or spec.keeps_shape or bool(spec.params)


def _partial_target(ctx: CallContext, t: Type | None) -> Shape:
    """A tuple target with some non-literal entries: the rank is known, those dims are the
    dims they are typed by (``x.shape[0]``) or Any."""
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, TupleType):
        dims: list[Type] = []
        for item in p.items:
            v = literal_value(item)
            ok = isinstance(v, int) and not isinstance(v, bool)
            dims.append(literal_dim(ctx.api, v) if ok else size_dim(item))  # type: ignore[arg-type]
        return Shape(tuple(dims))
    return Shape((), unknown_star(ctx.api))
