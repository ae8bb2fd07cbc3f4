"""``tt.linalg.svd qr solve eig`` and ``tt.dot``: the shapes of ``rules.linalg_ext``
(``svd_shapes qr_shapes solve_shape dot_shape``, K = ``min(M, N)`` only where provable) and
numpy's dtypes (``linalg_dtype``: ints compute in float64, float32 stays float32; the singular
values real; ``solve`` promotes; ``dot`` as ``@``). ``eig``'s dtype is data-dependent for real
input (numpy returns complex only when an eigenvalue is complex): unknown, and exact (complex)
for complex input. Rank < 2, non-square ``solve``, misaligned ``dot``/``solve`` operands and
float16 are ``typedtensor-shape`` errors (``typedtensor-symbolic`` where a symbolic dim may
or may not fit)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mypy.plugin import FunctionContext
from mypy.types import AnyType, TupleType, Type, TypeOfAny, get_proper_type

from . import errorcodes
from ._args import CallContext, arg_value, find_arg
from ._dtypes import _candidates, dtype_instance, elementwise_result_dtype
from ._linalg_ext import rules_linalg
from ._manipulation import _dim_kwargs
from ._results import named_result
from ._rules import rules
from ._tensortypes import Shape, TensorView, any_dim, as_tensor, make_tensor, render_dim

__all__ = ["dot_hook", "eig_hook", "qr_hook", "solve_hook", "svd_hook"]

Hook = Callable[[FunctionContext], Type]

#: the named result of each decomposition (``_results.pyi``)
_RESULT_CLASSES = {"svd": "SVDResult", "qr": "QRResult", "eig": "EigResult"}


def error_code(err: Exception) -> Any:
    """The error code of a rule error: axis errors, symbolic mismatches, the rest shape."""
    if isinstance(err, (rules.AxisRangeError, rules.AxisTypeError)):
        return errorcodes.AXIS
    if getattr(err, "symbolic", False):
        return errorcodes.SYMBOLIC
    return errorcodes.SHAPE


def tensor_arg(ctx: CallContext, name: str, position: int) -> TensorView | None:
    """The argument as a tensor of known rank, else ``None``."""
    arg = find_arg(ctx, name, position)
    view = as_tensor(arg.type) if arg.given and not arg.opaque and arg.type else None
    return view if view is not None and view.shape.exact else None


def run_rule(ctx: CallContext, rule: Callable[..., Any], *args: Any) -> Any:
    """``rule(*args, **dim kwargs)``; a rule error reported (``None``)."""
    try:
        return rule(*args, **_dim_kwargs(ctx), render_dim=render_dim)
    except rules.RuleError as err:
        ctx.api.fail(str(err), ctx.context, code=error_code(err))
        return None


def linalg_dtype(ctx: CallContext, name: str, dtype: Type) -> str | None:
    """numpy's linalg computation dtype of ``dtype`` (``None``: unknown, or float16 reported)."""
    found = _candidates(ctx.api, dtype)
    if found is None or len(found) != 1:
        return None
    try:
        return str(rules_linalg.linalg_dtype(name, found[0]))
    except rules_linalg.LinalgDTypeError as err:
        ctx.api.fail(str(err), ctx.context, code=errorcodes.SHAPE)
        return None


def _dtype_type(ctx: CallContext, name: str | None) -> Type:
    return AnyType(TypeOfAny.special_form) if name is None else dtype_instance(ctx.api, name)


def _merged(a: tuple[Type, ...], b: tuple[Type, ...]) -> tuple[Type, ...]:
    """Two possible answers of one rank: the dims they agree on, ``Any`` elsewhere."""
    return tuple(x if x == y else any_dim() for x, y in zip(a, b, strict=True))


def _results(
    ctx: CallContext,
    name: str,
    view: TensorView,
    shapes: Sequence[tuple[Type, ...]],
    dtypes: list[Type],
) -> Type:
    """One tensor, or the named result (``SVDResult``, ``QRResult``) of the tensors with these
    shapes and dtypes (the signature says ``Any``: its result's form depends on the flags)."""
    tensors: list[Type] = [
        make_tensor(view.info, dt, Shape(tuple(s))) for s, dt in zip(shapes, dtypes, strict=True)
    ]
    if len(tensors) == 1:
        return tensors[0]
    return named_result(ctx.api, _RESULT_CLASSES[name], tensors)


def _decomposition(
    ctx: FunctionContext, name: str, shapes_of: Callable[[object], Any], flags: object
) -> Type:
    """``svd``/``qr``: ``shapes_of(flag)`` for the literal ``flags`` (a tuple of the settings the
    call may mean: several when an argument is not literal), merged dim by dim."""
    view = tensor_arg(ctx, "x", 0)
    if view is None:
        return ctx.default_return_type
    computed = linalg_dtype(ctx, name, view.dtype)
    options = []
    for flag in flags:  # type: ignore[attr-defined]
        found = run_rule(ctx, shapes_of, view.shape.prefix, *flag)
        if found is None:
            return ctx.default_return_type
        options.append(found)
    if any(len(o) != len(options[0]) for o in options):
        return ctx.default_return_type
    shapes = [tuple(s) for s in options[0]]
    for other in options[1:]:
        shapes = [_merged(s, tuple(o)) for s, o in zip(shapes, other, strict=True)]
    dtype = _dtype_type(ctx, computed)
    real = _dtype_type(ctx, None if computed is None else rules_linalg.real_of(computed))
    if name == "svd":
        dtypes = [dtype, real, dtype] if len(shapes) == 3 else [real]
    else:
        dtypes = [dtype] * len(shapes)
    return _results(ctx, name, view, shapes, dtypes)


def _bools(value: object) -> tuple[bool, ...]:
    return (value,) if isinstance(value, bool) else (True, False)


def svd_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.linalg.svd(x, full_matrices, compute_uv)``."""
    full = arg_value(find_arg(ctx, "full_matrices", 1), True)
    uv = arg_value(find_arg(ctx, "compute_uv", 2), True)
    if not isinstance(uv, bool):
        return ctx.default_return_type
    flags = tuple((f, uv) for f in _bools(full))
    return _decomposition(ctx, "svd", rules_linalg.svd_shapes, flags)


def qr_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.linalg.qr(x, mode)``."""
    mode = arg_value(find_arg(ctx, "mode", 1), "reduced")
    if mode not in rules_linalg.QR_MODES:  # not literal, or the signature's error already
        return ctx.default_return_type
    return _decomposition(ctx, "qr", rules_linalg.qr_shapes, ((mode,),))


def _binary(
    ctx: FunctionContext,
    rule: Callable[..., Any],
    dtype_of: Callable[[TensorView, TensorView], Type],
) -> Type:
    """``solve``/``dot``: two tensors of known rank, the rule's shape, ``dtype_of``'s dtype."""
    a, b = tensor_arg(ctx, "a", 0), tensor_arg(ctx, "b", 1)
    if a is None or b is None:
        return ctx.default_return_type
    dims = run_rule(ctx, rule, a.shape.prefix, b.shape.prefix)
    if dims is None:
        return ctx.default_return_type
    return make_tensor(a.info, dtype_of(a, b), Shape(tuple(dims)))


def solve_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.linalg.solve(a, b)``: the linalg dtypes of both, promoted."""

    def dtype_of(a: TensorView, b: TensorView) -> Type:
        da, db = _candidates(ctx.api, a.dtype), _candidates(ctx.api, b.dtype)
        if da is None or db is None or len(da) != 1 or len(db) != 1:
            return _dtype_type(ctx, None)
        try:
            return _dtype_type(ctx, str(rules_linalg.solve_dtype(da[0], db[0])))
        except rules_linalg.LinalgDTypeError as err:
            ctx.api.fail(str(err), ctx.context, code=errorcodes.SHAPE)
            return _dtype_type(ctx, None)

    return _binary(ctx, rules_linalg.solve_shape, dtype_of)


def dot_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.dot(a, b)`` (two tensors; other operands keep the signature's answer):
    the dtype as ``@``'s."""
    return _binary(
        ctx,
        rules_linalg.dot_shape,
        lambda a, b: elementwise_result_dtype(ctx.api, "add", a.dtype, b.dtype),
    )


def eig_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.linalg.eig(x)``: the shapes of the signature; the dtype exact only for
    complex input (real input gives real or complex results depending on the values)."""
    view = tensor_arg(ctx, "x", 0)
    default = get_proper_type(ctx.default_return_type)
    if view is None or not isinstance(default, TupleType):
        return ctx.default_return_type
    computed = linalg_dtype(ctx, "eig", view.dtype)
    if computed is None or not computed.startswith("complex"):
        return ctx.default_return_type
    dtype = dtype_instance(ctx.api, computed)
    items = []
    for item in default.items:
        found = as_tensor(item)
        items.append(make_tensor(found.info, dtype, found.shape) if found is not None else item)
    return named_result(ctx.api, _RESULT_CLASSES["eig"], items)
