"""Render pyright's view of the shape operations of ``Tensor`` from the shape rules.

``x.T``, ``x.mT``, ``x.ndim``, ``x.transpose(...)``, ``x.swapaxes(...)``, ``x.squeeze(...)``,
``x[index]``, ``x @ y``, ``x.cumsum(...)`` and ``x.cumprod(...)``: every answer comes from a
rule of ``typedtensor._rules`` (``permute_shape``, ``matrix_transpose_order``,
``swapaxes_order``, ``squeeze_shape``, ``index_shape``, ``matmul_shape``, ``scan_shape``)
applied to dim *names*. mypy (with or without the plugin) reads the runtime signatures
(``if MYPY:`` branch): mypy solves a variadic receiver against these patterns as ``Never``.

Rank dispatch uses ``_DimsOf[DT, Callable[[*Shape], None]]``, a base class of ``Tensor`` in
the stubs only: pyright matches a callable's parameter list exactly, so
``obj: _DimsOf[_S, Callable[[_D0, _D1], None]]`` accepts a receiver of exactly two dims and no
``Tensor[DT, B, *Rest]`` (matching ``Tensor[_S, _D0, _D1]`` itself fits ``*Rest`` into
``_D1``). Receivers with a ``*tuple[Any, ...]`` part meet a guard first (``GRADUAL``: only
they accept ``_G0 .. _G7, *tuple[_UnknownDim, ...]``) and get the unknown shape. The ``tt.``
functions (``linalg.pyi``, ``scans.pyi``, ``manipulation.pyi``) are in ``shape_functions``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from typedtensor import _rules as rules

from ._elementwise import _same_operand, any_dim_operand
from ._render_dtypes import dtype_form
from ._render_forms import MAX_RANK, _dims, _lit, _spellings, gradual_params

UNKNOWN = "Unpack[tuple[Any, ...]]"
#: Marker dim for "size not known statically" when a rule runs over names.
_ANY = "Any"


def packed(dtype: str, dims: Sequence[str]) -> str:
    """The receiver pattern of one rank: ``_DimsOf[<dtype>, Callable[[<dims>], None]]``."""
    return f"_DimsOf[{dtype}, Callable[[{', '.join(dims)}], None]]"


def _t(dtype: str, dims: Sequence[str]) -> str:
    return f"Tensor[{', '.join([dtype, *dims])}]"


def _no_size(d: str) -> int | None:
    """Sizes of the names: only ``Literal[n]`` has one."""
    if d.startswith("Literal[") and d[8:-1].isdigit():
        return int(d[8:-1])
    return None


def _ranks() -> list[int]:
    """Rank order of the dispatch overloads: the common ranks first, 0 last."""
    return [*range(1, MAX_RANK + 1), 0]


def _get(obj: str, result: str) -> list[str]:
    return ["    @overload", f"    def __get__(self, obj: {obj}, owner: Any) -> {result}: ..."]


def _class_access() -> list[str]:
    return ["    @overload", "    def __get__(self, obj: None, owner: Any) -> Self: ..."]


def _property(name: str, doc: str, results: dict[int, str], unknown: str) -> str:
    """A descriptor whose ``__get__`` answers per rank (``results``), else ``unknown``."""
    lines = [f"class {name}:", f'    """{doc} (pyright view)."""', ""]
    lines += _get(packed("_S", gradual_params()), unknown)
    for r in _ranks():
        if r in results:
            lines += _get(packed("_S", _dims(r)), results[r])
    lines += _get("_DimsOf[_S, Any]", unknown)
    lines += _class_access()
    return "\n".join(lines) + "\n"


def render_properties() -> str:
    """``_TProperty``, ``_MTProperty``, ``_NdimProperty``."""
    t = {r: _t("_S", rules.permute_shape(_dims(r))) for r in range(MAX_RANK + 1)}
    mt = {}
    for r in range(2, MAX_RANK + 1):
        order = rules.matrix_transpose_order(r)
        mt[r] = _t("_S", [_dims(r)[i] for i in order])
    ndim = {r: f"Literal[{r}]" for r in range(MAX_RANK + 1)}
    return "\n".join(
        [
            _property("_TProperty", "``x.T``: all dims reversed", t, _t("_S", [UNKNOWN])),
            _property(
                "_MTProperty", "``x.mT``: the last two dims swapped", mt, _t("_S", [UNKNOWN])
            ),
            _property("_NdimProperty", "``x.ndim``: the rank as a literal", ndim, "int"),
        ]
    )


def _method(name: str, doc: str, call: str) -> str:
    """``class _<Name>Method``: ``x.<name>`` binds to ``{call}{r}[_S, *dims]`` by rank."""
    lines = [f"class {name}:", f'    """{doc} (pyright view)."""', ""]
    lines += _get(packed("_S", gradual_params()), f"{call}U[_S]")
    for r in _ranks():
        dims = _dims(r)
        lines += _get(packed("_S", dims), f"{call}{r}[{', '.join(['_S', *dims])}]")
    lines += _get("_DimsOf[_S, Any]", f"{call}U[_S]")
    lines += _class_access()
    lines.append("    def __call__(self, x: AnyTensor, /, *args: Any) -> AnyTensor: ...")
    return "\n".join(lines) + "\n"


def _call_class(name: str, r: int, doc: str, overloads: list[str], fallback: str) -> str:
    tparams = ", ".join(["_R_co", *[f"{d}_co" for d in _dims(r)]])
    lines = [f"class {name}(Generic[{tparams}]):", f'    """{doc} (pyright view)."""', ""]
    for sig in overloads:
        lines += ["    @overload", f"    def __call__({sig}: ..."]
    lines += ["    @overload" if overloads else "", f"    def __call__({fallback}: ..."]
    return "\n".join(line for line in lines if line) + "\n"


def _co(dims: Sequence[str]) -> list[str]:
    return [f"{d}_co" if d.startswith("_D") else d for d in dims]


def _either(d: int, r: int) -> str:
    return _lit(_spellings(d, r))


def render_transpose() -> str:
    """``x.transpose()``, ``x.transpose(1, 0)``, ``x.transpose((1, 0))``: every permutation
    of ranks 1..4, each axis in either spelling (``permute_shape``)."""
    out = [_method("_TransposeMethod", "``x.transpose(*axes)``", "_Transpose")]
    fallback = f"self, *axes: Any) -> {_t('_R_co', [UNKNOWN])}"
    for r in range(MAX_RANK + 1):
        dims = _dims(r)
        sigs = [f"self) -> {_t('_R_co', _co(rules.permute_shape(dims)))}"]
        for perm in itertools.permutations(range(r)):
            result = _t("_R_co", _co(rules.permute_shape(dims, perm)))
            lits = [_either(p, r) for p in perm]
            if r:
                params = ", ".join(f"a{i}: {lit}" for i, lit in enumerate(lits))
                sigs.append(f"self, {params}, /) -> {result}")
            tup = f"tuple[{', '.join(lits)}]" if lits else "tuple[()]"
            sigs.append(f"self, axes: {tup}, /) -> {result}")
        out.append(_call_class(f"_Transpose{r}", r, f"``transpose`` of rank {r}", sigs, fallback))
    out.append(_call_class("_TransposeU", 0, "``transpose``, shape unknown", [], fallback))
    return "\n".join(out)


def render_swapaxes() -> str:
    """``x.swapaxes(a, b)`` for every pair of literal axes of ranks 1..4 (``swapaxes_order``)."""
    out = [_method("_SwapaxesMethod", "``x.swapaxes(axis1, axis2)``", "_Swapaxes")]
    fallback = f"self, axis1: int, axis2: int) -> {_t('_R_co', [UNKNOWN])}"
    for r in range(MAX_RANK + 1):
        dims = _dims(r)
        sigs = []
        for a, b in itertools.product(range(r), repeat=2):
            order = rules.swapaxes_order(r, a, b)
            result = _t("_R_co", _co([dims[i] for i in order]))
            sigs.append(f"self, axis1: {_either(a, r)}, axis2: {_either(b, r)}) -> {result}")
        out.append(_call_class(f"_Swapaxes{r}", r, f"``swapaxes`` of rank {r}", sigs, fallback))
    out.append(_call_class("_SwapaxesU", 0, "``swapaxes``, shape unknown", [], fallback))
    return "\n".join(out)


def render_squeeze() -> str:
    """``x.squeeze(axis)`` for a literal axis whose dim is ``Literal[1]`` (or ``Any``) in the
    receiver's type (``squeeze_shape``); ``x.squeeze()`` of rank 0. Other calls (``axis=None``
    on a rank >= 1: which dims are 1 is not known to an overload) give the unknown shape."""
    out = [_method("_SqueezeMethod", "``x.squeeze(axis)``", "_Squeeze")]
    fallback = f"self, axis: int | tuple[int, ...] | None = None) -> {_t('_R_co', [UNKNOWN])}"
    for r in range(MAX_RANK + 1):
        dims = _dims(r)
        sigs = []
        if r == 0:
            sigs.append(f"self, axis: None = None) -> {_t('_R_co', [])}")
        for d in range(r):
            pattern = [("Literal[1]" if i == d else x) for i, x in enumerate(dims)]
            result = rules.squeeze_shape(pattern, d, size_of=_no_size)
            assert result is not None
            self_t = f"_Squeeze{r}[{', '.join(['_R', *pattern])}]"
            axis = f"{_either(d, r)} | tuple[{_either(d, r)}]"
            sigs.append(f"self: {self_t}, axis: {axis}) -> {_t('_R', list(result))}")
        out.append(_call_class(f"_Squeeze{r}", r, f"``squeeze`` of rank {r}", sigs, fallback))
    out.append(_call_class("_SqueezeU", 0, "``squeeze``, shape unknown", [], fallback))
    return "\n".join(out)


#: Index item kinds: annotation, the rules' item.
_ITEMS: dict[str, tuple[str, object]] = {
    # 0 and -1 are in range of every dim but an empty one; an overload cannot compare other
    # ints with a size (``x[2]`` raises on a dim of 2), so they get the unknown shape
    "int": ("Literal[0, -1]", 0),
    "full": ("slice[None, None, None]", slice(None)),
    "none": ("None", None),
    "ellipsis": ("EllipsisType", Ellipsis),
    "slice": ("slice[Any, Any, Any]", slice(1, None)),
}
#: Longest index tuple with an exact answer.
MAX_INDEX_ITEMS = 3


def _index_forms(r: int) -> list[tuple[str, tuple[str, ...]]]:
    """(index annotation, result dims) for every basic index of up to ``MAX_INDEX_ITEMS``
    items the rules accept on rank ``r`` (``index_shape`` over names; a partial slice's
    length is unknown: ``Any``)."""
    dims = _dims(r)
    forms: list[tuple[str, tuple[str, ...]]] = []
    for n in range(1, MAX_INDEX_ITEMS + 1):
        for kinds in itertools.product(_ITEMS, repeat=n):
            items = tuple(_ITEMS[k][1] for k in kinds)
            try:
                shape = rules.index_shape(
                    dims, items, make=lambda k: f"Literal[{k}]", unknown=_ANY, size_of=_no_size
                )
            except rules.RuleError:
                continue
            if shape is None:
                continue
            anns = [_ITEMS[k][0] for k in kinds]
            if n == 1:
                forms.append((anns[0], tuple(shape)))
            forms.append((f"tuple[{', '.join(anns)}]", tuple(shape)))
    # a bool is an int to a type checker but a mask to numpy: it goes to the unknown shape
    return [("bool", (UNKNOWN,)), *forms]


def render_getitem() -> str:
    """``x[index]`` with ints, full slices ``:``, ``None`` and ``...`` (up to three items) on
    ranks 0..4 (``index_shape``); a partial slice (``1:``) keeps the dim with an unknown size;
    integer arrays, masks and longer indexes give the unknown shape."""
    out = [_method("_GetitemMethod", "``x[index]``", "_Getitem")]
    fallback = f"self, index: Index, /) -> {_t('_R_co', [UNKNOWN])}"
    for r in range(MAX_RANK + 1):
        sigs = [
            f"self, index: {ann}, /) -> {_t('_R_co', _co(shape))}" for ann, shape in _index_forms(r)
        ]
        out.append(_call_class(f"_Getitem{r}", r, f"indexing of rank {r}", sigs, fallback))
    out.append(_call_class("_GetitemU", 0, "indexing, shape unknown", [], fallback))
    return "\n".join(out)


#: matmul operand ranks, in the order tried (the common ones first).
MATMUL_RANKS = [(2, 2), (3, 2), (1, 2), (2, 1), (3, 3), (4, 2), (4, 4), (1, 1)]
MATMUL_RANKS += [(a, b) for a in range(1, 5) for b in range(1, 5) if (a, b) not in MATMUL_RANKS]


def _matmul_names(a: int, b: int) -> tuple[list[str], list[str]]:
    """Dim names of both operands: the inner dims share ``_K``, batch dims aligned from the
    right share ``_B<i>`` (equal types: a broadcast 1 against 8 fits no overload)."""
    left_batch, right_batch = max(a - 2, 0), max(b - 2, 0)
    n = max(left_batch, right_batch)
    left = [f"_B{i}" for i in range(n - left_batch, n)] + (["_M"] if a >= 2 else []) + ["_K"]
    right = [f"_B{i}" for i in range(n - right_batch, n)] + (["_K", "_N"] if b >= 2 else ["_K"])
    return left, right


def matmul_overloads(name: str, left: str, right: str, fallback: tuple[str, str]) -> list[str]:
    """The overloads of ``{name}({left}, {right})``: ranks 1..4 on both sides, same dtype
    (``matmul_shape`` over names), then ``fallback`` (the operands' annotations of the
    catch-all, unannotated as ``""``). Operands with an unknown part and anything else (mixed
    dtypes, a mismatched inner dim, a broadcast batch dim) and an ``Any`` dtype on either side
    get the unknown type."""
    unknown = _t("Any", [UNKNOWN])
    guard = packed("Any", gradual_params())

    def param(p: str, annotation: str) -> str:
        return f"{p}: {annotation}" if annotation else p

    fa, fb = fallback
    # the right operand's dtype must be the left one's (invariant: a covariant ``_S`` would
    # be solved as a union, ``bool_ | int16``, for a function's two arguments)
    same = _same_operand()
    # an ``Any`` dtype on either side: the unknown type (``_S`` would be solved from the
    # other operand's dtype, a guess the runtime may contradict)
    any_dtype = _t("_UnknownDType", [UNKNOWN])
    lines = [
        f"def {name}({left}: {guard}, {param(right, fb)}) -> {unknown}: ...",
        f"def {name}({param(left, fa)}, {right}: {guard}) -> {unknown}: ...",
        f"def {name}({left}: {any_dtype}, {param(right, fb)}) -> {unknown}: ...",
        f"def {name}({param(left, fa)}, {right}: {any_dtype}) -> {unknown}: ...",
        # a batch dim the right operand shares with the left is solved from the left: an
        # ``Any`` there against the left's ``Literal[1]`` (``(1, 2, 3) @ (Any, 3, 4)``) would
        # keep the 1 (``any_dim_operand``)
        f"def {name}({left}: {_t('Any', ['Any'] * 3 + [UNKNOWN])}, "
        f"{right}: {any_dim_operand([(3, 0), (4, 0), (4, 1)])}) -> {unknown}: ...",
    ]
    for a, b in MATMUL_RANKS:
        lnames, rnames = _matmul_names(a, b)
        result = rules.matmul_shape(lnames, rnames, size_of=_no_size, unknown=_ANY)
        lines.append(
            f"def {name}({left}: {packed('_S', lnames)}, {right}: {packed(same, rnames)})"
            f" -> {_t('_S', list(result))}: ..."
        )
    lines.append(f"def {name}({param(left, fa)}, {param(right, fb)}) -> {unknown}: ...")
    return [x for line in lines for x in ("@overload", line)]


def render_matmul() -> list[str]:
    """The ``__matmul__`` overloads of the pyright view (Tensor body lines)."""
    return matmul_overloads("__matmul__", "self", "other", ("", "MatmulOperand"))


def _scan_calls(name: str, r: int) -> list[str]:
    """The ``__call__`` overloads of the rank-``r`` scan class: ``axis=None`` and each literal
    axis, with the rule's dtype (``dtype=None``) or a named class (``dtype=tt.float64``)."""
    dims = _dims(r)

    def shape(axis: object) -> list[str]:
        res = rules.scan_shape(
            dims, axis, size_of=_no_size, make=lambda n: _ANY if n is None else f"Literal[{n}]"
        )
        return _co(list(res))

    axes: list[tuple[str, object]] = [("None = None", None)]
    axes += [(_either(d, r) if r else "Literal[0, -1]", d) for d in range(max(r, 1))]
    sigs = []
    for dtype, dparam in (("_R_co", "dtype: None = None, *, "), ("_X", "*, dtype: type[_X], ")):
        for ann, axis in axes:
            sigs.append(f"self, axis: {ann}, {dparam}out: None = None) -> {_t(dtype, shape(axis))}")
    return sigs


def render_scans() -> str:
    """``x.cumsum(axis)`` / ``x.cumprod(axis)``: the dtype by the reduction's rule (``SCANS``
    names it), the shape by ``scan_shape`` (literal axis: kept; ``axis=None``: flattened, the
    size known for rank <= 1); ``dtype=<class>`` gives that class."""
    out = []
    fallback = (
        "self, axis: int | None = None, dtype: object = None, *, out: AnyTensor | None = None"
        f") -> {_t('Any', [UNKNOWN])}"
    )
    for name in ("cumsum", "cumprod"):
        dform = dtype_form(rules.REDUCTIONS[rules.SCANS[name]].dtype_rule)
        call = f"_{name.capitalize()}Call"
        lines = [
            f"class _{name.capitalize()}Method:",
            f'    """``x.{name}`` (pyright view)."""',
            "",
        ]
        for recv, res in dform.descriptor_receivers():
            lines += _get(packed(recv, gradual_params()), f"{call}U[{res}]")
            for r in _ranks():
                dims = _dims(r)
                lines += _get(packed(recv, dims), f"{call}{r}[{', '.join([res, *dims])}]")
            lines += _get(f"_DimsOf[{recv}, Any]", f"{call}U[{res}]")
        lines += _class_access()
        lines.append(
            "    def __call__(self, x: AnyTensor, /, *args: Any, **kwargs: Any) -> AnyTensor: ..."
        )
        out.append("\n".join(lines) + "\n")
        for r in range(MAX_RANK + 1):
            sigs = _scan_calls(name, r)
            out.append(_call_class(f"{call}{r}", r, f"``{name}`` of rank {r}", sigs, fallback))
        unknown = [
            "self, axis: int | None = None, *, dtype: type[_X], out: None = None)"
            f" -> {_t('_X', [UNKNOWN])}",
            "self, axis: int | None = None, dtype: None = None, *, out: None = None)"
            f" -> {_t('_R_co', [UNKNOWN])}",
        ]
        out.append(_call_class(f"{call}U", 0, f"``{name}``, shape unknown", unknown, fallback))
    return "\n".join(out)


def render_classes() -> str:
    """Every module-level class of the shape operations' pyright view."""
    return "\n".join(
        [
            render_properties(),
            render_transpose(),
            render_swapaxes(),
            render_squeeze(),
            render_getitem(),
            render_scans(),
        ]
    )


def render_members() -> str:
    """The ``Tensor`` body lines of the pyright view (inside the template's ``else:``)."""
    lines = [
        "T: ClassVar[_TProperty]",
        "mT: ClassVar[_MTProperty]",
        "ndim: ClassVar[_NdimProperty]",
        "transpose: ClassVar[_TransposeMethod]",
        "swapaxes: ClassVar[_SwapaxesMethod]",
        "squeeze: ClassVar[_SqueezeMethod]",
        "cumsum: ClassVar[_CumsumMethod]",
        "cumprod: ClassVar[_CumprodMethod]",
        "__getitem__: ClassVar[_GetitemMethod]",
        *render_matmul(),
    ]
    return "\n".join(f"        {line}" for line in lines)
