"""Never wrong on partly known shapes: receivers with an unpacked part (``Tensor[DT, L[2],
*Rest]``, ``Tensor[DT, *tuple[Any, ...]]``...) inside generic functions.

For every (pattern, axis, keepdims) the revealed type is matched against the runtime result on
several concrete instantiations (the unpacked part 0..2 dims long): ``*Rest`` stands for the
instantiation's own dims there, ``*tuple[Any, ...]`` and ``Any`` match anything, literals must be
equal. A static error must mean the runtime raises on every instantiation; the runtime raising
on some only (an axis the unknown rank decides) needs no static error.
"""

from __future__ import annotations

import itertools
import re

import pytest

import typedtensor as tt

from .conftest import assert_no_crash, run_mypy

# (annotation of the dims, prefix sizes, suffix sizes)
PATTERNS = [
    ("L[2], Unpack[Rest]", (2,), ()),
    ("Unpack[Rest], L[5]", (), (5,)),
    ("L[2], Unpack[Rest], L[5]", (2,), (5,)),
    ("L[2], L[3], Unpack[Rest], L[5]", (2, 3), (5,)),
    ("Unpack[tuple[Any, ...]]", (), ()),
    ("L[2], Unpack[tuple[Any, ...]], L[5]", (2,), (5,)),
]
STAR_FILLS = [(), (7,), (7, 8)]
DTYPES = ["float32", "int8", "bool_", "uint16"]
OPS = ["sum", "mean", "max", "any", "argmax", "var", "logsumexp"]


def axes_for(single: bool) -> list[object]:
    out: list[object] = [None, *range(-4, 4)]
    if not single:
        out += [(), (0, -1), (-1, 0), (0, 1), (1, -2), (0, 0), (-1, -1)]
    return out


def split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def matches(pattern: list[str], shape: tuple[int, ...], rest: tuple[int, ...]) -> bool:
    if not pattern:
        return not shape
    head, tail = pattern[0], pattern[1:]
    if head.startswith("*tuple[Any"):
        return any(matches(tail, shape[i:], rest) for i in range(len(shape) + 1))
    if head.startswith("*"):  # *Rest
        n = len(rest)
        return shape[:n] == rest and matches(tail, shape[n:], rest)
    if not shape:
        return False
    if head == "Any" or (head.startswith("Literal[") and int(head[8:-1]) == shape[0]):
        return matches(tail, shape[1:], rest)
    return False


def _cases() -> list[tuple[int, str, str, object, bool, str]]:
    cases = []
    for (pi, _), dtype in itertools.product(enumerate(PATTERNS), DTYPES):
        for op in OPS:
            single = tt._rules.REDUCTIONS[op].single_axis
            for axis, kd in itertools.product(axes_for(single), (False, True)):
                cases.append((pi, dtype, op, axis, kd, f"x.{op}(axis={axis!r}, keepdims={kd})"))
    return cases


@pytest.fixture(scope="module")
def revealed(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[tuple[str, str]]]:
    cases = _cases()
    lines = [
        "from typing import Any, Literal as L",
        "from typing_extensions import TypeVarTuple, Unpack",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        'Rest = TypeVarTuple("Rest")',
    ]
    line_of: dict[int, int] = {}
    for key, group in itertools.groupby(enumerate(cases), key=lambda c: (c[1][0], c[1][1])):
        pi, dtype = key
        lines.append(f"def f_{pi}_{dtype}(x: Tensor[tt.{dtype}, {PATTERNS[pi][0]}]) -> None:")
        for index, case in group:
            lines.append(f"    reveal_type({case[5]})")
            line_of[len(lines)] = index
    tmp = tmp_path_factory.mktemp("partial")
    (tmp / "partial_mod.py").write_text("\n".join(lines) + "\n")
    result = run_mypy(["--cache-dir", str(tmp / "cache"), "partial_mod.py"], tmp)
    assert_no_crash(result)
    out: dict[int, list[tuple[str, str]]] = {}
    for line, severity, message, code in result.messages("partial_mod.py"):
        out.setdefault(line_of[line], []).append((severity, f"{message} [{code}]"))
    return out


def test_partial_shapes_are_never_wrong(revealed: dict[int, list[tuple[str, str]]]) -> None:
    failures: list[str] = []
    exact = 0
    for index, (pi, dtype, _op, _axis, _kd, expr) in enumerate(_cases()):
        msgs = revealed.get(index, [])
        errors = [m for s, m in msgs if s == "error"]
        notes = [m for s, m in msgs if s == "note" and m.startswith("Revealed type is ")]
        _, prefix, suffix = PATTERNS[pi]
        raised = 0
        for fill in STAR_FILLS:
            x = tt.ones(prefix + fill + suffix, getattr(tt, dtype))
            try:
                value = eval(expr, {"x": x})
            except (tt.AxisError, TypeError, ValueError):
                raised += 1
                continue
            if errors:
                failures.append(f"{PATTERNS[pi][0]} {expr}: static {errors}, runtime ok on {fill}")
                break
            m = re.match(r'Revealed type is "typedtensor\._tensor\.Tensor\[(.*)\]"', notes[0])
            assert m, notes
            dtype_text, *dims = split_top(m.group(1))
            got_dtype = dtype_text.rsplit(".", 1)[-1]
            want = value.dtype.__name__
            if got_dtype != want:
                failures.append(f"{PATTERNS[pi][0]} {expr}: dtype {got_dtype} != {want}")
            if not matches(dims, value.shape, fill):
                failures.append(f"{PATTERNS[pi][0]} {expr}: {dims} vs runtime {value.shape}")
            exact += not any(d.startswith("*tuple") or d == "Any" for d in dims)
        if errors and raised != len(STAR_FILLS):
            failures.append(f"{PATTERNS[pi][0]} {expr}: static error but the runtime accepts")
    assert not failures, f"{len(failures)} wrong:\n" + "\n".join(failures[:30])
    assert exact > 500, exact  # the known parts are used, not just the unknown fallback


def test_matcher() -> None:
    assert matches(["Literal[2]", "*Rest"], (2, 7, 8), (7, 8))
    assert not matches(["Literal[2]", "*Rest"], (2, 7), (7, 8))
    assert matches(["*tuple[Any, ...]", "Literal[5]"], (1, 2, 5), ())
    assert not matches(["*tuple[Any, ...]", "Literal[5]"], (1, 2, 4), ())
    assert matches(["Any", "Literal[1]"], (9, 1), ())
    assert split_top("a, *tuple[Any, ...], Literal[1]") == ["a", "*tuple[Any, ...]", "Literal[1]"]
