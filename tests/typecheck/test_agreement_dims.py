"""The plugin's dim expressions agree with numpy for several sizes of each symbol.

Each case is one expression over tensors whose dims are symbols (``B``, ``N``, ``D``, TypeVars
bound to int) and literals; mypy (plugin on) reveals its type once, and the expression is run
for every binding in ``BINDINGS`` (numpy does the work: the oracle):
- an exact answer: every dim of the revealed type (literal, symbol or expression, evaluated
  with the binding) equals the run-time size wherever the call succeeds; it may raise only
  where a division the rules took as exact (``ASSUMES``: a reshape's -1, a split) does not
  divide for that binding, the run-time check the reshape rule relies on;
- a ``typedtensor-shape`` error (provably different): the call raises for every binding;
- a ``typedtensor-symbolic`` error (not provable): the call raises for some binding.
"""

from __future__ import annotations

import re

import pytest

import typedtensor as tt

from .conftest import check_function_corpus, dim_value

BINDINGS = [
    {"B": b, "N": n, "D": d}
    for b, n, d in [(1, 1, 4), (2, 3, 8), (4, 1, 12), (6, 5, 6), (3, 2, 16)]
]
PARAMS = (
    "a: Tensor[tt.float32, B, L[10]], c: Tensor[tt.float32, N, L[10]], "
    "x: Tensor[tt.float32, B, D], y: Tensor[tt.float32, L[2], B]"
)
CASES = [
    "a.reshape(-1, 5)",
    "a.reshape(-1)",
    "a.reshape(a.shape[0] * 2, 5)",
    "a.reshape(-1, 4)",
    "tt.concatenate([a, c])",
    "tt.concatenate([a, c, a])",
    "tt.concatenate([a, a], axis=1)",
    "tt.concatenate([a, c], axis=1)",
    "tt.split(x, 4, axis=1)[0]",
    "tt.split(a, 2)[0]",
    "tt.split(tt.concatenate([a, a, a]), 3)[0]",
    "x.reshape(x.shape[0], 4, -1)",
    "x.reshape(x.shape[0], 4, -1).reshape(x.shape[0], -1)",
    "x.reshape(x.shape[0], 4, -1).transpose(0, 2, 1).reshape(x.shape[0], -1)",
    "x.reshape(-1, 3)",
    "y.reshape(6, 5)",
    "y.reshape(3, 5)",
    "y.reshape(-1)",
    "y.reshape(y.shape[1], 2)",
    "tt.squeeze(y, 1)",
    "tt.zeros((x.shape[1] + 1, 2))",
    "tt.ones((x.shape[0] * 3,))",
    "tt.full((2 * x.shape[0] - 1,), 1.0)",
    "tt.arange(x.shape[1])",
    "x.sum_to((x.shape[0], 1))",
    "tt.broadcast_to(a[:, :1], (a.shape[0], 7))",
    "tt.einsum('bd,be->de', x, a)",
    "tt.einsum('ij,ij->i', a, c)",
    "tt.einsum('ij,kj', a, c)",
    "a + c",
    "tt.concatenate([a, c]) + tt.concatenate([c, a])",
    "tt.concatenate([a, c]) * tt.concatenate([a, a])",
    "x @ tt.zeros((x.shape[1], 3))",
    "x.T @ tt.zeros((x.shape[1], 3))",
    # provably different (a shape error, raises for every binding) or not provable (symbolic)
    "tt.concatenate([a, a]) + tt.concatenate([a, a, tt.zeros((1, 10))])",
    "a + tt.concatenate([a, tt.zeros((1, 10))])",
    "tt.concatenate([a, a]) + tt.zeros((3, 10))",
    "x @ tt.zeros((x.shape[1] + 1, 3))",
    "tt.zeros((x.shape[0] * 2, 2, 2)) @ tt.zeros((x.shape[0] * 2 + 1, 2, 2))",
    "tt.einsum('ij,ij->i', tt.concatenate([a, a]), tt.concatenate([a, a, tt.zeros((1, 10))]))",
    "tt.einsum('ij,ij->i', a, tt.concatenate([a, tt.zeros((1, 10))]))",
    "tt.einsum('ii->i', tt.zeros((x.shape[0], x.shape[0] + 1)))",
    "tt.stack([a, tt.concatenate([a, a])])",
    "tt.stack([a, c])",
    # a -1 over a sum dim: the count divides by the polynomial B + N (the dims fuzz's find),
    # so the -1 is D and the matmul's inner dims D and D agree
    "tt.concatenate([x, tt.zeros((c.shape[0], x.shape[1]))]).reshape("
    "-1, x.shape[0] + c.shape[0]).T @ tt.zeros((x.shape[1], 2))",
    "tt.concatenate([a, c]).reshape(2, -1, a.shape[0] + c.shape[0])",
    # x.shape[i] // k as a value: tt.IntDiv, a floor division with no claim that k divides;
    # a reshape whose counts match once it is exact proves it (numpy checks the counts)
    "tt.zeros((x.shape[1] // 3, 2))",
    "tt.arange(x.shape[1] // x.shape[0])",
    "tt.zeros((x.shape[1] // 3 * 3,)) * 2 - 1",
    "x.reshape(x.shape[0], x.shape[1] // 4, 4)",
    "x.reshape(x.shape[0], x.shape[1] // 3, 3)",
    "x.reshape(x.shape[0], 4 * (x.shape[1] // 4))",
    "x.reshape(x.shape[0], x.shape[1] // 3, -1)",
    "x.reshape(x.shape[0], x.shape[1] // 4, 4).reshape(x.shape[0], -1) + x",
    # not provable: (D // 3) * 3 is D only where 3 divides D
    "tt.zeros((x.shape[1] // 3 * 3,)) + x[0]",
    "tt.zeros((x.shape[1] // 3, 3)).reshape(-1) + x[0]",
    "tt.zeros((x.shape[0], x.shape[1] // 3, 3)).reshape(x.shape[0], x.shape[1])",
    "x.reshape(x.shape[1] // 2, x.shape[1] // 2)",
]


@pytest.fixture(scope="module")
def revealed(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[tuple[str, str, str]]]:
    lines = [
        "from typing import Literal as L, TypeVar",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        'B = TypeVar("B", bound=int)',
        'N = TypeVar("N", bound=int)',
        'D = TypeVar("D", bound=int)',
    ]
    return check_function_corpus(
        tmp_path_factory.mktemp("agreement_dims"), "dims_mod", lines, PARAMS, CASES
    )


#: case -> the divisibility its exact answer assumes (numpy checks it at run time)
ASSUMES = {
    "a.reshape(-1, 4)": "10 * B % 4 == 0",
    "tt.split(x, 4, axis=1)[0]": "D % 4 == 0",
    "tt.split(a, 2)[0]": "B % 2 == 0",
    "x.reshape(x.shape[0], 4, -1)": "D % 4 == 0",
    "x.reshape(x.shape[0], 4, -1).reshape(x.shape[0], -1)": "D % 4 == 0",
    "x.reshape(x.shape[0], 4, -1).transpose(0, 2, 1).reshape(x.shape[0], -1)": "D % 4 == 0",
    "x.reshape(-1, 3)": "B * D % 3 == 0",
    "x.reshape(x.shape[0], x.shape[1] // 4, 4)": "D % 4 == 0",
    "x.reshape(x.shape[0], x.shape[1] // 3, 3)": "D % 3 == 0",
    "x.reshape(x.shape[0], 4 * (x.shape[1] // 4))": "D % 4 == 0",
    "x.reshape(x.shape[0], x.shape[1] // 3, -1)": "D % (D // 3) == 0",
    "x.reshape(x.shape[0], x.shape[1] // 4, 4).reshape(x.shape[0], -1) + x": "D % 4 == 0",
}


def _run(case: str, binding: dict[str, int]) -> object:
    b, n, d = binding["B"], binding["N"], binding["D"]
    namespace = {
        "tt": tt,
        "a": tt.zeros((b, 10), tt.float32),
        "c": tt.zeros((n, 10), tt.float32),
        "x": tt.zeros((b, d), tt.float32),
        "y": tt.zeros((2, b), tt.float32),
    }
    try:
        return eval(case, namespace).shape
    except (tt.ShapeError, ValueError) as err:
        return err


def _dims(revealed_type: str) -> list[str]:
    m = re.fullmatch(r"typedtensor\._tensor\.Tensor\[(.*)\]", revealed_type)
    assert m is not None, revealed_type
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(m.group(1) + ","):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append(m.group(1)[start:i].strip())
            start = i + 1
    return parts[1:]


@pytest.mark.parametrize("index", range(len(CASES)), ids=CASES)
def test_case_agrees_with_numpy(
    revealed: dict[int, list[tuple[str, str, str]]], index: int
) -> None:
    case, msgs = CASES[index], revealed.get(index, [])
    errors = [code for severity, _, code in msgs if severity == "error"]
    outcomes = [_run(case, b) for b in BINDINGS]
    raised = [isinstance(o, Exception) for o in outcomes]
    if errors:
        assert errors in (["typedtensor-shape"], ["typedtensor-symbolic"]), msgs
        if errors == ["typedtensor-shape"]:
            assert all(raised), (case, outcomes)
        else:
            assert any(raised), (case, outcomes)
        return
    (note,) = [m for s, m, _ in msgs if s == "note"]
    dims = _dims(note[len('Revealed type is "') : -1])
    assert not any(d == "Any" or d.startswith("*") for d in dims), (case, dims)
    for binding, outcome in zip(BINDINGS, outcomes, strict=True):
        holds = eval(ASSUMES.get(case, "True"), {}, dict(binding))
        if isinstance(outcome, Exception):
            assert not holds, (case, binding, outcome)
            continue
        assert holds, (case, binding, outcome)
        assert [dim_value(d, binding) for d in dims] == list(outcome), (case, binding, dims)
