"""The stubs' answers under pyright equal the runtime ``(shape, dtype)``, case by case.

Uses the plugin's agreement corpus (``tests/typecheck/_corpus.py``): every case is revealed by
pyright in one generated module and evaluated at run time. A case is *covered* when pyright
reveals an exact type (a concrete dtype and only ``Literal`` dims); every covered case must
equal the runtime result, and a call that raises at run time must never get an exact type.
With the plugin installed, covered cases must also equal the plugin's answer under mypy.
Coverage (covered / total) is printed (``pytest -s``) and has a floor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import typedtensor as tt

from ._run import mypy, pyright, revealed_types

pytestmark = pytest.mark.slow

from tests.typecheck._corpus import corpus, prelude  # the plugin's agreement corpus

PYRIGHT_TYPE = re.compile(r"^Tensor\[(.*)\]$")
MYPY_TYPE = re.compile(r"^typedtensor\._tensor\.Tensor\[(.*)\]$")
Exact = tuple[str, tuple[int, ...]]


def _exact(inner: str, dtype_prefix: str) -> Exact | None:
    parts = [p.strip() for p in inner.split(",")]
    dtype, dims = parts[0], parts[1:]
    if not dtype.startswith(dtype_prefix) or dtype.endswith("Any"):
        return None
    name = dtype[len(dtype_prefix) :]
    if not all(re.fullmatch(r"Literal\[\d+\]", d) for d in dims):
        return None
    return ("bool" if name == "bool_" else name), tuple(int(d[8:-1]) for d in dims)


def parse_pyright(text: str) -> Exact | None:
    """``(dtype, shape)`` of an exact revealed type, else None."""
    m = PYRIGHT_TYPE.match(text)
    return _exact(m.group(1), "") if m else None


def parse_mypy(text: str) -> Exact | None:
    m = MYPY_TYPE.match(text)
    return _exact(m.group(1), "typedtensor._dtypes.") if m else None


@pytest.fixture(scope="module")
def revealed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    cases, constants = corpus()
    cases = [c for c in cases if c.kind == "reduce"]
    lines = prelude(constants)
    first = len(lines) + 1
    lines += [f"reveal_type({c.expr})" for c in cases]
    tmp = tmp_path_factory.mktemp("agreement")
    (tmp / "corpus_mod.py").write_text("\n".join(lines) + "\n")
    (tmp / "pyrightconfig.json").write_text(json.dumps({"reportDeprecated": "error"}))
    report = pyright(["-p", str(tmp / "pyrightconfig.json"), str(tmp / "corpus_mod.py")], tmp)
    diagnostics: list[dict[str, Any]] = report["generalDiagnostics"]  # type: ignore[assignment]
    types = revealed_types(report, first)
    deprecated = {
        d["range"]["start"]["line"] + 1 - first
        for d in diagnostics
        if d.get("rule") == "reportDeprecated"
    }
    namespace: dict[str, object] = {"tt": tt}
    exec("\n".join(prelude(constants)), namespace)
    return {"cases": cases, "types": types, "deprecated": deprecated, "ns": namespace, "tmp": tmp}


def _runtime(expr: str, ns: dict[str, object]) -> Exact | None:
    try:
        value = eval(expr, ns)
    except Exception:
        return None
    return value.dtype.name, tuple(value.shape)


def test_covered_cases_equal_runtime(revealed: dict[str, Any]) -> None:
    cases, types, ns = revealed["cases"], revealed["types"], revealed["ns"]
    covered = wrong = 0
    errors_decided = errors_total = 0
    problems = []
    for i, case in enumerate(cases):
        static = parse_pyright(types.get(i, "<missing>"))
        runtime = _runtime(case.expr, ns)
        if runtime is None:
            errors_total += 1
            errors_decided += i in revealed["deprecated"]
            if static is not None:
                problems.append(f"{case.expr}: raises at run time, pyright says {types[i]}")
            continue
        if i in revealed["deprecated"]:
            problems.append(f"{case.expr}: valid at run time, pyright reports it deprecated")
        if static is None:
            continue
        covered += 1
        if static != runtime:
            wrong += 1
            problems.append(f"{case.expr}: pyright {static}, runtime {runtime}")
    print(
        f"\npyright stubs agreement: {covered}/{len(cases)} reduction cases covered "
        f"({covered / len(cases):.1%}), {wrong} wrong; "
        f"{errors_decided}/{errors_total} run-time errors reported statically"
    )
    assert problems == [], "\n".join(problems[:30])
    assert covered / len(cases) > 0.50  # regression floor; measured 51.6% (2953 of 5720)


def test_covered_cases_equal_plugin(revealed: dict[str, Any]) -> None:
    tmp: Path = revealed["tmp"]
    (tmp / "mypy.ini").write_text("[mypy]\nplugins = typedtensor_mypy\n")
    result = mypy(
        ["--config-file", str(tmp / "mypy.ini"), "--no-error-summary", "corpus_mod.py"], tmp
    )
    first = len(prelude(corpus()[1])) + 1
    plugin: dict[int, str] = {}
    for m in re.finditer(
        r'^corpus_mod\.py:(\d+): note: Revealed type is "(.*)"$', result.stdout, re.M
    ):
        plugin[int(m.group(1)) - first] = m.group(2)
    mismatches = []
    for i, case in enumerate(revealed["cases"]):
        static = parse_pyright(revealed["types"].get(i, ""))
        if static is not None and parse_mypy(plugin.get(i, "")) != static:
            mismatches.append(f"{case.expr}: pyright {static}, plugin {plugin.get(i)}")
    assert mismatches == [], "\n".join(mismatches[:30])
