"""Signature hooks, applied before mypy checks a call's arguments.

- ``context_free_signature`` (every typedtensor function and Tensor method): mypy infers a
  generic argument (``tt.sum(same(x), 0)``, ``x @ dense(h, w)``) in the *context* of its
  parameter's type first, and a parameter typed ``Tensor[Any, *tuple[Any, ...]]`` (``AnyTensor``)
  solves the argument's type variables to ``Any``: the symbols of ``same(x)`` were lost before
  any hook saw them. The hook retypes such parameters (also inside unions, ``Sequence[...]``
  and tuples) as Tensor's non-generic base ``TensorBase``: every Tensor still fits, and the
  argument keeps the type its own arguments give it.
- ``single_axis_signature`` (``argmax``/``argmin``): their ``axis`` is ``int | None``, so mypy
  would report a generic ``arg-type`` error next to the plugin's ``typedtensor-axis`` one. When
  the argument is spelled as a tuple, the parameter is widened to ``object`` for that call
  only, leaving one precise error (the reduction hook's).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Union

from mypy.nodes import TupleExpr
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.type_visitor import TypeTranslator
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    Type,
    TypeAliasType,
    UnpackType,
    get_proper_type,
)

from . import _names as names
from ._tensortypes import named_instance

__all__ = ["context_free_signature", "signature_hook", "single_axis_signature"]

SigContext = Union[FunctionSigContext, MethodSigContext]


def _is_any(t: Type) -> bool:
    return isinstance(get_proper_type(t), AnyType)


def _is_unknown_tensor(t: Instance) -> bool:
    """``Tensor[Any, *tuple[Any, ...]]`` (or with any mix of ``Any`` dims): no information."""
    if t.type.fullname != names.TENSOR:
        return False
    for arg in t.args:
        if isinstance(arg, UnpackType):
            inner = get_proper_type(arg.type)
            if not (isinstance(inner, Instance) and all(_is_any(a) for a in inner.args)):
                return False
        elif not _is_any(arg):
            return False
    return True


class _UnknownTensorToBase(TypeTranslator):
    def __init__(self, base: Instance) -> None:
        super().__init__()
        self.base = base
        self.changed = False

    def visit_instance(self, t: Instance) -> Type:
        if _is_unknown_tensor(t):
            self.changed = True
            return self.base
        return super().visit_instance(t)

    def visit_type_alias_type(self, t: TypeAliasType) -> Type:
        before = self.changed
        self.changed = False
        result = get_proper_type(t).accept(self)
        changed, self.changed = self.changed, before or self.changed
        return result if changed else t


def context_free_signature(ctx: SigContext, sig: CallableType) -> CallableType:
    """Retype ``AnyTensor`` parameters as ``TensorBase`` (see the module docstring)."""
    base = named_instance(ctx.api, names.TENSOR_BASE)
    if base is None:  # pragma: no cover - Tensor's module is loaded wherever it is called
        return sig
    translator = _UnknownTensorToBase(base)
    types = [t.accept(translator) for t in sig.arg_types]
    return sig.copy_modified(arg_types=types) if translator.changed else sig


def single_axis_signature(ctx: SigContext, sig: CallableType) -> CallableType:
    """Widen ``axis`` to ``object`` when the call passes a tuple expression there."""
    if "axis" not in sig.arg_names:
        return sig
    i = sig.arg_names.index("axis")
    if i >= len(ctx.args) or not any(isinstance(e, TupleExpr) for e in ctx.args[i]):
        return sig
    types = list(sig.arg_types)
    types[i] = ctx.api.named_generic_type(names.OBJECT, [])
    return sig.copy_modified(arg_types=types)


def signature_hook(single_axis: bool) -> Callable[[SigContext], FunctionLike]:
    """The hook for one typedtensor callable: ``context_free_signature``, then (for
    ``argmax``/``argmin``) ``single_axis_signature``."""

    def hook(ctx: SigContext) -> FunctionLike:
        try:
            sig = context_free_signature(ctx, ctx.default_signature)
            return single_axis_signature(ctx, sig) if single_axis else sig
        except Exception:
            if os.environ.get("TYPEDTENSOR_MYPY_DEBUG"):
                raise
            return ctx.default_signature  # never crash mypy

    return hook
