"""Never crash mypy: a hook that raises returns mypy's own answer instead.

Set ``TYPEDTENSOR_MYPY_DEBUG=1`` to let exceptions through (the test suite does, so a bug in a
hook fails a test instead of hiding behind the fallback).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar, Union

from mypy.plugin import AttributeContext, FunctionContext, MethodContext
from mypy.types import Type

__all__ = ["fallback", "guarded", "self_guarded"]

C = TypeVar("C", bound=Union[FunctionContext, MethodContext, AttributeContext])


def guarded(hook: Callable[[C], Type]) -> Callable[[C], Type]:
    """Wrap ``hook`` so that an unexpected exception yields ``ctx.default_return_type``
    (a hook made by ``self_guarded`` already does that itself and is returned as is)."""
    if getattr(hook, "_typedtensor_guarded", False):
        return hook

    def run(ctx: C) -> Type:
        try:
            return hook(ctx)
        except Exception:
            return fallback(ctx)

    return run


def self_guarded(hook: Callable[[C], Type]) -> Callable[[C], Type]:
    """Mark ``hook`` as catching its own exceptions with ``fallback`` (a hot hook saves the
    wrapper's call: mypy calls it for every matching call in a program)."""
    hook._typedtensor_guarded = True  # type: ignore[attr-defined]
    return hook


def fallback(ctx: C) -> Type:
    """Inside an ``except`` block: re-raise under ``TYPEDTENSOR_MYPY_DEBUG``, else mypy's own
    answer."""
    if os.environ.get("TYPEDTENSOR_MYPY_DEBUG"):
        raise  # only ever called while an exception is being handled
    if isinstance(ctx, AttributeContext):  # a property's hook: mypy's attribute type
        return ctx.default_attr_type
    return ctx.default_return_type
