"""Render the reduction overloads of the ``tt.`` functions (``reductions.pyi``) and of the
methods as mypy without the plugin reads them (``_tensor_mypy.pyi``), with the plugin-only
branches that give mypy with the plugin the runtime signatures.

Forms come from ``_render_forms``, dtypes from ``_render_dtypes``, signatures from
``_render_params``; the pyright view of the methods is ``_render_pyright``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from typedtensor import _rules as rules

from ._render_dtypes import DTypeForm, dtype_form
from ._render_forms import (
    ANY_TENSOR,
    KWONLY,
    NONE_REQUIRED,
    REQUIRED,
    Form,
    _tensor,
    gradual_params,
    mypy_method_forms,
    ordered_forms,
)
from ._render_params import Param, _camel, _doc, render_params, runtime_params


def _overload_params(
    params: list[Param], first: str, receiver: str, form: Form, dtype: Param | None = None
) -> list[Param]:
    """Replace the receiver, axis and keepdims parameters of the runtime signature (and
    ``dtype``: by ``dtype``, or dropped when that is ``None``).

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
            if dtype is None:  # a call with dtype= goes to ``dtype_overload``
                continue
            out.append(dtype)
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
#: ... and for the reductions that compute only in a float or complex dtype (``mean``, ``var``,
#: ``std`` and their NaN-aware forms): bound to ``Floating | ComplexFloating``, so an integer or
#: bool class goes on to the catch-all (the rules reject it: numpy's answers there overflow,
#: truncate or raise; issue #30)
INEXACT_DTYPE_TYPEVAR = "_XF"
INEXACT_DTYPE_OPS = (*rules.VARIANCES, "mean", "nanmean")
#: ... whose catch-all and ``out=`` overloads take only a float or complex ``dtype=``
#: (``_tensor.pyi``'s alias), so that ``x.var(dtype=tt.int8)`` matches no overload: an error
#: under pyright and mypy without the plugin, as under the plugin and at run time.
INEXACT_DTYPE_LIKE = "_InexactDTypeLike"


def inexact_dtype_params(op: str, params: list[Param]) -> list[Param]:
    """``params`` with ``dtype`` annotated ``INEXACT_DTYPE_LIKE`` for an ``INEXACT_DTYPE_OPS``
    reduction (the runtime's ``dtype: object``; other reductions' ``params`` unchanged)."""
    if op not in INEXACT_DTYPE_OPS:
        return params
    return [
        Param(p.name, p.kind, INEXACT_DTYPE_LIKE, p.default) if p.name == "dtype" else p
        for p in params
    ]


def out_overload(
    params: list[Param], first: str, receiver: str, *, indent: str, name: str, op: str
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
        *dtype_overload(params, first, receiver, indent=indent, name=name, op=op),
    ]


def dtype_overload(
    params: list[Param], first: str, receiver: str, *, indent: str, name: str, op: str
) -> list[str]:
    """The overload of the calls that name a typedtensor dtype class (``dtype=tt.float64``):
    ``Tensor[<that class>, *tuple[Any, ...]]``, the shape unknown (no lines for a reduction
    without ``dtype``). The shape overloads have no ``dtype`` parameter (an explicit
    ``dtype=None`` gets the catch-all's unknown type); doubling them for ``dtype=`` would
    double what pyright evaluates per call, and the plugin gives the exact shape as well. A
    numpy dtype or a name goes on to the catch-all (``AnyTensor``); an integer class for
    reduction ``op`` where the rules reject it (``var(dtype=tt.int8)``,
    ``mean(dtype=tt.int64)``) matches no overload (``inexact_dtype_params``): an error, as
    under the plugin and at run time."""
    if "dtype" not in [p.name for p in params]:
        return []
    typevar = INEXACT_DTYPE_TYPEVAR if op in INEXACT_DTYPE_OPS else DTYPE_TYPEVAR
    base = _out_none(_with_receiver(params, first, receiver))
    # required, so keyword-only (a positional dtype after defaulted parameters could not be)
    named = [p for p in base if p.name != "dtype"]
    named.append(Param("dtype", inspect.Parameter.KEYWORD_ONLY, f"type[{typevar}]", None))
    result = _tensor(typevar, ["Unpack[tuple[Any, ...]]"])
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


def _plain_def(spec: rules.ReductionSpec, fn: Callable[..., Any], indent: str) -> str:
    """The runtime signature and the first line of its docstring, at ``indent``."""
    params, ret = runtime_params(fn)
    return (
        f"{indent}def {spec.name}({render_params(params)}) -> {ret}:\n"
        f'{indent}    """{_doc(fn)}"""\n'
    )


#: The type variables of ``dtype=`` on the shape overloads of the ``tt.`` functions and of
#: mypy's method view: PEP 696 defaults (the rule's result when ``dtype`` is omitted or None)
#: keep the shape and name the class in one overload. ``var``/``std`` take only float or
#: complex classes, so their rule result is ``_RF`` (bound to ``Floating``: a default must fit
#: the bound).
NAMED_DTYPE_TYPEVAR = "_XD"
NAMED_INEXACT_DTYPE_TYPEVAR = "_XDF"
FLOAT_RESULT_TYPEVAR = "_RF"


def _named_dtype_form(
    spec: rules.ReductionSpec, params: list[Param]
) -> tuple[DTypeForm, Param] | None:
    """The receiver/result form and the ``dtype`` parameter of the shape overloads of a
    reduction whose ``dtype=`` names the result class (``None`` without a ``dtype``
    parameter or a rule with a result that does not vary with the input)."""
    dform = dtype_form(spec.dtype_rule)
    if "dtype" not in [p.name for p in params] or dform.result != "_R":
        return None
    typevar = NAMED_DTYPE_TYPEVAR
    if spec.name in INEXACT_DTYPE_OPS:
        receiver = re.sub(r"\b_R\b", FLOAT_RESULT_TYPEVAR, dform.receiver)
        dform, typevar = DTypeForm(receiver, typevar), NAMED_INEXACT_DTYPE_TYPEVAR
    kind = inspect.Parameter.KEYWORD_ONLY
    return DTypeForm(dform.receiver, typevar), Param(
        "dtype", kind, f"type[{typevar}] | None", "None"
    )


def _op_overloads(
    spec: rules.ReductionSpec,
    fn: Callable[..., Any],
    indent: str,
    *,
    method: bool,
    named_dtype: bool = False,
) -> list[str]:
    """The overloads of one reduction (valid, poison, catch-all) at ``indent``: a ``tt.``
    function's (``method=False``: ``ordered_forms`` without poison overloads) or the
    module-level mypy method overloads of ``_tensor_mypy.pyi`` (``mypy_method_forms``, the
    catch-all's ``self`` typed ``AnyTensor``).

    A mypy method gets the gradual guard after the first (``axis=None``) overload: a receiver
    with a ``*tuple[Any, ...]`` part (``AnyTensor``, ``Tensor[DT, B, *tuple[Any, ...]]``) fits
    every fixed-rank ``self`` pattern under mypy, so it must get the unknown shape (with its
    dtype) before any of them, and before any poison overload (so does its ``out=`` twin).

    ``named_dtype``: the shape overloads take ``dtype=`` (``_named_dtype_form``), for pyright.
    """
    params, ret = runtime_params(fn)
    # the valid forms replace or drop dtype; the poison, out= and catch-all overloads refuse
    # an integer dtype= of mean/var/std (a poison form taking it would report a wrong axis)
    params = inexact_dtype_params(spec.name, params)
    dform = dtype_form(spec.dtype_rule)
    named = _named_dtype_form(spec, params) if named_dtype else None
    dtype_param = None
    if named is not None:
        dform, dtype_param = named
    name = spec.name
    first = params[0].name
    forms = mypy_method_forms(spec, params) if method else ordered_forms(spec, params, poison=False)
    lines: list[str] = []
    for i, form in enumerate(forms):
        if method and i == 1:
            unknown = _tensor(dform.receiver, gradual_params())
            guard = _plain_none(_with_receiver(params, first, unknown))
            if dtype_param is not None:
                guard = [dtype_param if p.name == "dtype" else p for p in guard]
            lines.append(f"{indent}@overload")
            lines.append(
                f"{indent}def {name}({render_params(guard)})"
                f" -> {_tensor(dform.result, ['Unpack[tuple[Any, ...]]'])}: ..."
            )
            # its out= twin: before the poison overloads, which it would fit too
            lines += out_overload(params, first, unknown, indent=indent, name=name, op=name)
        valid = form.result is not None
        receiver = _tensor(dform.receiver if valid else "Any", form.dims)
        op_params = _overload_params(params, first, receiver, form, dtype_param)
        lines.append(f"{indent}@overload")
        if form.result is None:
            result = ANY_TENSOR
            lines.append(f'{indent}@deprecated("{form.message}")')
        else:
            result = _tensor(dform.result, form.result)
        lines.append(f"{indent}def {name}({render_params(op_params)}) -> {result}: ...")
    if method:
        params = _with_receiver(params, first, ANY_TENSOR)
    lines += out_overload(params, first, params[0].annotation, indent=indent, name=name, op=name)
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
    if _named_dtype_form(spec, runtime_params(fn)[0]) is None:
        lines += _op_overloads(spec, fn, indent + "    ", method=False)
    else:
        # pyright reads the first branch, mypy without the plugin the second (``MYPY`` is
        # true for it): mypy leaves a PEP 696 default that names another type variable
        # unsolved (``Tensor[_R, ...]``), so its list keeps ``dtype=`` off the shape overloads
        # (a named class gets the unknown shape there). The second branch is ``elif
        # PYRIGHT_FALSE``, not ``else``: pyright reads both branches of a condition it cannot
        # decide and joins the overloads of both into one list of twice the length, which
        # every call then binds (measured: +14-19% on the functions benchmark file)
        inner = indent + "    "
        lines.append(f"{inner}if not MYPY:")
        lines += _op_overloads(spec, fn, inner + "    ", method=False, named_dtype=True)
        lines.append(f"{inner}elif {PYRIGHT_FALSE}:")
        lines += _op_overloads(spec, fn, inner + "    ", method=False)
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
