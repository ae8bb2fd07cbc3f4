"""Random programs over literal and symbolic dims: the plugin's verdict equals numpy's.

Each case is a generic function whose tensors mix literal dims (1, 2, 3, 10), TypeVars (``B``,
``C``) and a ``tt.Dim`` marker (``N``), and one expression of reductions (with and without
``keepdims``) and elementwise ops, nested up to two levels. mypy (plugin on) checks all cases
once. The oracle substitutes every symbol of the case by every size 1..13 (independently: two
symbols may or may not be equal) and runs the expression's shapes through numpy:
- some substitution fails (numpy raises) -> the plugin must report an error on that line;
- every substitution succeeds -> the plugin must reveal an exact type (no ``Any``) whose dims,
  with the symbols substituted, equal numpy's result shape for every substitution.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from .conftest import assert_no_crash, run_mypy

SYMBOLS = ("B", "C", "N")
LITERALS = (1, 2, 3, 10)
SIZES = range(1, 14)
REDUCTIONS = ("sum", "mean", "max", "logsumexp")
OPERATORS = ("+", "-", "*", "/")
N_CASES = 240

Dim = Any  # an int (literal) or a symbol name


@dataclass(frozen=True)
class Case:
    params: tuple[tuple[Dim, ...], ...]  # the dims of x0, x1, ...
    expr: str  # over x0, x1, ...
    symbols: tuple[str, ...]


def _annotation(dim: Dim) -> str:
    return f"L[{dim}]" if isinstance(dim, int) else dim


class _Gen:
    """Expressions whose static rank is always known (so every axis is valid)."""

    def __init__(self, rng: random.Random, params: tuple[tuple[Dim, ...], ...]) -> None:
        self.rng = rng
        self.params = params

    def leaf(self) -> tuple[str, int]:
        i = self.rng.randrange(len(self.params))
        return f"x{i}", len(self.params[i])

    def reduced(self, expr: str, rank: int) -> tuple[str, int]:
        if rank == 0 or self.rng.random() < 0.4:
            return expr, rank
        op = self.rng.choice(REDUCTIONS)
        axis = self.rng.randrange(-rank, rank)
        keep = self.rng.random() < 0.4
        call = f"{expr}.{op}({axis}, keepdims=True)" if keep else f"{expr}.{op}({axis})"
        if self.rng.random() < 0.3:  # the functional spelling
            call = f"tt.{op}({expr}, {axis}, keepdims={keep})"
        return call, rank if keep else rank - 1

    def binary(self, depth: int) -> tuple[str, int]:
        a, ra = self.operand(depth)
        b, rb = self.operand(depth)
        if self.rng.random() < 0.2:
            fn = self.rng.choice(("maximum", "minimum"))
            return f"tt.{fn}({a}, {b})", max(ra, rb)
        return f"({a} {self.rng.choice(OPERATORS)} {b})", max(ra, rb)

    def operand(self, depth: int) -> tuple[str, int]:
        if depth > 0 and self.rng.random() < 0.35:
            return self.reduced(*self.binary(depth - 1))
        return self.reduced(*self.leaf())


def _case(rng: random.Random) -> Case:
    pool: list[Dim] = [*LITERALS, *SYMBOLS]
    weights = [2, 1, 1, 1, 3, 2, 2]
    params = tuple(
        tuple(rng.choices(pool, weights)[0] for _ in range(rng.randint(1, 3)))
        for _ in range(rng.randint(1, 3))
    )
    expr, _ = _Gen(rng, params).binary(depth=1)
    used = sorted({d for p in params for d in p if isinstance(d, str)})
    return Case(params, expr, tuple(used))


def cases() -> list[Case]:
    rng = random.Random(20261124)
    return [_case(rng) for _ in range(N_CASES)]


class _Shape:
    """A stand-in tensor that computes numpy's result shapes (numpy runs every rule)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.a = np.zeros(shape, np.float32)

    def _reduce(self, op: str) -> Callable[..., _Shape]:
        def run(axis: int, keepdims: bool = False) -> _Shape:
            out = _Shape(())
            out.a = getattr(np, "max" if op == "max" else "sum")(self.a, axis, keepdims=keepdims)
            return out

        return run

    def __getattr__(self, name: str) -> Any:
        if name in REDUCTIONS:
            return self._reduce(name)
        raise AttributeError(name)

    def _bin(self, other: _Shape) -> _Shape:
        out = _Shape(())
        out.a = np.zeros(np.broadcast_shapes(self.a.shape, other.a.shape), np.float32)
        return out

    __add__ = __sub__ = __mul__ = __truediv__ = _bin


class _Functions:
    """``tt.<op>`` for the oracle."""

    def __getattr__(self, name: str) -> Any:
        if name in ("maximum", "minimum"):
            return lambda a, b: a._bin(b)
        return lambda x, axis, keepdims=False: x._reduce(name)(axis, keepdims)


def _oracle(case: Case) -> list[tuple[dict[str, int], tuple[int, ...] | None]]:
    """Per substitution of the case's symbols: numpy's result shape, or None if it raises."""
    out = []
    for sizes in itertools.product(SIZES, repeat=len(case.symbols)):
        subst = dict(zip(case.symbols, sizes, strict=True))
        env: dict[str, Any] = {"tt": _Functions()}
        for i, dims in enumerate(case.params):
            env[f"x{i}"] = _Shape(tuple(subst.get(d, d) for d in dims))
        try:
            result: tuple[int, ...] | None = eval(case.expr, env).a.shape
        except ValueError:  # numpy: shapes that do not broadcast
            result = None
        out.append((subst, result))
    return out


def _program(all_cases: list[Case]) -> tuple[str, dict[int, int]]:
    lines = [
        "from typing import Literal as L, TypeVar",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        'B = TypeVar("B")',
        'C = TypeVar("C")',
        "class N(tt.Dim): ...",
    ]
    line_of: dict[int, int] = {}
    for k, case in enumerate(all_cases):
        params = ", ".join(
            f"x{i}: Tensor[tt.float32, {', '.join(map(_annotation, dims))}]"
            for i, dims in enumerate(case.params)
        )
        lines.append(f"def case_{k}({params}) -> None:")
        lines.append(f"    reveal_type({case.expr})")
        line_of[len(lines)] = k
    return "\n".join(lines) + "\n", line_of


REVEALED = re.compile(r'^Revealed type is "typedtensor\._tensor\.Tensor\[(.*)\]"$')


def _dims(revealed: str) -> list[str] | None:
    m = REVEALED.match(revealed)
    if m is None:
        return None
    parts = [p.strip() for p in m.group(1).split(",")]
    return parts[1:]


def _substitute(dim: str, subst: dict[str, int]) -> int | None:
    if dim.startswith("Literal[") and dim.endswith("]"):
        return int(dim[len("Literal[") : -1])
    name = dim.rsplit(".", 1)[-1]  # the marker is revealed as `symbolic_mod.N`
    return subst.get(name)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Case], dict[int, list[Any]]]:
    all_cases = cases()
    text, line_of = _program(all_cases)
    tmp = tmp_path_factory.mktemp("symbolic")
    (tmp / "symbolic_mod.py").write_text(text)
    result = run_mypy(
        ["--no-error-summary", "--cache-dir", str(tmp / "cache"), "symbolic_mod.py"], tmp
    )
    assert_no_crash(result)
    by_case: dict[int, list[Any]] = {}
    for line, severity, message, code in result.messages("symbolic_mod.py"):
        assert line in line_of, (line, message)
        by_case.setdefault(line_of[line], []).append((severity, message, code))
    return all_cases, by_case


def test_cases_mix_every_kind_of_dim() -> None:
    all_cases = cases()
    assert [c.expr for c in all_cases] == [c.expr for c in cases()]  # deterministic
    dims = {d for c in all_cases for p in c.params for d in p}
    assert dims == {*LITERALS, *SYMBOLS}
    assert sum("keepdims=True" in c.expr for c in all_cases) > 40
    assert sum("(" in c.expr and "keepdims" not in c.expr for c in all_cases) > 40


def test_plugin_verdict_equals_numpy_for_every_substitution(
    verdicts: tuple[list[Case], dict[int, list[Any]]],
) -> None:
    all_cases, by_case = verdicts
    failures: list[str] = []
    n_error = n_exact = 0
    for k, case in enumerate(all_cases):
        msgs = by_case.get(k, [])
        errors = [(m, c) for s, m, c in msgs if s == "error"]
        reveals = [m for s, m, _ in msgs if s == "note" and m.startswith("Revealed type is ")]
        oracle = _oracle(case)
        failing = [subst for subst, shape in oracle if shape is None]
        where = f"case_{k}{case.params}: {case.expr}"
        if failing:
            n_error += 1
            codes = {c for _, c in errors}
            if not codes & {"typedtensor-shape", "typedtensor-symbolic"}:
                failures.append(f"{where}: numpy fails for {failing[0]}, plugin {msgs}")
            continue
        if errors:
            failures.append(f"{where}: numpy succeeds for every size, plugin errors {errors}")
            continue
        n_exact += 1
        dims = _dims(reveals[0]) if len(reveals) == 1 else None
        if dims is None:
            failures.append(f"{where}: not an exact tensor type: {msgs}")
            continue
        for subst, shape in oracle:
            static = tuple(_substitute(d, subst) for d in dims)
            if static != shape:
                failures.append(f"{where}: {dims} with {subst} is {static}, numpy {shape}")
                break
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:30])
    assert n_error > 40 and n_exact > 40, (n_error, n_exact)
