"""``tt.hstack vstack pad repeat tile``: the shapes of ``rules.rearranging`` from literal
arguments (sizes add up and multiply as dim expressions: ``B + N``, ``D + 2``, ``3 * D``), the
dtype kept (``hstack``/``vstack``: numpy's promotion). Arguments that are not literal give the
signature's answer (the dtype with an unknown shape); a ``repeats`` tensor an unknown dim."""

from __future__ import annotations

import importlib
from typing import Any

from mypy.plugin import FunctionContext
from mypy.types import Type

from ._args import UNKNOWN, arg_value, find_arg
from ._dtypes import elementwise_result_dtype
from ._linalg_shapes import run_rule, tensor_arg
from ._manipulation import _tensors, _value
from ._rules import load_rules
from ._tensortypes import Shape, any_dim, as_tensor, make_tensor

__all__ = ["hstack_hook", "pad_hook", "repeat_hook", "tile_hook", "vstack_hook"]

#: ``_rules/rearranging.py`` of the loaded rules package (not imported by its ``__init__``)
rules_rearranging: Any = importlib.import_module(f"{load_rules().__name__}.rearranging")


def _stack_hook(ctx: FunctionContext, name: str) -> Type:
    found = _tensors(ctx, find_arg(ctx, "tensors", 0))
    if found is None or not found[0]:
        return ctx.default_return_type
    views, counted = found
    dtype = views[0].dtype
    for v in views[1:]:
        dtype = elementwise_result_dtype(ctx.api, "add", dtype, v.dtype)
    rule = getattr(rules_rearranging, f"{name}_shape")
    dims = run_rule(ctx, rule, [v.shape.prefix for v in views])
    if dims is None:
        return ctx.default_return_type
    if not counted:  # a list of unknown length: the joined dim is not known
        first = len(views[0].shape.prefix)
        axis = 0 if name == "vstack" or first <= 1 else 1
        dims = (*dims[:axis], any_dim(), *dims[axis + 1 :])
    return make_tensor(views[0].info, dtype, Shape(tuple(dims)))


def hstack_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.hstack(tensors)``."""
    return _stack_hook(ctx, "hstack")


def vstack_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.vstack(tensors)``."""
    return _stack_hook(ctx, "vstack")


def _one_tensor_hook(ctx: FunctionContext, rule: Any, *args: object) -> Type:
    view = tensor_arg(ctx, "x", 0)
    if view is None or UNKNOWN in args:
        return ctx.default_return_type
    dims = run_rule(ctx, rule, view.shape.prefix, *args)
    if dims is None:
        return ctx.default_return_type
    return make_tensor(view.info, view.dtype, Shape(tuple(dims)))


def pad_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.pad(x, pad_width)`` (constant mode)."""
    width = _value(ctx, find_arg(ctx, "pad_width", 1), UNKNOWN)
    return _one_tensor_hook(ctx, rules_rearranging.pad_shape, width)


def repeat_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.repeat(x, repeats, axis)``; a tensor of counts gives an unknown dim."""
    arg = find_arg(ctx, "repeats", 1)
    counts_tensor = arg.given and not arg.opaque and arg.type and as_tensor(arg.type)
    repeats = None if counts_tensor else _value(ctx, arg, UNKNOWN)
    axis = arg_value(find_arg(ctx, "axis", 2), None)
    return _one_tensor_hook(ctx, rules_rearranging.repeat_shape, repeats, axis)


def tile_hook(ctx: FunctionContext) -> Type:
    """Hook for ``tt.tile(x, reps)``."""
    reps = _value(ctx, find_arg(ctx, "reps", 1), UNKNOWN)
    return _one_tensor_hook(ctx, rules_rearranging.tile_shape, reps)
