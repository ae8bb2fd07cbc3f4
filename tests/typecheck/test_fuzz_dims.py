"""Expression-dim fuzz: generated programs over symbolic dims, the run-time result as the oracle.

A seeded generator writes small functions over tensors whose dims are symbols (``B``, ``N``,
``D``: TypeVars bound to int), literals and annotated expressions (``tt.Mul[L[2], B]``), whose
statements use the operations that produce dim expressions: reshape with ``-1``, head splits and
merges, ``concatenate``/``stack``/``split``, ``x.shape[i]`` arithmetic (as values, in
constructors, ``reshape``, ``broadcast_to`` and ``sum_to``), ``einsum``, matmul, and broadcasting
against such results; each result is revealed. mypy with the plugin checks the module once; each
program then runs (numpy backend) for every binding in ``BINDINGS``. Asserted:
- no plugin crash (``TYPEDTENSOR_MYPY_DEBUG=1``: a hook that raises crashes mypy);
- no wrong exact type: every exact dim (literal, symbol or expression, evaluated at the binding)
  and every exact dtype is the run-time one; a statement with an exact shape raises only where a
  floor division in that shape does not divide (the reshape/split rule: numpy checks it);
- no false error: a ``typedtensor-shape`` (provably wrong) or non-typedtensor error only on a
  statement that raises at every binding, a ``typedtensor-symbolic`` one only on a statement
  that raises at some binding.

The default run checks ``PROGRAMS`` programs; ``TYPEDTENSOR_DIMS_FUZZ=<n>`` checks ``n``
programs per seed and ``TYPEDTENSOR_DIMS_FUZZ_SEEDS=<k>`` ``k`` seeds (docs/dims.md).
"""

from __future__ import annotations

import operator
import os
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import typedtensor as tt

from .conftest import assert_no_crash, run_mypy

pytestmark = pytest.mark.slow

PROGRAMS = int(os.environ.get("TYPEDTENSOR_DIMS_FUZZ", "100"))
SEEDS = range(int(os.environ.get("TYPEDTENSOR_DIMS_FUZZ_SEEDS", "1")))
SYMBOLS = ("B", "N", "D")
#: the sizes each program runs at: B == N once, odd and even sizes, D not always a multiple of 3;
#: an ``Any`` dim of a parameter is the last size (not 1 where B or N is 1: a symbol at 1
#: stretches to it)
BINDINGS = [
    dict(zip((*SYMBOLS, "Any"), sizes, strict=True))
    for sizes in [
        *((1, 1, 4, 3), (2, 3, 8, 2), (4, 1, 12, 4)),
        *((6, 5, 6, 6), (3, 2, 16, 1), (5, 5, 10, 5)),
    ]
]
#: a parameter's dims: symbols (often), literals, annotated expressions and an unknown size
DIM_POOL = [
    *("B", "B", "N", "D", "D", "Any"),
    *("L[1]", "L[2]", "L[3]", "L[4]", "L[6]"),
    *("tt.Mul[L[2], B]", "tt.Add[N, L[1]]", "tt.FloorDiv[D, L[2]]", "tt.Mul[B, D]"),
]
DTYPES = ("float32", "float64", "int64")


@dataclass
class Program:
    """One function: parameters (name -> (dtype, dims)), then ``(target, expression)``s."""

    params: dict[str, tuple[str, tuple[str, ...]]]
    statements: list[tuple[str, str]] = field(default_factory=list)

    @property
    def targets(self) -> list[str]:
        return [target for target, _ in self.statements]


def _size_term(rng: random.Random, tensors: dict[str, int], ints: list[str]) -> str:
    """An ``int`` expression a program has in hand: a size, a size computed from sizes, a
    literal or an int variable."""
    x = rng.choice(list(tensors))
    if tensors[x] == 0 or rng.random() < 0.1:
        return rng.choice(ints) if ints and rng.random() < 0.6 else str(rng.randint(1, 4))
    i = rng.randrange(tensors[x])
    size = f"{x}.shape[{i}]"
    y = rng.choice(list(tensors))
    other = f"{y}.shape[{rng.randrange(tensors[y])}]" if tensors[y] else "2"
    return rng.choice(
        [size, size, f"{size} + 1", f"2 * {size}", f"{size} * 3", f"{size} - 1"]
        + [f"{size} + {other}", f"{size} * {other}", f"{size} // 2", f"{size} // 3"]
        + ([rng.choice(ints)] if ints else [])
    )


def _shape(rng: random.Random, tensors: dict[str, int], ints: list[str], rank: int) -> str:
    items = [_size_term(rng, tensors, ints) for _ in range(rank)]
    return "(" + ", ".join(items) + ("," if rank == 1 else "") + ")"


def _same_shape_target(rng: random.Random, x: str, rank: int) -> tuple[str, int]:
    """A reshape of ``x`` that keeps, merges or splits its sizes (head split/merge, -1)."""
    sizes = [f"{x}.shape[{i}]" for i in range(rank)]
    r = rng.random()
    if r < 0.3 and rank >= 1:  # head split of one axis: (..., h, -1, ...) or by value
        i, h = rng.randrange(rank), rng.choice((1, 2, 3, 4))
        split = rng.choice([[str(h), "-1"], [f"{sizes[i]} // {h}", str(h)]])
        parts = [*sizes[:i], *split, *sizes[i + 1 :]]
    elif r < 0.6 and rank >= 2:  # merge two neighbours, by product or by -1
        i = rng.randrange(rank - 1)
        merged = rng.choice([f"{sizes[i]} * {sizes[i + 1]}", "-1"])
        parts = [*sizes[:i], merged, *sizes[i + 2 :]]
    elif r < 0.8:
        k = rng.choice((1, 2, 3, 4, 5))
        parts = rng.choice([["-1", str(k)], [str(k), "-1"], ["-1"]])
    else:  # the sizes permuted (same product, other order), or one off
        parts = rng.sample(sizes, rank) if rank else []
        if parts and rng.random() < 0.3:
            parts[0] = f"{parts[0]} + 1"
    return ", ".join(parts), len(parts)


def _einsum(rng: random.Random, x: str, rx: int, y: str, ry: int) -> tuple[str, int | None]:
    """Random subscripts over ``x`` (and maybe ``y``): shared labels contract or broadcast."""
    labels = "ijkl"
    sx = "".join(rng.choice(labels[: max(rx, 2)]) for _ in range(rx))
    if ry == 0 or rng.random() < 0.3:
        if rng.random() < 0.5:  # implicit output
            return f"tt.einsum('{sx}', {x})", None
        out = "".join(sorted(set(sx), key=lambda _: rng.random()))[: rng.randint(0, len(set(sx)))]
        return f"tt.einsum('{sx}->{out}', {x})", len(out)
    sy = "".join(rng.choice(labels[: max(ry, 2)]) for _ in range(ry))
    present = sorted(set(sx + sy))
    out = "".join(rng.sample(present, rng.randint(0, len(present))))
    if rng.random() < 0.3:
        return f"tt.einsum('{sx},{sy}', {x}, {y})", None
    return f"tt.einsum('{sx},{sy}->{out}', {x}, {y})", len(out)


def _matmul_rank(rx: int, ry: int) -> int | None:
    if rx == 0 or ry == 0:
        return None
    if rx == 1 and ry == 1:
        return 0
    if rx == 1 or ry == 1:
        return max(rx, ry) - 1
    return max(rx, ry)


def _statement(
    rng: random.Random, tensors: dict[str, int], ints: list[str]
) -> tuple[str, int | None, bool]:
    """An expression, the rank of its result if a tensor (None: unknown, not reused) and
    whether it is an ``int``."""
    x = rng.choice(list(tensors))
    rx = tensors[x]
    same_rank = [n for n, r in tensors.items() if r == rx]
    y = rng.choice(same_rank) if rng.random() < 0.7 else rng.choice(list(tensors))
    ry = tensors[y]
    r = rng.random()
    if r < 0.2:
        target, rank = _same_shape_target(rng, x, rx)
        return f"{x}.reshape({target})", rank, False
    if r < 0.3 and rx >= 1:
        axis = rng.randrange(rx)
        other = y if rng.random() < 0.6 and ry == rx else x
        fn = rng.choice(["concatenate", "concatenate", "stack"])
        if fn == "stack":
            return f"tt.stack([{x}, {other}], axis={rng.randint(0, rx)})", rx + 1, False
        return f"tt.concatenate([{x}, {other}], axis={axis})", rx, False
    if r < 0.37 and rx >= 1:
        k = rng.choice((1, 2, 3, 4))
        return f"tt.split({x}, {k}, axis={rng.randrange(rx)})[{rng.randrange(k)}]", rx, False
    if r < 0.47:
        rank = rng.randint(1, 3)
        fn = rng.choice(["zeros", "ones", "full", "arange", "reshape", "broadcast_to"])
        shape = _shape(rng, tensors, ints, rank)
        if fn == "arange":
            return f"tt.arange({_size_term(rng, tensors, ints)})", 1, False
        if fn == "full":
            return f"tt.full({shape}, 1.5)", rank, False
        if fn == "reshape":
            return f"tt.reshape({x}, {shape})", rank, False
        if fn == "broadcast_to":
            return f"tt.broadcast_to({x}, {shape})", rank, False
        return f"tt.{fn}({shape}, tt.{rng.choice(DTYPES)})", rank, False
    if r < 0.55 and rx >= 1:  # broadcast_to against the operand's own sizes, maybe a new axis
        sizes = [f"{x}.shape[{i}]" for i in range(rx)]
        if rng.random() < 0.5:
            sizes.insert(0, _size_term(rng, tensors, ints))
        return f"tt.broadcast_to({x}, ({', '.join(sizes)},))", len(sizes), False
    if r < 0.62:
        return (*_einsum(rng, x, rx, y, ry), False)
    if r < 0.65 and rx >= 1:  # '...' broadcasting over the leading dims
        if ry >= 1 and rng.random() < 0.5:
            return f"tt.einsum('...i,...i->...', {x}, {y})", None, False
        return f"tt.einsum('...i->i...', {x})", rx, False
    if r < 0.72:
        return f"{x} @ {y}", _matmul_rank(rx, ry), False
    if r < 0.85:
        op = rng.choice(["+", "*", "-"])
        return f"{x} {op} {y}", max(rx, ry), False
    if r < 0.92:
        return _size_term(rng, tensors, ints), None, True
    if rx >= 2 and rng.random() < 0.5:
        if rng.random() < 0.5:
            i, j = rng.sample(range(rx), 2)
            return f"tt.swapaxes({x}, {i}, {j})", rx, False
        perm = ", ".join(map(str, rng.sample(range(rx), rx)))
        return f"{x}.transpose({perm})", rx, False
    if rx >= 1 and rng.random() < 0.5:
        keep = sorted(rng.sample(range(rx), rng.randint(1, rx)))
        shape = ", ".join(f"{x}.shape[{i}]" if i in keep else "1" for i in range(rx))
        return f"{x}.sum_to(({shape},))", rx, False
    return f"tt.expand_dims({x}, {rng.randint(0, rx)})", rx + 1, False


def program(rng: random.Random) -> Program:
    """Two or three parameters of rank 1..3, then six to ten statements."""
    params = {
        name: (rng.choice(DTYPES), tuple(rng.choice(DIM_POOL) for _ in range(rng.randint(1, 3))))
        for name in "abc"[: rng.randint(2, 3)]
    }
    prog = Program(params)
    tensors = {name: len(dims) for name, (_, dims) in params.items()}
    ints: list[str] = []
    for i in range(rng.randint(6, 10)):
        expr, rank, is_int = _statement(rng, tensors, ints)
        target = f"v{i}"
        prog.statements.append((target, expr))
        if is_int:
            ints.append(target)
        elif rank is not None and rank <= 4:
            tensors[target] = rank
    return prog


def render(programs: list[Program]) -> tuple[str, dict[int, tuple[int, int]]]:
    """The module and, per line, the (program, statement) it belongs to."""
    lines = [
        "from typing import Any, Literal as L, TypeVar",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        *(f'{s} = TypeVar("{s}", bound=int)' for s in SYMBOLS),
    ]
    where: dict[int, tuple[int, int]] = {}
    for p, prog in enumerate(programs):
        params = ", ".join(
            f"{n}: Tensor[{', '.join([f'tt.{dt}', *dims])}]"
            for n, (dt, dims) in prog.params.items()
        )
        lines.append(f"def p{p}({params}) -> None:")
        for s, (target, expr) in enumerate(prog.statements):
            lines.append(f"    {target} = {expr}")
            where[len(lines)] = (p, s)
            lines.append(f"    reveal_type({target})")
            where[len(lines)] = (p, s)
    return "\n".join(lines) + "\n", where


class _Dim:
    """``Name[a, b]`` of a revealed dim, evaluated; ``inexact`` notes a division that leaves a
    remainder."""

    def __init__(
        self, apply: Any, inexact: list[bool] | None = None, remainder_ok: bool = False
    ) -> None:
        self.apply, self.inexact, self.remainder_ok = apply, inexact, remainder_ok

    def __getitem__(self, args: Any) -> int:
        args = args if isinstance(args, tuple) else (args,)
        if self.inexact is not None and (
            args[1] == 0 or (not self.remainder_ok and args[0] % args[1])
        ):
            self.inexact.append(True)  # a -1 solved by a size that is 0 here: numpy raises
            if args[1] == 0:
                return 0
        return int(self.apply(*args))


def evaluate(dim: str, binding: dict[str, int]) -> tuple[int, bool]:
    """A revealed dim's value at ``binding`` and whether a floor division in it leaves a
    remainder (``typedtensor._dims.FloorDiv[D, Literal[4]]`` at ``D = 6``: ``(1, True)``)."""
    inexact: list[bool] = []
    names: dict[str, Any] = {
        "Add": _Dim(operator.add),
        "Sub": _Dim(operator.sub),
        "Mul": _Dim(operator.mul),
        "FloorDiv": _Dim(operator.floordiv, inexact),
        "IntDiv": _Dim(operator.floordiv, inexact, remainder_ok=True),  # only 0 raises
        "Literal": _Dim(int),
        "L": _Dim(int),
        **binding,
    }
    text = re.sub(r"typedtensor\._dims\.", "", dim).rstrip("?")
    return int(eval(text, {"__builtins__": {}}, names)), bool(inexact)


def _split_args(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return parts


def claims(revealed: str) -> tuple[str | None, list[str | None] | None]:
    """A revealed tensor type's exact dtype name and per-dim claims (``None``: ``Any``); no
    dims for an unknown rank. An ``int`` type is one claim (``None`` for plain ``int``)."""
    m = re.fullmatch(r"typedtensor\._tensor\.Tensor\[(.*)\]", revealed)
    if m is None:
        return None, [None if revealed in ("int", "builtins.int", "Any") else revealed]
    dtype, *dims = _split_args(m.group(1))
    exact_dtype = dtype.removeprefix("typedtensor._dtypes.") if "_dtypes." in dtype else None
    if any(d.startswith("*") for d in dims):
        return exact_dtype, None
    return exact_dtype, [None if d == "Any" else d for d in dims]


Outcome = tuple[str, tuple[int, ...]] | int | Exception | None  # None: an input raised


def run(prog: Program, binding: dict[str, int]) -> list[Outcome]:
    """Each statement's run-time (dtype, shape) or int, the exception it raised, or None where
    an input raised."""
    ns: dict[str, Any] = {"tt": tt}
    for name, (dtype, dims) in prog.params.items():
        annotated = [d if d in SYMBOLS else re.sub(r"\btt\.", "", d) for d in dims]
        shape = tuple(evaluate(d, binding)[0] for d in annotated)
        values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % 5
        ns[name] = tt.asarray(values.astype(dtype))
    out: list[Outcome] = []
    with tt.use_backend("numpy"):
        for target, expr in prog.statements:
            try:
                value = eval(expr, ns)
            except NameError:  # an input raised
                out.append(None)
                continue
            except Exception as err:
                out.append(err)
                continue
            ns[target] = value
            is_tensor = hasattr(value, "dtype")
            out.append((value.dtype.name, tuple(value.shape)) if is_tensor else int(value))
    return out


#: run-time checks an exact type relies on besides divisibility: numpy's reshape cannot infer
#: a -1 next to a dim of size 0 (``B // 2`` at ``B = 1``), and a size computed as ``B - 2`` is
#: negative at ``B = 1``, which a constructor or ``broadcast_to`` rejects (and a size too
#: large for memory is no shape fact: a ``MemoryError``)
_SIZE_CHECKS = (
    "the -1 dim cannot be inferred when another target dim is 0",
    "shape entries must be >= 0",
    "target dims must be >= 0",
)


def _problems_of_statement(
    label: str,
    revealed: str,
    errors: list[tuple[str, str]],
    outcomes: list[Outcome],
    known_inputs: bool,
) -> tuple[list[str], dict[str, int]]:
    """What is wrong with one statement's revealed type and errors, given its outcome at each
    binding; ``known_inputs``: no ``Any`` dim or plain ``int`` went in, not even into the
    statements it uses. Gradual typing lets a statement with an unknown input raise under an
    exact type (the unknown may be the culprit); its exact dims are still compared wherever it
    runs, at every binding (an unknown size met by a symbolic dim that may be 1 is unknown)."""
    counts = {"statements": 1}
    ran = [o for o in outcomes if o is not None and not isinstance(o, Exception)]
    problems: list[str] = []
    if ran:
        counts["ran"] = 1
    if errors:
        counts["errors"] = 1
        for code, message in errors:
            # not provable: a false error only if it ran at every binding (none skipped)
            if code == "typedtensor-symbolic" and len(ran) < len(outcomes):
                continue
            if ran:
                problems.append(f"{label}: runs at {len(ran)} bindings, but [{code}] {message}")
        return problems, counts
    dtype, dims = claims(revealed)
    if dims is not None and all(d is not None for d in dims):
        counts["exact"] = 1
    elif known_inputs and len(ran) == len(outcomes):
        counts["unknown, known inputs, runs everywhere"] = 1
    for binding, outcome in zip(BINDINGS, outcomes, strict=True):
        if outcome is None or dims is None:
            continue
        values = [None if d is None else evaluate(d, binding) for d in dims]
        if isinstance(outcome, Exception):
            exact = all(v is not None for v in values)
            divides = not any(v[1] for v in values if v is not None)
            checked = isinstance(outcome, MemoryError) or any(
                check in str(outcome) for check in _SIZE_CHECKS
            )
            if exact and known_inputs and divides and not checked:
                problems.append(f"{label}: exact {revealed}, raises at {binding}: {outcome!r}")
            continue
        got_dtype, shape = outcome if isinstance(outcome, tuple) else (None, (outcome,))
        if dtype is not None and got_dtype is not None and dtype != got_dtype:
            problems.append(f"{label}: {revealed}, run-time dtype {got_dtype} at {binding}")
        if len(values) != len(shape):
            problems.append(f"{label}: {revealed}, run-time shape {shape} at {binding}")
            continue
        for v, size in zip(values, shape, strict=True):
            if v is not None and v[0] != size:
                problems.append(f"{label}: {revealed}, run-time shape {shape} at {binding}")
                break
    return problems, counts


def _names(expr: str, prog: Program) -> list[str]:
    """The statement targets and parameters ``expr`` uses."""
    return [n for n in re.findall(r"\b\w+\b", expr) if n in prog.targets or n in prog.params]


def _exact(revealed: str) -> bool:
    _, dims = claims(revealed)
    return dims is not None and all(d is not None for d in dims)


def check(seed: int, n: int, tmp: Path) -> tuple[list[str], Counter[str]]:
    """Problems found over ``n`` programs of ``seed``, and counts of what was checked."""
    rng = random.Random(seed)
    programs = [program(rng) for _ in range(n)]
    text, where = render(programs)
    (tmp / "dims_fuzz_mod.py").write_text(text)
    result = run_mypy(
        ["--no-error-summary", "--cache-dir", str(tmp / "cache"), "dims_fuzz_mod.py"], tmp
    )
    assert_no_crash(result)
    types: dict[tuple[int, int], str] = {}
    errors: dict[tuple[int, int], list[tuple[str, str]]] = {}
    problems = []
    for line, severity, message, code in result.messages("dims_fuzz_mod.py"):
        key = where.get(line)
        if key is None:
            problems.append(f"line {line}: {message}")
        elif severity == "note" and message.startswith("Revealed type is "):
            types[key] = message[len('Revealed type is "') : -1]
        elif severity == "error":
            errors.setdefault(key, []).append((code or "", message))
    counts: Counter[str] = Counter()
    for p, prog in enumerate(programs):
        outcomes = [run(prog, binding) for binding in BINDINGS]
        # name -> no unknown went into it, however indirectly
        known = {n: "Any" not in dims for n, (_, dims) in prog.params.items()}
        for s, (target, expr) in enumerate(prog.statements):
            inputs = _names(expr, prog)
            known[target] = all(
                known[n]
                and (n in prog.params or _exact(types.get((p, prog.targets.index(n)), "?")))
                for n in inputs
            )
            found, seen = _problems_of_statement(
                f"p{p} {target} = {expr}",
                types.get((p, s), "?"),
                errors.get((p, s), []),
                [o[s] for o in outcomes],
                known[target],
            )
            problems += found
            counts.update(seen)
    return problems, counts


@pytest.mark.parametrize("seed", SEEDS)
def test_no_wrong_exact_dim_nor_false_error(seed: int, tmp_path: Path) -> None:
    problems, counts = check(seed, PROGRAMS, tmp_path)
    print(f"\ndims fuzz seed {seed}: {dict(counts)}, {len(problems)} problems")
    assert not problems, "\n".join(problems[:40])
    # it must check something: most statements run at some size, most of those exactly typed
    assert 3 * counts["ran"] > counts["statements"] and 3 * counts["exact"] > counts["ran"]
