"""The plugin's static answer for shape manipulation equals the runtime's, case by case.

One generated module holds every case as ``reveal_type(<expr>)``; mypy (plugin on) checks it
once and each revealed type is compared with evaluating ``<expr>`` at run time (numpy does the
work there, so numpy is the oracle):
- the call succeeds at run time -> the revealed type has the runtime dtype and rank, every
  literal dim equals the runtime size, and every symbolic dim (the ``tt.Dim`` markers ``Bm`` and
  ``Cm``, bound to 2 and 3 at run time) equals its binding. ``Any`` is allowed only where a
  symbolic dim makes the answer undecidable (cases marked ``may_be_any``); everywhere else the
  answer must be exact;
- the call raises -> mypy reports a ``typedtensor-*`` error on that line.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _rules as rules

from .conftest import check_reveal_corpus, dim_value

DTYPES = [("bool_" if n == "bool" else n) for n in rules.DTYPE_NAMES]
SIZES = (2, 3, 4, 5, 6)
BINDINGS = {"Bm": 2, "Cm": 3}


@dataclass(frozen=True)
class Case:
    expr: str
    may_be_any: bool = False  # a symbolic input: an Any dim is a correct answer
    #: rejected by the symbolic rule (``Bm`` equals only itself) though the run-time binding fits
    symbolic_error: bool = False


def name(rank: int, dtype: str = "float32") -> str:
    return f"x{rank}_{dtype}"


def shape(rank: int) -> tuple[int, ...]:
    return SIZES[:rank]


# (variable, annotation dims, runtime shape): tensors with size-1 dims and symbolic dims
EXTRA = [
    ("o4", "L[1], L[3], L[1], L[4]", (1, 3, 1, 4)),
    ("o1", "L[1]", (1,)),
    ("y23", "L[4], L[3]", (4, 3)),
    ("y25", "L[2], L[5]", (2, 5)),
    ("sb", "Bm, L[3], L[4]", (2, 3, 4)),
    ("sbc", "Bm, Cm", (2, 3)),
    ("sb1", "Bm, L[1]", (2, 1)),
    ("s1b", "L[1], Bm, L[6]", (1, 2, 6)),
]


def transpose_cases() -> list[Case]:
    out = []
    for r in range(6):
        x = name(r, DTYPES[r % len(DTYPES)])
        out += [Case(f"{x}.T"), Case(f"{x}.mT"), Case(f"{x}.transpose()")]
        perms = list(itertools.permutations(range(r)))[:8]
        for i, p in enumerate(perms):
            mixed = tuple(d - r if (i + k) % 2 else d for k, d in enumerate(p))
            out += [Case(f"{x}.transpose{mixed!r}" if r != 1 else f"{x}.transpose({mixed[0]})")]
            out += [Case(f"tt.permute_dims({x}, {mixed!r})")]
        out += [Case(f"tt.transpose({x}, {tuple(range(r))[:-1]!r})")]  # not a permutation
        if r >= 2:
            out += [Case(f"tt.transpose({x}, {(0, 0, *range(2, r))!r})")]  # duplicate
        out += [Case(f"tt.transpose({x}, {(*range(r - 1), r)!r})")]  # out of range
        for a, b in itertools.product(range(-r - 1, r + 1), repeat=2):
            if (a + b) % 3 == 0:
                out.append(Case(f"tt.swapaxes({x}, {a}, {b})"))
        for a in range(-r - 1, r + 1):
            out.append(Case(f"{x}.swapaxes({a}, 0)"))
            out.append(Case(f"tt.moveaxis({x}, {a}, -1)"))
        if r >= 2:
            out += [
                Case(f"tt.moveaxis({x}, (0, 1), (-1, -2))"),
                Case(f"tt.moveaxis({x}, (0, 1), (1,))"),
                Case(f"tt.moveaxis({x}, (0, -{r}), (1, 0))"),
            ]
    for s in ("sb", "sbc", "s1b"):
        out += [Case(f"{s}.T"), Case(f"{s}.mT"), Case(f"tt.moveaxis({s}, 0, -1)")]
        out += [Case(f"tt.swapaxes({s}, 0, 1)")]
    return out


def _targets(shp: tuple[int, ...]) -> list[tuple[int, ...]]:
    n = int(np.prod(shp))
    out = [(n,), (-1,), (1, n), (n, -1), (-1, 1), (2, -1), (-1, 3), (4, -1, 1), (n + 1,)]
    out += [(-1, -1), (0, -1), (*shp[::-1],), (2, 2, -1), (5, -1)]
    if len(shp) >= 2:
        out += [(shp[0], -1), (-1, shp[-1]), (shp[0] * shp[1], *shp[2:])]
    return out


def reshape_cases() -> list[Case]:
    out = []
    for r in range(6):
        x = name(r, DTYPES[(r + 3) % len(DTYPES)])
        for i, t in enumerate(_targets(shape(r))):
            if i % 3 == 0 and t:
                out.append(Case(f"{x}.reshape({', '.join(map(str, t))})"))
            elif i % 3 == 1:
                out.append(Case(f"{x}.reshape({t!r})"))
            else:
                out.append(Case(f"tt.reshape({x}, {t!r})"))
    symbolic = [
        "sb.reshape((sb.shape[0], -1))",
        "sb.reshape((sb.shape[0], 2, -1))",
        "sb.reshape((3, -1, 4))",
        "sb.reshape((-1, 12))",
        "sb.reshape((-1,))",
        "sb.reshape(sb.shape)",
        "sb.reshape((sb.shape[1], sb.shape[0], sb.shape[2]))",
        "sb.reshape((sb.shape[0], 5))",
        "sb.reshape((sb.shape[0], 5, -1))",
        "sbc.reshape((sbc.shape[1], sbc.shape[0]))",
        "sbc.reshape((sbc.shape[1], -1))",
        "sbc.reshape(-1)",
        "s1b.reshape((s1b.shape[1], -1))",
        "s1b.reshape((-1, s1b.shape[1], 2))",
    ]
    return out + [Case(e, may_be_any=True) for e in symbolic]


def expand_squeeze_cases() -> list[Case]:
    out = []
    for r in range(5):
        x = name(r, DTYPES[(r + 5) % len(DTYPES)])
        for a in range(-r - 2, r + 2):
            out.append(Case(f"tt.expand_dims({x}, {a})"))
        out += [Case(f"tt.expand_dims({x}, (0, -1))"), Case(f"tt.expand_dims({x}, (0, 0))")]
        out += [Case(f"tt.expand_dims({x}, (1, -{r + 2}))")]
        out += [Case(f"{x}.squeeze()"), Case(f"tt.squeeze({x}, 0)")]
    for v, n in (("o4", 4), ("o1", 1)):
        for a in [None, *range(-n - 1, n + 1), (0, 2), (0, -2), (0, 0), ()]:
            out.append(Case(f"tt.squeeze({v}, {a!r})"))
            out.append(Case(f"{v}.squeeze({a!r})"))
    out += [Case(e, may_be_any=True) for e in ("tt.squeeze(sb1, -1)", "tt.squeeze(s1b, 0)")]
    out += [Case(e, may_be_any=True) for e in ("tt.squeeze(sb, 1)", "tt.expand_dims(sb, 1)")]
    return out


def join_cases() -> list[Case]:
    out = []
    for a, b in itertools.product(DTYPES, DTYPES):  # every dtype pair
        out.append(Case(f"tt.concatenate([{name(2, a)}, {name(2, b)}], axis=1)"))
        out.append(Case(f"tt.stack(({name(1, a)}, {name(1, b)}), axis=-1)"))
    for r in range(6):
        x = name(r)
        for axis in [None, *range(-r - 1, r + 1)]:
            out.append(Case(f"tt.concatenate(({x}, {x}, {x}), axis={axis})"))
        for axis in range(-r - 2, r + 2):
            out.append(Case(f"tt.stack([{x}, {x}], axis={axis})"))
        if r:
            out.append(Case(f"tt.concatenate([{x}, {name(r - 1)}])"))  # ranks differ
            out.append(Case(f"tt.stack([{x}, {x}.T])"))
        for sections in (1, 2, 3, 4):
            for axis in range(-r - 1, r + 1):
                if (sections + axis) % 2 == 0:
                    out.append(Case(f"tt.split({x}, {sections}, axis={axis})"))
    out += [
        Case("tt.concat([x2_float32, y23])"),
        Case("tt.concat([x2_float32, y23], axis=1)"),
        Case("tt.concat([x2_float32, y25], axis=1)"),
        Case("tt.concat([x2_float32, y25], axis=0)"),
        Case("tt.stack([x2_float32, y23])"),
    ]
    symbolic = [
        "tt.concatenate([sb, sb], axis=1)",
        "tt.concatenate([sb, sb])",
        "tt.concatenate([sbc, sbc], axis=-1)",
        "tt.stack([sbc, sbc], axis=1)",
        "tt.split(sb, 2, axis=2)",
        "tt.split(sb, 2)",
        "tt.split(sb, 1)",
    ]
    out += [Case("tt.concatenate([sb, x3_float32], axis=1)", symbolic_error=True)]
    return out + [Case(e, may_be_any=True) for e in symbolic]


def broadcast_to_cases() -> list[Case]:
    out = []
    for r in range(4):
        x = name(r)
        shp = shape(r)
        targets = [shp, (7, *shp), (1, *shp), shp[1:], (*shp[:-1], 9), (2, 0, *shp)]
        out += [Case(f"tt.broadcast_to({x}, {t!r})") for t in targets]
    for t in [(1, 3, 1, 4), (2, 1, 3, 5, 4), (1, 3, 2, 4), (3, 4), (5, 1, 3, 1, 4)]:
        out.append(Case(f"tt.broadcast_to(o4, {t!r})"))
    symbolic = [
        "tt.broadcast_to(sb1, (sb1.shape[0], 4))",
        "tt.broadcast_to(sb1, (3, sb1.shape[0], 1))",
        "tt.broadcast_to(o1, (sb.shape[0], 3))",
        "tt.broadcast_to(sb1, (3, 1))",
    ]
    return out + [Case(e, may_be_any=True) for e in symbolic]


def list_cases() -> list[Case]:
    """Axes and shapes spelled as list expressions (numpy takes them too)."""
    out = []
    for r in range(1, 5):
        x = name(r, DTYPES[(r + 7) % len(DTYPES)])
        perm = list(reversed(range(r)))
        out += [Case(f"{x}.transpose({perm!r})"), Case(f"tt.transpose({x}, {perm[1:]!r})")]
        out += [Case(f"tt.moveaxis({x}, [0], [-1])"), Case(f"tt.expand_dims({x}, [0, -1])")]
        out += [Case(f"{x}.reshape([-1])"), Case(f"tt.reshape({x}, [2, -1])")]
        out += [Case(f"tt.broadcast_to({x}, [3, {', '.join(map(str, shape(r)))}])")]
    out += [Case("tt.squeeze(o4, [0, 2])"), Case("tt.squeeze(o4, [1])")]
    out += [Case("sb.reshape([sb.shape[0], -1])", may_be_any=True)]
    return out


def corpus() -> list[Case]:
    return (
        transpose_cases()
        + reshape_cases()
        + expand_squeeze_cases()
        + join_cases()
        + broadcast_to_cases()
        + list_cases()
    )


def prelude() -> list[str]:
    lines = [
        "from typing import Final, Literal as L",
        "import numpy as np",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        "",
        "class Bm(tt.Dim): ...",
        "class Cm(tt.Dim): ...",
        "",
    ]
    for rank in range(6):
        for dtype in DTYPES:
            dims = "".join(f", L[{d}]" for d in shape(rank))
            lines.append(
                f"{name(rank, dtype)}: Tensor[tt.{dtype}{dims}] = "
                f"tt.ones({shape(rank)!r}, tt.{dtype})"
            )
    for var, dims, shp in EXTRA:
        lines.append(
            f"{var}: Tensor[tt.float32, {dims}] = tt.ones({shp!r}, tt.float32)"
            f"  # type: ignore[assignment]"
        )
    return lines


TENSOR_RE = re.compile(r"typedtensor\._tensor\.Tensor\[(.*)\]")


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
    return [*parts, cur.strip()] if cur.strip() else parts


def _check_one(revealed: str, value: tt.Tensor, may_be_any: bool) -> str | None:
    """``None`` if the revealed tensor type fits the runtime value, else why not."""
    m = TENSOR_RE.fullmatch(revealed)
    if m is None:
        return f"not a Tensor: {revealed}"
    dtype, *dims = _split_top(m.group(1))
    want = value.numpy().dtype.name
    if dtype != f"typedtensor._dtypes.{'bool_' if want == 'bool' else want}":
        return f"dtype {dtype} != {want}"
    if len(dims) != value.ndim or any(d.startswith("*") for d in dims):
        return f"dims {dims} != shape {value.shape}"
    for d, size in zip(dims, value.shape, strict=True):
        if d.startswith("Literal["):
            if int(d[len("Literal[") : -1]) != size:
                return f"dims {dims} != shape {value.shape}"
        elif d.rsplit(".", 1)[-1] in BINDINGS:
            if BINDINGS[d.rsplit(".", 1)[-1]] != size:
                return f"symbolic dims {dims} != shape {value.shape}"
        elif d.startswith("typedtensor._dims."):
            if dim_value(d, BINDINGS) != size:
                return f"expression dim {d} != {size} in shape {value.shape}"
        elif not (d == "Any" and may_be_any):
            return f"inexact dim {d} in {dims} (shape {value.shape})"
    return None


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[list[Case], dict[int, list[tuple[str, str, str | None]]], dict[str, object]]:
    cases = corpus()
    tmp = tmp_path_factory.mktemp("agreement_manipulation")
    by_line = check_reveal_corpus(tmp, "corpus_mod", prelude(), [c.expr for c in cases])
    assert not [m for i, m in by_line.items() if i < 0], by_line  # the prelude checks clean
    namespace: dict[str, object] = {}
    exec("\n".join(prelude()), namespace)
    return cases, by_line, namespace


def test_corpus_is_large_and_deterministic() -> None:
    assert [c.expr for c in corpus()] == [c.expr for c in corpus()]
    assert len(corpus()) > 800


def test_static_type_equals_runtime(
    checked: tuple[list[Case], dict[int, list[tuple[str, str, str | None]]], dict[str, object]],
) -> None:
    cases, by_line, namespace = checked
    failures: list[str] = []
    counts = {"exact": 0, "error": 0, "any": 0}
    for index, case in enumerate(cases):
        msgs = by_line.get(index, [])
        reveals = [m[len('Revealed type is "') : -1] for s, m, _ in msgs if s == "note"]
        errors = [(m, c) for s, m, c in msgs if s == "error"]
        if case.symbolic_error:
            if [c for _, c in errors] != ["typedtensor-symbolic"]:
                failures.append(f"{case.expr}: expected the symbolic rule's error, got {msgs}")
            continue
        try:
            value = eval(case.expr, namespace)
        except (tt.AxisError, tt.ShapeError, TypeError, ValueError, IndexError) as err:
            if not any(c and c.startswith("typedtensor-") for _, c in errors):
                failures.append(f"{case.expr}: runtime raised {err!r}, plugin: {msgs}")
            counts["error"] += 1
            continue
        if errors:
            failures.append(f"{case.expr}: runtime ok, plugin errors {errors}")
            continue
        assert len(reveals) == 1, (case.expr, msgs)
        revealed = reveals[0]
        if isinstance(value, list):
            m = re.fullmatch(r"(?:builtins\.)?list\[(.*)\]", revealed)
            problems = [
                "not a list" if m is None else _check_one(m.group(1), v, case.may_be_any)
                for v in value
            ]
        else:
            problems = [_check_one(revealed, value, case.may_be_any)]
        problems = [p for p in problems if p is not None]
        if problems:
            failures.append(f"{case.expr}: {problems[0]}")
            continue
        counts["any" if "Any" in revealed else "exact"] += 1
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:40])
    assert counts["exact"] > 600 and counts["error"] > 150, counts
