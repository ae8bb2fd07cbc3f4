"""The standard's named results as mypy types: ``tt.linalg.eigh(x)`` is an ``EighResult`` of
the hook's exact tensors, so ``.eigenvalues`` has the type of item 0 (``_results.pyi``
declares the classes as NamedTuples generic over their fields' types)."""

from __future__ import annotations

from collections.abc import Sequence

from mypy.expandtype import expand_type_by_instance
from mypy.nodes import TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import AnyType, Instance, TupleType, Type, TypeOfAny

from . import _names as names
from ._tensortypes import named_instance

__all__ = ["named_result"]


def named_result(api: CheckerPluginInterface, name: str, items: Sequence[Type]) -> Type:
    """``typedtensor._results.<name>`` over ``items`` (mypy's form of a generic NamedTuple: the
    tuple of the items whose fallback is the class over the same types); a plain tuple of
    ``items`` where the class is not loaded or does not have that many fields."""
    info = _result_class(api, name)
    template = info.tuple_type if info is not None else None
    if info is None or template is None or len(info.defn.type_vars) != len(items):
        fallback = api.named_generic_type(names.TUPLE, [AnyType(TypeOfAny.special_form)])
        return TupleType(list(items), fallback)
    instance = Instance(info, list(items))  # the class's TypeVars are its fields' types
    expanded = expand_type_by_instance(template, instance)
    assert isinstance(expanded, TupleType)
    return TupleType(expanded.items, instance)


def _result_class(api: CheckerPluginInterface, name: str) -> TypeInfo | None:
    """The class ``typedtensor._results.<name>``, if its module is in the build (it is where
    ``typedtensor.linalg`` is: ``_linalg_ext`` imports it)."""
    found = named_instance(api, f"{names.RESULTS_MODULE}.{name}")
    return found.type if found is not None else None
