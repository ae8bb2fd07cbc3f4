"""The dtype classes as mypy types: a numpy dtype name's class, and a reduction's result dtype
for a concrete dtype class (memoized by name: the reductions' hot path)."""

from __future__ import annotations

from typing import Final

from mypy.nodes import TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import AnyType, Instance, Type, TypeOfAny

from . import _names as names
from ._rules import rules
from ._tensortypes import named_instance

__all__ = ["CONCRETE_RESULTS", "KEEP", "concrete_reduction_dtype", "dtype_instance"]


#: (op, concrete dtype class full name) -> the rule's result dtype name (None: unknown)
CONCRETE_RESULTS: dict[tuple[str, str], str | None] = {}


def concrete_reduction_dtype(api: CheckerPluginInterface, op: str, dtype: Type) -> Type | None:
    """``reduction_result_dtype`` for a concrete dtype class (the common case, memoized by
    name); ``None`` for anything else (families, TypeVars...)."""
    if type(dtype) is not Instance:
        return None
    key = (op, dtype.type.fullname)
    try:
        name = CONCRETE_RESULTS[key]
    except KeyError:
        name = CONCRETE_RESULTS[key] = _concrete_result(op, dtype.type.fullname)
    if name is None:
        return AnyType(TypeOfAny.special_form)
    if name is KEEP:
        return dtype  # as _summarise: the receiver's own dtype type
    if name is _GENERAL:
        return None
    return dtype_instance(api, name)


_GENERAL: Final = "<not a concrete dtype: the general path>"
KEEP: Final = "<the dtype is kept>"


def _concrete_result(op: str, fullname: str) -> str | None:
    """The rule's answer for a concrete dtype class (``KEEP`` if unchanged, ``None`` if
    unknown); ``_GENERAL`` for any other class (families...)."""
    name = names.dtype_numpy_name(fullname)
    if name is None:
        return _GENERAL
    result = rules.result_dtype(rules.REDUCTIONS[op].dtype_rule, name)
    return KEEP if result == name else result


def dtype_instance(api: CheckerPluginInterface, numpy_name: str) -> Type:
    """``typedtensor._dtypes.float32`` for ``"float32"`` (``Any`` if the class is unavailable)."""
    modules = getattr(api, "modules", None)  # TypeChecker.modules: every loaded module
    if type(modules) is dict:  # the direct route first (hot: reductions ask for result dtypes)
        tree = modules.get(names.DTYPES_MODULE)
        sym = tree.names.get(_CLASS_NAMES.get(numpy_name, numpy_name)) if tree is not None else None
        if sym is not None and type(sym.node) is TypeInfo:
            return Instance(sym.node, [])
    found = named_instance(api, names.dtype_class_fullname(numpy_name))
    return found if found is not None else AnyType(TypeOfAny.special_form)


_CLASS_NAMES: Final = {"bool": "bool_"}  # numpy name -> class name where they differ
