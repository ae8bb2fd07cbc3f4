"""The reduction hook and its fast path, kept apart from the general path (``_reductions``,
imported on first need): a program of plain reductions never loads (or, without bytecode
caches, compiles) the rest of the plugin's reduction code.

The fast path answers the common case (an exact-rank ``Tensor[<concrete dtype>, ...]`` with
literal ``axis``/``keepdims``) from memoized applications of the shared rules; everything else,
errors included, goes to ``_reductions._reduce``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Union

from mypy.nodes import ArgKind
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import (
    Instance,
    LiteralType,
    NoneType,
    TupleType,
    Type,
    UnpackType,
)

from . import _names as names
from ._dtype_classes import CONCRETE_RESULTS, KEEP, concrete_reduction_dtype
from ._guard import fallback, self_guarded
from ._reduction_plans import PLANS, get_plan, receiver_param
from ._rules import rules

__all__ = [
    "reduction_hook",
]

CallContext = Union[FunctionContext, MethodContext]

#: axis defaults that are not ``None``
_DEFAULT_AXIS: Final = {"l2_normalize": -1}


def reduction_hook(op: str, method: bool) -> Callable[[CallContext], Type]:
    """The hook for reduction ``op`` as a Tensor method or as a module function."""
    spec = rules.REDUCTIONS[op]
    default_axis = _DEFAULT_AXIS.get(op)
    has_correction = "correction" in spec.params
    # the fast path needs these absent (any given: the general path checks it)
    absent = ("out", "correction", "ddof") if has_correction else ("out",)
    fast = not spec.keeps_shape
    keepdims_param, single = spec.keepdims, spec.single_axis

    @self_guarded
    def hook(ctx: CallContext) -> Type:
        try:
            if fast:
                result = _fast_reduce(ctx, op, method, default_axis, keepdims_param, single, absent)
                if result is not None:
                    return result
            from ._reductions import _reduce  # the general path

            return _reduce(ctx, op, method, spec, default_axis, has_correction)
        except Exception:
            return fallback(ctx)

    return hook


def _fast_reduce(
    ctx: CallContext,
    op: str,
    method: bool,
    default_axis: int | None,
    keepdims_param: bool,
    single: bool,
    absent: tuple[str, ...],
) -> Type | None:
    """The common case straight through: an exact-rank ``Tensor[<concrete dtype>, ...]``,
    ``axis``/``keepdims`` spelled as plain literals (or left out) whose reduction plan is
    known already, no ``out``/``ddof``/``correction``. ``None``: ``_reduce`` decides (errors
    included). mypy calls the hook for every reduction in a program, hence the inlined,
    call-free style; every answer equals ``_reduce``'s (the shared rule, memoized plan)."""
    formals = ctx.callee_arg_names
    actuals = ctx.args
    if len(actuals) != len(formals):
        return None
    try:
        for name in absent:
            if actuals[formals.index(name)]:
                return None
    except ValueError:  # not a parameter: the general path copes
        return None
    if "dtype" in formals and actuals[formals.index("dtype")]:
        return None  # dtype=: the general path reads the named class
    param = receiver_param(ctx, method)
    t = ctx.type if param is None else _plain_arg(ctx, formals, param)  # type: ignore[union-attr]
    if type(t) is not Instance or t.type.fullname != _TENSOR:
        return None
    targs = t.args
    if not targs:
        return None
    for d in targs:
        if type(d) is UnpackType:
            return None
    dtype: Type | None = targs[0]
    if type(dtype) is not Instance:
        return None
    if CONCRETE_RESULTS.get((op, dtype.type.fullname)) is not KEEP:  # else: dtype kept
        dtype = concrete_reduction_dtype(ctx.api, op, dtype)
        if dtype is None:
            return None
    dims = targs[1:]
    try:
        i = formals.index("axis")
    except ValueError:
        return None
    axis: object = default_axis
    given = actuals[i]
    if given:  # inlined for the common spellings: `0`, `-1`, a Final int, None
        if len(given) != 1:
            return None
        kind = ctx.arg_kinds[i][0]
        if kind is _ARG_STAR or kind is _ARG_STAR2:
            return None
        at = ctx.arg_types[i][0]
        if type(at) is Instance:
            last = at.last_known_value
            if last is None:
                return None
            axis = last.value
            if type(axis) is not int:
                return None
        elif type(at) is NoneType:
            axis = None
        else:
            axis = _plain_value(at)
            if axis is _NOT_PLAIN or type(axis) is bool:
                return None
    keepdims = False
    if keepdims_param:
        try:
            i = formals.index("keepdims")
        except ValueError:
            return None
        given = actuals[i]
        if given:
            if len(given) != 1:
                return None
            kind = ctx.arg_kinds[i][0]
            if kind is _ARG_STAR or kind is _ARG_STAR2:
                return None
            kt = ctx.arg_types[i][0]
            lit: Type | None = kt.last_known_value if type(kt) is Instance else kt
            value = lit.value if type(lit) is LiteralType else None
            if type(value) is not bool:
                return None
            keepdims = value
    plan = PLANS.get((len(dims), axis, keepdims, single))
    if plan is None:
        try:
            plan = get_plan(len(dims), axis, keepdims, single)
        except rules.RuleError:
            return None  # the general path reports it
    take = plan.take
    if plan.needs_one:
        items = (*dims, _one_like(ctx, dims))
    else:
        items = dims
    if len(take) > 1:
        return Instance(t.type, [dtype, *plan.pick(items)])
    if take:
        return Instance(t.type, [dtype, items[take[0]]])
    return Instance(t.type, [dtype])


def _one_like(ctx: CallContext, dims: Sequence[Type]) -> Type:
    """``Literal[1]``, its ``int`` fallback shared with a literal dim of the receiver if it
    has one (no name lookup), else ``literal_dim``."""
    for d in dims:
        if type(d) is LiteralType and type(d.value) is int:
            fallback_type = d.fallback
            if fallback_type.type.fullname == _INT:
                return LiteralType(1, fallback_type)
    from ._tensortypes import literal_dim

    return literal_dim(ctx.api, 1)


_TENSOR: Final = names.TENSOR
_INT: Final = names.INT
_ARG_STAR: Final = ArgKind.ARG_STAR  # (an Enum's class attributes are slow to read)
_ARG_STAR2: Final = ArgKind.ARG_STAR2


#: not a plain argument / not a plain literal value (``_fast_reduce`` gives up)
_NOT_PLAIN: Final = object()


def _plain_arg(ctx: CallContext, formals: list[str | None], name: str) -> object:
    """The type of argument ``name`` given once, positionally or by keyword (not through
    ``*args``/``**kwargs``); ``_NOT_PLAIN`` otherwise (absent included)."""
    try:
        i = formals.index(name)
    except ValueError:
        return _NOT_PLAIN
    given = ctx.args[i]
    if len(given) != 1:
        return _NOT_PLAIN
    kind = ctx.arg_kinds[i][0]
    if kind is _ARG_STAR or kind is _ARG_STAR2:
        return _NOT_PLAIN
    return ctx.arg_types[i][0]


def _plain_value(t: object) -> object:
    """``literal_value`` for the plain cases: an int or bool literal, ``None``, a tuple of int
    literals; ``_NOT_PLAIN`` for anything else (the general path reads those)."""
    tt = type(t)
    if tt is Instance:
        last = t.last_known_value  # type: ignore[attr-defined]
        if last is None:
            return _NOT_PLAIN
        value = last.value
        return value if type(value) is int or type(value) is bool else _NOT_PLAIN
    if tt is LiteralType:
        value = t.value  # type: ignore[attr-defined]
        return value if type(value) is int or type(value) is bool else _NOT_PLAIN
    if tt is NoneType:
        return None
    if tt is TupleType:
        items = []
        for item in t.items:  # type: ignore[attr-defined]
            value = _plain_value(item)
            if type(value) is not int:
                return _NOT_PLAIN
            items.append(value)
        return tuple(items)
    return _NOT_PLAIN
