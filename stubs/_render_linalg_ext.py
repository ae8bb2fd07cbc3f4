"""Render pyright's overloads of ``tt.linalg.svd qr solve`` and ``tt.dot`` (``linalg.pyi``) from
the rules of ``_rules.linalg_ext`` over dim names: batch dims as ``*_Batch``, K = ``min(M, N)``
known only for a square ``(_N, _N)`` receiver (the rule's ``minimum`` of two names is the
unknown ``Any``). dtypes: numpy's linalg dtype is the ``FLOAT`` reduction rule
(``_ReductionDTypes``), the singular values' the ``REAL`` one; ``solve`` needs one dtype on
both sides (``_ElementwiseDTypes``' invariant first slot) and reads the result from its
``ADD_FLOAT`` slot (a dtype plus a Python float: the same table); ``dot`` keeps one dtype as
``@``. Poison overloads (``@deprecated``: an error under ``reportDeprecated``) for what numpy
rejects that a pattern can name: float16, and rank < 2 operands of the decompositions. An
unknown rank or an ``Any`` dtype gets the unknown type; mypy reads the runtime signatures."""

from __future__ import annotations

from collections.abc import Sequence

from typedtensor._rules import linalg_ext

from ._render_forms import gradual_params
from .shape_ops import _ANY, UNKNOWN, _no_size, _t, packed

_BATCH = "Unpack[_Batch]"
_ANY_TENSOR = _t("Any", [UNKNOWN])
#: the linalg dtype (FLOAT) and its real dtype (REAL) read from a receiver's reduction table
_LINALG = "_ReductionDTypes[Any, _F, _FR]"


def _items() -> dict[str, object]:
    """The rules' view of dim names: every name a symbol, ``Any`` the unknown dim."""
    return {
        "size_of": _no_size,
        "is_symbolic": lambda d: _no_size(d) is None and d != _ANY,
        "make_dim": lambda n: f"Literal[{n}]",
        "unknown": _ANY,
    }


def _overloads(lines: Sequence[str]) -> list[str]:
    out = []
    for line in lines:
        if line.startswith("@deprecated"):
            out.append("@overload")
            out.append(line)
            continue
        if not (out and out[-1].startswith("@deprecated")):
            out.append("@overload")
        out.append(line)
    return out


def _guards(name: str, rest: str) -> list[str]:
    """Unknown rank and ``Any`` dtype first (never a poison or a guess), then float16."""
    return [
        f"def {name}(x: {packed('Any', gradual_params())}, {rest}) -> Any: ...",
        f"def {name}(x: {_t('_UnknownDType', [UNKNOWN])}, {rest}) -> Any: ...",
        f"@deprecated(\"{name} does not take float16 (numpy's linalg has no float16 loops); "
        'convert with astype(tt.float32)")',
        f"def {name}(x: {_t('float16', [UNKNOWN])}, {rest}) -> Any: ...",
    ]


def _rank_poisons(name: str, rest: str) -> list[str]:
    out = []
    for dims in ([], ["_D0"]):
        out.append(
            f'@deprecated("{name} needs a stack of matrices (rank >= 2), got rank {len(dims)}; '
            'numpy raises LinAlgError")'
        )
        out.append(f"def {name}(x: {packed('Any', dims)}, {rest}) -> Any: ...")
    return out


_MATRICES = ([_BATCH, "_N", "_N"], [_BATCH, "_M", "_N"])


def _named(cls: str, results: Sequence[str]) -> str:
    """One tensor, or the named result ``cls`` (``_results.pyi``) of several."""
    return results[0] if len(results) == 1 else f"{cls}[{', '.join(results)}]"


def svd_overloads() -> list[str]:
    """``svd(x, full_matrices, compute_uv)``: literal flags, square receivers first."""
    rest = "*args: Any, **kwargs: Any"
    lines = [*_guards("svd", rest), *_rank_poisons("svd", rest)]
    flags = [
        ("full_matrices: Literal[True] = True, compute_uv: Literal[True] = True", (True,), True),
        ("full_matrices: Literal[False], compute_uv: Literal[True] = True", (False,), True),
        ("full_matrices: bool = True, compute_uv: Literal[True] = True", (True, False), True),
        ("full_matrices: bool, compute_uv: Literal[False]", (True,), False),
        ("full_matrices: bool = True, *, compute_uv: Literal[False]", (True,), False),
    ]
    for dims in _MATRICES:
        for params, fulls, uv in flags:
            answers = [linalg_ext.svd_shapes(dims, f, uv, **_items()) for f in fulls]
            shapes = [_merge([a[i] for a in answers]) for i in range(len(answers[0]))]
            dtypes = ["_F", "_FR", "_F"] if uv else ["_FR"]
            results = [_t(d, s) for d, s in zip(dtypes, shapes, strict=True)]
            result = _named("SVDResult", results)
            lines.append(f"def svd(x: {packed(_LINALG, dims)}, {params}) -> {result}: ...")
    fallback = "full_matrices: bool = True, compute_uv: bool = True"
    lines.append(f"def svd(x: {_ANY_TENSOR}, {fallback}) -> Any: ...")
    return _overloads(lines)


def _merge(options: Sequence[Sequence[str]]) -> list[str]:
    """The dims every option agrees on, ``Any`` elsewhere (a flag that is not literal)."""
    return [d[0] if len(set(d)) == 1 else _ANY for d in zip(*options, strict=True)]


def qr_overloads() -> list[str]:
    """``qr(x, mode)``: each literal mode, square receivers first."""
    rest = "*args: Any, **kwargs: Any"
    lines = [*_guards("qr", rest), *_rank_poisons("qr", rest)]
    modes = [('Literal["reduced"] = "reduced"', "reduced")]
    modes += [('Literal["complete"]', "complete"), ('Literal["r"]', "r")]
    for dims in _MATRICES:
        for param, mode in modes:
            shapes = linalg_ext.qr_shapes(dims, mode, **_items())
            result = _named("QRResult", [_t("_F", s) for s in shapes])
            lines.append(f"def qr(x: {packed(_LINALG, dims)}, mode: {param}) -> {result}: ...")
    mode = 'Literal["reduced", "complete", "r"] = "reduced"'
    lines.append(f"def qr(x: {_ANY_TENSOR}, mode: {mode}) -> Any: ...")
    return _overloads(lines)


def _square_named(
    name: str, rest: str, cls: str, results: Sequence[tuple[str, list[str]]]
) -> list[str]:
    """``eigh``/``slogdet`` of ``(*batch, n, n)``: the named result of ``results`` (dtype slot,
    dims); an unknown rank or an ``Any`` dtype: the named result of unknown tensors; float16 and
    rank < 2 poisons; the runtime's signature last (a non-square literal operand matches
    nothing: pyright's error)."""
    unknown = f"{cls}[{', '.join([_ANY_TENSOR] * len(results))}]"
    rest = f", {rest}" if rest else ""
    lines = [
        f"def {name}(x: {packed('Any', gradual_params())}{rest}) -> {unknown}: ...",
        f"def {name}(x: {_t('_UnknownDType', [UNKNOWN])}{rest}) -> {unknown}: ...",
        f"@deprecated(\"{name} does not take float16 (numpy's linalg has no float16 loops); "
        'convert with astype(tt.float32)")',
        f"def {name}(x: {_t('float16', [UNKNOWN])}{rest}) -> {unknown}: ...",
    ]
    for dims in ([], ["_D0"]):  # pyright fits a rank-1 tensor to (*batch, n, n) with Never
        lines.append(
            f'@deprecated("{name} needs a stack of square matrices (rank >= 2), got rank '
            f'{len(dims)}; numpy raises LinAlgError")'
        )
        lines.append(f"def {name}(x: {packed('Any', dims)}{rest}) -> {unknown}: ...")
    items = ", ".join(_t(dtype, [_BATCH, *dims]) for dtype, dims in results)
    x = packed(_LINALG, [_BATCH, "_N", "_N"])
    lines.append(f"def {name}(x: {x}{rest}) -> {cls}[{items}]: ...")
    runtime = ", ".join(_t("Any", [_BATCH, *dims]) for _, dims in results)
    square = _t("DType", [_BATCH, "_N", "_N"])
    lines.append(f"def {name}(x: {square}{rest}) -> {cls}[{runtime}]: ...")
    return _overloads(lines)


def eigh_overloads() -> list[str]:
    """``eigh(x, UPLO)``: real eigenvalues (``_FR``), eigenvectors of the linalg dtype."""
    rest = 'UPLO: Literal["L", "U"] = "L"'
    return _square_named("eigh", rest, "EighResult", [("_FR", ["_N"]), ("_F", ["_N", "_N"])])


def slogdet_overloads() -> list[str]:
    """``slogdet(x)``: the sign of the linalg dtype, a real ``logabsdet``, the batch dims."""
    return _square_named("slogdet", "", "SlogdetResult", [("_F", []), ("_FR", [])])


#: one dtype on both sides (the invariant first slot); the result in the ADD_FLOAT slot
_SOLVE_A = "_ElementwiseDTypes[_S, Any, _F, Any, Any, Any, Any, Any, Any, Any]"
_SAME = "_ElementwiseDTypes[_S, Any, Any, Any, Any, Any, Any, Any, Any, Any]"


def _binary_guards(name: str) -> list[str]:
    """An unknown rank or an ``Any`` dtype on either side: the unknown type."""
    unknown_rank, any_dtype = packed("Any", gradual_params()), _t("_UnknownDType", [UNKNOWN])
    return [
        f"def {name}({a}, {b}) -> {_ANY_TENSOR}: ..."
        for guard in (unknown_rank, any_dtype)
        for a, b in ((f"a: {guard}", "b: object"), ("a: object", f"b: {guard}"))
    ]


def solve_overloads() -> list[str]:
    """``solve(a, b)``: a vector ``b``, a matrix ``b`` under a batch of ``a``'s or its own."""
    lines = [
        *_binary_guards("solve"),
        "@deprecated(\"solve does not take float16 (numpy's linalg has no float16 loops); "
        'convert with astype(tt.float32)")',
        f"def solve(a: {_t('float16', [UNKNOWN])}, b: object) -> {_ANY_TENSOR}: ...",
    ]
    for a, b in (
        ([_BATCH, "_M", "_M"], ["_M"]),
        (["_M", "_M"], [_BATCH, "_M", "_N"]),
        ([_BATCH, "_M", "_M"], [_BATCH, "_M", "_N"]),
    ):
        shape = linalg_ext.solve_shape(a, b, **_items())
        lines.append(
            f"def solve(a: {packed(_SOLVE_A, a)}, b: {packed(_SAME, b)}) -> {_t('_F', shape)}: ..."
        )
    lines.append(f"def solve(a: {_ANY_TENSOR}, b: object) -> {_ANY_TENSOR}: ...")
    return _overloads(lines)


def _dot_names(rank: int, side: str) -> list[str]:
    if rank == 0:
        return []
    if side == "a":
        return [f"_D{i}" for i in range(rank - 1)] + ["_K"]
    return ["_K"] if rank == 1 else [f"_B{i}" for i in range(rank - 2)] + ["_K", "_N"]


def dot_overloads() -> list[str]:
    """``dot(a, b)`` for ranks 0..3 on each side, one dtype on both (as ``@``)."""
    lines = _binary_guards("dot")
    for ra in (2, 1, 3):
        for rb in (2, 1, 3):
            a, b = _dot_names(ra, "a"), _dot_names(rb, "b")
            shape = linalg_ext.dot_shape(a, b, **_items())
            lines.append(
                f"def dot(a: {packed('_S', a)}, b: {packed(_SAME, b)}) -> {_t('_S', shape)}: ..."
            )
    for a, b in (([], [_BATCH]), ([_BATCH], [])):  # a scalar multiplies: the other's dims
        shape = linalg_ext.dot_shape(a, b, **_items())
        lines.append(
            f"def dot(a: {packed('_S', a)}, b: {packed(_SAME, b)}) -> {_t('_S', shape)}: ..."
        )
    lines.append(f"def dot(a: object, b: object) -> {_ANY_TENSOR}: ...")
    return _overloads(lines)


def render_linalg_ext() -> str:
    """The ``else:`` (pyright) block of ``linalg.pyi`` for ``svd qr solve dot``."""
    lines = [*svd_overloads(), *qr_overloads(), *solve_overloads(), *dot_overloads()]
    lines += [*eigh_overloads(), *slogdet_overloads()]
    return "\n".join(f"    {line}" for line in lines)
