"""The shape plans of reductions (the shared rule applied to dim indices, memoized) and where
a reduction's tensor argument is; shared by the fast path (``_reduce_fast``) and the general
path (``_reductions``)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import NamedTuple, Union

from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Instance, Type

from ._rules import rules

__all__ = ["PLANS", "get_plan", "receiver_param"]

CallContext = Union[FunctionContext, MethodContext]


def receiver_param(ctx: CallContext, method: bool) -> str | None:
    """Where the reduced tensor is: ``None`` for the receiver of a bound method call
    (``x.sum(1)``: ``ctx.type``), else the parameter that holds it: ``x`` of a function, and
    ``self`` of a method called through the class (``Tensor.sum(x, 1)``: mypy passes the class
    as ``ctx.type`` and ``x`` as the first argument)."""
    if not method:
        return "x"
    if type(ctx.type) is not Instance and ctx.callee_arg_names[:1] == ["self"]:  # type: ignore[union-attr]
        return "self"
    return None


class _Plan(NamedTuple):
    """A reduction of a rank-``rank`` shape by the shared rule: ``take`` indexes
    ``(*dims, one)`` (index ``rank`` is a reduced dim kept as 1); ``needs_one`` if it occurs;
    ``pick`` is ``itemgetter(*take)`` (for two or more indices)."""

    take: tuple[int, ...]
    needs_one: bool
    pick: Callable[[Sequence[Type]], tuple[Type, ...]]


PLANS: dict[tuple[int, object, object, bool], _Plan] = {}


def get_plan(rank: int, axis: object, keepdims: bool, single: bool) -> _Plan:
    """The plan for (rank, axis, keepdims, single); raises the rule's errors.

    ``rules.reduce_shape`` is generic over the dim items: it runs on the indices themselves,
    once per key, memoized where the axis is plainly typed (``None``, an ``int`` or a tuple of
    ``int``: ``True == 1`` must not share an entry with ``1``).
    """
    key = (rank, axis, keepdims, single)
    plain = (
        axis is None
        or type(axis) is int
        or (type(axis) is tuple and all(type(a) is int for a in axis))
    )
    found = PLANS.get(key) if plain else None
    if found is not None:
        return found
    take = tuple(rules.reduce_shape(range(rank), axis, keepdims, rank, single=single))
    plan = _Plan(take, rank in take, operator.itemgetter(*take) if len(take) > 1 else tuple)
    if plain:
        PLANS[key] = plan
    return plan
