"""``tt.fft.*``: the shapes and dtypes of ``rules.fft`` from literal ``n``/``axis`` (``s``/
``axes``): ``rfft`` of ``(8, 10)`` float32 is ``Tensor[complex64, 8, 6]``, of a symbolic
``(B, M)`` ``Tensor[complex64, B, M // 2 + 1]``; ``fftfreq(n)``/``rfftfreq(n)`` of a literal
or a dim ``n``. (``fftshift``/``ifftshift`` keep the operand's type by their signatures.) An
argument that is not literal keeps the dtype and the rank, the dims unknown; a length below
1, a bad axis and a complex input of a real-input transform (``rfft``...) are errors (numpy
raises)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from mypy.plugin import FunctionContext
from mypy.types import AnyType, Type, TypeOfAny

from . import _names as names
from . import errorcodes
from ._args import UNKNOWN, arg_value, find_arg
from ._creation import size_dim
from ._dtypes import _candidates, dtype_argument, dtype_instance
from ._linalg_shapes import error_code, run_rule, tensor_arg
from ._manipulation import _value
from ._rules import load_rules, rules
from ._tensortypes import Shape, TensorView, any_dim, make_tensor, named_instance

__all__ = ["freq_hook", "transform_hook"]

#: ``_rules/fft.py`` of the loaded rules package (not imported by its ``__init__``)
rules_fft: Any = importlib.import_module(f"{load_rules().__name__}.fft")

Hook = Callable[[FunctionContext], Type]
#: the transforms over several axes (``s``, ``axes``); the others take ``n``, ``axis``
N_AXES = ("fftn", "ifftn", "rfftn", "irfftn")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints_or_none(value: object) -> bool:
    return value is None or (isinstance(value, tuple) and all(_is_int(v) for v in value))


def _dtype(ctx: FunctionContext, name: str, dtype: Type, count: int | None) -> Type | None:
    """The result dtype (``Any`` if unknown; ``None`` after reporting a complex input of a
    real-input transform). ``count``: the number of transformed axes (``None``: not known)."""
    found = _candidates(ctx.api, dtype)
    if found is None or len(found) != 1:
        return AnyType(TypeOfAny.special_form)
    try:
        counts = (1, 2) if count is None else (count,)
        answers = {rules_fft.fft_dtype(name, found[0], c) for c in counts}
    except TypeError as err:
        ctx.api.fail(str(err), ctx.context, code=errorcodes.SHAPE)
        return None
    if len(answers) != 1:  # irfftn of float16: float16 over one axis, float32 over more
        return AnyType(TypeOfAny.special_form)
    return dtype_instance(ctx.api, answers.pop())


def transform_hook(name: str) -> Hook:
    """Hook for the transform ``tt.fft.<name>``."""

    def hook(ctx: FunctionContext) -> Type:
        view = tensor_arg(ctx, "x", 0)
        if view is None:
            return ctx.default_return_type
        if name in N_AXES:
            s = _value(ctx, find_arg(ctx, "s", 1), None)
            axes = _value(ctx, find_arg(ctx, "axes", 2), None)
            known = _ints_or_none(s) and _ints_or_none(axes)
            given = axes if isinstance(axes, tuple) else s
            count = len(given) if isinstance(given, tuple) else len(view.shape.prefix)
            rule_args: tuple[object, ...] = (s, axes)
            rule = rules_fft.fftn_shape
        else:
            n = arg_value(find_arg(ctx, "n", 1), None)
            axis = arg_value(find_arg(ctx, "axis", 2), -1)
            known = (n is None or _is_int(n)) and _is_int(axis)
            count = 1
            rule_args = (n, axis)
            rule = rules_fft.fft_shape
        dtype = _dtype(ctx, name, view.dtype, count if known else None)
        if dtype is None:
            return ctx.default_return_type
        if not known:
            return _lengths_unknown(ctx, view, dtype, rule_args[1] if name not in N_AXES else None)
        dims = run_rule(ctx, rule, name, view.shape.prefix, *rule_args)
        if dims is None:
            return ctx.default_return_type
        return make_tensor(view.info, dtype, Shape(tuple(dims)))

    return hook


def _lengths_unknown(ctx: FunctionContext, view: TensorView, dtype: Type, axis: object) -> Type:
    """A length that is not literal: the rank kept, the transformed dim unknown (every dim
    where the axes are not known); a bad literal ``axis`` reported."""
    prefix = view.shape.prefix
    if not _is_int(axis):
        if not prefix:  # rank 0: numpy has no axis to transform
            return ctx.default_return_type
        return make_tensor(view.info, dtype, Shape(tuple(any_dim() for _ in prefix)))
    try:
        (ax,) = rules.normalize_axes(axis, len(prefix), single=True)
    except rules.RuleError as err:
        ctx.api.fail(str(err), ctx.context, code=error_code(err))
        return ctx.default_return_type
    return make_tensor(view.info, dtype, Shape((*prefix[:ax], any_dim(), *prefix[ax + 1 :])))


def freq_hook(name: str) -> Hook:
    """Hook for ``tt.fft.fftfreq(n)``/``rfftfreq(n)``: ``(n,)``/``(n // 2 + 1,)``, float64
    or the ``dtype=`` class."""

    def hook(ctx: FunctionContext) -> Type:
        tensor = named_instance(ctx.api, names.TENSOR)
        if tensor is None:
            return ctx.default_return_type
        dtype_arg = find_arg(ctx, "dtype", 2)
        dtype = dtype_argument(dtype_arg.type) if dtype_arg.given else None
        if dtype is None:
            dtype = dtype_instance(ctx.api, "float64")
        arg = find_arg(ctx, "n", 0)
        n = arg_value(arg, UNKNOWN)
        if _is_int(n):
            points: object = n
        elif arg.given and not arg.opaque and arg.type is not None:
            points = size_dim(arg.type)  # x.shape[0]: that dim; else unknown
        else:
            return ctx.default_return_type
        dims = run_rule(ctx, rules_fft.freq_shape, name, points)
        if dims is None:
            return ctx.default_return_type
        return make_tensor(tensor.type, dtype, Shape(tuple(dims)))

    return hook
