"""Static result dtypes, by the shared dtype rules (``_rules.result_dtype`` and
``elementwise_dtype``), for concrete dtypes, dtype families and bounded TypeVars."""

from __future__ import annotations

from collections.abc import Callable

from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    Type,
    TypeOfAny,
    TypeVarType,
    get_proper_type,
)

from . import _names as names
from ._dtype_classes import concrete_reduction_dtype, dtype_instance
from ._rules import rules
from ._tensortypes import named_instance

__all__ = [
    "Scalar",
    "concrete_reduction_dtype",
    "dtype_argument",
    "dtype_instance",
    "elementwise_result_dtype",
    "reduction_result_dtype",
    "scalar_kind",
    "unary_float_result_dtype",
]


def _named(api: CheckerPluginInterface, fullname: str) -> Type:
    """The class ``fullname`` as an Instance (``Any`` if the class is unavailable)."""
    found = named_instance(api, fullname)
    return found if found is not None else AnyType(TypeOfAny.special_form)


def _candidates(api: CheckerPluginInterface, dtype: Type) -> list[str] | None:
    """The concrete dtype names a dtype type can stand for; ``None`` if unknown (``Any``...)."""
    p = get_proper_type(dtype)
    if isinstance(p, TypeVarType):
        p = get_proper_type(p.upper_bound)
    if not isinstance(p, Instance):
        return None
    exact = names.dtype_numpy_name(p.type.fullname)
    if exact is not None:
        return [exact]
    found = []
    for name in rules.DTYPE_NAMES:
        inst = get_proper_type(dtype_instance(api, name))
        if isinstance(inst, Instance) and inst.type.has_base(p.type.fullname):
            found.append(name)
    return found or None


def _summarise(
    api: CheckerPluginInterface, dtype: Type, fn: Callable[[str], str | None]
) -> Type | None:
    """Apply ``fn`` to every dtype ``dtype`` can stand for; return the tightest true answer."""
    candidates = _candidates(api, dtype)
    if candidates is None:
        return None
    results = [fn(c) for c in candidates]
    if any(r is None for r in results):
        return None
    if results == candidates:  # the rule keeps each dtype: keep the TypeVar/family itself
        return dtype
    return _family_of(api, sorted({r for r in results if r is not None}))


def _family_of(api: CheckerPluginInterface, distinct: list[str]) -> Type | None:
    """The one dtype in ``distinct``, or the most specific family containing them all."""
    if len(distinct) == 1:
        return dtype_instance(api, distinct[0])
    infos = [get_proper_type(dtype_instance(api, r)) for r in distinct]
    for family in names.DTYPE_FAMILIES:
        if all(isinstance(i, Instance) and i.type.has_base(family) for i in infos):
            return _named(api, family)
    return None


def reduction_result_dtype(api: CheckerPluginInterface, op: str, dtype: Type) -> Type:
    """Result dtype of reduction ``op`` on ``dtype`` (``Any`` when it cannot be known)."""
    result = concrete_reduction_dtype(api, op, dtype)
    if result is not None:
        return result
    rule = rules.REDUCTIONS[op].dtype_rule
    summary = _summarise(api, dtype, lambda d: rules.result_dtype(rule, d))
    return summary if summary is not None else AnyType(TypeOfAny.special_form)


def dtype_argument(t: Type | None) -> Type | None:
    """The result dtype a ``dtype=`` argument of type ``t`` names: the class for a concrete
    typedtensor dtype class (``dtype=tt.float64``), ``Any`` for anything else (a numpy dtype,
    a name, a family, an unknown value), ``None`` when there is none (absent or ``None``)."""
    p = get_proper_type(t) if t is not None else None
    if p is None or isinstance(p, NoneType):
        return None
    if isinstance(p, CallableType) and p.is_type_obj():
        info = p.type_object()
        if names.dtype_numpy_name(info.fullname) is not None:
            return Instance(info, [])
    return AnyType(TypeOfAny.special_form)


def scalar_kind(t: Type) -> str | None:
    """``"int"``/``"float"``/``"complex"``/``"bool"`` for a Python scalar operand type, else
    ``None``."""
    p = get_proper_type(t)
    if isinstance(p, TypeVarType):  # ``B = TypeVar("B", bound=int)``: ``x.shape[0]`` is an int
        p = get_proper_type(p.upper_bound)
    if isinstance(p, LiteralType):
        p = p.fallback
    if isinstance(p, Instance):
        if p.type.has_base(names.DIM):  # a ``tt.Dim`` marker read from ``x.shape``: an int
            return "int"
        kind = _SCALARS.get(p.type.fullname)
        if kind is None and p.type.has_base(names.INT):  # a computed size (``Sub[N, L[1]]``)
            return "int"
        return kind
    return None


_SCALARS = {names.BOOL: "bool", names.INT: "int", names.FLOAT: "float", names.COMPLEX: "complex"}
_BINARY_RULES = {
    "add": "PROMOTE",
    "subtract": "SUBTRACT",
    "multiply": "PROMOTE",
    "maximum": "PROMOTE",
    "power": "POWER",
    "true_divide": "DIVIDE",
    "compare": "COMPARE",
}


class Scalar(str):
    """A Python scalar operand's kind (``"int"``...), told apart from a dtype type."""


def _binary(kind: str, a: str, a_scalar: bool, b: str, b_scalar: bool) -> str | None:
    """One elementwise result by the shared rules; ``None`` where numpy raises."""
    if a_scalar and b_scalar:
        return None
    if a_scalar or b_scalar:
        promoted = rules.promote_scalar(b, a) if a_scalar else rules.promote_scalar(a, b)
    else:
        promoted = rules.promote(a, b)
    return rules.binary_dtype(rules.BinaryRule[_BINARY_RULES[kind]], promoted)


def elementwise_result_dtype(
    api: CheckerPluginInterface, kind: str, left: Type | Scalar, right: Type | Scalar
) -> Type:
    """Result dtype of a binary elementwise op; operands are dtype types or ``Scalar`` kinds."""

    def one(t: Type | Scalar) -> list[str] | None:
        return [str(t)] if isinstance(t, Scalar) else _candidates(api, t)

    lc, rc = one(left), one(right)
    if lc is None or rc is None:
        return AnyType(TypeOfAny.special_form)
    ls, rs = isinstance(left, Scalar), isinstance(right, Scalar)
    same = not ls and not rs and left == right
    pairs = [(c, c) for c in lc] if same else [(a, b) for a in lc for b in rc]
    results = [(a, b, _binary(kind, a, ls, b, rs)) for a, b in pairs]
    if any(r is None for _, _, r in results):
        return AnyType(TypeOfAny.special_form)
    if not isinstance(left, Scalar) and all(r == a for a, _, r in results):
        return left  # e.g. a TypeVar operand whose every value is kept
    if not isinstance(right, Scalar) and all(r == b for _, b, r in results):
        return right
    family = _family_of(api, sorted({r for _, _, r in results if r is not None}))
    return family if family is not None else AnyType(TypeOfAny.special_form)


def unary_float_result_dtype(api: CheckerPluginInterface, dtype: Type) -> Type:
    """``exp``/``log``/``sqrt``: by ``rules.unary_float_dtype``."""
    result = _summarise(api, dtype, rules.unary_float_dtype)
    return result if result is not None else AnyType(TypeOfAny.special_form)
