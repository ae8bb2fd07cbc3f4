"""Signature hooks: ``argmax``/``argmin`` given a tuple literal as ``axis``.

Their ``axis`` is ``int | None``, so mypy would report a generic ``arg-type`` error next to the
plugin's ``typedtensor-axis`` one. When the argument is spelled as a tuple, the parameter is
widened to ``object`` for that call only, leaving one precise error (the reduction hook's).
"""

from __future__ import annotations

from mypy.nodes import TupleExpr
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import CallableType, FunctionLike

from . import _names as names

__all__ = ["single_axis_signature"]


def single_axis_signature(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    """Widen ``axis`` to ``object`` when the call passes a tuple expression there."""
    sig: CallableType = ctx.default_signature
    if "axis" not in sig.arg_names:
        return sig
    i = sig.arg_names.index("axis")
    if i >= len(ctx.args) or not any(isinstance(e, TupleExpr) for e in ctx.args[i]):
        return sig
    types = list(sig.arg_types)
    types[i] = ctx.api.named_generic_type(names.OBJECT, [])
    return sig.copy_modified(arg_types=types)
