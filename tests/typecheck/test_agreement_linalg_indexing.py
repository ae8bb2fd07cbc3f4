"""The plugin's static type of indexing, ``@``, ``tt.where``, the bool operators and ``astype``
equals numpy's runtime answer, case by case (numpy is the oracle; nothing here computes an
expected shape).

One generated module declares tensors with literal and symbolic (``tt.Dim`` marker) dims and
holds every case as ``reveal_type(<expr>)``; mypy (plugin on) checks it once, then each
expression is evaluated:
- it succeeds at run time: the revealed type is a Tensor of the runtime dtype whose dims equal
  the runtime shape (a symbolic dim stands for the size it was bound to); ``Any`` is accepted
  only for the dims an integer array or mask selects (data-dependent) and for a slice of a
  symbolic dim, and the unknown rank only for an ndarray index;
- it raises (IndexError, ValueError, TypeError): mypy reports a ``typedtensor-*`` error on
  that line.
"""

from __future__ import annotations

import itertools
import random
import re
import warnings
from dataclasses import dataclass

import numpy as np
import pytest

from typedtensor import _rules as rules

from .conftest import check_reveal_corpus

DTYPES = [("bool_" if n == "bool" else n) for n in rules.DTYPE_NAMES]
SIZES = (2, 3, 4, 5)
BATCH = 6  # the runtime size bound to the marker ``Batch``
#: generated-module line (0 = first case) -> (severity, message, code) reported there
Messages = dict[int, list[tuple[str, str, "str | None"]]]
TENSOR_RE = re.compile(r"^typedtensor\._tensor\.Tensor\[(.*)\]$")


@dataclass(frozen=True)
class Case:
    expr: str
    kind: str  # "index", "matmul", "where", "bitwise", "astype"
    data_dependent: bool = False  # Any dims allowed (integer array / mask / symbolic slice)
    unknown_rank: bool = False  # the unknown-rank type allowed


PRELUDE = [
    "from typing import Any",
    "import numpy as np",
    "import typedtensor as tt",
    "class Batch(tt.Dim): ...",
    f"b2 = tt.tensor(np.ones(({BATCH}, 3), np.float32), shape=(Batch, 3), dtype=tt.float32)",
    f"bm = tt.tensor(np.ones((3, {BATCH}), np.float32), shape=(3, Batch), dtype=tt.float32)",
    "iv = tt.tensor(np.array([1, 0], dtype=np.int64), shape=(2,), dtype=tt.int64)",
    "nd: Any = np.array([0, 1])",
]


def _tensor(name: str, shape: tuple[int, ...], dtype: str) -> str:
    return f"{name} = tt.ones({shape!r}, tt.{dtype})"


def _index_cases() -> tuple[list[str], list[Case]]:
    decls, cases = [], []
    items = [
        "0",
        "-1",
        "2",
        "-4",
        "5",
        ":",
        "1:",
        "::-1",
        "-10:2",
        "3:0:-2",
        "::0",
        "None",
        "...",
        "iv",
    ]
    rng = random.Random(17)
    for rank in range(5):
        name = f"x{rank}"
        decls.append(_tensor(name, SIZES[:rank], DTYPES[rank * 3 % len(DTYPES)]))
        combos = [c for n in range(1, 3) for c in itertools.product(items, repeat=n)]
        combos += [tuple(rng.choice(items) for _ in range(rng.randint(3, 5))) for _ in range(80)]
        for combo in combos:
            expr = f"{name}[{', '.join(combo)}]"
            cases.append(Case(expr, "index", data_dependent="iv" in combo))
        if rank >= 1:
            mask = f"m{rank}"
            decls.append(f"{mask} = {name} > 0")
            cases += [
                Case(f"{name}[{mask}]", "index", True),
                Case(f"{name}[nd]", "index", True, True),
            ]
            cases.append(Case(f"{name}[[0, 1]]", "index", True))
    symbolic = ["b2[0]", "b2[:, 1]", "b2[..., None]", "b2[::-1]", "b2[1:]", "b2[:, 4]", "bm[:, :]"]
    for expr in [*symbolic, "bm[2]"]:
        cases.append(Case(expr, "index", data_dependent=expr == "b2[1:]"))
    return decls, cases


def _matmul_cases() -> tuple[list[str], list[Case]]:
    shapes = [(3,), (4,), (3, 4), (4, 3), (2, 3, 4), (2, 4, 5), (1, 4, 2), (3, 4, 2), (5, 2, 4, 3)]
    decls, cases = [], []
    for k, s in enumerate(shapes):
        decls.append(_tensor(f"a{k}", s, DTYPES[k % len(DTYPES)]))
    for i, j in itertools.product(range(len(shapes)), repeat=2):
        op = f"a{i} @ a{j}" if (i + j) % 2 else f"tt.matmul(a{i}, a{j})"
        cases.append(Case(op, "matmul"))
    for i, j in itertools.product(range(len(DTYPES)), repeat=2):
        decls.append(_tensor(f"p{i}_{j}", (2, 3), DTYPES[i]))
        decls.append(_tensor(f"q{i}_{j}", (3,), DTYPES[j]))
        cases.append(Case(f"p{i}_{j} @ q{i}_{j}", "matmul"))
    cases += [Case("b2 @ bm", "matmul"), Case("bm @ b2", "matmul"), Case("b2.mT @ b2", "matmul")]
    return decls, cases


def _where_and_logic_cases() -> tuple[list[str], list[Case]]:
    decls = [
        "c1 = tt.ones((4, 1), tt.bool_)",
        "c2 = tt.ones((3,), tt.bool_)",
        "c3 = tt.ones((2,), tt.bool_)",
    ]
    cases = []
    operands = ["0", "1.5", "True"]
    for k, dtype in enumerate(DTYPES):
        decls.append(_tensor(f"w{k}", (3,) if k % 2 else (4, 3), dtype))
        operands.append(f"w{k}")
    for cond in ("c1", "c2", "c3"):
        for x, y in itertools.product(operands, repeat=2):
            cases.append(Case(f"tt.where({cond}, {x}, {y})", "where"))
    for k in range(len(DTYPES)):
        for op in ("&", "|", "^"):
            for other in (f"w{(k * 5 + 1) % len(DTYPES)}", "1", "True", "2.0"):
                cases.append(Case(f"w{k} {op} {other}", "bitwise"))
        cases.append(Case(f"~w{k}", "bitwise"))
        for fn in ("isnan", "isfinite", "isinf"):
            cases.append(Case(f"tt.{fn}(w{k})", "bitwise"))
        target = DTYPES[(k * 7 + 3) % len(DTYPES)]
        cases.append(Case(f"w{k}.astype(tt.{target})", "astype"))
        cases.append(Case(f"tt.astype(w{k}, tt.{target})", "astype"))
    return decls, cases


def corpus() -> tuple[list[str], list[Case]]:
    lines, cases = list(PRELUDE), []
    for make in (_index_cases, _matmul_cases, _where_and_logic_cases):
        decls, more = make()
        lines += decls
        cases += more
    return lines, cases


def _parse(revealed: str) -> tuple[str | None, list[str] | None]:
    """``(dtype name or None for Any, dim texts or None for the unknown rank)``."""
    m = TENSOR_RE.match(revealed)
    if m is None:
        return "<not a Tensor: " + revealed + ">", None
    parts = [p.strip() for p in m.group(1).split(",") if p.strip()]
    dtype_text, dims = parts[0], parts[1:]
    dtype = None
    if dtype_text.startswith("typedtensor._dtypes."):
        dtype = dtype_text.rsplit(".", 1)[1]
        dtype = "bool" if dtype == "bool_" else dtype
    if any(d.startswith("*") for d in dims):
        return dtype, None
    return dtype, dims


def _dim_matches(text: str, size: int, allow_any: bool) -> bool:
    if text.startswith("Literal["):
        return int(text[len("Literal[") : -1]) == size
    if text.endswith(".Batch"):
        return size == BATCH
    return text == "Any" and allow_any


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Case], Messages]:
    lines, cases = corpus()
    tmp = tmp_path_factory.mktemp("agreement_li")
    return cases, check_reveal_corpus(tmp, "corpus_li", lines, [c.expr for c in cases])


def test_static_type_equals_runtime(checked: tuple[list[Case], Messages]) -> None:
    cases, by_line = checked
    lines, _ = corpus()
    namespace: dict[str, object] = {}
    exec("\n".join(lines), namespace)
    failures: list[str] = []
    n_ok = n_err = n_any = 0
    for index, case in enumerate(cases):
        msgs = by_line.get(index, [])
        reveals = [m for s, m, _ in msgs if s == "note" and m.startswith("Revealed type is ")]
        codes = {c for s, _, c in msgs if s == "error"}
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                value = eval(case.expr, namespace)
        except (IndexError, ValueError, TypeError) as err:
            if not any(c and c.startswith("typedtensor-") for c in codes):
                failures.append(f"{case.expr}: runtime {err!r}, plugin {msgs}")
            n_err += 1
            continue
        if codes:
            failures.append(f"{case.expr}: runtime ok {value.shape}, plugin errors {msgs}")
            continue
        assert len(reveals) == 1, (case.expr, msgs)
        dtype, dims = _parse(reveals[0][len('Revealed type is "') : -1])
        if dtype != value.dtype.name:
            failures.append(f"{case.expr}: static dtype {dtype} != runtime {value.dtype.name}")
        if dims is None:
            if not case.unknown_rank:
                failures.append(f"{case.expr}: unknown rank, runtime {value.shape}")
            n_any += 1
            continue
        if len(dims) != len(value.shape) or not all(
            _dim_matches(d, s, case.data_dependent) for d, s in zip(dims, value.shape, strict=True)
        ):
            failures.append(f"{case.expr}: static {dims} != runtime {value.shape}")
        n_any += any(d == "Any" for d in dims)
        n_ok += 1
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:40])
    assert n_ok > 800 and n_err > 100, (n_ok, n_err, n_any)
    assert n_any < n_ok // 10, (n_ok, n_any)  # mostly exact answers
