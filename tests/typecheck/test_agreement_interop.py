"""The plugin's static type of numpy interop and of the standard's elementwise functions equals
numpy's runtime answer, case by case (numpy is the oracle; nothing here computes an expected
dtype): Tensor operators with a numpy scalar on either side (NEP 50: a numpy scalar is not
weak), ``-`` between tensors of every dtype pair, and every function of
``typedtensor.elementwise_math`` on every dtype (with a tensor, a Python scalar and a numpy
scalar as the other operand).

One generated module holds every case as ``reveal_type(<expr>)``; mypy (plugin on) checks it
once, then each expression is evaluated: where it succeeds the revealed type is a Tensor of the
runtime dtype and shape (exactly: no ``Any``); where it raises a TypeError,
mypy reports a ``typedtensor-*`` error on that line (or, for a numpy scalar on the left,
numpy's stubs their ``operator`` error).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pytest

from typedtensor import _rules as rules

from .conftest import check_reveal_corpus
from .test_agreement_linalg_indexing import _parse

DTYPES = list(rules.DTYPE_NAMES)
Messages = dict[int, list[tuple[str, str, "str | None"]]]
OPERATORS = ("+", "-", "*", "/", "<", "&", "|", "^")
SCALARS = ("True", "2", "0.5", "0.5j")


@dataclass(frozen=True)
class Case:
    expr: str


def _cls(d: str) -> str:
    return "bool_" if d == "bool" else d


def corpus() -> tuple[list[str], list[Case]]:
    lines = ["import numpy as np", "import typedtensor as tt"]
    for d in DTYPES:
        lines.append(f"t_{d} = tt.ones((2, 3), tt.{_cls(d)})")
        lines.append(f"v_{d} = tt.ones((3,), tt.{_cls(d)})")
        lines.append(f"s_{d} = np.{_cls(d)}(1)")
    cases: list[Case] = []
    for d in DTYPES:
        for s in DTYPES:
            for op in OPERATORS:
                cases.append(Case(f"t_{d} {op} s_{s}"))
                cases.append(Case(f"s_{s} {op} t_{d}"))
            cases.append(Case(f"t_{d} - v_{s}"))
    for fn in rules.UNARY_FUNCTIONS:
        cases += [Case(f"tt.{fn}(t_{d})") for d in DTYPES]
    for fn in rules.BINARY_FUNCTIONS:
        cases += [Case(f"tt.{fn}(t_{d}, v_float32)") for d in DTYPES]
        cases += [Case(f"tt.{fn}(v_{d}, t_int16)") for d in DTYPES]
        cases += [
            Case(f"tt.{fn}(t_{d}, {s})") for d in ("bool", "uint8", "float32") for s in SCALARS
        ]
        cases += [Case(f"tt.{fn}(t_{d}, s_int64)") for d in ("bool", "int8", "float16")]
    for alias in ("arctan2", "power", "left_shift", "arccos"):
        args = "t_int8" if alias == "arccos" else "t_int8, v_int16"
        cases.append(Case(f"tt.{alias}({args})"))
    cases += [Case(f"tt.round(t_{d})") for d in DTYPES]
    return lines, cases


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Case], Messages]:
    lines, cases = corpus()
    tmp = tmp_path_factory.mktemp("agreement_interop")
    return cases, check_reveal_corpus(tmp, "corpus_interop", lines, [c.expr for c in cases])


def test_static_type_equals_runtime(checked: tuple[list[Case], Messages]) -> None:
    cases, by_line = checked
    lines, _ = corpus()
    namespace: dict[str, object] = {}
    exec("\n".join(lines), namespace)
    failures: list[str] = []
    n_ok = n_err = 0
    for index, case in enumerate(cases):
        msgs = by_line.get(index, [])
        reveals = [m for s, m, _ in msgs if s == "note" and m.startswith("Revealed type is ")]
        codes = {c for s, _, c in msgs if s == "error"}
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = eval(case.expr, namespace)
        except TypeError as err:
            # numpy's stubs reject some numpy scalar operands themselves (code ``operator``)
            if not any(c and (c.startswith("typedtensor-") or c == "operator") for c in codes):
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
        shown = None if dims is None else [int(d[len("Literal[") : -1]) for d in dims]
        if shown is None or tuple(shown) != value.shape:
            failures.append(f"{case.expr}: static dims {dims} != runtime {value.shape}")
        n_ok += 1
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:40])
    assert n_ok > 3500 and n_err > 400, (n_ok, n_err)
