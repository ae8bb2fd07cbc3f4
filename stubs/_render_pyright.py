"""Render the pyright view of the reduction methods: a descriptor per method
(``_SumMethod``), a rank dispatch (``_SumRank``) and the rank call classes (``_SumCall0`` ..
``_SumCall4``, ``_SumCallN``, ``_SumCallU``); docs/stubs.md explains why and what it costs."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from typedtensor import _rules as rules

from ._render_dtypes import dtype_form
from ._render_forms import (
    ANY_TENSOR,
    MAX_RANK,
    Form,
    _callable,
    _dims,
    _shape_kept,
    _tensor,
    gradual_params,
    rank_forms,
    variadic_forms,
)
from ._render_params import Param, _camel, _doc, render_params, runtime_params
from ._render_reductions import (
    DTYPE_TYPEVAR,
    INEXACT_DTYPE_OPS,
    INEXACT_DTYPE_TYPEVAR,
    _out_none,
    _overload_params,
    inexact_dtype_params,
    out_overload,
)


def call_class_key(spec: rules.ReductionSpec, fn: Callable[..., Any]) -> str:
    """Reductions with the same signature (after ``self``) and the same ``dtype=`` classes
    (``mean``'s only float and complex ones) share their call classes."""
    params, ret = runtime_params(fn)
    inexact = spec.name in INEXACT_DTYPE_OPS
    return f"{render_params(params[1:])} -> {ret} single={spec.single_axis} inexact={inexact}"


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
    # the out= and catch-all overloads refuse an integer dtype= of mean/var/std; the shape
    # and poison overloads keep the runtime's (a per-overload union costs pyright time)
    last = inexact_dtype_params(spec.name, params)
    with_out = out_overload(last, "self", "", indent="    ", name="__call__", op=spec.name)
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
        named: list[str] = []
        for form in _shape_kept(forms, r) if spec.keeps_shape else forms:
            op_params = _overload_params(params, "self", "", form)
            lines.append("    @overload")
            if form.result is None:
                result = ANY_TENSOR
                lines.append(f'    @deprecated("{form.message}")')
            else:
                result = _tensor("_R_co", form.result)
                named += _named_dtype_twin(spec, params, form, "")
            lines.append(f"    def __call__({render_params(op_params)}) -> {result}: ...")
        lines += named
        lines += with_out
        lines.append("    @overload")
        lines.append(f"    def __call__({render_params(_out_none(last))}) -> {ret}: ...")
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
    named = []
    for form in _shape_kept(vforms, None) if spec.keeps_shape else vforms:
        op_params = _overload_params(params, "self", dims_callable(form.dims), form)
        result = _tensor("_R_co", form.result or ())
        self_type = dims_callable(form.dims)
        if form.dims == ("Unpack[_Sh]",) and "_Sh" not in result:
            op_params[0] = Param("self", op_params[0].kind, "", None)
            self_type = ""
        lines.append("    @overload")
        lines.append(f"    def __call__({render_params(op_params)}) -> {result}: ...")
        named += _named_dtype_twin(spec, params, form, self_type)
    lines += named
    lines += with_out
    lines.append("    @overload")
    lines.append(f"    def __call__({render_params(_out_none(last))}) -> {ret}: ...")
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
    lines.append(f"    def __call__({render_params(_out_none(last))}) -> {unknown}: ...")
    classes.append("\n".join(lines) + "\n")
    return "\n".join(classes), names


def _named_dtype_twin(
    spec: rules.ReductionSpec, params: list[Param], form: Form, self_type: str
) -> list[str]:
    """The twin of a call class's shape overload for ``dtype=`` naming a class, for the common
    forms only (``axis=None`` and one literal int axis; tuples keep the named class with the
    shape unknown): ``dtype`` required (a call without it drops these by arity), the result
    dtype that class (``_XF``, float or complex classes only, for ``mean``/``var``/``std``).
    No lines for a reduction without ``dtype``. Every twin of every form put the mixed
    benchmark file at the edge of the budget (docs/stubs.md)."""
    if "dtype" not in [p.name for p in params] or form.axis.startswith("tuple["):
        return []
    typevar = INEXACT_DTYPE_TYPEVAR if spec.name in INEXACT_DTYPE_OPS else DTYPE_TYPEVAR
    dtype = Param("dtype", inspect.Parameter.KEYWORD_ONLY, f"type[{typevar}]", None)
    op_params = _overload_params(params, "self", self_type, form, dtype)
    result = _tensor(typevar, form.result or ())
    return ["    @overload", f"    def __call__({render_params(op_params)}) -> {result}: ..."]


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
    for receiver, result in dform.descriptor_receivers():
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


def render_pyright_classes(methods: Mapping[str, Callable[..., Any]]) -> str:
    """Descriptor, dispatch and call classes of every reduction method.

    Every method goes through a descriptor: a flat ``self``-typed overload list lets pyright
    fit ``*Rest`` into one fixed dim (``l2_normalize()`` on ``Tensor[DT, B, *Rest]`` was
    ``Tensor[DT, B, Union[*Rest]]``).

    Pyright resolves ``x.sum(axis=1)`` in three steps: ``_SumMethod.__get__`` solves the
    result dtype once (``_ReductionDTypes``) and packs ``x``'s dims into a callable type,
    ``_SumRank.__get__`` picks the class of ``x``'s rank (``render_dispatch``), and that
    class's ``__call__`` overloads match only the axis/keepdims literals. ``methods``: the
    runtime method of each row with one, by name.
    """
    bases: dict[str, str] = {}
    out_calls: list[str] = []
    out_methods: list[str] = []
    for name, spec in rules.REDUCTIONS.items():
        if not spec.method:
            continue
        fn = methods[name]
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
