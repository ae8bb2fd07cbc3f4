"""The Plugin subclass: a thin dispatcher over dict tables keyed by full name."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from typing import Any

from mypy.nodes import TypeInfo
from mypy.options import Options
from mypy.plugin import FunctionContext, MethodContext, Plugin, ReportConfigContext
from mypy.types import Type

from . import _names as names
from ._creation import arange_hook, shape_constructor_hook, tensor_hook
from ._elementwise import binary_function_hook, binary_method_hook, unary_float_hook
from ._guard import guarded
from ._reduce_to import reduce_to_hook
from ._reductions import reduction_hook
from ._rules import rules

__all__ = ["TypedTensorPlugin", "VERSION"]

VERSION = "0.1.0"


def _method_table() -> dict[str, Callable[[MethodContext], Type]]:
    table: dict[str, Callable[[MethodContext], Type]] = {}
    for op in rules.REDUCTIONS:
        table[op] = reduction_hook(op, method=True)
    table["reduce_to"] = reduce_to_hook(None, method=True)
    table["sum_to"] = reduce_to_hook("sum", method=True)
    for dunder, (kind, reflected) in names.BINARY_DUNDERS.items():
        table[dunder] = binary_method_hook(kind, reflected)
    return table


def _function_table() -> dict[str, Callable[[FunctionContext], Type]]:
    table: dict[str, Callable[[FunctionContext], Type]] = {}
    for op in rules.REDUCTIONS:
        table[f"{names.REDUCTIONS_MODULE}.{op}"] = reduction_hook(op, method=False)
    table[f"{names.REDUCTIONS_MODULE}.reduce_to"] = reduce_to_hook(None, method=False)
    table[f"{names.REDUCTIONS_MODULE}.sum_to"] = reduce_to_hook("sum", method=False)
    for fn in names.SHAPE_CONSTRUCTORS:
        table[f"{names.CREATION_MODULE}.{fn}"] = shape_constructor_hook(fn)
    table[f"{names.CREATION_MODULE}.arange"] = arange_hook
    table[f"{names.CREATION_MODULE}.tensor"] = tensor_hook
    for fn in ("maximum", "minimum"):
        table[f"{names.ELEMENTWISE_MODULE}.{fn}"] = binary_function_hook("maximum")
    for fn in ("exp", "log", "sqrt"):
        table[f"{names.ELEMENTWISE_MODULE}.{fn}"] = unary_float_hook
    return table


def _rules_fingerprint() -> str:
    try:
        source = inspect.getsource(rules)
    except (OSError, TypeError):  # pragma: no cover - source always ships with the package
        return "unknown"
    return hashlib.sha256(source.encode()).hexdigest()[:16]


class TypedTensorPlugin(Plugin):
    """Exact result types for typedtensor reductions, constructors and elementwise ops."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        # stubs can offer mypy+plugin a plain signature under `if TYPEDTENSOR_MYPY_PLUGIN:`
        if names.ALWAYS_TRUE_NAME not in options.always_true:
            options.always_true.append(names.ALWAYS_TRUE_NAME)
        self._methods = {k: guarded(v) for k, v in _method_table().items()}
        self._functions = {k: guarded(v) for k, v in _function_table().items()}
        self._fingerprint = _rules_fingerprint()

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Cache key: the plugin version and a hash of the shape rules it applies."""
        return {"typedtensor_mypy": VERSION, "shape_rules": self._fingerprint}

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        """Tensor's reductions and operators, also reached through subclasses of Tensor."""
        cls, _, method = fullname.rpartition(".")
        hook = self._methods.get(method)
        if hook is None:
            return None
        if cls == names.TENSOR:
            return hook
        sym = self.lookup_fully_qualified(cls)
        node = sym.node if sym is not None else None
        if not isinstance(node, TypeInfo):
            return None
        owner = node.get_containing_type_info(method)
        return hook if owner is not None and owner.fullname == names.TENSOR else None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        """``typedtensor.reductions.*``, the constructors and ``maximum``/``minimum``."""
        return self._functions.get(fullname)
