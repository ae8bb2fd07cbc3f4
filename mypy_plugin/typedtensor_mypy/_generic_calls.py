"""Calls of the program's own functions and methods whose signatures use expression dims.

``def f(x: Tensor[f32, B, tt.Mul[L[2], B]]) -> Tensor[f32, tt.FloorDiv[B, L[2]]]`` called with
a ``(3, 6)`` tensor: mypy would substitute ``B = 3`` into ``Mul[L[2], B]`` without simplifying
it, so the argument ``Literal[6]`` would not match ``Mul[Literal[2], Literal[3]]`` (a false
``arg-type``) and the result would print ``FloorDiv[Literal[3], Literal[2]]``. This signature
hook infers such TypeVars itself, before mypy checks the arguments:

- a TypeVar that is a plain dim of a parameter takes the argument's dim at that position
  (the first such parameter wins; a later one that disagrees is mypy's ``arg-type`` error);
- one that only appears in a linear expression (``2 * B + 1``) is solved from the argument's
  dim where the division is exact (``B = (dim - 1) // 2``); a size that no ``B`` gives
  (``6``) is a ``typedtensor-shape`` error, and ``B`` is ``Any`` for the rest of the call;
- one that only appears in a polynomial of itself (``B * B``, ``B * (B + 1)``) met by a
  literal size is solved over the sizes >= 0: one solution binds it (``9`` gives ``B = 3``),
  none is a ``typedtensor-shape`` error (``10`` is no square), several make it ``Any``;
- the solved TypeVars are substituted everywhere in the signature and every expression dim is
  rewritten into its canonical form (``Mul[L[2], L[3]]`` -> ``Literal[6]``; an expression over
  ``Any`` is ``Any``), so mypy compares canonical types: ``(3, 6)`` passes, ``(3, 7)`` is an
  ``arg-type`` error that names ``Literal[6]``;
- an expression that the substitution makes impossible (``tt.FloorDiv[D, L[8]]`` with
  ``D = 63``: annotations denote exact divisions; ``B - 1`` with ``B = 0``) is a
  ``typedtensor-shape`` error at the call.

TypeVars it cannot solve are left to mypy. Methods of generic classes get the same
normalisation (mypy has substituted the class's TypeVars before the hook).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Union

from mypy.expandtype import expand_type
from mypy.nodes import Context, Expression
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.subtypes import is_subtype
from mypy.type_visitor import TypeQuery, TypeTranslator
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    Type,
    TypeAliasType,
    TypeVarId,
    TypeVarType,
    UninhabitedType,
    UnionType,
    get_proper_type,
)

from . import _names as names
from . import errorcodes
from ._rules import rules
from ._tensortypes import (
    Shape,
    any_dim,
    as_tensor,
    dim_expr,
    make_expr_dim,
    render_dim,
)

__all__ = ["expression_signature_hook", "has_expression_dims"]

SigContext = Union[FunctionSigContext, MethodSigContext]


def _is_expression(t: Type) -> bool:
    return isinstance(t, Instance) and t.type.fullname in names.DIM_EXPRESSIONS


class _ExpressionVars(TypeQuery[bool]):
    """Whether a type holds an expression dim; records the TypeVars inside one (``var_ids``)
    and those elsewhere (``plain_ids``)."""

    def __init__(self) -> None:
        super().__init__()
        self.var_ids: set[TypeVarId] = set()
        self.plain_ids: set[TypeVarId] = set()
        self._depth = 0

    def strategy(self, items: list[bool]) -> bool:
        return any(items)

    def visit_instance(self, t: Instance, /) -> bool:
        if t.type.fullname not in names.DIM_EXPRESSIONS:
            return self.query_types(t.args)
        self._depth += 1
        self.query_types(t.args)
        self._depth -= 1
        return True

    def visit_type_var(self, t: TypeVarType, /) -> bool:
        (self.var_ids if self._depth else self.plain_ids).add(t.id)
        return False


def has_expression_dims(types: list[Type]) -> tuple[bool, set[TypeVarId], set[TypeVarId]]:
    """Whether any of ``types`` holds an expression dim, the TypeVars inside them, and the
    TypeVars found elsewhere (a plain dim, an ``int`` parameter)."""
    scan = _ExpressionVars()
    found = scan.query_types(types)
    return found, scan.var_ids, scan.plain_ids


class _Normalise(TypeTranslator):
    """Substitutes the solved TypeVars and rewrites every expression dim into its canonical
    type; remembers why an expression cannot be a size (``impossible``)."""

    def __init__(self, found: dict[TypeVarId, Type], make: Callable[[rules.DimExpr], Type]) -> None:
        super().__init__()
        self.found = found
        self.make = make
        self.impossible: list[str] = []
        self._aliases: set[TypeAliasType] = set()
        self._inside = 0  # > 0 within an expression dim's arguments

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        if t in self._aliases:  # a recursive alias: its expansion is being translated
            return t
        self._aliases.add(t)
        try:
            return get_proper_type(t).accept(self)
        finally:
            self._aliases.discard(t)

    def visit_type_var(self, t: TypeVarType, /) -> Type:
        return self.found.get(t.id, t)

    def visit_instance(self, t: Instance, /) -> Type:
        if t.type.fullname not in names.DIM_EXPRESSIONS:
            return super().visit_instance(t)
        self._inside += 1
        args = [a.accept(self) for a in t.args]
        self._inside -= 1
        if any(isinstance(get_proper_type(a), AnyType) for a in args):
            return any_dim()  # an expression over an unknown dim is unknown
        spelled = t.copy_modified(args=args)
        expr = dim_expr(spelled)
        if expr is None:  # over an unknown dim (``int``...): unknown
            return any_dim()
        reason = _impossible(spelled, expr, whole=not self._inside)
        if reason is not None:
            self.impossible.append(f"the dim {render_dim(t)} {reason}")
        return self.make(expr)


def _impossible(spelled: Instance, expr: rules.DimExpr, whole: bool) -> str | None:
    """Why the expression ``spelled`` (value ``expr``) cannot be: a negative size (for a
    ``whole`` dim, not a part of one), or a floor division (exact in an annotation) that
    cannot divide; else ``None``."""
    c = expr.constant
    if whole and c is not None and c < 0:
        return f"is {c}, a negative size"
    if spelled.type.fullname != names.DIM_EXPRESSION_CLASSES["//"]:
        return None
    num, den = (dim_expr(a) for a in spelled.args)
    if num is None or den is None:
        return None
    n, d = num.constant, den.constant
    if (n is not None and d is not None and d != 0 and n % d) or rules.never_divides(num, den):
        return (
            f"is {num} // {den}, an exact division in an annotation, but {den} does not "
            f"divide {num}"
        )
    return None


def _dim_at(param: Shape, arg: Shape, position: int) -> Type | None:
    """The argument's dim that meets the parameter's dim ``position`` (an index into
    ``param.prefix`` when >= 0, else into ``param.suffix`` from its end); ``None`` where the
    ranks do not line up."""
    if position >= 0:
        if arg.exact and param.exact and len(arg.prefix) != len(param.prefix):
            return None
        return arg.prefix[position] if position < len(arg.prefix) else None
    if arg.exact:
        return arg.prefix[position] if -position <= len(arg.prefix) else None
    return arg.suffix[position] if -position <= len(arg.suffix) else None


def _positions(shape: Shape) -> list[tuple[int, Type]]:
    """Each dim of a parameter's shape with the position ``_dim_at`` takes."""
    out = list(enumerate(shape.prefix))
    out += [(i - len(shape.suffix), d) for i, d in enumerate(shape.suffix)]
    return out


def _tensor_params(t: Type) -> list[Shape]:
    """The shapes a parameter type declares: a Tensor's, or each Tensor's of a union."""
    p = get_proper_type(t)
    items = p.items if isinstance(p, UnionType) else [p]
    shapes = []
    for item in items:
        view = as_tensor(item) if isinstance(get_proper_type(item), Instance) else None
        if view is not None:
            shapes.append(view.shape)
    return shapes


def _arg_shape(ctx: SigContext, expr: Expression) -> Shape | None:
    """The shape of an argument's type, evaluated without a type context, its messages and
    types discarded (mypy's own way to peek at an argument: it checks it again later)."""
    chk = ctx.api
    with chk.local_type_map, chk.msg.filter_errors():  # type: ignore[attr-defined]
        arg_type = chk.expr_checker.accept(expr, type_context=None)  # type: ignore[attr-defined]
    view = as_tensor(arg_type)
    return view.shape if view is not None else None


def _lone_symbol(param: rules.DimExpr) -> rules.Symbol | None:
    """The one atom of ``param`` where it is a symbol (``param`` is a polynomial in it)."""
    atoms = param.atoms()
    atom = next(iter(atoms)) if len(atoms) == 1 else None
    return atom if isinstance(atom, rules.Symbol) else None


def _solve_linear(
    param: rules.DimExpr, arg: rules.DimExpr
) -> tuple[object, rules.DimExpr | None] | None:
    """``(key, value)`` for ``param == arg`` with ``param = c * V + k`` linear in one symbol
    ``V``, where ``(arg - k)`` divides by ``c`` exactly; ``(key, None)`` when ``arg`` is a
    size that no size of ``V`` gives (``6`` for ``2 * V + 1``); ``None`` where it cannot tell."""
    atom = _lone_symbol(param)
    if atom is None:
        return None
    c = param.terms.get((atom,))
    if c is None or set(param.terms) - {(atom,), ()}:
        return None
    value = (arg - param.terms.get((), 0)).divide_exactly(c)
    if value is None or (value.constant is not None and value.constant < 0):
        return (atom.key, None) if arg.constant is not None else None
    return atom.key, value


#: the largest constant term whose divisors ``_solve_power`` tries (larger: not solved)
_MAX_DIVISORS_OF = 10**10


def _solve_power(
    param: rules.DimExpr, arg: rules.DimExpr
) -> tuple[object, list[int] | None] | None:
    """``(key, sizes)``: every size >= 0 of the one symbol ``V`` of the polynomial ``param``
    (no floor division) with ``param == arg`` for a constant ``arg``; ``sizes`` is ``None``
    where it cannot tell (``arg`` is not a constant, or too large); ``None`` for any other
    ``param``. A root ``V >= 1`` of ``param - arg`` divides its lowest nonzero coefficient
    (the rational root theorem, after dividing out the powers of ``V``), so the divisors are
    all the candidates: ``B * B == 9`` has ``[3]``, ``B * B == 10`` none."""
    atom = _lone_symbol(param)
    if atom is None:
        return None
    n = arg.constant
    if n is None:
        return atom.key, None
    coefs = {len(mono): c for mono, c in param.terms.items()}  # a term of degree k is c * V**k
    coefs[0] = coefs.get(0, 0) - n
    roots = [0] if coefs[0] == 0 else []
    lowest = abs(next(c for _, c in sorted(coefs.items()) if c))
    if lowest > _MAX_DIVISORS_OF:
        return atom.key, None
    for d in range(1, int(lowest**0.5) + 1):
        if lowest % d:
            continue
        for v in sorted({d, lowest // d}):
            if sum(c * v**k for k, c in coefs.items()) == 0:
                roots.append(v)
    return atom.key, sorted(set(roots))


def _solve(
    param: rules.DimExpr, arg: rules.DimExpr
) -> tuple[object, rules.DimExpr | None, bool] | None:
    """``(key, value, unknown)`` for ``param == arg`` in one symbol: linear
    (``_solve_linear``) or a polynomial (``_solve_power``); ``value`` is ``None`` where no
    size fits, or where several may (``unknown``)."""
    linear = _solve_linear(param, arg)
    if linear is not None:
        return (*linear, False)
    power = _solve_power(param, arg)
    if power is None:
        return None
    key, roots = power
    if roots is None or len(roots) > 1:
        return key, None, True
    return key, rules.DimExpr.const(roots[0]) if roots else None, False


def _bindings(
    ctx: SigContext,
    sig: CallableType,
    wanted: set[TypeVarId],
    impossible: list[str],
    only_inside: set[TypeVarId],
) -> dict[TypeVarId, Type]:
    """The dim each wanted TypeVar takes from the arguments (see the module docstring); a
    linear expression no size fits binds ``Any`` and adds its reason to ``impossible``.
    A TypeVar ``only_inside`` expressions that met a known dim and could not be solved
    (``B * N`` against ``12``) binds ``Any``: mypy's own inference would give ``Never``."""
    found: dict[TypeVarId, Type] = {}
    pending: list[tuple[Type, Type]] = []  # (the parameter's expression dim, the argument's)
    shapes: dict[int, Shape | None] = {}
    for i, param_type in enumerate(sig.arg_types):
        if i >= len(ctx.args) or len(ctx.args[i]) != 1:
            continue
        for param in _tensor_params(param_type):
            for position, dim in _positions(param):
                p = get_proper_type(dim)
                takes = isinstance(p, TypeVarType) and p.id in wanted and p.id not in found
                if not takes and not _is_expression(p):
                    continue
                if i not in shapes:
                    shapes[i] = _arg_shape(ctx, ctx.args[i][0])
                arg = shapes[i]
                met = _dim_at(param, arg, position) if arg is not None else None
                if met is None:
                    continue
                if takes:
                    assert isinstance(p, TypeVarType)
                    found[p.id] = met
                else:
                    pending.append((dim, met))
    stuck: set[TypeVarId] = set()
    for param_dim, arg_dim in pending:  # expressions of TypeVars not bound plainly
        left = wanted - set(found)
        if not left:
            break
        expr = dim_expr(expand_type(param_dim, found))
        value = dim_expr(arg_dim)
        solved = _solve(expr, value) if expr is not None and value is not None else None
        if solved is None:
            if expr is not None and value is not None:
                stuck |= {a.key.id for a in expr.symbols() if isinstance(a.key, TypeVarType)}
            continue
        var, size, unknown = solved
        if not isinstance(var, TypeVarType) or var.id not in left:
            continue
        if unknown:  # several sizes may fit: unknown, never a guess
            found[var.id] = any_dim()
        elif size is None:
            impossible.append(f"the argument's dim {value} is {expr} for no size of {var.name}")
            found[var.id] = any_dim()  # one precise error, not an arg-type over Never
        else:
            found[var.id] = make_expr_dim(ctx.api)(size)
    for var_id in (stuck & only_inside) - set(found):
        found[var_id] = any_dim()
    return found


def _fits_bound(var: TypeVarType, value: Type) -> bool:
    """Whether ``value`` may be bound to ``var`` (an unknown dim may; ``Never``, which an
    argument evaluated without its context can have, is left to mypy)."""
    p = get_proper_type(value)
    if isinstance(p, UninhabitedType):
        return False
    return isinstance(p, AnyType) or is_subtype(value, var.upper_bound)


def expression_signature(ctx: SigContext, sig: CallableType) -> CallableType:
    """``sig`` with the TypeVars of its expression dims inferred and substituted, and every
    expression dim canonical (see the module docstring); ``sig`` itself if it has none."""
    found_any, var_ids, _ = has_expression_dims([*sig.arg_types, sig.ret_type])
    if not found_any:
        return sig
    free = {v.id: v for v in sig.variables if isinstance(v, TypeVarType) and not v.values}
    wanted = var_ids & set(free)
    unsolvable: list[str] = []
    found: dict[TypeVarId, Type] = {}
    if wanted:
        plain_in_args = has_expression_dims(sig.arg_types)[2]  # where mypy can infer them
        found = _bindings(ctx, sig, wanted, unsolvable, wanted - plain_in_args)
    found = {k: v for k, v in found.items() if _fits_bound(free[k], v)}
    normalise = _Normalise(found, make_expr_dim(ctx.api))
    arg_types = [t.accept(normalise) for t in sig.arg_types]
    ret_type = sig.ret_type.accept(normalise)
    for reason in unsolvable:
        ctx.api.fail(f"{reason}; no call fits the signature", ctx.context, code=errorcodes.SHAPE)
    if normalise.impossible:
        bound = ", ".join(f"{free[k].name} = {render_dim(v)}" for k, v in found.items())
        _report_impossible(ctx.api, normalise.impossible, bound, ctx.context)
    variables = [v for v in sig.variables if v.id not in found]
    return sig.copy_modified(arg_types=arg_types, ret_type=ret_type, variables=variables)


def _report_impossible(api: object, reasons: list[str], bound: str, context: Context) -> None:
    for reason in dict.fromkeys(reasons):
        api.fail(  # type: ignore[attr-defined]
            f"{reason} with {bound or 'these arguments'}; the signature admits no call with "
            "these arguments",
            context,
            code=errorcodes.SHAPE,
        )


def expression_signature_hook(ctx: SigContext) -> FunctionLike:
    """The signature hook for the program's functions and methods: ``expression_signature``
    when the callee is generic (or a method of a generic class), else the signature as is."""
    sig = ctx.default_signature
    if not sig.variables:
        receiver = get_proper_type(ctx.type) if isinstance(ctx, MethodSigContext) else None
        if not (isinstance(receiver, Instance) and receiver.args):
            return sig  # nothing was substituted: the annotations are canonical already
    return expression_signature(ctx, sig)
