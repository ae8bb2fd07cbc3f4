"""The Plugin subclass: a thin dispatcher over dict tables keyed by full name."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mypy.nodes import TypeInfo
from mypy.options import Options
from mypy.plugin import (
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import FunctionLike, Type

from . import _names as names
from ._creation import arange_hook, shape_constructor_hook, tensor_hook
from ._elementwise import binary_function_hook, binary_method_hook, unary_float_hook
from ._guard import guarded
from ._reduce_to import reduce_to_hook
from ._reductions import reduction_hook
from ._rules import rules
from ._signatures import single_axis_signature

__all__ = ["TypedTensorPlugin", "VERSION"]

VERSION = "0.1.0"

#: reductions whose ``axis`` is a single int (a tuple is a ``typedtensor-axis`` error)
_SINGLE_AXIS = frozenset(name for name, spec in rules.REDUCTIONS.items() if spec.single_axis)


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


def _fingerprint() -> str:
    """A hash of the shape rules and of this plugin's own sources: editing either (not only
    upgrading the package) invalidates mypy's cache."""
    digest = hashlib.sha256()
    files = [Path(inspect.getfile(rules)), *sorted(Path(__file__).parent.glob("*.py"))]
    for path in files:
        try:
            digest.update(path.read_bytes())
        except OSError:  # pragma: no cover - sources always ship with the packages
            digest.update(path.name.encode())
    return digest.hexdigest()[:16]


def _enable_always_true_name(options: Options) -> None:
    """Make ``if TYPEDTENSOR_MYPY_PLUGIN:`` blocks (in stubs) always taken under the plugin.

    The list is replaced, not appended to: ``Options.snapshot()`` copies the dict shallowly,
    so an in-place append would also change dmypy's snapshot of the command-line options and
    make every later ``dmypy run`` restart with "configuration changed". Per-module options
    are cloned from these later (lazily); any already cloned get the name too.
    """
    name = names.ALWAYS_TRUE_NAME
    targets = [options]
    cached = getattr(options, "_per_module_cache", None)
    if isinstance(cached, dict):
        targets += [o for o in cached.values() if isinstance(o, Options)]
    for target in targets:
        if name not in target.always_true:
            target.always_true = [*target.always_true, name]


class TypedTensorPlugin(Plugin):
    """Exact result types for typedtensor reductions, constructors and elementwise ops."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        _enable_always_true_name(options)
        self._methods = {k: guarded(v) for k, v in _method_table().items()}
        self._functions = {k: guarded(v) for k, v in _function_table().items()}
        self._fingerprint = _fingerprint()

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Cache key: the plugin version and a hash of the rules and plugin sources."""
        return {"typedtensor_mypy": VERSION, "sources": self._fingerprint}

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        """Tensor's reductions and operators, also reached through subclasses of Tensor."""
        cls, _, method = fullname.rpartition(".")
        hook = self._methods.get(method)
        if hook is None:
            return None
        return hook if self._defined_by_tensor(cls, method) else None

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        """``argmax``/``argmin`` with a tuple axis: one precise error instead of two."""
        cls, _, method = fullname.rpartition(".")
        if method not in _SINGLE_AXIS or not self._defined_by_tensor(cls, method):
            return None
        return single_axis_signature

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        """The functional ``tt.argmax``/``tt.argmin``, as for the methods."""
        module, _, fn = fullname.rpartition(".")
        if module == names.REDUCTIONS_MODULE and fn in _SINGLE_AXIS:
            return single_axis_signature
        return None

    def _defined_by_tensor(self, cls: str, method: str) -> bool:
        if cls == names.TENSOR:
            return True
        if cls.startswith("builtins."):  # `1 + 2`, `a == b` on builtins: never a Tensor
            return False
        sym = self.lookup_fully_qualified(cls)
        node = sym.node if sym is not None else None
        if not isinstance(node, TypeInfo):
            return False
        owner = node.get_containing_type_info(method)
        return owner is not None and owner.fullname == names.TENSOR

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        """``typedtensor.reductions.*``, the constructors and ``maximum``/``minimum``."""
        return self._functions.get(fullname)
