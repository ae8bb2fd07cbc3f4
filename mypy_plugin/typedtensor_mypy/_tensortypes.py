"""Reading and building ``Tensor[DType, *Dims]`` types, and rendering them compactly."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from mypy.lookup import lookup_fully_qualified
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    ProperType,
    TupleType,
    Type,
    TypeOfAny,
    TypeVarTupleType,
    TypeVarType,
    UnpackType,
    get_proper_type,
)

from . import _names as names
from ._rules import rules

if TYPE_CHECKING:
    from typedtensor._rules.dimexpr import Atom, DimExpr

__all__ = [
    "Shape",
    "TensorView",
    "any_dim",
    "as_tensor",
    "dim_expr",
    "dim_size",
    "expr_dim",
    "literal_dim",
    "make_tensor",
    "named_instance",
    "render_dim",
    "render_dtype",
    "render_tensor",
    "unknown_star",
]


class Shape(NamedTuple):
    """The dims of a tensor type: ``prefix, *star, suffix``; ``star is None`` for a known rank."""

    prefix: tuple[Type, ...]
    star: UnpackType | None = None
    suffix: tuple[Type, ...] = ()

    @property
    def exact(self) -> bool:
        """Whether the rank is known (no unpacked part)."""
        return self.star is None

    @property
    def items(self) -> list[Type]:
        """The type arguments after the dtype, in order."""
        return [*self.prefix, *([self.star] if self.star is not None else []), *self.suffix]


class TensorView(NamedTuple):
    """A tensor type taken apart: Tensor's ``TypeInfo``, the dtype argument and the shape."""

    info: TypeInfo
    dtype: Type
    shape: Shape


def named_instance(api: CheckerPluginInterface, fullname: str) -> Instance | None:
    """The class ``fullname`` as an Instance, from the loaded modules; ``None`` if it is not
    part of this build. (The checker's qualified lookup walks package attributes, and
    ``typedtensor`` does not bind its private modules.)"""
    modules = getattr(api, "modules", None)  # TypeChecker.modules: every loaded module
    if not isinstance(modules, dict):
        return None
    module, _, name = fullname.rpartition(".")
    tree = modules.get(module)
    sym = tree.names.get(name) if tree is not None else None  # the direct route, fast
    if sym is None or not isinstance(sym.node, TypeInfo):
        sym = lookup_fully_qualified(fullname, modules)
    if sym is not None and isinstance(sym.node, TypeInfo):
        return Instance(sym.node, [])
    return None


def any_dim() -> AnyType:
    """An unknown dim (``Any``)."""
    return AnyType(TypeOfAny.special_form)


def literal_dim(api: CheckerPluginInterface, value: int) -> LiteralType:
    """``Literal[value]`` as a dim."""
    return LiteralType(value, api.named_generic_type(names.INT, []))


def unknown_star(api: CheckerPluginInterface) -> UnpackType:
    """``*tuple[Any, ...]``: any number of unknown dims."""
    return UnpackType(api.named_generic_type(names.TUPLE, [any_dim()]))


def dim_size(dim: object) -> int | None:
    """The size of a ``Literal[n]`` dim (or an int), ``None`` for symbolic or unknown dims."""
    if isinstance(dim, int) and not isinstance(dim, bool):
        return dim
    if not isinstance(dim, Type):
        return None
    p = get_proper_type(dim)
    if (
        isinstance(p, LiteralType)
        and isinstance(p.value, int)
        and not isinstance(p.value, bool)
        and p.fallback.type.fullname == names.INT
    ):
        return p.value
    return None


def _tensor_instance(t: Type) -> Instance | None:
    p = get_proper_type(t)
    if isinstance(p, TypeVarType):
        p = get_proper_type(p.upper_bound)
    if not isinstance(p, Instance):
        return None
    if p.type.fullname == names.TENSOR:
        return p
    for base in p.type.mro:
        if base.fullname == names.TENSOR:
            return p if p.type is base else map_instance_to_supertype(p, base)
    return None


def as_tensor(t: Type) -> TensorView | None:
    """Take a Tensor type (or a subclass, or a TypeVar bound to one) apart; ``None`` otherwise."""
    if type(t) is Instance and t.type.fullname == names.TENSOR:  # the common case, fast
        args = t.args
        if args and not any(isinstance(d, UnpackType) for d in args):
            return TensorView(t.type, args[0], Shape(tuple(args[1:])))
    inst = _tensor_instance(t)
    if inst is None or not inst.args:
        return None
    dtype, dims = inst.args[0], list(inst.args[1:])
    stars = [i for i, d in enumerate(dims) if isinstance(d, UnpackType)]
    if len(stars) > 1:
        return None
    if not stars:
        return TensorView(inst.type, dtype, Shape(tuple(dims)))
    i = stars[0]
    star = dims[i]
    assert isinstance(star, UnpackType)
    inner = get_proper_type(star.type)
    if isinstance(inner, TupleType):  # *tuple[A, B]: known items after all
        flat = [*dims[:i], *inner.items, *dims[i + 1 :]]
        if not any(isinstance(d, UnpackType) for d in inner.items):
            return TensorView(inst.type, dtype, Shape(tuple(flat)))
        return None
    return TensorView(inst.type, dtype, Shape(tuple(dims[:i]), star, tuple(dims[i + 1 :])))


def make_tensor(info: TypeInfo, dtype: Type, shape: Shape) -> Instance:
    """Build ``Tensor[dtype, *shape]``."""
    if shape.star is None and not shape.suffix:
        return Instance(info, [dtype, *shape.prefix])
    return Instance(info, [dtype, *shape.items])


# ---------------------------------------------------------------------- dim expressions


def _symbol_name(p: ProperType) -> str | None:
    """The name of a symbolic dim (a TypeVar or a ``tt.Dim`` marker), else ``None``."""
    if isinstance(p, TypeVarType):
        return p.name
    if isinstance(p, Instance) and p.type.has_base(names.DIM) and p.type.fullname != names.DIM:
        return p.type.name
    return None


def dim_expr(dim: Type) -> DimExpr | None:
    """A dim as an expression: ``Literal[n]`` a constant, a TypeVar or marker a symbol (keyed
    by its type), ``tt.Add/Sub/Mul/FloorDiv/IntDiv[A, B]`` the arithmetic (a ``FloorDiv``
    exact, an ``IntDiv`` not); ``None`` for ``Any`` and anything else."""
    size = dim_size(dim)
    if size is not None:
        return rules.DimExpr.const(size)
    p = get_proper_type(dim)
    name = _symbol_name(p)
    if name is not None:
        return rules.DimExpr.symbol(p, name)
    if not isinstance(p, Instance) or len(p.args) != 2:
        return None
    op = names.DIM_EXPRESSIONS.get(p.type.fullname)
    left, right = dim_expr(p.args[0]), dim_expr(p.args[1])
    if op is None or left is None or right is None:
        return None
    return left.apply(op, right, exact=p.type.fullname != names.INT_DIV)


def expr_dim(
    expr: DimExpr, literal: Callable[[int], Type], instance: Callable[[str, list[Type]], Type]
) -> Type:
    """The canonical type of an expression: ``Literal[n]``, the symbol's own type, or nested
    ``tt.Add/Sub/Mul/FloorDiv`` in the expression's term order (so equal expressions are one
    type), a floor division not known to be exact as ``tt.IntDiv``. ``literal(n)`` and
    ``instance(fullname, args)`` build types."""
    c = expr.constant
    if c is not None:
        return literal(c)
    key = expr.single_symbol
    if isinstance(key, Type):
        return key
    cls = names.DIM_EXPRESSION_CLASSES

    def atom(a: Atom) -> Type:
        if isinstance(a, rules.Symbol):
            assert isinstance(a.key, Type)
            return a.key
        num, den = expr_dim(a.num, literal, instance), expr_dim(a.den, literal, instance)
        return instance(cls["//"] if a.exact else names.INT_DIV, [num, den])

    total: Type | None = None
    for mono, coef in expr.sorted_terms():
        factors = [atom(a) for a in mono]
        magnitude = abs(coef) if total is not None else coef
        if magnitude != 1 or not factors:
            factors.insert(0, literal(magnitude))
        term = factors[0]
        for f in factors[1:]:
            term = instance(cls["*"], [term, f])
        if total is None:
            total = term
        else:
            total = instance(cls["+" if coef > 0 else "-"], [total, term])
    assert total is not None
    return total


def make_expr_dim(api: CheckerPluginInterface) -> Callable[[DimExpr], Type]:
    """``expr_dim`` with the checker's types (``make_expr`` for the rules); an expression
    class missing from the build (never for an installed typedtensor) gives ``Any``."""

    def instance(fullname: str, args: list[Type]) -> Type:
        found = named_instance(api, fullname)
        return any_dim() if found is None else Instance(found.type, args)

    return lambda e: expr_dim(e, lambda n: literal_dim(api, n), instance)


# ---------------------------------------------------------------------------------- render
def render_dim(dim: Type) -> str:
    """``10``, ``B``, ``Any``, ``*Rest``, ``*tuple[Any, ...]``."""
    if isinstance(dim, UnpackType):
        inner = get_proper_type(dim.type)
        if isinstance(inner, TypeVarTupleType):
            return f"*{inner.name}"
        if isinstance(inner, Instance) and inner.args:
            return f"*tuple[{_render_type(inner.args[0])}, ...]"
        return "*tuple[Any, ...]"
    size = dim_size(dim)
    if size is not None:
        return str(size)
    p = get_proper_type(dim)
    if isinstance(p, Instance) and p.type.fullname in names.DIM_EXPRESSIONS:
        expr = dim_expr(p)
        if expr is not None:
            return str(expr)
    return _render_type(dim)


def _render_type(t: Type) -> str:
    p: ProperType = get_proper_type(t)
    if isinstance(p, AnyType):
        return "Any"
    if isinstance(p, TypeVarType):
        return p.name or "?"
    if isinstance(p, Instance):
        return p.type.name
    if isinstance(p, LiteralType):
        return repr(p.value)
    return str(p)


def render_dtype(dtype: Type) -> str:
    """``float32``, ``bool_``, ``DT``, ``Any``."""
    return _render_type(dtype)


def render_tensor(dtype: Type, dims: Sequence[Type]) -> str:
    """``Tensor[float32, 10, 20]`` (``Tensor[float32]`` for rank 0)."""
    return "Tensor[" + ", ".join([render_dtype(dtype), *map(render_dim, dims)]) + "]"
