"""Render the pyright overloads of ``tt.quantile``/``percentile``/``nanquantile``/
``nanpercentile`` (``quantiles.pyi``) and their dtype table (``_QuantileDTypes`` in
``_dtypes.pyi``), both from ``rules.quantile_result_dtype``.

The dtype: every distinct dtype -> result map the rule gives for some function, method and
``q`` kind becomes one covariant slot of ``_QuantileDTypes``, which each concrete dtype class
derives from (``Any`` where the rule has no answer: bool and complex inputs); a map with no
answer anywhere is the unknown dtype. The shape: the reductions' single-axis forms
(``_render_forms.ordered_forms`` without the multi-axis tuples), the reduced dims behind the
dims ``q`` puts in front (none for a scalar, ``Literal[n]`` for a tuple of n numbers). Per form,
one overload per ``q`` spelling and method group whose map differs from the next spelling's
(``int`` before ``float``: pyright's ``float`` accepts an ``int``). A list, Tensor or array
``q``, a tuple of axes, a ``str`` (not literal) or unknown ``method`` get the catch-all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typedtensor import _rules as rules

from ._render_dtypes import dtype_class_name
from ._render_forms import NONE_REQUIRED, Form, _tensor, ordered_forms
from ._render_params import Param, _doc, render_params, runtime_params
from ._render_reductions import PYRIGHT_FALSE, _overload_params, out_overload

#: tuples ``q`` of these lengths get a ``Literal[n]`` leading dim (others: the catch-all),
#: commonest first (the calls with a longer tuple try the shorter ones' overloads first)
TUPLE_LENGTHS = (2, 3, 4, 1)
#: the scalar ``q`` spellings pyright tells apart, narrowest first, with the rule's kind for
#: each: numpy promotes with a numpy scalar's own dtype and a bool ``q`` is not numpy's int
#: ``q`` for percentile, so both have the rule's "other" answer (``np.float64`` is a
#: ``float`` to pyright, hence before ``float``)
SCALAR_KINDS = (("np.generic | bool", "other"), ("int", "int"), ("float", "float"))
#: a tuple of n items: ints (bools too: numpy's answer for them is the ints'), then floats
TUPLE_KINDS = (("int", "ints"), ("float", "floats"))
#: the result's dtype where the rule has no answer
UNKNOWN = "Any"
DTYPE_MAP = tuple[str | None, ...]  # the rule's result for each rules.DTYPE_NAMES entry
RESULT_TYPEVAR = "_R"


def _dtype_map(name: str, method: str, kind: str) -> DTYPE_MAP:
    return tuple(rules.quantile_result_dtype(name, d, method, kind) for d in rules.DTYPE_NAMES)


def _all_kinds() -> list[str]:
    return [k for _, k in SCALAR_KINDS] + [k for _, k in TUPLE_KINDS]


def dtype_slots() -> list[DTYPE_MAP]:
    """The distinct maps with an answer somewhere, in a fixed order: ``_QuantileDTypes``'s
    slots."""
    slots: list[DTYPE_MAP] = []
    for name in rules.QUANTILE_FUNCTIONS:
        for method in rules.QUANTILE_METHODS:
            for kind in _all_kinds():
                found = _dtype_map(name, method, kind)
                if any(r is not None for r in found) and found not in slots:
                    slots.append(found)
    return slots


def _slot_typevar(i: int) -> str:
    return f"_QUANTILE{i}_co"


def render_dtype_table() -> str:
    """The ``_QuantileDTypes`` class and its TypeVars (``_dtypes.pyi``)."""
    names = [_slot_typevar(i) for i in range(len(dtype_slots()))]
    lines = [f'{n} = TypeVar("{n}", covariant=True)' for n in names]
    lines += [
        "",
        f"class _QuantileDTypes(DType, Generic[{', '.join(names)}]):",
        '    """Type-level table: the result dtype of each dtype map of the quantile family',
        '    (``rules.quantile_result_dtype``; ``Any`` where it has no answer)."""',
    ]
    return "\n".join(lines)


def _class_or_unknown(name: str | None) -> str:
    return UNKNOWN if name is None else dtype_class_name(name)


def add_dtype_bases(classes: str) -> str:
    """Append the ``_QuantileDTypes[...]`` base to each rendered dtype class line."""
    slots = dtype_slots()
    for i, d in enumerate(rules.DTYPE_NAMES):
        args = [_class_or_unknown(m[i]) for m in slots]
        head = f"class {dtype_class_name(d)}("
        start = classes.index(head)
        end = classes.index("):\n", start)
        classes = classes[:end] + f", _QuantileDTypes[{', '.join(args)}]" + classes[end:]
    return classes


def dtype_fields(fields: dict[str, str]) -> dict[str, str]:
    """``_dtypes.pyi``'s template fields with the quantile table added."""
    return {
        **fields,
        "DTYPE_CLASSES": add_dtype_bases(fields["DTYPE_CLASSES"]),
        "QUANTILE_DTYPES": render_dtype_table(),
    }


def _dtype_spelling(found: DTYPE_MAP, slots: Sequence[DTYPE_MAP]) -> tuple[str, str]:
    """(receiver dtype, result dtype) of an overload whose dtype map is ``found``."""
    if all(r is None for r in found):
        return UNKNOWN, UNKNOWN
    args = [RESULT_TYPEVAR if m == found else "Any" for m in slots]
    return f"_QuantileDTypes[{', '.join(args)}]", RESULT_TYPEVAR


@dataclass(frozen=True)
class QVariant:
    """One overload's ``q`` and ``method`` annotations and the dtype map it answers."""

    q: str
    method: str
    method_default: str | None
    found: DTYPE_MAP


def _method_groups(name: str) -> list[tuple[str, ...]]:
    """numpy's methods grouped by their maps over every ``q`` kind (picking ones, others)."""
    groups: dict[tuple[DTYPE_MAP, ...], list[str]] = {}
    for method in rules.QUANTILE_METHODS:
        key = tuple(_dtype_map(name, method, k) for k in _all_kinds())
        groups.setdefault(key, []).append(method)
    return [tuple(g) for g in groups.values()]


def _lit(methods: Sequence[str]) -> str:
    return f"Literal[{', '.join(repr(m).replace(chr(39), chr(34)) for m in methods)}]"


def method_aliases() -> dict[str, str]:
    """``Literal[...]`` of each method group of every function -> its type alias name (an
    alias is evaluated once, a ``Literal`` of eight names in each of hundreds of overloads is
    evaluated in each)."""
    out: dict[str, str] = {}
    for name in rules.QUANTILE_FUNCTIONS:
        for group in _method_groups(name):
            out.setdefault(_lit(group), f"_Methods{len(out)}")
    return out


def _union(a: str, b: str) -> str:
    """``a | b`` without the parts the others accept (``float`` takes ``int`` and ``bool``)."""
    parts = list(dict.fromkeys([*a.split(" | "), *b.split(" | ")]))
    for wide, narrow in (("int", "bool"), ("float", "int"), ("float", "bool")):
        if wide in parts and narrow in parts:
            parts.remove(narrow)
    return " | ".join(parts)


def _merged(spellings: Sequence[tuple[str, DTYPE_MAP]]) -> list[tuple[str, DTYPE_MAP]]:
    """Consecutive spellings with the same map as one overload taking all of them."""
    out: list[tuple[str, DTYPE_MAP]] = []
    for ann, found in spellings:
        if out and out[-1][1] == found:
            out[-1] = (_union(out[-1][0], ann), found)
        else:
            out.append((ann, found))
    return out


def q_variants(name: str, n: int | None) -> list[QVariant]:
    """The ``q``/``method`` overloads of one form: ``n`` None for a scalar ``q``, else a tuple
    of ``n``: per method group (picking methods required by keyword, so that pyright drops
    them by arity for calls without ``method=``; the others default to ``"linear"``), one per
    run of spellings with the same map. A ``str`` method or an unknown name gets the
    catch-all (overloads for it with the exact shape would add a third to the list)."""
    kinds = SCALAR_KINDS if n is None else TUPLE_KINDS
    out: list[QVariant] = []
    aliases = method_aliases()
    for group in _method_groups(name):
        alias = aliases[_lit(group)]
        default = '"linear"' if "linear" in group else None
        spellings = [(ann, _dtype_map(name, group[0], k)) for ann, k in kinds]
        for ann, found in _merged(spellings):
            out.append(QVariant(_q_annotation(ann, n), alias, default, found))
    return out


def _q_annotation(item: str, n: int | None) -> str:
    return item if n is None else f"tuple[{', '.join([item] * n)}]"


def _forms(params: list[Param]) -> list[Form]:
    """The single-axis shape forms: no tuple of two or more axes, no ``axis=()``, and not the
    required-``axis`` copies of the ``axis=None, keepdims=True`` forms (they keep those calls
    from trying the tuple forms, which this list does not have)."""
    spec = rules.REDUCTIONS["median"]  # numpy's quantile reduces as median does
    return [
        f
        for f in ordered_forms(spec, params, poison=False)
        if not f.axis.startswith("tuple") and f.axis != NONE_REQUIRED
    ]


def _overloads(name: str) -> list[str]:
    from typedtensor import quantiles

    fn = getattr(quantiles, name)
    params, ret = runtime_params(fn)
    slots = dtype_slots()
    lines: list[str] = []
    for n in (None, *TUPLE_LENGTHS):  # a scalar q's calls try none of the tuple overloads
        lead = [] if n is None else [f"Literal[{n}]"]
        variants = q_variants(name, n)
        for form in _forms(params):
            assert form.result is not None
            for v in variants:
                receiver, result = _dtype_spelling(v.found, slots)
                op = _overload_params(params, "x", _tensor(receiver, form.dims), form)
                op = [_variant_param(p, v) for p in op]
                result_t = _tensor(result, [*lead, *form.result])
                lines += ["@overload", f"def {name}({render_params(op)}) -> {result_t}: ..."]
    lines += out_overload(params, "x", params[0].annotation, indent="", name=name, op=name)
    none_out = [Param(p.name, p.kind, "None", "None") if p.name == "out" else p for p in params]
    lines += ["@overload", f"def {name}({render_params(none_out)}) -> {ret}: ..."]
    return lines


def _variant_param(p: Param, v: QVariant) -> Param:
    if p.name == "q":
        return Param(p.name, p.kind, v.q, None)
    if p.name == "method":
        return Param(p.name, p.kind, v.method, v.method_default)
    return p


def render_quantiles() -> dict[str, str]:
    """Template fields of ``quantiles.pyi``: the runtime signatures (mypy: the plugin types
    the calls) and the overloads (pyright). A function whose list equals an earlier one's is
    that function (``nanquantile = quantile``); its runtime signature then sits under a
    condition pyright decides is false (``PYRIGHT_FALSE``: pyright would prefer a ``def``
    over the alias, as in ``reductions.pyi``)."""
    from typedtensor import quantiles

    plain, overloads = [], []
    seen: dict[str, str] = {}
    for name in rules.QUANTILE_FUNCTIONS:  # quantile first: nanquantile = quantile
        fn = getattr(quantiles, name)
        params, ret = runtime_params(fn)
        lines = _overloads(name)
        key = "\n".join(lines).replace(f"def {name}(", "def _(")
        indent = "    "
        if key in seen:
            overloads.append(f"    {name} = {seen[key]}")
            plain.append(f"    if {PYRIGHT_FALSE}:")
            indent = "        "
        else:
            seen[key] = name
            overloads += [f"    {line}" for line in lines]
        plain.append(
            f'{indent}def {name}({render_params(params)}) -> {ret}:\n{indent}    """{_doc(fn)}"""'
        )
    return {
        "PLAIN": "\n".join(plain),
        "OVERLOADS": "\n".join(overloads),
        "ALL": ", ".join(f'"{n}"' for n in quantiles.__all__),
        "METHOD_ALIASES": "\n".join(
            f"{alias}: TypeAlias = {lit}" for lit, alias in method_aliases().items()
        ),
    }


__all__ = ["dtype_fields", "render_quantiles"]
