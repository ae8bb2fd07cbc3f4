"""numpy's linalg functions and the matrix statistics (``tt.linalg.inv det cholesky eigh
slogdet``, ``tt.cov corrcoef``): the shapes come from their signatures (``Tensor[Any, *Batch,
N, N]``), the hook puts in the result dtype of ``rules.linalg_ext`` (ints compute in float64,
float32 stays float32, eigenvalues of complex input are real; ``eigh`` and ``slogdet`` as
their named results); float16 is a ``typedtensor-shape`` error (numpy's linalg has no
float16)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from mypy.plugin import FunctionContext
from mypy.types import Instance, TupleType, Type, get_proper_type

from . import errorcodes
from ._args import find_arg
from ._dtypes import _candidates, dtype_instance
from ._results import named_result
from ._rules import load_rules
from ._tensortypes import as_tensor, make_tensor

__all__ = ["linalg_dtype_hook"]

#: ``_rules/linalg_ext.py`` of the loaded rules package (not imported by its ``__init__``)
rules_linalg: Any = importlib.import_module(f"{load_rules().__name__}.linalg_ext")


def _with_dtype(t: Type, dtype: Type) -> Type:
    view = as_tensor(t)
    return make_tensor(view.info, dtype, view.shape) if view is not None else t


#: the two-item named results: their class and which items are real (``eigh``'s eigenvalues,
#: ``slogdet``'s logabsdet: float32 for complex64 input), the others of the linalg dtype
_NAMED = {"eigh": ("EighResult", (True, False)), "slogdet": ("SlogdetResult", (False, True))}


def linalg_dtype_hook(name: str, result: str) -> Callable[[FunctionContext], Type]:
    """Hook for ``name``; ``result``: ``"same"`` (the linalg dtype), ``"eigh"`` (real values,
    vectors of the linalg dtype), ``"slogdet"`` (the sign of the linalg dtype, a real
    logabsdet), ``"stat"`` (``cov``/``corrcoef``)."""

    def hook(ctx: FunctionContext) -> Type:
        arg = find_arg(ctx, "x", 0)
        view = as_tensor(arg.type) if arg.given and not arg.opaque and arg.type else None
        candidates = _candidates(ctx.api, view.dtype) if view is not None else None
        if candidates is None or len(candidates) != 1:
            return ctx.default_return_type
        (dtype,) = candidates
        if result == "stat":
            return _with_dtype(
                ctx.default_return_type, dtype_instance(ctx.api, rules_linalg.stat_dtype(dtype))
            )
        try:
            computed = rules_linalg.linalg_dtype(name, dtype)
        except rules_linalg.LinalgDTypeError as err:
            ctx.api.fail(str(err), ctx.context, code=errorcodes.SHAPE)
            return ctx.default_return_type
        default = get_proper_type(ctx.default_return_type)
        if result in _NAMED and isinstance(default, TupleType) and len(default.items) == 2:
            cls, real_items = _NAMED[result]
            dtypes = [rules_linalg.real_of(computed) if real else computed for real in real_items]
            items = [
                _with_dtype(item, dtype_instance(ctx.api, dtype))
                for item, dtype in zip(default.items, dtypes, strict=True)
            ]
            return named_result(ctx.api, cls, items)
        if isinstance(default, Instance):
            return _with_dtype(default, dtype_instance(ctx.api, computed))
        return ctx.default_return_type

    return hook
