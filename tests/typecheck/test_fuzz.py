"""Fuzz: hypothesis writes programs full of odd axis expressions (nested tuples, floats,
strings, huge ints, starred args, ``**kwargs``, wrong receivers) and mypy, plugin on, must exit
normally (0 or 1) without an internal error. ``TYPEDTENSOR_MYPY_DEBUG=1`` turns any exception
in a hook into a crash, so the plugin's own fallbacks cannot hide a bug here."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from typedtensor import _rules as rules

from .conftest import assert_no_crash, run_mypy

PRELUDE = """\
from typing import Any, Final, Literal as L, TypeVar
from typing_extensions import TypeVarTuple, Unpack
import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
Rest = TypeVarTuple("Rest")
F: Final = 1
FT: Final = (0, -1)
class Image(Tensor[tt.float32, L[3], L[4], L[5]]): ...

def f(
    x: Tensor[tt.float32, L[2], L[3], L[4]],
    s: Tensor[tt.int8],
    u: Tensor[tt.uint16, Unpack[tuple[Any, ...]]],
    g: Tensor[tt.bool_, B, Unpack[Rest], L[7]],
    im: Image,
    n: int,
    a: Any,
    lst: list[int],
    kb: bool,
    args: tuple[int, ...],
    kwargs: dict[str, Any],
) -> None:
"""

RECEIVERS = ["x", "s", "u", "g", "im", "n", "a", "lst", "tt.zeros((2, 3))", "x.sum(0)", "None"]
OPS = [*rules.REDUCTIONS, "reduce_to", "sum_to"]
BINOPS = ["+", "-", "*", "/", "**", "<", "==", ">="]

atoms = st.one_of(
    st.integers(-6, 6).map(str),
    st.sampled_from(["10**30", "-(10**30)", "99999999999999999999999", "-99999999999999999999"]),
    st.floats(allow_nan=False, allow_infinity=False, width=16).map(repr),
    st.sampled_from(
        [
            "'a'",
            "b'x'",
            "None",
            "True",
            "False",
            "F",
            "FT",
            "n",
            "kb",
            "a",
            "...",
            "[0, 1]",
            "{0}",
            "lambda: 0",
            "-F",
            "+1",
            "--1",
            "1 + 2",
            "x",
            "()",
            "float('nan')",
            "tt.float32",
            "(1, 'a')",
            "((0,),)",
            "(0.5,)",
        ]
    ),
)
axis_exprs = st.recursive(
    atoms,
    lambda inner: st.lists(inner, max_size=4).map(
        lambda items: "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    ),
    max_leaves=8,
)


@st.composite
def statements(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["method", "function", "star", "binop", "ctor"]))
    recv = draw(st.sampled_from(RECEIVERS))
    op = draw(st.sampled_from(OPS))
    axis = draw(axis_exprs)
    kd = draw(st.sampled_from(["True", "False", "kb", "1", "'yes'", "None", "a"]))
    extra = draw(
        st.sampled_from(
            [
                "",
                ", out=x",
                ", out=s",
                ", correction=-1",
                ", ddof=a",
                ", p=0",
                ", eps=-1.0",
                ", mode='bogus'",
                ", bogus=1",
            ]
        )
    )
    if kind == "method":
        return f"{recv}.{op}({axis}, keepdims={kd}{extra})"
    if kind == "function":
        return f"tt.{op}({recv}, {axis}, {kd}{extra})"
    if kind == "star":
        return draw(
            st.sampled_from(
                [
                    f"{recv}.{op}(*args)",
                    f"{recv}.{op}(**kwargs)",
                    f"tt.{op}(*args, **kwargs)",
                    f"{recv}.{op}({axis}, *args)",
                    f"tt.{op}({recv}, **kwargs)",
                ]
            )
        )
    if kind == "binop":
        other = draw(st.sampled_from([*RECEIVERS, axis]))
        return f"{recv} {draw(st.sampled_from(BINOPS))} {other}"
    ctor = draw(st.sampled_from(["zeros", "ones", "empty", "random", "arange", "full", "tensor"]))
    fill = ", 0" if ctor in ("full", "tensor") else ""
    return f"tt.{ctor}({axis}{fill}, {draw(st.sampled_from(['tt.float32', 'None', 'a', '3']))})"


_COUNTER = itertools.count()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(
    max_examples=int(os.environ.get("TYPEDTENSOR_FUZZ_EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=st.lists(statements(), min_size=10, max_size=25))
def test_mypy_never_crashes_on_odd_programs(workdir: Path, body: list[str]) -> None:
    source = PRELUDE + "".join(f"    reveal_type({stmt})\n" for stmt in body)
    # a fresh module name per example: mypy trusts a cached file of equal size and mtime
    name = f"fuzzed_{next(_COUNTER)}.py"
    (workdir / name).write_text(source)
    result = run_mypy(["--cache-dir", str(workdir / "cache"), name], workdir)
    assert_no_crash(result)
    # every statement was checked: one reveal per line (mypy stops at nothing here)
    reveals = [m for _, sev, m, _ in result.messages(name) if sev == "note"]
    assert len([r for r in reveals if r.startswith("Revealed type")]) >= len(body), result.stdout
