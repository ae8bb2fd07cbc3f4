"""Broadcasting of two static shapes (``Shape``: prefix, optional unpacked part, suffix) by the
shared rule ``rules.broadcast_shapes``, and the ``typedtensor-shape`` report when it fails.

Every hook that broadcasts (operators, ``tt.maximum``, matmul's batch dims, ``tt.where``...)
calls ``broadcast`` and, on ``StaticBroadcastError``, ``report_broadcast_failure``.
"""

from __future__ import annotations

from mypy.nodes import Context
from mypy.types import Type, TypeVarTupleType, get_proper_type

from . import errorcodes
from ._args import CallContext
from ._rules import rules
from ._tensortypes import Shape, any_dim, dim_size, render_tensor

__all__ = ["StaticBroadcastError", "broadcast", "report_broadcast_failure"]


class StaticBroadcastError(Exception):
    """Two shapes that cannot broadcast; ``err`` is the rule's error. ``from_end`` is False for
    a failure in the dims before an unpacked part (whose position does not count from the
    end)."""

    def __init__(self, err: rules.BroadcastError, from_end: bool = True) -> None:
        super().__init__(str(err))
        self.err = err
        self.from_end = from_end


def _bcast(a: tuple[Type, ...], b: tuple[Type, ...]) -> tuple[Type, ...]:
    try:
        return tuple(rules.broadcast_shapes(a, b, size_of=dim_size, unknown=any_dim()))
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


def report_broadcast_failure(
    ctx: CallContext,
    failure: StaticBroadcastError,
    left: tuple[Type, Shape],
    right: tuple[Type, Shape],
    anchor: Context,
) -> None:
    """Report ``failure`` of broadcasting ``left`` with ``right`` (each ``(dtype, shape)``)."""
    err = failure.err
    where = f" at position {err.position}" if failure.from_end else ""
    ctx.api.fail(
        f"cannot broadcast dim {dim_size(err.left)} with dim {dim_size(err.right)}{where}: "
        f"{render_tensor(left[0], left[1].items)} vs {render_tensor(right[0], right[1].items)}",
        anchor,
        code=errorcodes.SHAPE,
    )
