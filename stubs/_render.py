"""Render the reduction overloads of the typedtensor stubs from the shape rules.

Every shape and dtype in the output comes from ``typedtensor._rules``: result shapes from
``reduce_shape`` over dim *names*, valid and invalid axes from ``normalize_axes`` (whose
exceptions classify them), result dtypes from ``result_dtype``. Signatures (parameter names,
kinds, defaults and annotations) are copied from the runtime functions with ``inspect``, so the
plain branch of a stub is exactly the runtime signature.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from typedtensor import _rules as rules

#: Highest rank that gets rank-specific overloads (single axes, tuples, poison overloads).
MAX_RANK = 4
#: Literal axes tried for the out-of-range poison overloads: ``-(MAX_RANK+2) .. MAX_RANK+1``.
POISON_AXES = range(-(MAX_RANK + 2), MAX_RANK + 2)
ONE = "Literal[1]"
#: Pyright view: a bound reduction carries the receiver's dims as ``Callable[[*dims], None]``.
#: Matching a callable's parameters is exact where matching a class's ``*Shape`` is not: pyright
#: binds an unpacked TypeVarTuple (``Tensor[DT, B, *Rest]``) to one fixed dim (``_D1`` becomes
#: ``Union[*Rest]``) when a descriptor's ``__get__`` compares it with ``Tensor[DT, _D0, _D1]``,
#: but no fixed parameter list accepts a ``*Rest`` parameter.
GRADUAL_PREFIX = 8
ANY_TENSOR = "Tensor[Any, Unpack[tuple[Any, ...]]]"


def dtype_class_name(name: str) -> str:
    """``'bool' -> 'bool_'``; other dtype names are the class names."""
    return "bool_" if name == "bool" else name


# ------------------------------------------------------------------------------ dtype rules
def varying_rules() -> list[rules.DTypeRule]:
    """Rules whose result depends on the input dtype other than as the identity (SUM, FLOAT)."""
    out = []
    for rule in rules.DTypeRule:
        results = {d: rules.result_dtype(rule, d) for d in rules.DTYPE_NAMES}
        if all(r == d for d, r in results.items()) or len(set(results.values())) == 1:
            continue
        out.append(rule)
    return out


@dataclass(frozen=True)
class DTypeForm:
    """How an overload spells the receiver dtype and the result dtype for one rule."""

    receiver: str
    result: str


def dtype_form(rule: rules.DTypeRule) -> DTypeForm:
    """Receiver/result dtype spelling for ``rule``, derived from ``result_dtype``."""
    results = {d: rules.result_dtype(rule, d) for d in rules.DTYPE_NAMES}
    if all(r == d for d, r in results.items()):
        return DTypeForm("_S", "_S")
    constants = set(results.values())
    if len(constants) == 1:
        return DTypeForm("Any", dtype_class_name(constants.pop()))
    varying = varying_rules()
    args = ["_R" if r is rule else "Any" for r in varying]
    return DTypeForm(f"_ReductionDTypes[{', '.join(args)}]", "_R")


def rule_typevar(rule: rules.DTypeRule) -> str:
    """Name of the ``_ReductionDTypes`` type parameter for ``rule``."""
    return f"_{rule.name}_co"


def render_dtype_classes() -> dict[str, str]:
    """Template fields of ``_dtypes.pyi``: the rule TypeVars and the concrete dtype classes."""
    from typedtensor._dtypes import BY_NAME

    varying = varying_rules()
    typevars = "\n".join(
        f'{rule_typevar(r)} = TypeVar("{rule_typevar(r)}", covariant=True)' for r in varying
    )
    classes = []
    for name in rules.DTYPE_NAMES:
        cls = BY_NAME[name]
        parent = cls.__mro__[1]
        # a direct DType subclass derives from DType through _ReductionDTypes (a valid MRO)
        base = "" if parent.__name__ == "DType" else f"{parent.__name__}, "
        results = ", ".join(dtype_class_name(rules.result_dtype(r, name)) for r in varying)
        doc = (cls.__doc__ or "").strip().splitlines()[0]
        classes.append(
            f'class {cls.__name__}({base}_ReductionDTypes[{results}]):\n    """{doc}"""\n'
        )
    return {
        "RULE_TYPEVARS": typevars,
        "RULE_PARAMS": ", ".join(rule_typevar(r) for r in varying),
        "DTYPE_CLASSES": "\n".join(classes),
    }


# ----------------------------------------------------------------------------- axis forms
def _lit(values: Sequence[int]) -> str:
    return f"Literal[{', '.join(str(v) for v in values)}]"


def _spellings(dim: int, ndim: int) -> tuple[int, int]:
    """Both spellings of ``dim`` that ``normalize_axes`` maps to it (positive, negative)."""
    found = [a for a in range(-ndim, ndim) if rules.normalize_axes(a, ndim) == (dim,)]
    if len(found) != 2:
        raise AssertionError(f"dim {dim} of rank {ndim} has spellings {found}")
    return found[0], found[1]


def _dims(ndim: int) -> list[str]:
    return [f"_D{i}" for i in range(ndim)]


def _callable(dims: Sequence[str]) -> str:
    """The pyright-view encoding of a list of dims: ``Callable[[*dims], None]``."""
    return f"Callable[[{', '.join(dims)}], None]"


def _tensor(dtype: str, dims: Sequence[str]) -> str:
    return f"Tensor[{', '.join([dtype, *dims])}]"


@dataclass(frozen=True)
class Form:
    """One overload: receiver dims, axis annotation, keepdims, result dims or poison message."""

    dims: tuple[str, ...]
    axis: str
    keepdims: bool | None  # None: keepdims not constrained (bool)
    result: tuple[str, ...] | None
    message: str | None = None
    #: how the parameters before ``keepdims`` are rendered: ``""`` as in the runtime signature,
    #: ``REQUIRED`` without defaults, ``KWONLY`` with ``keepdims`` keyword-only (required)
    style: str = ""


def _reduced(dims: Sequence[str], axis: object, keepdims: bool, single: bool) -> tuple[str, ...]:
    return rules.reduce_shape(list(dims), axis, keepdims, ONE, single=single)


def unknown_rank_kept(single: bool) -> Form:
    """axis=None, keepdims=True on a receiver of unknown (or > MAX_RANK) rank: all dims 1."""
    (one,) = _reduced(["_D"], None, True, single)
    return Form(("Unpack[_Sh]",), "None", True, (f"Unpack[tuple[{one}, ...]]",))


def valid_forms(spec: rules.ReductionSpec) -> Iterator[Form]:
    """Overloads (of the ``tt.`` functions) for every literal axis the rules accept.

    ``axis=None``; the single axes of ranks 1..4; their tuples; the rank-polymorphic
    ``axis=0`` / ``axis=-1`` forms; ``axis=()``. ``ordered_forms`` picks and orders them for
    the functions (the per-rank single axes there are replaced by
    ``polymorphic_single_forms``); ``shape_kept_forms`` (``l2_normalize``) uses them as is.
    """
    single = spec.single_axis
    kd = (False, True)
    # axis=None over any rank (keepdims=False); keepdims=True needs the rank.
    yield Form(("Unpack[_Sh]",), "None", False, ())
    none_kept = [
        Form(tuple(_dims(r)), "None", True, _reduced(_dims(r), None, True, single))
        for r in range(MAX_RANK + 1)
    ]
    yield from none_kept
    yield unknown_rank_kept(single)
    for r in range(1, MAX_RANK + 1):
        rdims = tuple(_dims(r))
        for d in range(r):
            parts = [_lit(_spellings(d, r))]
            if not single:
                parts.append(f"tuple[{_lit(_spellings(d, r))}]")
            for k in kd:
                yield Form(rdims, " | ".join(parts), k, _reduced(rdims, d, k, single))
    if not single:
        for r in range(2, MAX_RANK + 1):
            rdims = tuple(_dims(r))
            for n in range(2, r + 1):
                for combo in itertools.combinations(range(r), n):
                    axis_t = ", ".join(_lit(_spellings(d, r)) for d in combo)
                    for k in kd:
                        yield Form(rdims, f"tuple[{axis_t}]", k, _reduced(rdims, combo, k, single))
    # rank-polymorphic axis=0 / axis=-1 (symbolic and variadic receivers, ranks above 4)
    for axis, dims in ((0, ("_D0", "Unpack[_Rest]")), (-1, ("Unpack[_Rest]", "_DL"))):
        for k in kd:
            yield Form(dims, _lit([axis]), k, _reduced(dims, axis, k, single))
    if not single:
        yield Form(("Unpack[_Sh]",), "tuple[()]", None, ("Unpack[_Sh]",))


def poison_forms(spec: rules.ReductionSpec) -> Iterator[Form]:
    """``@deprecated`` overloads for literal axes the rules reject (out of range, duplicates)."""
    # rank 0 gets none: an empty shape is also what an unknown-rank receiver fits, and
    # AnyTensor calls must never hit a poison overload.
    for r in range(1, MAX_RANK + 1):
        dims = tuple(_dims(r))
        bad = []
        for a in POISON_AXES:
            try:
                rules.normalize_axes(a, r)
            except rules.AxisRangeError:
                bad.append(a)
        if bad:
            message = f"axis out of range for a rank-{r} tensor; {rules.valid_axes_text(r)}"
            yield Form(dims, _lit(bad), None, None, message)
        if spec.single_axis or r == 0:
            continue
        pairs: dict[int, list[int]] = {}
        for a, b in itertools.product(range(-r, r), repeat=2):
            try:
                rules.normalize_axes((a, b), r)
            except rules.DuplicateAxisError as err:
                pairs.setdefault(err.dim, [])
                for v in (a, b):
                    if v not in pairs[err.dim]:
                        pairs[err.dim].append(v)
        if pairs:
            tuples = " | ".join(
                f"tuple[{_lit(sorted(v, reverse=True))}, {_lit(sorted(v, reverse=True))}]"
                for _, v in sorted(pairs.items())
            )
            message = (
                f"duplicate axes: two axes refer to the same dim of a rank-{r} tensor; "
                "each axis may appear once"
            )
            yield Form(dims, tuples, None, None, message)


def shape_kept_forms(spec: rules.ReductionSpec) -> Iterator[Form]:
    """l2_normalize: every literal axis the rules accept keeps the receiver's shape."""
    for form in valid_forms(spec):
        if form.keepdims is not True:
            yield Form(form.dims, form.axis, None, form.dims)


# ------------------------------------------------------------------------------ signatures
def _default(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


@dataclass(frozen=True)
class Param:
    name: str
    kind: inspect._ParameterKind
    annotation: str
    default: str | None  # rendered default, or None when required


def runtime_params(fn: Callable[..., Any]) -> tuple[list[Param], str]:
    """The parameters and return annotation of ``fn`` as source text."""
    sig = inspect.signature(fn)
    params = []
    for p in sig.parameters.values():
        ann = p.annotation if isinstance(p.annotation, str) else ""
        default = None if p.default is inspect.Parameter.empty else _default(p.default)
        params.append(Param(p.name, p.kind, ann, default))
    ret = sig.return_annotation if isinstance(sig.return_annotation, str) else "Any"
    return params, ret


def render_params(params: Sequence[Param]) -> str:
    parts: list[str] = []
    star = False
    for p in params:
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        text = p.name + (f": {p.annotation}" if p.annotation else "")
        if p.default is not None:
            text += f" = {p.default}"
        parts.append(text)
    return ", ".join(parts)


def _overload_params(params: list[Param], first: str, receiver: str, form: Form) -> list[Param]:
    """Replace the receiver, axis and keepdims parameters of the runtime signature.

    ``form.style``: ``REQUIRED`` drops the defaults of every positional parameter before
    ``keepdims`` (``p``, ``eps``), ``KWONLY`` makes ``keepdims`` keyword-only (both leave the
    ``keepdims=True`` form without a default, so that pyright drops it by arity for the calls
    that pass no ``keepdims``, also after a defaulted ``p``).
    """
    out: list[Param] = []
    defaulted = False
    names = [p.name for p in params]
    keep_at = names.index("keepdims") if "keepdims" in names else len(params)
    for i, p in enumerate(params):
        if p.name == first:
            out.append(Param(p.name, p.kind, receiver, None))
            continue
        if (
            form.style == REQUIRED
            and i < keep_at
            and p.name != "axis"
            and p.kind is not inspect.Parameter.KEYWORD_ONLY
        ):
            out.append(Param(p.name, p.kind, p.annotation, None))
            continue
        if p.name == "axis" and form.axis == NONE_REQUIRED:
            out.append(Param(p.name, p.kind, "None", None))
        elif p.name == "axis":
            ann = form.axis
            if form.axis == "None":
                default = p.default if p.default == "None" else None
            elif p.default is not None and form.axis == f"Literal[{p.default}]":
                default = p.default  # l2_normalize's axis=-1
            else:
                default = None
            if default is None and defaulted:
                default = "..."
            out.append(Param(p.name, p.kind, ann, default))
        elif p.name == "keepdims" and form.keepdims is not None:
            ann = f"Literal[{form.keepdims}]"
            default = "False" if form.keepdims is False else ("..." if defaulted else None)
            if form.axis == NONE_REQUIRED:
                default = None
            if form.style == KWONLY:
                out.append(Param(p.name, inspect.Parameter.KEYWORD_ONLY, ann, None))
            else:
                out.append(Param(p.name, p.kind, ann, default))
        elif p.name == "out" and form.result is not None:
            out += _out_none([p])  # a call with a buffer goes to ``out_overload``
        elif p.name == "dtype" and form.result is not None:
            # no dtype parameter: a call with dtype= goes to ``dtype_overload`` (a
            # ``dtype: None = None`` here cost pyright 5% on the mixed benchmark file)
            continue
        else:
            out.append(p)
        if out[-1].default is not None and p.kind is not inspect.Parameter.KEYWORD_ONLY:
            defaulted = True
    return out


#: The type variable of ``out=``: a call that passes ``out`` returns that tensor (as numpy and
#: the runtime do), so its overload returns the argument's own type.
OUT_TYPEVAR = "_O"
#: The type variable of ``dtype=``: a call naming a typedtensor dtype class gets that class.
DTYPE_TYPEVAR = "_X"


def out_overload(
    params: list[Param], first: str, receiver: str, *, indent: str, name: str
) -> list[str]:
    """The overload of the calls that pass an ``out=`` buffer: the runtime signature with
    ``out`` required and typed ``_O``, returning ``_O`` (no lines for a reduction without
    ``out``).

    The shape overloads take only ``out: None = None``: ``out: AnyTensor | None = None`` in
    every one of them cost pyright 3-7% of its time on the all-functions benchmark file
    (each call binds every overload of its list or class, and each overload declared is
    evaluated once), ``None`` alone next to nothing. The runtime returns the buffer after
    checking that it has exactly the result's shape and dtype (the plugin checks it
    statically), so a correct call gets the same type either way. The catch-alls take
    ``out: None`` too: an optional buffer (``out: Tensor[...] | None``, a wrapper forwarding its
    own) then fits no overload as a whole, so pyright and mypy split the union and answer
    both halves (the exact shape and the buffer's type). Poison overloads keep the runtime's
    ``out`` (``x.sum(3, out=o)`` is still reported) and come before this one.
    """
    if "out" not in [p.name for p in params]:
        return []
    with_out = _with_out(_with_receiver(params, first, receiver), OUT_TYPEVAR, None)
    return [
        f"{indent}@overload",
        f"{indent}def {name}({render_params(with_out)}) -> {OUT_TYPEVAR}: ...",
        *dtype_overload(params, first, receiver, indent=indent, name=name),
    ]


def dtype_overload(
    params: list[Param], first: str, receiver: str, *, indent: str, name: str
) -> list[str]:
    """The overload of the calls that name a typedtensor dtype class (``dtype=tt.float64``):
    ``Tensor[<that class>, *tuple[Any, ...]]``, the shape unknown (no lines for a reduction
    without ``dtype``). The shape overloads have no ``dtype`` parameter (an explicit
    ``dtype=None`` gets the catch-all's unknown type); doubling them for ``dtype=`` would
    double what pyright evaluates per call, and the plugin gives the exact shape as well. A
    numpy dtype or a name goes on to the catch-all (``AnyTensor``)."""
    if "dtype" not in [p.name for p in params]:
        return []
    base = _out_none(_with_receiver(params, first, receiver))
    # required, so keyword-only (a positional dtype after defaulted parameters could not be)
    named = [p for p in base if p.name != "dtype"]
    named.append(Param("dtype", inspect.Parameter.KEYWORD_ONLY, f"type[{DTYPE_TYPEVAR}]", None))
    result = _tensor(DTYPE_TYPEVAR, ["Unpack[tuple[Any, ...]]"])
    return [f"{indent}@overload", f"{indent}def {name}({render_params(named)}) -> {result}: ..."]


def _plain_none(params: list[Param]) -> list[Param]:
    """``params`` with ``out: None = None`` and ``dtype: None = None``: the rule's dtype."""
    return [
        Param(p.name, p.kind, "None", "None") if p.name == "dtype" else p for p in _out_none(params)
    ]


def _with_out(params: list[Param], annotation: str, default: str | None) -> list[Param]:
    """``params`` with ``out`` annotated ``annotation`` (``default``: rendered, or required)."""
    return [Param(p.name, p.kind, annotation, default) if p.name == "out" else p for p in params]


def _out_none(params: list[Param]) -> list[Param]:
    """``params`` with ``out: None = None`` (a buffer goes to ``out_overload``)."""
    return _with_out(params, "None", "None")


def _with_receiver(params: list[Param], first: str, receiver: str) -> list[Param]:
    return [Param(p.name, p.kind, receiver, None) if p.name == first else p for p in params]


def _axis_defaulted(params: Sequence[Param]) -> bool:
    for p in params[1:]:
        if p.name == "axis":
            return False
        if p.default is not None:
            return True
    return False


def polymorphic_single_forms(spec: rules.ReductionSpec, keepdims: bool) -> list[Form]:
    """One overload per single literal axis ``k`` in ``-MAX_RANK .. MAX_RANK-1``, any rank.

    ``k >= 0`` matches the prefix pattern ``(_D0, ..., _Dk, *_Rest)``, ``k < 0`` the suffix
    pattern ``(*_Rest, _D0, ..., _D{-k-1})``: a receiver too short for the pattern (an
    out-of-range axis) does not fit it. Eight overloads replace the ten per-rank ones and
    serve every rank (above 4 too); the order (``0, -1, 1, -2, ...``) puts the common axes
    first. Only the ``tt.`` functions use them: a plain call checks the inferred argument
    type, so a receiver pyright cannot split at the pattern (``(B, *Rest)`` for ``axis=1``)
    skips the overload (mypy binds a method's ``self`` without that check).
    """
    single = spec.single_axis
    forms = []
    for k in range(MAX_RANK):
        for axis in (k, -k - 1):
            if axis >= 0:
                dims: tuple[str, ...] = (*_dims(axis + 1), "Unpack[_Rest]")
            else:
                dims = ("Unpack[_Rest]", *_dims(-axis))
            annotation = _lit([axis]) if single else f"{_lit([axis])} | tuple[{_lit([axis])}]"
            forms.append(Form(dims, annotation, keepdims, _reduced(dims, axis, keepdims, single)))
    return forms


#: ``axis=None, keepdims=True`` overloads whose ``axis`` and ``keepdims`` have no default
#: (``Form.axis`` marker): pyright drops them by arity for calls that pass no ``keepdims``.
NONE_REQUIRED = "None (required)"
#: ``Form.style``: no default for the positional parameters up to ``keepdims`` (``p``, ``eps``).
REQUIRED = "required"
#: ``Form.style``: ``keepdims`` keyword-only and required.
KWONLY = "keyword-only keepdims"


def ordered_forms(
    spec: rules.ReductionSpec, params: Sequence[Param], *, poison: bool = True
) -> list[Form]:
    """All overloads of ``spec`` in resolution order.

    Valid forms come first (cheapest resolution for correct code), poison overloads after them
    and before the catch-all. When a parameter before ``axis`` has a default (``norm(p=2,
    axis=...)``), see below.

    Otherwise (``axis`` right after the tensor) pyright's cost is the number of overloads it
    evaluates (each costs about as much whatever fails in it) plus, on first use, the number
    declared: ``axis=None``; then the ``keepdims=True`` forms, whose ``keepdims`` has no
    default, so pyright drops them by arity (no type evaluated) for calls without
    ``keepdims``: the single axes (rank-polymorphic, ``polymorphic_single_forms``), the
    ``axis=None`` ones of ranks 0..4 with a required ``axis`` (``NONE_REQUIRED``: before the
    tuples, so ``keepdims=True`` with ``axis=None`` does not try every tuple form first), the
    tuples of ranks 2..4; then the same without ``keepdims``; ``axis=()``; last the
    ``axis=None, keepdims=True`` forms with defaults (``tt.sum(x, keepdims=True)``).

    ``norm(x, p=2, axis=None, keepdims=False)``: every positional parameter after ``p`` needs a
    default too, so an overload's ``axis`` and ``keepdims`` would all be defaulted, every overload
    would pass pyright's arity check and a call would try them all (``tt.norm(x, 2, 1)`` cost
    4.6 ms against 2.1 ms for ``tt.sum(x, 1)``). Those lists keep the order of the other
    functions, made safe for the defaults: ``axis=None``; the ``keepdims=True`` forms with ``p``
    (and ``eps``), ``axis`` and ``keepdims`` required (``REQUIRED``: dropped by arity for calls
    without ``keepdims``; they serve ``tt.norm(x, 2, 1, True)`` and ``tt.norm(x, 2, 1,
    keepdims=True)``); the ``keepdims=False`` forms (``axis=...`` default: a call without ``axis``
    has matched the first overload); the defaulted ``axis=None, keepdims=True`` forms (before any
    form with a literal-axis default that a ``tt.norm(x, keepdims=True)`` would fit);
    ``axis=()``; last the literal-axis ``keepdims=True`` forms again with ``keepdims``
    keyword-only (``KWONLY``) for the calls that leave ``p`` out (``tt.norm(x, axis=1,
    keepdims=True)``).
    """
    poisons = list(poison_forms(spec)) if poison else []
    if spec.keeps_shape:
        return [*shape_kept_forms(spec), *poisons]
    valid = list(valid_forms(spec))
    none_kept = [f for f in valid if f.axis == "None" and f.keepdims is True]
    tuples = [f for f in valid if f.axis.startswith("tuple[Literal")]
    empty = [f for f in valid if f.axis == "tuple[()]"]
    singles_kept = polymorphic_single_forms(spec, True)
    required = [
        Form(f.dims, NONE_REQUIRED, True, f.result)
        for f in none_kept
        if f.dims[:1] != ("Unpack[_Sh]",)
    ]
    tuples_kept = [f for f in tuples if f.keepdims is True]
    kept = [*singles_kept, *required, *tuples_kept]
    dropped = [*polymorphic_single_forms(spec, False), *[f for f in tuples if f.keepdims is False]]
    if not _axis_defaulted(params):
        return [valid[0], *kept, *dropped, *empty, *none_kept, *poisons]
    # a parameter before axis has a default (norm's p): every later positional parameter
    # needs one too (see the docstring)
    return [
        valid[0],
        *[dataclasses.replace(f, style=REQUIRED) for f in kept],
        *dropped,
        *none_kept,
        *empty,
        *[dataclasses.replace(f, style=KWONLY) for f in [*singles_kept, *tuples_kept]],
        *poisons,
    ]


def _shape_kept(forms: Sequence[Form], r: int | None) -> list[Form]:
    """The forms of a shape-keeping op (l2_normalize): every valid axis returns the receiver.

    ``r``: the receiver's rank for rank-specific forms; ranks >= 1 get a first ``Literal[-1]``
    form that keeps the runtime default ``axis=-1``.
    """
    out: list[Form] = []
    if r:
        out.append(Form(tuple(_dims(r)), _lit([-1]), None, tuple(_dims(r))))
    for f in forms:
        if f.result is None:
            out.append(f)
            continue
        kept = Form(f.dims, f.axis, None, f.dims)
        if f.keepdims is not True and kept not in out:
            out.append(kept)
    return out


def mypy_method_forms(spec: rules.ReductionSpec, params: Sequence[Param]) -> list[Form]:
    """The overloads mypy without the plugin reads for a method, in resolution order.

    No rank-polymorphic ``axis=0`` / ``axis=-1`` forms: mypy binds a method's ``self`` type
    without checking the solution, so ``self: Tensor[DT, *_Rest, _DL]`` on a receiver
    ``Tensor[DT, B, *Rest]`` (or ``Tensor[DT, _D0, *_Rest]`` on ``Tensor[DT, *Rest, N]``)
    returns ``Tensor[DT, *tuple[Never, ...]]``, and no self-type pattern tells those two
    receivers apart (both have two items, mypy's subtype check compares lengths and the
    ends only). Ranks 0..4 get every literal axis (0 and -1 included); variadic receivers and
    ranks above 4 get ``axis=None``, ``axis=()`` and otherwise the unknown shape. The
    module functions keep the polymorphic forms: a plain call checks the inferred argument
    type, so an unsplittable receiver skips the overload (``tt.sum(x, 0)`` is exact).
    """
    single = spec.single_axis
    per_rank = {
        r: [f for f in rank_forms(spec, r, params) if f.result is not None]
        for r in range(MAX_RANK + 1)
    }
    if spec.keeps_shape:
        forms = [Form(("Unpack[_Sh]",), "None", None, ("Unpack[_Sh]",))]
        for r in range(MAX_RANK + 1):
            forms += [f for f in _shape_kept(per_rank[r], r) if f.axis != "None"]
        return [*forms, *poison_forms(spec)]
    none_f = Form(("Unpack[_Sh]",), "None", False, ())
    empty = [] if single else [Form(("Unpack[_Sh]",), "tuple[()]", None, ("Unpack[_Sh]",))]
    none_kept = [
        f
        for r in range(MAX_RANK + 1)
        for f in per_rank[r]
        if f.axis == "None" and f.keepdims is True
    ]
    none_kept.append(unknown_rank_kept(single))
    literal = [
        f for r in range(MAX_RANK + 1) for f in per_rank[r] if f.axis not in ("None", "tuple[()]")
    ]
    if _axis_defaulted(params):
        return [none_f, *none_kept, *literal, *empty, *poison_forms(spec)]
    return [none_f, *literal, *none_kept, *empty, *poison_forms(spec)]


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _doc(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn)
    return doc.splitlines()[0] if doc else ""


def _plain_def(spec: rules.ReductionSpec, fn: Callable[..., Any], indent: str) -> str:
    """The runtime signature and the first line of its docstring, at ``indent``."""
    params, ret = runtime_params(fn)
    return (
        f"{indent}def {spec.name}({render_params(params)}) -> {ret}:\n"
        f'{indent}    """{_doc(fn)}"""\n'
    )


def _op_overloads(
    spec: rules.ReductionSpec, fn: Callable[..., Any], indent: str, *, method: bool
) -> list[str]:
    """The overloads of one reduction (valid, poison, catch-all) at ``indent``: a ``tt.``
    function's (``method=False``: ``ordered_forms`` without poison overloads) or the
    module-level mypy method overloads of ``_tensor_mypy.pyi`` (``mypy_method_forms``, the
    catch-all's ``self`` typed ``AnyTensor``).

    A mypy method gets the gradual guard after the first (``axis=None``) overload: a receiver
    with a ``*tuple[Any, ...]`` part (``AnyTensor``, ``Tensor[DT, B, *tuple[Any, ...]]``) fits
    every fixed-rank ``self`` pattern under mypy, so it must get the unknown shape (with its
    dtype) before any of them, and before any poison overload (so does its ``out=`` twin).
    """
    params, ret = runtime_params(fn)
    dform = dtype_form(spec.dtype_rule)
    name = spec.name
    first = params[0].name
    forms = mypy_method_forms(spec, params) if method else ordered_forms(spec, params, poison=False)
    lines: list[str] = []
    for i, form in enumerate(forms):
        if method and i == 1:
            unknown = _tensor(dform.receiver, gradual_params())
            guard = _plain_none(_with_receiver(params, first, unknown))
            lines.append(f"{indent}@overload")
            lines.append(
                f"{indent}def {name}({render_params(guard)})"
                f" -> {_tensor(dform.result, ['Unpack[tuple[Any, ...]]'])}: ..."
            )
            # its out= twin: before the poison overloads, which it would fit too
            lines += out_overload(params, first, unknown, indent=indent, name=name)
        valid = form.result is not None
        receiver = _tensor(dform.receiver if valid else "Any", form.dims)
        op_params = _overload_params(params, first, receiver, form)
        lines.append(f"{indent}@overload")
        if form.result is None:
            result = ANY_TENSOR
            lines.append(f'{indent}@deprecated("{form.message}")')
        else:
            result = _tensor(dform.result, form.result)
        lines.append(f"{indent}def {name}({render_params(op_params)}) -> {result}: ...")
    if method:
        params = _with_receiver(params, first, ANY_TENSOR)
    lines += out_overload(params, first, params[0].annotation, indent=indent, name=name)
    lines.append(f"{indent}@overload")
    lines.append(f"{indent}def {name}({render_params(_out_none(params))}) -> {ret}: ...")
    return lines


def render_op(
    spec: rules.ReductionSpec,
    fn: Callable[..., Any],
    *,
    indent: str,
    plain_only: bool = False,
) -> str:
    """Overloads + plugin branch for one ``tt.`` function, at ``indent``.

    ``if not TYPEDTENSOR_MYPY_PLUGIN:`` holds the overloads, ``else:`` the runtime signature:
    mypy with the plugin sees only the latter; mypy without it takes the first definition
    (the overloads); pyright reads the trailing plain ``def`` as the overloads'
    implementation. ``plain_only`` renders the runtime signature alone (benchmark baseline).
    Module functions get no poison overloads: pyright checks every overload of a call whose
    argument is partly ``Any`` (``AnyTensor``) and reports a deprecated one among them (even
    after a non-deprecated unknown-rank overload), which would flag correct calls on
    unknown-shape tensors. (Pyright's methods dispatch on the receiver first: an ``AnyTensor``
    receiver goes to the unknown-shape class, which has no poison overloads.) A gradual guard
    overload does not help: with an argument partly ``Any`` pyright evaluates every overload
    that fits, and a valid higher-rank overload (``Tensor[DT, _D0, _D1, _D2]`` with ``axis=2``)
    fits ``Tensor[DT, *tuple[Any, ...]]`` too, so the match is ambiguous and pyright reports
    the deprecated one among the candidates.
    """
    if plain_only:
        return _plain_def(spec, fn, indent)
    lines = [f"{indent}if not TYPEDTENSOR_MYPY_PLUGIN:"]
    lines += _op_overloads(spec, fn, indent + "    ", method=False)
    return "\n".join([*lines, f"{indent}else:", ""]) + _plain_def(spec, fn, indent + "    ")


def function_share_key(spec: rules.ReductionSpec, fn: Callable[..., Any]) -> str:
    """Functions with the same signature and dtype rule have the same overloads."""
    params, ret = runtime_params(fn)
    return (
        f"{render_params(params)} -> {ret} rule={spec.dtype_rule.name} "
        f"single={spec.single_axis} keeps={spec.keeps_shape}"
    )


#: A condition pyright decides statically (``os.name`` against the configured platform: never
#: this string) and mypy does not evaluate (both branches stay reachable for it).
PYRIGHT_FALSE = 'os.name == "typedtensor-mypy-plugin"'


def render_alias(spec: rules.ReductionSpec, fn: Callable[..., Any], target: str) -> str:
    """``tt.prod`` declared as ``tt.sum``'s overloads (same signature, same dtype rule).

    mypy without the plugin and pyright read ``prod = sum``; mypy with the plugin
    (``TYPEDTENSOR_MYPY_PLUGIN`` always true) reads the runtime signature, which its function
    hook needs. Pyright must not see that ``def``: it would prefer a declaration with a type
    over the inferred alias, so the ``def`` sits under a condition pyright decides is false
    (``PYRIGHT_FALSE``). One overload list per group instead of one per function: fewer
    overloads to parse and evaluate (each function's list costs about 0.1 s of pyright time
    on first use, which a file with few calls per function pays in full).
    """
    return (
        f"if not TYPEDTENSOR_MYPY_PLUGIN:\n    {spec.name} = {target}\n"
        f"elif {PYRIGHT_FALSE}:\n" + _plain_def(spec, fn, "    ")
    )


def render_method(spec: rules.ReductionSpec, fn: Callable[..., Any], *, plain_only: bool) -> str:
    """One reduction method in the ``Tensor`` class body.

    Three readers, three branches. ``if MYPY:`` is true for mypy and unknown to pyright (which
    then reads both branches and keeps the last declaration, the ``ClassVar`` descriptor of
    the ``else:``). Inside it, mypy with the plugin (``TYPEDTENSOR_MYPY_PLUGIN`` always true)
    gets the runtime signature, mypy without the plugin the overloads of
    ``_tensor_mypy.pyi`` (``render_mypy_method``), assigned to the class attribute. Pyright
    resolves ``x.sum`` through the descriptor's ``__get__`` (dtype rule, once) and then a call
    class whose ``__call__`` overloads only match shapes: binding all overloads with a dtype
    solve per overload made pyright several times slower.
    """
    indent = "    "
    if plain_only:
        return _plain_def(spec, fn, indent)
    return (
        f"{indent}if MYPY:\n"
        f"{indent * 2}if not TYPEDTENSOR_MYPY_PLUGIN:\n"
        f"{indent * 3}{spec.name} = _m.{spec.name}\n"
        f"{indent * 2}else:\n" + _plain_def(spec, fn, indent * 3) + f"{indent}else:\n"
        f"{indent * 2}{spec.name}: ClassVar[_{_camel(spec.name)}Method]\n"
    )


def render_mypy_method(spec: rules.ReductionSpec, fn: Callable[..., Any]) -> str:
    """The overloads mypy without the plugin reads for ``Tensor.<name>``, at module level.

    They live in ``_tensor_mypy.pyi`` (``Tensor``'s body assigns them: ``sum = _m.sum``; mypy
    binds ``self`` of a function assigned in a class body like a method's), which
    ``_tensor.pyi`` imports under a condition pyright decides is false: pyright never parses
    these ~60 overloads per method (0.24 s of the 0.41 s pyright spent loading the stubs on top
    of the plain signatures), and mypy with the plugin never reads them either.
    """
    return "\n".join(_op_overloads(spec, fn, "", method=True)) + "\n"


def call_class_key(spec: rules.ReductionSpec, fn: Callable[..., Any]) -> str:
    """Reductions with the same signature (after ``self``) share their call classes."""
    params, ret = runtime_params(fn)
    return f"{render_params(params[1:])} -> {ret} single={spec.single_axis}"


def rank_forms(spec: rules.ReductionSpec, r: int, params: Sequence[Param]) -> list[Form]:
    """Overloads of a rank-``r`` call class: every literal axis the rules decide for rank r.

    After a defaulted ``p`` (``norm``) the forms stay in rank order, ``keepdims=True`` ones
    included: a failing overload of a rank class costs little (no receiver to match), and the
    split order of the ``tt.`` functions (``ordered_forms``) made ``x.norm(2, k)`` 4%
    slower here (more overloads to bind).
    """
    single = spec.single_axis
    dims = tuple(_dims(r))
    none_f = Form(dims, "None", False, ())
    none_t = Form(dims, "None", True, _reduced(dims, None, True, single))
    singles: list[Form] = []
    for d in range(r):
        parts = [_lit(_spellings(d, r))]
        if not single:
            parts.append(f"tuple[{_lit(_spellings(d, r))}]")
        for k in (False, True):
            singles.append(Form(dims, " | ".join(parts), k, _reduced(dims, d, k, single)))
    tuples: list[Form] = []
    if not single:
        for n in range(2, r + 1):
            for combo in itertools.combinations(range(r), n):
                axis_t = ", ".join(_lit(_spellings(d, r)) for d in combo)
                for k in (False, True):
                    tuples.append(
                        Form(dims, f"tuple[{axis_t}]", k, _reduced(dims, combo, k, single))
                    )
    empty = [] if single else [Form(dims, "tuple[()]", None, dims)]
    poison = [f for f in poison_forms(spec) if len(f.dims) == r]
    if _axis_defaulted(params):
        return [none_f, none_t, *singles, *tuples, *empty, *poison]
    # literal-axis keepdims=True forms first: their keepdims has no default, so pyright drops
    # them by arity (no type evaluated) for the calls without keepdims; none_t (defaulted
    # axis and keepdims) must follow none_f
    kept = [f for f in [*singles, *tuples] if f.keepdims is True]
    dropped = [f for f in [*singles, none_f, *tuples] if f.keepdims is False]
    return [*kept, *dropped, none_t, *empty, *poison]


def variadic_forms(spec: rules.ReductionSpec) -> list[Form]:
    """Overloads of the any-rank call class: axis=None, the polymorphic 0/-1 forms, ()."""
    single = spec.single_axis
    forms = [Form(("Unpack[_Sh]",), "None", False, ()), unknown_rank_kept(single)]
    for axis, dims in ((0, ("_D0", "Unpack[_Rest]")), (-1, ("Unpack[_Rest]", "_DL"))):
        for k in (False, True):
            forms.append(Form(dims, _lit([axis]), k, _reduced(dims, axis, k, single)))
    if not single:
        forms.append(Form(("Unpack[_Sh]",), "tuple[()]", None, ("Unpack[_Sh]",)))
    return forms


def render_call_classes(
    base: str, spec: rules.ReductionSpec, fn: Callable[..., Any]
) -> tuple[str, list[str]]:
    """Call classes ``{base}0..{base}4`` (that rank), ``{base}N`` (``*Rest`` or rank > 4, dims
    as ``Callable[[*dims], None]``) and ``{base}U`` (dims partly ``*tuple[Any, ...]``).

    In a rank-r class the dims are class type parameters, so its ``__call__`` overloads have
    no ``self`` annotation to solve and differ only in ``axis``/``keepdims`` literals. They are
    covariant (``_D0_co``; they only appear in results): pyright tries every overload after
    the match when the bound object has an ``Any`` in an invariant type argument, which made
    each call on a receiver with an ``Any`` dim (``Tensor[DT, Any, L[3]]``) about 1 ms slower.
    """
    params, ret = runtime_params(fn)
    params = [Param("self", params[0].kind, "", None), *params[1:]]
    with_out = out_overload(params, "self", "", indent="    ", name="__call__")
    classes: list[str] = []
    names: list[str] = []
    for r in range(MAX_RANK + 1):
        name = f"{base}{r}"
        names.append(name)
        tparams = ", ".join(["_R_co", *_dims(r)])
        lines = [
            f"class {name}(Generic[{tparams}]):",
            f'    """``{spec.name}`` (and reductions sharing its signature) bound to a rank-{r}'
            ' tensor (pyright view)."""',
            "",
        ]
        forms = rank_forms(spec, r, params)
        for form in _shape_kept(forms, r) if spec.keeps_shape else forms:
            op_params = _overload_params(params, "self", "", form)
            lines.append("    @overload")
            if form.result is None:
                result = ANY_TENSOR
                lines.append(f'    @deprecated("{form.message}")')
            else:
                result = _tensor("_R_co", form.result)
            lines.append(f"    def __call__({render_params(op_params)}) -> {result}: ...")
        lines += with_out
        lines.append("    @overload")
        lines.append(f"    def __call__({render_params(_out_none(params))}) -> {ret}: ...")
        classes.append(re.sub(r"\b(_D[0-9])\b", r"\1_co", "\n".join(lines)) + "\n")
    name = f"{base}N"
    names.append(name)

    def dims_callable(dims: Sequence[str]) -> str:
        return f"{name}[Any, {_callable(dims)}]"

    lines = [
        f"class {name}(Generic[_R_co, _F_co]):",
        f'    """``{spec.name}`` (and reductions sharing its signature) bound to a tensor of'
        ' symbolic rank or rank > 4, dims as ``Callable[[*dims], None]`` (pyright view)."""',
        "",
    ]
    vforms = variadic_forms(spec)
    for form in _shape_kept(vforms, None) if spec.keeps_shape else vforms:
        op_params = _overload_params(params, "self", dims_callable(form.dims), form)
        result = _tensor("_R_co", form.result or ())
        if form.dims == ("Unpack[_Sh]",) and "_Sh" not in result:
            op_params[0] = Param("self", op_params[0].kind, "", None)
        lines.append("    @overload")
        lines.append(f"    def __call__({render_params(op_params)}) -> {result}: ...")
    lines += with_out
    lines.append("    @overload")
    lines.append(f"    def __call__({render_params(_out_none(params))}) -> {ret}: ...")
    classes.append("\n".join(lines) + "\n")
    name = f"{base}U"
    names.append(name)
    unknown = _tensor("_R_co", ["Unpack[tuple[Any, ...]]"])
    lines = [
        f"class {name}(Generic[_R_co]):",
        f'    """``{spec.name}`` (and reductions sharing its signature) bound to a tensor whose'
        " dims are partly unknown (``*tuple[Any, ...]``): the dtype is known, the shape is not"
        ' (pyright view)."""',
        "",
    ]
    overloads: list[str] = []
    for form in variadic_forms(spec):
        if form.axis != "None" or spec.keeps_shape:
            continue
        op_params = _overload_params(params, "self", "", form)
        result = _tensor("_R_co", form.result or ())
        overloads += [
            "    @overload",
            f"    def __call__({render_params(op_params)}) -> {result}: ...",
        ]
    overloads += with_out
    lines += overloads
    if overloads:  # a single signature is a plain def
        lines.append("    @overload")
    lines.append(f"    def __call__({render_params(_out_none(params))}) -> {unknown}: ...")
    classes.append("\n".join(lines) + "\n")
    return "\n".join(classes), names


def gradual_params() -> list[str]:
    """Dims of the callable that only a receiver with a ``*tuple[Any, ...]`` part accepts.

    ``GRADUAL_PREFIX`` dims then any number of ``_UnknownDim``: a fixed-rank receiver takes an
    exact number of arguments, a ``*Rest`` receiver cannot take ``_UnknownDim``, but
    ``(B, *tuple[Any, ...])`` takes them all (its ``Any`` parameters accept anything).
    """
    return [f"_G{i}" for i in range(GRADUAL_PREFIX)] + ["Unpack[tuple[_UnknownDim, ...]]"]


def render_dispatch(base: str, spec: rules.ReductionSpec, calls: list[str]) -> str:
    """``{base}Bound[_R, Callable[[*dims], None]]`` whose ``__call__`` picks the rank class.

    ``__call__`` declared as a ``ClassVar`` descriptor: calling a bound reduction looks it up
    on the class and binds it to the instance, so the rank is matched once (plain TypeVars,
    no dtype solving) before the axis overloads of that rank are tried. Order: receivers with
    an unknown part (``*tuple[Any, ...]``) first, then ranks 1..4 and 0 (only a receiver of
    exactly that rank accepts the callable; rank 0, rare, after the others: one overload
    fewer to evaluate for every other call), then symbolic rank (``*Rest``) and ranks above
    4, last anything pyright cannot split (``(*tuple[Any, ...], N)``) as unknown, and the
    class access (``obj: None``, never a bound call) after them all.
    """
    *fixed, variadic, unknown = calls
    lines = [
        f"class {base}Rank:",
        f'    """Rank dispatch of ``{spec.name}``-like reductions (pyright view)."""',
        "",
        "    @overload",
        f"    def __get__(self, obj: {base}Bound[_R, {_callable(gradual_params())}], owner: Any)"
        f" -> {unknown}[_R]: ...",
    ]
    for r in [*range(1, len(fixed)), 0]:
        call = fixed[r]
        dims = _dims(r)
        lines += [
            "    @overload",
            f"    def __get__(self, obj: {base}Bound[_R, {_callable(dims)}], owner: Any)"
            f" -> {call}[{', '.join(['_R', *dims])}]: ...",
        ]
    lines += [
        "    @overload",
        f"    def __get__(self, obj: {base}Bound[_R, {_callable(['Unpack[_Sh]'])}], owner: Any)"
        f" -> {variadic}[_R, {_callable(['Unpack[_Sh]'])}]: ...",
        "    @overload",
        f"    def __get__(self, obj: {base}Bound[_R, Any], owner: Any) -> {unknown}[_R]: ...",
        "    @overload",
        "    def __get__(self, obj: None, owner: Any) -> Self: ...",
        "",
        f"class {base}Bound(Generic[_R_co, _F_co]):",
        f'    """``{spec.name}``-like reduction bound to a tensor: result dtype resolved, dims as'
        ' ``Callable[[*dims], None]``"""',
        "",
        f"    __call__: ClassVar[{base}Rank]",
    ]
    return "\n".join(lines) + "\n"


def render_descriptor(spec: rules.ReductionSpec, fn: Callable[..., Any], bound: str) -> str:
    """``class _XMethod``: ``x.op`` binds to ``bound[<result dtype>, *<x's dims>]``.

    The class access (``obj: None``: ``Tensor.sum``) comes last: an instance never fits it. It
    returns the descriptor, whose ``__call__`` is the unbound method (``Tensor.sum(x, 1)``: the
    runtime signature and the unknown-shape result, where the plugin is exact). Without that
    ``__call__`` pyright reported the descriptor as not callable.
    """
    dform = dtype_form(spec.dtype_rule)
    name = f"_{_camel(spec.name)}Method"
    lines = [
        f"class {name}:",
        f'    """``Tensor.{spec.name}`` for pyright: {_doc(fn)}"""',
        "",
    ]
    receivers = [(dform.receiver, dform.result)]
    if dform.receiver.startswith("_ReductionDTypes"):
        receivers.append(("Any", "Any"))
    for receiver, result in receivers:
        lines += [
            "    @overload",
            f"    def __get__(self, obj: {_tensor(receiver, ['Unpack[_Sh]'])}, owner: Any)"
            f" -> {bound}[{result}, {_callable(['Unpack[_Sh]'])}]: ...",
        ]
    params, _ = runtime_params(fn)
    lines += [
        "    @overload",
        "    def __get__(self, obj: None, owner: Any) -> Self: ...",
        f"    def __call__(self, x: {ANY_TENSOR}, /, {render_params(params[1:])})"
        f" -> {ANY_TENSOR}: ...",
    ]
    return "\n".join(lines) + "\n"


def render_pyright_classes() -> str:
    """Descriptor, dispatch and call classes of every reduction method.

    Every method goes through a descriptor: a flat ``self``-typed overload list lets pyright
    fit ``*Rest`` into one fixed dim (``l2_normalize()`` on ``Tensor[DT, B, *Rest]`` was
    ``Tensor[DT, B, Union[*Rest]]``).

    Pyright resolves ``x.sum(axis=1)`` in three steps: ``_SumMethod.__get__`` solves the
    result dtype once (``_ReductionDTypes``) and packs ``x``'s dims into a callable type,
    ``_SumRank.__get__`` picks the class of ``x``'s rank (``render_dispatch``), and that
    class's ``__call__`` overloads match only the axis/keepdims literals.
    """
    from typedtensor._tensor import Tensor

    bases: dict[str, str] = {}
    out_calls: list[str] = []
    out_methods: list[str] = []
    for name, spec in rules.REDUCTIONS.items():
        if not spec.method:
            continue
        fn = getattr(Tensor, name)
        key = call_class_key(spec, fn)
        if key not in bases:
            base = f"_{_camel(name)}"
            text, names = render_call_classes(f"{base}Call", spec, fn)
            bases[key] = base
            out_calls.append(text)
            out_calls.append(render_dispatch(base, spec, names))
        out_methods.append(render_descriptor(spec, fn, f"{bases[key]}Bound"))
    typevars = "\n".join(f'{g} = TypeVar("{g}")' for g in gradual_params()[:-1])
    return "\n".join([typevars + "\n", *out_calls, *out_methods])
