"""Fuzz the indexing, matmul, where, bool-operator and metadata hooks: hypothesis writes
programs with odd indices (slices of every spelling, nested tuples, floats, strings, Tensors,
lists, Any), odd matmul/where operands and assignments, and mypy (plugin on, hooks raising under
``TYPEDTENSOR_MYPY_DEBUG=1``) must exit normally with one reveal per expression."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import assert_no_crash, run_mypy
from .test_fuzz import PRELUDE, RECEIVERS, atoms

SLICES = ["1:", "::-1", "-10:2", "::0", "F:", "n:", ":a", "::kb", "1:2:3", ":", "None:None:-1"]
items = st.one_of(atoms, st.sampled_from(SLICES))
indices = st.lists(items, max_size=5).map(lambda parts: ", ".join(parts) if parts else "()")
OPERANDS = [*RECEIVERS, "1", "2.5", "True", "[0, 1]", "x > 0", "x.mT"]


@st.composite
def expressions(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["index", "matmul", "where", "bitwise", "meta"]))
    recv = draw(st.sampled_from(RECEIVERS))
    other = draw(st.sampled_from(OPERANDS))
    if kind == "index":
        return f"{recv}[{draw(indices)}]"
    if kind == "matmul":
        return draw(st.sampled_from([f"{recv} @ {other}", f"tt.matmul({recv}, {other})"]))
    if kind == "where":
        third = draw(st.sampled_from(OPERANDS))
        return f"tt.where({recv}, {other}, {third})"
    if kind == "bitwise":
        op = draw(st.sampled_from(["&", "|", "^"]))
        return draw(st.sampled_from([f"{recv} {op} {other}", f"~{recv}"]))
    attr = draw(st.sampled_from(["ndim", "shape", f"shape[{draw(indices)}]"]))
    return draw(st.sampled_from([f"{recv}.{attr}", f"{recv}.astype({other})"]))


_COUNTER = itertools.count()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz_li")


@settings(
    max_examples=int(os.environ.get("TYPEDTENSOR_FUZZ_EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=st.lists(expressions(), min_size=10, max_size=25),
    stores=st.lists(st.tuples(st.sampled_from(RECEIVERS), indices, st.sampled_from(OPERANDS))),
)
def test_mypy_never_crashes_on_odd_indexing_programs(
    workdir: Path, body: list[str], stores: list[tuple[str, str, str]]
) -> None:
    source = PRELUDE + "".join(f"    reveal_type({expr})\n" for expr in body)
    source += "".join(f"    {recv}[{index}] = {value}\n" for recv, index, value in stores)
    name = f"fuzzed_li_{next(_COUNTER)}.py"
    (workdir / name).write_text(source)
    result = run_mypy(["--cache-dir", str(workdir / "cache"), name], workdir)
    assert_no_crash(result)
    reveals = [m for _, sev, m, _ in result.messages(name) if sev == "note"]
    assert len([r for r in reveals if r.startswith("Revealed type")]) >= len(body), result.stdout
