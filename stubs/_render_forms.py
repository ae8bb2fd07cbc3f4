"""The overload *forms* of the reductions: which receiver dims, axis literal and keepdims an
overload takes and which dims it returns.

Every shape comes from ``typedtensor._rules``: result shapes from ``reduce_shape`` over dim
*names*, valid and invalid axes from ``normalize_axes`` (whose exceptions classify them).
``_render_reductions`` and ``_render_pyright`` turn forms into overload text.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from typedtensor import _rules as rules

from ._render_params import Param, _axis_defaulted

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
#: The dims of a ``tt.`` function's receiver pattern that only a receiver with a
#: ``*tuple[Any, ...]`` part (or of rank 8 and more) fits.
GRADUAL_ANY_DIMS = ("Any",) * GRADUAL_PREFIX + ("Unpack[tuple[_UnknownDim, ...]]",)
ANY_TENSOR = "Tensor[Any, Unpack[tuple[Any, ...]]]"


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


#: Tuples of up to this many axes accept every order of their axes (``(2, 0)``, ``(1, 0, 3)``);
#: a tuple of four (24 orders) only the sorted one. docs/stubs.md, "Unsorted axis tuples",
#: has what each choice cost pyright.
UNSORTED_MAX_AXES = 2


def tuple_forms(r: int, single: bool) -> list[Form]:
    """The overloads of the tuples of two or more literal axes of a rank-``r`` receiver.

    One per set of dims and ``keepdims`` (the result is ``reduce_shape`` of the set); its
    ``axis`` is the union of the set's orders (sorted first; every order up to
    ``UNSORTED_MAX_AXES`` axes), each axis in both spellings (``(0, -1)``, ``(-1, 0)``).
    Each order names every dim of the set once, so a duplicate dim is never accepted.
    """
    dims = tuple(_dims(r))
    forms: list[Form] = []
    for n in range(2, r + 1):
        for combo in itertools.combinations(range(r), n):
            orders = itertools.permutations(combo) if n <= UNSORTED_MAX_AXES else [combo]
            axis = " | ".join(
                f"tuple[{', '.join(_lit(_spellings(d, r)) for d in order)}]" for order in orders
            )
            for k in (False, True):
                forms.append(Form(dims, axis, k, _reduced(dims, combo, k, single)))
    return forms


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
            yield from tuple_forms(r, single)
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
    # a receiver with a ``*tuple[Any, ...]`` part fits the rank-0 form too, and pyright takes
    # the first form it fits there: all dims 1, the rank unknown, before the per-rank forms
    gradual = Form(GRADUAL_ANY_DIMS, "None", True, unknown_rank_kept(spec.single_axis).result)
    none_kept = [gradual, *none_kept]
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
    tuples = [] if single else tuple_forms(r, single)
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


def gradual_params() -> list[str]:
    """Dims of the callable that only a receiver with a ``*tuple[Any, ...]`` part accepts.

    ``GRADUAL_PREFIX`` dims then any number of ``_UnknownDim``: a fixed-rank receiver takes an
    exact number of arguments, a ``*Rest`` receiver cannot take ``_UnknownDim``, but
    ``(B, *tuple[Any, ...])`` takes them all (its ``Any`` parameters accept anything).
    """
    return [f"_G{i}" for i in range(GRADUAL_PREFIX)] + ["Unpack[tuple[_UnknownDim, ...]]"]
