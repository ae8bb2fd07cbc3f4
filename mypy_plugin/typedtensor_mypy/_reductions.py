"""Result types of reductions (methods and ``typedtensor.reductions`` functions), their
``typedtensor-axis`` errors, and the ``out=`` check."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from mypy.nodes import ArgKind, Context
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    NoneType,
    TupleType,
    Type,
    UnpackType,
    get_proper_type,
)

from . import _names as names
from . import errorcodes
from ._args import UNKNOWN, Arg, CallContext, arg_value, find_arg, literal_number
from ._dtypes import concrete_reduction_dtype, reduction_result_dtype
from ._rules import rules
from ._tensortypes import (
    Shape,
    TensorView,
    any_dim,
    as_tensor,
    dim_size,
    literal_dim,
    make_tensor,
    render_tensor,
    unknown_star,
)

__all__ = ["check_out", "receiver", "reduce_dims", "reduction_hook", "report_rule_error"]

#: axis defaults that are not ``None``
_DEFAULT_AXIS = {"l2_normalize": -1}
#: an axis of unknown value, known to be one int (so the rank drops by exactly one)
_ONE_INT = object()


def reduction_hook(op: str, method: bool) -> Callable[[CallContext], Type]:
    """The hook for reduction ``op`` as a Tensor method or as a module function."""
    spec = rules.REDUCTIONS[op]
    default_axis = _DEFAULT_AXIS.get(op)
    has_correction = "correction" in spec.params
    # the fast path needs these absent (any given: the general path checks it)
    absent = ("out", "correction", "ddof") if has_correction else ("out",)
    fast = not spec.keeps_shape
    keepdims_param, single = spec.keepdims, spec.single_axis

    def hook(ctx: CallContext) -> Type:
        if fast:
            result = _fast_reduce(ctx, op, method, default_axis, keepdims_param, single, absent)
            if result is not None:
                return result
        return _reduce(ctx, op, method, spec, default_axis, has_correction)

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
    t = ctx.type if method else _plain_arg(ctx, formals, "x")  # type: ignore[union-attr]
    if type(t) is not Instance or t.type.fullname != _TENSOR or not t.args:
        return None
    for d in t.args:
        if type(d) is UnpackType:
            return None
    dtype = concrete_reduction_dtype(ctx.api, op, t.args[0])
    if dtype is None:
        return None
    dims = t.args[1:]
    try:
        given = actuals[formals.index("axis")]
    except ValueError:
        return None
    axis: object = default_axis
    if given:
        axis = _plain_value(_plain_arg(ctx, formals, "axis"))
        if axis is _NOT_PLAIN or type(axis) is bool:
            return None
    keepdims: object = False
    if keepdims_param:
        try:
            given = actuals[formals.index("keepdims")]
        except ValueError:
            return None
        if given:
            keepdims = _plain_value(_plain_arg(ctx, formals, "keepdims"))
            if type(keepdims) is not bool:
                return None
    plan = _PLANS.get((len(dims), axis, keepdims, single))
    if plan is None:
        return None  # not computed yet (or an error): the general path
    take = plan.take
    if plan.needs_one:
        items = (*dims, literal_dim(ctx.api, 1))
    else:
        items = dims
    if len(take) > 1:
        return Instance(t.type, [dtype, *plan.pick(items)])
    if take:
        return Instance(t.type, [dtype, items[take[0]]])
    return Instance(t.type, [dtype])


_TENSOR: Final = names.TENSOR
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


def receiver(ctx: CallContext, method: bool) -> TensorView | None:
    """The reduced tensor: the receiver of a method, the argument ``x`` of a function."""
    if method:
        return as_tensor(ctx.type)  # type: ignore[union-attr]
    arg = find_arg(ctx, "x", 0)
    if not arg.given or arg.opaque or arg.type is None:
        return None
    return as_tensor(arg.type)


def report_rule_error(ctx: CallContext, err: Exception, anchor: Context) -> None:
    """Report a shape-rule error at ``anchor`` with its own message and code."""
    shape_errors = (rules.BroadcastError, rules.ReduceToShapeError)
    code = errorcodes.SHAPE if isinstance(err, shape_errors) else errorcodes.AXIS
    ctx.api.fail(str(err), anchor, code=code)


def _axis_value(arg: Arg, default: object) -> object:
    value = arg_value(arg, default)
    if value is UNKNOWN and arg.type is not None and not arg.opaque:
        p = get_proper_type(arg.type)
        if isinstance(p, Instance) and p.type.fullname == "builtins.int":
            return _ONE_INT
    return value


def _reduce(
    ctx: CallContext,
    op: str,
    method: bool,
    spec: rules.ReductionSpec,
    default_axis: int | None,
    has_correction: bool,
) -> Type:
    view = receiver(ctx, method)
    if view is None:
        return ctx.default_return_type
    dtype = reduction_result_dtype(ctx.api, op, view.dtype)
    if has_correction:
        _check_correction(ctx)
    axis_arg = find_arg(ctx, "axis")
    axis = _axis_value(axis_arg, default_axis)
    keepdims: object = False
    if spec.keepdims:
        keepdims = arg_value(find_arg(ctx, "keepdims"), False)
    shape = reduce_dims(ctx, view.shape, axis, keepdims, spec.single_axis, axis_arg.anchor(ctx))
    if spec.keeps_shape:
        shape = view.shape if shape is not None else None
    if shape is None:
        shape = Shape((), unknown_star(ctx.api))
    result = make_tensor(view.info, dtype, shape)
    check_out(ctx, op, result)
    return result


def reduce_dims(
    ctx: CallContext,
    shape: Shape,
    axis: object,
    keepdims: object,
    single: bool,
    anchor: Context,
) -> Shape | None:
    """The reduced shape, or ``None`` after an error; unknown parts become ``Any``."""
    known_keepdims = isinstance(keepdims, bool)
    if axis is UNKNOWN or axis is _ONE_INT:
        if not known_keepdims or not shape.exact:
            return Shape((), unknown_star(ctx.api))
        if keepdims:  # each dim is itself or 1
            return Shape(tuple(d if dim_size(d) == 1 else any_dim() for d in shape.prefix))
        if axis is _ONE_INT and shape.prefix:
            return Shape(tuple(any_dim() for _ in shape.prefix[1:]))
        return Shape((), unknown_star(ctx.api))
    if shape.exact:
        try:
            plan = _plan(len(shape.prefix), axis, bool(keepdims), single)
        except rules.RuleError as err:
            report_rule_error(ctx, err, anchor)
            return None
        if not known_keepdims:
            return Shape((), unknown_star(ctx.api))
        one = literal_dim(ctx.api, 1) if plan.needs_one else any_dim()  # any_dim: unused
        items = (*shape.prefix, one)
        return Shape(tuple(items[i] for i in plan.take))
    return _reduce_partial(ctx, shape, axis, keepdims, single, anchor)


class _Plan(NamedTuple):
    """A reduction of a rank-``rank`` shape by the shared rule: ``take`` indexes
    ``(*dims, one)`` (index ``rank`` is a reduced dim kept as 1); ``needs_one`` if it occurs;
    ``pick`` is ``itemgetter(*take)`` (for two or more indices)."""

    take: tuple[int, ...]
    needs_one: bool
    pick: Callable[[Sequence[Type]], tuple[Type, ...]]


_PLANS: dict[tuple[int, object, object, bool], _Plan] = {}


def _plan(rank: int, axis: object, keepdims: bool, single: bool) -> _Plan:
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
    found = _PLANS.get(key) if plain else None
    if found is not None:
        return found
    take = tuple(rules.reduce_shape(range(rank), axis, keepdims, rank, single=single))
    plan = _Plan(take, rank in take, operator.itemgetter(*take) if len(take) > 1 else tuple)
    if plain:
        _PLANS[key] = plan
    return plan


def _reduce_partial(
    ctx: CallContext, shape: Shape, axis: object, keepdims: object, single: bool, anchor: Context
) -> Shape | None:
    """Reduce ``Tensor[DT, *prefix, *star, *suffix]``: exact where every axis lands in the
    prefix (non-negative) or the suffix (negative), ``*tuple[Any, ...]`` elsewhere."""
    unknown = Shape((), unknown_star(ctx.api))
    n_pre, n_suf = len(shape.prefix), len(shape.suffix)
    # errors that do not depend on the rank (wrong types, a tuple for argmax, `(0, 0)`):
    try:
        if axis is not None:  # a huge stand-in rank: only rank-independent errors remain
            rules.normalize_axes(axis, n_pre + n_suf + 2**62, single=single)
    except rules.DuplicateAxisError as err:
        if err.first == err.second:
            report_rule_error(ctx, err, anchor)
            return None
    except rules.AxisTypeError as err:
        report_rule_error(ctx, err, anchor)
        return None
    except rules.RuleError:
        return unknown
    if not isinstance(keepdims, bool):
        return unknown
    if axis is None:
        if keepdims:
            one = literal_dim(ctx.api, 1)
            return Shape((one,) * n_pre, unknown_star(ctx.api), (one,) * n_suf)
        return Shape(())
    axes = [int(a) for a in (axis if isinstance(axis, tuple) else (axis,))]
    if not all(0 <= a < n_pre or -n_suf <= a < 0 for a in axes):
        return unknown
    assert shape.star is not None
    # a stand-in rank: the star as one item that no axis reaches (checked just above)
    synthetic = [*shape.prefix, shape.star, *shape.suffix]
    try:
        dims = rules.reduce_shape(synthetic, axis, keepdims, literal_dim(ctx.api, 1), single=single)
    except rules.RuleError as err:  # pragma: no cover - excluded by the checks above
        report_rule_error(ctx, err, anchor)
        return None
    i = next(i for i, d in enumerate(dims) if d is shape.star)
    return Shape(tuple(dims[:i]), shape.star, tuple(dims[i + 1 :]))


def _check_correction(ctx: CallContext) -> None:
    for name in ("correction", "ddof"):
        arg = find_arg(ctx, name)
        value = literal_number(arg)
        if value is not UNKNOWN and value < 0:
            ctx.api.fail(
                f"{name} must be >= 0, got {value}; it is subtracted from the number of "
                "reduced elements (1 gives the sample variance)",
                arg.anchor(ctx),
                code=errorcodes.AXIS,
            )


def check_out(ctx: CallContext, op: str, result: Instance) -> None:
    """Report an ``out=`` argument whose static shape or dtype differs from ``result``."""
    arg = find_arg(ctx, "out")
    if not arg.given or arg.opaque or arg.type is None:
        return
    out = as_tensor(arg.type)
    want = as_tensor(result)
    if out is None or want is None:
        return
    problems = []
    out_dtype, want_dtype = get_proper_type(out.dtype), get_proper_type(want.dtype)
    if (
        isinstance(out_dtype, Instance)
        and isinstance(want_dtype, Instance)
        and not isinstance(want_dtype, AnyType)
        and out_dtype.type.fullname != want_dtype.type.fullname
        and _is_concrete(out_dtype)
        and _is_concrete(want_dtype)
    ):
        problems.append("dtype")
    if out.shape.exact and want.shape.exact:
        a, b = out.shape.prefix, want.shape.prefix
        if len(a) != len(b) or any(
            dim_size(x) is not None and dim_size(y) is not None and dim_size(x) != dim_size(y)
            for x, y in zip(a, b, strict=False)
        ):
            problems.append("shape")
    if problems:
        ctx.api.fail(
            f"out= has type {render_tensor(out.dtype, out.shape.items)} but {op} produces "
            f"{render_tensor(want.dtype, want.shape.items)}; allocate out with exactly the "
            f"result {' and '.join(problems)}",
            arg.anchor(ctx),
            code=errorcodes.SHAPE,
        )


def _is_concrete(t: Instance) -> bool:
    from ._names import dtype_numpy_name

    return dtype_numpy_name(t.type.fullname) is not None
