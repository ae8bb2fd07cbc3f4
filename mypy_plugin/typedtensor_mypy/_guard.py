"""Never crash mypy: a hook that raises returns mypy's own answer instead.

Set ``TYPEDTENSOR_MYPY_DEBUG=1`` to let exceptions through (the test suite does, so a bug in a
hook fails a test instead of hiding behind the fallback).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar, Union

from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Type

__all__ = ["guarded"]

C = TypeVar("C", bound=Union[FunctionContext, MethodContext])


def guarded(hook: Callable[[C], Type]) -> Callable[[C], Type]:
    """Wrap ``hook`` so that an unexpected exception yields ``ctx.default_return_type``."""

    def run(ctx: C) -> Type:
        try:
            return hook(ctx)
        except Exception:
            if os.environ.get("TYPEDTENSOR_MYPY_DEBUG"):
                raise
            return ctx.default_return_type

    return run
