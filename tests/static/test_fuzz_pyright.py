"""Pyright fuzz: generated programs, the run-time result as the oracle.

A seeded generator writes small programs (functions over tensors of random dtypes, ``Any``
included, ranks 0..6, ``Literal``/``Any``/TypeVar dims) that chain operators (tensor-tensor,
Python scalars on both sides), reductions (methods and ``tt.`` functions, ``axis`` ints and
tuples, ``keepdims``, ``dtype=``), the broadcasting functions (``tt.maximum``/``minimum``/``where``,
Python scalars among their operands), matrix products (``@``, ``tt.matmul``), shape operations
and constructors, each result revealed.
Pyright checks the module once; each program then runs with concrete sizes for its ``Any`` and
TypeVar dims (a TypeVar's size is substituted into the revealed type). Asserted: every exact
dtype pyright reveals is the run-time dtype, every exact shape (all dims ``Literal`` or a bound
TypeVar) the run-time shape, no ``Never`` dim for a statement that runs, a statement that
raises at run time gets no exact answer (in a program without ``Any``), and no statement that
runs gets a pyright error (no false errors).

The default run checks ``PROGRAMS`` programs (about a minute); ``TYPEDTENSOR_PYRIGHT_FUZZ=<n>`` checks
``n`` programs per seed and ``TYPEDTENSOR_PYRIGHT_FUZZ_SEEDS=<k>`` ``k`` seeds (docs/stubs.md).
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _rules as rules

from ._run import pyright

pytestmark = pytest.mark.slow

PROGRAMS = int(os.environ.get("TYPEDTENSOR_PYRIGHT_FUZZ", "150"))
SEEDS = range(int(os.environ.get("TYPEDTENSOR_PYRIGHT_FUZZ_SEEDS", "1")))
DTYPES = [("bool_" if n == "bool" else n) for n in rules.DTYPE_NAMES]
SYMBOLS = {"B": 5, "C": 6}  # TypeVar dims and their run-time sizes (no literal dim is 5 or 6)
OPERATORS = ("+", "-", "*", "/", "**", "<", "==", "!=", "&", "|", "^")
REDUCTIONS = ("sum", "prod", "mean", "var", "std", "max", "min", "any", "all", "argmax")
WITH_DTYPE = ("sum", "prod", "mean", "var", "std")
Outcome = tuple[str, tuple[int, ...]] | None | str
DIM = re.compile(r"Literal\[(\d+)\]|([A-Z]\w*)")


@dataclass
class Program:
    """One function: its parameters (name -> (dtype or None for Any, dims)) and statements."""

    params: dict[str, tuple[str | None, tuple[int | str, ...]]]
    statements: list[tuple[str, str]] = field(default_factory=list)  # (target, expression)

    def is_static(self) -> bool:
        """No ``Any`` dtype or dim in the parameters (a run-time error is then no accident of
        the sizes picked for them)."""
        return all(dt is not None and "?" not in dims for dt, dims in self.params.values())


def _dims(rng: random.Random) -> tuple[int | str, ...]:
    """A parameter's dims: a literal size (1..4, 1 often), ``"?"`` (``Any``) or a symbol."""
    rank = rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6))
    pool: list[int | str] = [1, 1, 2, 3, 4, "?", "?", *SYMBOLS]
    return tuple(rng.choice(pool) for _ in range(rank))


def _partner(rng: random.Random, dims: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Dims that may broadcast with ``dims``: a suffix with some dims 1 or ``Any``, maybe longer."""
    k = rng.randint(0, len(dims))
    out = [rng.choice((1, "?", d)) if rng.random() < 0.4 else d for d in dims[len(dims) - k :]]
    if rng.random() < 0.2:
        out = [rng.choice((1, 2, "?")), *dims]
    return tuple(out)


def _axis(rng: random.Random, rank: int) -> str:
    """An ``axis`` argument: an int, a tuple (possibly unsorted, negative), ``None`` or ``()``."""
    r = rng.random()
    if rank == 0 or r < 0.15:
        return rng.choice(("None", "()"))
    if r < 0.6:
        return str(rng.randint(-rank, rank - 1))
    k = rng.randint(1, min(rank, 4))
    axes = rng.sample(range(rank), k)
    return "(" + ", ".join(str(a - rank if rng.random() < 0.3 else a) for a in axes) + ",)"


def _reduction(rng: random.Random, x: str, rank: int) -> str:
    name = rng.choice(REDUCTIONS)
    args = [_axis(rng, rank)] if rng.random() < 0.85 else []
    if rng.random() < 0.4:
        args.append(f"keepdims={rng.random() < 0.5}")
    if name in WITH_DTYPE and rng.random() < 0.3:
        args.append(f"dtype=tt.{rng.choice(('float32', 'float64', 'complex128', 'int64'))}")
    if rng.random() < 0.3 and name != "argmax":
        return f"tt.{name}({', '.join([x, *args])})"
    return f"{x}.{name}({', '.join(args)})"


def _shape_op(rng: random.Random, x: str, rank: int) -> str:
    ops = [f"tt.expand_dims({x}, {rng.randint(-rank - 1, rank)})"]
    if rank >= 2:
        ops += [f"{x}.T", f"tt.matrix_transpose({x})", f"tt.swapaxes({x}, 0, -1)"]
    if rank >= 1:
        ops += [f"tt.squeeze({x}, {rng.randint(-rank, rank - 1)})"]
    return rng.choice(ops)


def _broadcast_fn(rng: random.Random, ranks: dict[str, int]) -> tuple[str, int | None]:
    """A broadcasting function of two or three operands (``tt.maximum``/``minimum``/``where``,
    a Python scalar for some), or a matrix product (``@``, ``tt.matmul``); with its rank."""
    names = list(ranks)
    x, y, c = rng.choice(names), rng.choice(names), rng.choice(names)
    if rng.random() < 0.5:  # the parameters that broadcast together (``_partner``)
        x, y = rng.sample(["a", "b"], 2)
        c = rng.choice((c, x, y))
    scalar = rng.choice(("True", "2", "2.5"))
    r = rng.random()
    if r < 0.4:
        name = rng.choice(("maximum", "minimum"))
        if rng.random() < 0.25:
            args = (scalar, x) if rng.random() < 0.4 else (x, scalar)
            return f"tt.{name}({', '.join(args)})", ranks[x]
        return f"tt.{name}({x}, {y})", max(ranks[x], ranks[y])
    if r < 0.75:
        cond = rng.choice((c, f"{c} < {x}", f"{c} != 1"))
        rank = max(ranks[c], ranks[x])
        if rng.random() < 0.25:
            args = (scalar, x) if rng.random() < 0.4 else (x, scalar)
            return f"tt.where({cond}, {', '.join(args)})", rank
        return f"tt.where({cond}, {x}, {y})", max(rank, ranks[y])
    if ranks[y] >= 2 and rng.random() < 0.6:  # inner dims that may match: y's partner's
        y = f"tt.matrix_transpose({y})"
    return (f"{x} @ {y}" if rng.random() < 0.5 else f"tt.matmul({x}, {y})"), None


def program(rng: random.Random) -> Program:
    """A random program: two or three parameters, then five to eight statements."""
    first = _dims(rng)
    params = {"a": (rng.choice([None, *DTYPES]), first)}
    params["b"] = (rng.choice([params["a"][0], None, *DTYPES]), _partner(rng, first))
    if rng.random() < 0.5:
        params["c"] = (rng.choice([None, *DTYPES]), _dims(rng))
    prog = Program(params)
    ranks = {n: len(d) for n, (_, d) in params.items()}
    for i in range(rng.randint(5, 8)):
        names = list(ranks)
        x, y = rng.choice(names), rng.choice(names)
        r = rng.random()
        if r < 0.4:
            expr = f"{x} {rng.choice(OPERATORS)} {y}"
            rank: int | None = max(ranks[x], ranks[y])  # broadcast: the larger rank
        elif r < 0.55:
            scalar = rng.choice(("True", "2", "2.5", "1j"))
            op = rng.choice(OPERATORS[:6])
            expr = f"{scalar} {op} {x}" if rng.random() < 0.4 else f"{x} {op} {scalar}"
            rank = ranks[x]
        elif r < 0.7:
            expr = _reduction(rng, x, ranks[x])
            rank = None
        elif r < 0.85:
            expr, rank = _broadcast_fn(rng, ranks)
        elif r < 0.95:
            expr = _shape_op(rng, x, ranks[x])
            rank = None
        else:
            shape = tuple(rng.choice((1, 2, 3)) for _ in range(rng.randint(0, 6)))
            expr = f"tt.zeros({shape!r}, tt.{rng.choice(DTYPES)})"
            rank = len(shape)
        target = f"v{i}"
        prog.statements.append((target, expr))
        if rank is not None:
            ranks[target] = rank
    return prog


def _annotation(dtype: str | None, dims: tuple[int | str, ...]) -> str:
    parts = ["Any" if dtype is None else f"tt.{dtype}"]
    parts += ["Any" if d == "?" else d if isinstance(d, str) else f"L[{d}]" for d in dims]
    return f"Tensor[{', '.join(parts)}]"


def render(programs: list[Program]) -> tuple[str, dict[int, tuple[int, int]]]:
    """The module and, per line, (program, statement) of a statement or of its reveal."""
    lines = [
        "from typing import Any, Literal as L, TypeVar",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        *(f'{s} = TypeVar("{s}")' for s in SYMBOLS),
    ]
    where: dict[int, tuple[int, int]] = {}
    for p, prog in enumerate(programs):
        params = ", ".join(f"{n}: {_annotation(*spec)}" for n, spec in prog.params.items())
        lines.append(f"def p{p}({params}) -> None:")
        for s, (target, expr) in enumerate(prog.statements):
            lines.append(f"    {target} = {expr}")
            where[len(lines)] = (p, s)
            lines.append(f"    reveal_type({target})")
            where[len(lines)] = (p, s)
    return "\n".join(lines) + "\n", where


def _size(d: int | str, rng: random.Random) -> int:
    if isinstance(d, int):
        return d
    return SYMBOLS[d] if d in SYMBOLS else rng.choice((1, 2, 3))


def run(prog: Program, rng: random.Random) -> list[Outcome]:
    """Each statement's run-time (dtype, shape), None where it raised, ``"skipped"`` where
    what it uses raised."""
    ns: dict[str, Any] = {"tt": tt}
    for name, (dtype, dims) in prog.params.items():
        dt = dtype or rng.choice(DTYPES)
        shape = tuple(_size(d, rng) for d in dims)
        ns[name] = tt.asarray(np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % 3)
        ns[name] = ns[name].astype(getattr(tt, dt))
    out: list[Outcome] = []
    for target, expr in prog.statements:
        try:
            value = eval(expr, ns)
        except NameError:  # an input raised before: nothing to check
            out.append("skipped")
            continue
        except Exception:
            out.append(None)
            continue
        ns[target] = value
        out.append((str(value.dtype.name), tuple(value.shape)) if hasattr(value, "dtype") else None)
    return out


def claims(revealed: str) -> tuple[str | None, tuple[int, ...] | None]:
    """What a revealed type claims: a concrete dtype name, the dims (TypeVars substituted)."""
    m = re.fullmatch(r"Tensor\[(.*)\]", revealed)
    if not m:
        return None, None
    dtype, *dims = (p.strip() for p in m.group(1).split(","))
    name = "bool" if dtype == "bool_" else dtype
    exact_dtype = name if name in rules.DTYPE_NAMES else None
    sizes = []
    for d in dims:
        dm = DIM.fullmatch(d)
        if not dm or (dm.group(2) and dm.group(2) not in SYMBOLS):
            return exact_dtype, None
        sizes.append(int(dm.group(1)) if dm.group(1) else SYMBOLS[dm.group(2)])
    return exact_dtype, tuple(sizes)


def check(seed: int, n: int, tmp: Path) -> tuple[list[str], dict[str, int]]:
    """Problems found over ``n`` programs of ``seed``, and counts of what was checked."""
    rng = random.Random(seed)
    programs = [program(rng) for _ in range(n)]
    text, where = render(programs)
    (tmp / "fuzz_mod.py").write_text(text)
    (tmp / "pyrightconfig.json").write_text(json.dumps({"reportDeprecated": "error"}))
    report = pyright(["-p", str(tmp / "pyrightconfig.json"), str(tmp / "fuzz_mod.py")], tmp)
    types: dict[tuple[int, int], str] = {}
    errors: dict[tuple[int, int], str] = {}
    for d in report["generalDiagnostics"]:  # type: ignore[attr-defined]
        key = where.get(d["range"]["start"]["line"] + 1)
        if key is None:
            errors[(-1, d["range"]["start"]["line"] + 1)] = d["message"]
        elif d["severity"] == "information" and d["message"].startswith("Type of "):
            types[key] = d["message"].rsplit('" is "', 1)[1][:-1]
        elif d["severity"] == "error" or d.get("rule") == "reportDeprecated":
            errors[key] = d["message"].splitlines()[0]
    problems = [f"line {k[1]}: {m}" for k, m in errors.items() if k[0] == -1]
    counts = {"statements": 0, "ran": 0, "exact dtype": 0, "exact shape": 0}
    for p, prog in enumerate(programs):
        results = run(prog, random.Random(seed * 100_003 + p))
        for s, ((target, expr), result) in enumerate(zip(prog.statements, results, strict=True)):
            counts["statements"] += 1
            dtype, shape = claims(types.get((p, s), ""))
            where_ = f"p{p} {target} = {expr}: pyright {types.get((p, s))}"
            if result == "skipped":
                continue
            if result is None:  # gradual: an Any dim or dtype may be what makes it raise
                if dtype is not None and shape is not None and prog.is_static():
                    problems.append(f"{where_}, raises at run time")
                continue
            assert isinstance(result, tuple)
            counts["ran"] += 1
            if (p, s) in errors:
                problems.append(f"{where_}, runs, but pyright reports {errors[(p, s)]}")
            if "Never" in types.get((p, s), ""):  # a dim no size has: wrong, not unknown
                problems.append(f"{where_}, runs, but pyright's type has Never")
            if dtype is not None:
                counts["exact dtype"] += 1
                if dtype != result[0]:
                    problems.append(f"{where_}, run-time dtype {result[0]}")
            if shape is not None:
                counts["exact shape"] += 1
                if shape != result[1]:
                    problems.append(f"{where_}, run-time shape {result[1]}")
    return problems, counts


@pytest.mark.parametrize("seed", SEEDS)
def test_no_wrong_exact_answer_nor_false_error(seed: int, tmp_path: Path) -> None:
    problems, counts = check(seed, PROGRAMS, tmp_path)
    print(f"\npyright fuzz seed {seed}: {counts}, {len(problems)} problems")
    assert problems == [], "\n".join(problems[:40])
    # the fuzz must check something: most statements run, many answers are exact
    assert counts["ran"] > counts["statements"] // 3
    assert counts["exact shape"] > counts["ran"] // 4
