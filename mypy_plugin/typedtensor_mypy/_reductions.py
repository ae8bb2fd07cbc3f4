"""Result types of reductions (methods and ``typedtensor.reductions`` functions), their
``typedtensor-axis`` errors, and the ``out=`` check."""

from __future__ import annotations

from mypy.nodes import Context
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    Type,
    TypeOfAny,
    get_proper_type,
)

from . import _names as names
from . import errorcodes
from ._args import UNKNOWN, Arg, CallContext, arg_value, find_arg, literal_number
from ._dtypes import dtype_argument, reduction_result_dtype
from ._reduction_plans import get_plan, receiver_param
from ._rules import rules
from ._tensortypes import (
    Shape,
    TensorView,
    any_dim,
    as_tensor,
    dim_expr,
    dim_size,
    literal_dim,
    make_tensor,
    render_tensor,
    unknown_star,
)

__all__ = ["check_out", "receiver", "reduce_dims", "report_rule_error"]

#: an axis of unknown value, known to be one int (so the rank drops by exactly one)
_ONE_INT = object()


def receiver(ctx: CallContext, method: bool) -> TensorView | None:
    """The reduced tensor: the receiver of a method (the first argument when it is called
    through the class), the argument ``x`` of a function."""
    param = receiver_param(ctx, method)
    if param is None:
        return as_tensor(ctx.type)  # type: ignore[union-attr]
    arg = find_arg(ctx, param, 0)
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
    named = _named_dtype(ctx)
    if named is not None and not _computable_in(ctx, op, view.dtype, named):
        return make_tensor(
            view.info, AnyType(TypeOfAny.from_error), Shape((), unknown_star(ctx.api))
        )
    dtype = named if named is not None else reduction_result_dtype(ctx.api, op, view.dtype)
    if has_correction:
        _check_correction(ctx)
    axis_arg = find_arg(ctx, "axis")
    axis = _axis_value(axis_arg, default_axis)
    if view.shape.exact and not view.shape.prefix:  # count_nonzero(x0d, axis=0): numpy's
        axis = rules.rank0_axis(op, axis, 0)
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


def _named_dtype(ctx: CallContext) -> Type | None:
    """The result dtype a ``dtype=`` argument names (the class, else ``Any``: the shape stays
    exact); ``None`` without one."""
    if "dtype" not in ctx.callee_arg_names:
        return None
    arg = find_arg(ctx, "dtype")
    if not arg.given:
        return None
    if arg.opaque:
        return AnyType(TypeOfAny.special_form)
    p = get_proper_type(arg.type) if arg.type is not None else None
    if isinstance(p, CallableType) and p.is_type_obj():
        info = p.type_object()
        if info.has_base(_DTYPE_BASE) and names.dtype_numpy_name(info.fullname) is None:
            ctx.api.fail(
                f"dtype={info.name} is a dtype family, not a concrete dtype (the runtime raises "
                "TypeError); pass one such as tt.float64",
                arg.anchor(ctx),
                code=errorcodes.AXIS,
            )
    return dtype_argument(arg.type)


_DTYPE_BASE = f"{names.DTYPES_MODULE}.DType"


def _computable_in(ctx: CallContext, op: str, dtype: Type, named: Type) -> bool:
    """Whether reduction ``op`` of a ``dtype`` tensor can compute in the ``dtype=`` class
    ``named`` (the rules' ``check_dtype_argument``); reports the error where it cannot."""
    given, result = get_proper_type(dtype), get_proper_type(named)
    if not (isinstance(given, Instance) and isinstance(result, Instance)):
        return True
    given_name = names.dtype_numpy_name(given.type.fullname)
    result_name = names.dtype_numpy_name(result.type.fullname)
    if given_name is None or result_name is None:
        return True
    try:
        rules.check_dtype_argument(op, given_name, result_name)
    except rules.DTypeArgumentError as err:
        report_rule_error(ctx, err, find_arg(ctx, "dtype").anchor(ctx))
        return False
    return True


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
            plan = get_plan(len(shape.prefix), axis, bool(keepdims), single)
        except rules.RuleError as err:
            report_rule_error(ctx, err, anchor)
            return None
        if not known_keepdims:
            return Shape((), unknown_star(ctx.api))
        one = literal_dim(ctx.api, 1) if plan.needs_one else any_dim()  # any_dim: unused
        items = (*shape.prefix, one)
        return Shape(tuple(items[i] for i in plan.take))
    return _reduce_partial(ctx, shape, axis, keepdims, single, anchor)


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
    code = errorcodes.SHAPE
    if out.shape.exact and want.shape.exact:
        a, b = out.shape.prefix, want.shape.prefix
        found = {_dims_relation(x, y) for x, y in zip(a, b, strict=False)}
        if len(a) != len(b) or rules.Relation.DIFFERENT in found:
            problems.append("shape")
        elif rules.Relation.UNKNOWN in found:  # a symbol against another dim: the symbolic rule
            problems.append("shape")
            code = errorcodes.SYMBOLIC if problems == ["shape"] else code
    if problems:
        ctx.api.fail(
            f"out= has type {render_tensor(out.dtype, out.shape.items)} but {op} produces "
            f"{render_tensor(want.dtype, want.shape.items)}; allocate out with exactly the "
            f"result {' and '.join(problems)}",
            arg.anchor(ctx),
            code=code,
        )


def _dims_relation(x: Type, y: Type) -> object:
    """Whether two dims are provably equal, provably different or not provably either
    (``None`` where one is unknown)."""
    ex, ey = dim_expr(x), dim_expr(y)
    return None if ex is None or ey is None else rules.relation(ex, ey)


def _is_concrete(t: Instance) -> bool:
    from ._names import dtype_numpy_name

    return dtype_numpy_name(t.type.fullname) is not None
