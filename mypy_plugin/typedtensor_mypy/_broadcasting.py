"""Broadcasting of two static shapes (``Shape``: prefix, optional unpacked part, suffix) by the
shared rule ``rules.broadcast_shapes``, and the report when it fails.

Every hook that broadcasts (operators, ``tt.maximum``, matmul's batch dims, ``tt.where``...)
calls ``broadcast`` and, on ``StaticBroadcastError``, ``report_broadcast_failure``. Symbolic dims
(TypeVars, ``tt.Dim`` markers) broadcast only with themselves, 1 and ``Any`` (the rule's
``is_symbolic``); a failure that involves one is reported under ``typedtensor-symbolic``.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Context, Expression, MemberExpr, NameExpr, RefExpr
from mypy.types import Instance, Type, TypeVarTupleType, TypeVarType, get_proper_type

from . import _names as names
from . import errorcodes
from ._args import CallContext
from ._operator_errors import past_operator_trial
from ._rules import rules
from ._tensortypes import Shape, any_dim, dim_expr, dim_size, render_dim, render_tensor

__all__ = [
    "StaticBroadcastError",
    "broadcast",
    "dropped_dims_hint",
    "is_symbolic_dim",
    "never_broadcast_text",
    "report_broadcast_failure",
]


class StaticBroadcastError(Exception):
    """Two shapes that cannot broadcast; ``err`` is the rule's error. ``from_end`` is False for
    a failure in the dims before an unpacked part (whose position does not count from the
    end)."""

    def __init__(self, err: rules.BroadcastError, from_end: bool = True) -> None:
        super().__init__(str(err))
        self.err = err
        self.from_end = from_end


def is_symbolic_dim(dim: Type) -> bool:
    """A TypeVar, a ``tt.Dim`` marker class or an expression of them (``tt.Mul[L[2], B]``);
    not ``Any``, not a literal size."""
    p = get_proper_type(dim)
    if isinstance(p, TypeVarType):
        return True
    if not isinstance(p, Instance):
        return False
    if p.type.fullname in names.DIM_EXPRESSIONS:  # 2 * B, D // 8: symbolic as a whole
        return True
    return p.type.has_base(names.DIM) and p.type.fullname != names.DIM


def _bcast(a: tuple[Type, ...], b: tuple[Type, ...]) -> tuple[Type, ...]:
    try:
        return tuple(
            rules.broadcast_shapes(
                a,
                b,
                size_of=dim_size,
                unknown=any_dim(),
                is_symbolic=is_symbolic_dim,
                render_dim=render_dim,
                expr_of=dim_expr,
            )
        )
    except rules.BroadcastError as err:
        raise StaticBroadcastError(err) from None


def broadcast(left: Shape, right: Shape) -> Shape | None:
    """The broadcast shape; ``None`` where the alignment of dims is not known statically.
    Raises ``StaticBroadcastError``.

    Shapes align from the right. Exact ranks: the shared rule. One side ``*prefix, *star,
    *suffix`` and the other of rank ``r <= len(suffix)``: only the suffix meets it. Both sides
    unpacking the same TypeVarTuple with suffixes of equal length: the stars line up (they
    have one length), so prefixes and suffixes broadcast pairwise.
    """
    if left.exact and right.exact:
        return Shape(_bcast(left.prefix, right.prefix))
    if left.items == right.items:  # e.g. two Tensor[DT, B, *Rest]
        return left
    if left.exact or right.exact:
        part, full = (left, right) if left.exact else (right, left)
        if len(part.prefix) > len(full.suffix):
            return None
        merged = (
            _bcast(full.suffix, part.prefix) if part is right else _bcast(part.prefix, full.suffix)
        )
        return Shape(full.prefix, full.star, merged)
    assert left.star is not None and right.star is not None
    same_star = isinstance(get_proper_type(left.star.type), TypeVarTupleType) and (
        left.star == right.star
    )
    if same_star and len(left.suffix) == len(right.suffix):
        try:
            prefix = _bcast(left.prefix, right.prefix)
        except StaticBroadcastError as failure:  # a prefix position does not count from the end
            raise StaticBroadcastError(failure.err, from_end=False) from None
        return Shape(prefix, left.star, _bcast(left.suffix, right.suffix))
    return None


def _axis_text(shape: Shape, position: int, from_end: bool) -> str:
    """Which axis of an operand a failing position is: ``axis 1`` (exact rank) or ``axis -1``."""
    if from_end and shape.exact:
        return f"axis {len(shape.prefix) + position}"
    return f"axis {position}" if from_end else "a leading axis"


def report_broadcast_failure(
    ctx: CallContext,
    failure: StaticBroadcastError,
    left: tuple[Type, Shape],
    right: tuple[Type, Shape],
    anchor: Context,
    operands: tuple[Expression | None, Expression | None] = (None, None),
) -> None:
    """Report ``failure`` of broadcasting ``left`` with ``right`` (each ``(dtype, shape)``);
    ``operands`` are the two operand expressions, for the keepdims hint."""
    err = failure.err
    symbolic = isinstance(err, rules.SymbolicBroadcastError)
    where = f" at position {err.position}" if failure.from_end else ""
    axes = (
        f" ({_axis_text(left[1], err.position, failure.from_end)} of the left operand, "
        f"{_axis_text(right[1], err.position, failure.from_end)} of the right)"
    )
    a, b = render_dim(err.left), render_dim(err.right)  # type: ignore[arg-type]
    message = (
        f"cannot broadcast dim {a} with dim {b}{where}: "
        f"{render_tensor(left[0], left[1].items)} vs {render_tensor(right[0], right[1].items)}"
        f"{axes}"
    )
    if symbolic:
        symbol = a if is_symbolic_dim(err.left) else b  # type: ignore[arg-type]
        message += f"; the symbolic dim {symbol} broadcasts only with {symbol}, 1 and Any"
    message += never_broadcast_text(err)
    code = errorcodes.SYMBOLIC if symbolic else errorcodes.SHAPE
    with past_operator_trial(ctx):
        ctx.api.fail(message, anchor, code=code)
        hint = dropped_dims_hint(operands)
        if hint is not None:
            ctx.api.msg.note(hint, anchor, code=code)


def never_broadcast_text(err: rules.BroadcastError) -> str:
    """The note for a failure that involves a symbolic dim but is not ``symbolic``: the rule
    proved that the two dims never broadcast (``2 * B`` and ``2 * B + 1``)."""
    if isinstance(err, rules.SymbolicBroadcastError):
        return ""
    if is_symbolic_dim(err.left) or is_symbolic_dim(err.right):  # type: ignore[arg-type]
        return "; they differ, and neither is 1, for every size of the symbols"
    return ""


def dropped_dims_hint(operands: tuple[Expression | None, Expression | None]) -> str | None:
    """``did you mean keepdims=True?`` when an operand is a reduction call that drops its
    reduced dims (no ``keepdims``, or ``keepdims=False``)."""
    for side, expr in zip(("left", "right"), operands, strict=True):
        name = _dropping_reduction(expr)
        if name is not None:
            return (
                f"the {side} operand is {name}(...) without keepdims=True, which drops the "
                "reduced dims; did you mean keepdims=True?"
            )
    return None


def _keepdims_slot(name: str, spec: rules.ReductionSpec) -> int:
    """Position of ``keepdims`` among a method's positional parameters (after ``self``):
    ``sum(axis, keepdims)``, ``norm(p, axis, keepdims)``,
    ``norm_lp_max(p, eps, axis, keepdims)``."""
    if spec.norm_mode is not None:
        return 3
    return 2 if name == "norm" else 1


def _dropping_reduction(expr: Expression | None) -> str | None:
    """The reduction's name if ``expr`` is ``x.<op>(...)`` / ``tt.<op>(...)`` whose ``keepdims``
    is absent or a literal ``False`` (it drops the reduced dims)."""
    if not isinstance(expr, CallExpr):
        return None
    callee = expr.callee
    if isinstance(callee, MemberExpr):
        name = callee.name
        module_call = isinstance(callee.expr, RefExpr) and callee.expr.fullname == names.PKG
    elif isinstance(callee, NameExpr):
        name, module_call = callee.name, True
    else:
        return None
    spec = rules.REDUCTIONS.get(name)
    if spec is None or spec.keeps_shape:
        return None
    slot = _keepdims_slot(name, spec) + (1 if module_call else 0)
    for i, (arg_name, arg) in enumerate(zip(expr.arg_names, expr.args, strict=True)):
        if arg_name == "keepdims" or (arg_name is None and i == slot):
            return name if isinstance(arg, NameExpr) and arg.fullname == "builtins.False" else None
    return name
