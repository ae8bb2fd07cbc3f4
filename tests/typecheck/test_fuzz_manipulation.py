"""Fuzz the shape manipulation hooks: hypothesis writes programs calling ``T mT transpose
permute_dims swapaxes moveaxis reshape expand_dims squeeze concatenate stack split
broadcast_to`` with odd arguments (the atoms of ``test_fuzz``: floats, strings, huge ints, nested
tuples, starred args, wrong receivers, list and tuple expressions of tensors), and mypy, plugin
on, must exit normally without an internal error (``TYPEDTENSOR_MYPY_DEBUG=1`` makes a hook
that raises crash)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import assert_no_crash, run_mypy
from .test_fuzz import PRELUDE, RECEIVERS, axis_exprs

UNARY = ["transpose", "permute_dims", "reshape", "expand_dims", "squeeze", "broadcast_to"]
METHODS = ["transpose", "reshape", "squeeze", "swapaxes"]
SHAPE_ITEMS = ["x.shape[0]", "g.shape[0]", "-1", "n", "a", "x.shape", "*args", "*lst"]


@st.composite
def statements(draw: st.DrawFn) -> str:
    recv = draw(st.sampled_from(RECEIVERS))
    other = draw(st.sampled_from(RECEIVERS))
    arg = draw(st.one_of(axis_exprs, st.sampled_from(SHAPE_ITEMS)))
    arg2 = draw(axis_exprs)
    kind = draw(st.sampled_from(["attr", "method", "unary", "two", "join", "split", "star"]))
    if kind == "attr":
        return f"{recv}.{draw(st.sampled_from(['T', 'mT']))}"
    if kind == "method":
        method = draw(st.sampled_from(METHODS))
        args = draw(st.sampled_from([f"{arg}", f"{arg}, {arg2}", "", f"{arg}, -1"]))
        return f"{recv}.{method}({args})"
    if kind == "unary":
        return f"tt.{draw(st.sampled_from(UNARY))}({recv}, {arg})"
    if kind == "two":
        return f"tt.{draw(st.sampled_from(['swapaxes', 'moveaxis']))}({recv}, {arg}, {arg2})"
    if kind == "join":
        fn = draw(st.sampled_from(["concatenate", "concat", "stack"]))
        seq = draw(
            st.sampled_from(
                [f"[{recv}, {other}]", f"({recv},)", f"[{recv}, *lst]", "lst", "args", "[]", recv]
            )
        )
        return f"tt.{fn}({seq}, axis={arg2})"
    if kind == "split":
        return f"tt.split({recv}, {arg}, {arg2})"
    return draw(
        st.sampled_from(
            [
                f"{recv}.reshape(*args)",
                f"{recv}.transpose(**kwargs)",
                "tt.reshape(*args, **kwargs)",
                "tt.concatenate(*args)",
                f"tt.split({recv}, **kwargs)",
            ]
        )
    )


_COUNTER = itertools.count()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz_manipulation")


@settings(
    max_examples=int(os.environ.get("TYPEDTENSOR_FUZZ_EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=st.lists(statements(), min_size=10, max_size=25))
def test_mypy_never_crashes_on_odd_manipulation_calls(workdir: Path, body: list[str]) -> None:
    source = PRELUDE + "".join(f"    reveal_type({stmt})\n" for stmt in body)
    name = f"fuzzed_manipulation_{next(_COUNTER)}.py"
    (workdir / name).write_text(source)
    result = run_mypy(["--cache-dir", str(workdir / "cache"), name], workdir)
    assert_no_crash(result)
    reveals = [m for _, sev, m, _ in result.messages(name) if sev == "note"]
    assert len([r for r in reveals if r.startswith("Revealed type")]) >= len(body), result.stdout
