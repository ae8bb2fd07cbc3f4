"""examples/ type-check clean under ``mypy --strict`` with the plugin; every program in
examples/errors/ produces exactly the errors its ``# expect: <code>`` comments name.

The convention for examples/errors/*.py: each line that must produce an error ends with
``# expect: <error-code>`` (several codes: ``# expect: code-a, code-b``), optionally followed by
the expected message text in double quotes (``# expect: typedtensor-axis "axis 3 is out of
range"``), and the module docstring explains the bug. The set of ``(line, code)`` pairs mypy
reports must equal the expected set exactly: a vanished error fails, so does an unexpected one;
and the quoted text must appear in the message reported on that line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import REPO, MypyResult, assert_no_crash, run_mypy

EXAMPLES = sorted((REPO / "examples").glob("*.py"))
ERRORS = sorted((REPO / "examples" / "errors").glob("*.py"))
STRICT_PLUGIN = "[mypy]\nplugins = typedtensor_mypy\nstrict = True\n"
EXPECT = re.compile(
    r'#\s*expect:\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)(?:\s+"(?P<text>[^"]+)")?\s*$'
)


def expected_errors(path: Path) -> set[tuple[int, str]]:
    """``(line, code)`` for every ``# expect: code`` comment in ``path``."""
    out = set()
    for lineno, line in enumerate(path.read_text().splitlines(), start=1):
        m = EXPECT.search(line)
        if m:
            out |= {(lineno, code.strip()) for code in m.group(1).split(",")}
    return out


def expected_texts(path: Path) -> dict[int, str]:
    """line -> the quoted message text of its ``# expect:`` comment, where one is given."""
    out = {}
    for lineno, line in enumerate(path.read_text().splitlines(), start=1):
        m = EXPECT.search(line)
        if m and m.group("text"):
            out[lineno] = m.group("text")
    return out


def reported_errors(result: MypyResult, path: Path) -> set[tuple[int, str]]:
    return {
        (line, code or "<no code>")
        for line, severity, _, code in result.messages(path.name)
        if severity == "error"
    }


@pytest.fixture(scope="module")
def errors_run(tmp_path_factory: pytest.TempPathFactory) -> MypyResult:
    tmp = tmp_path_factory.mktemp("errors")
    # one mypy run for all files; each is its own top-level module
    result = run_mypy(
        ["--cache-dir", str(tmp / "cache"), *map(str, ERRORS)], tmp, config=STRICT_PLUGIN
    )
    assert_no_crash(result)
    return result


def test_there_are_error_programs() -> None:
    assert len(ERRORS) >= 4
    for path in ERRORS:
        assert expected_errors(path), f"{path.name} has no `# expect: <code>` line"
        assert path.read_text().lstrip().startswith('"""'), f"{path.name} needs a docstring"


@pytest.mark.parametrize("path", ERRORS, ids=[p.stem for p in ERRORS])
def test_error_program_reports_exactly_the_expected_errors(
    errors_run: MypyResult, path: Path
) -> None:
    assert reported_errors(errors_run, path) == expected_errors(path), errors_run.stdout
    reported = errors_run.messages(path.name)
    messages = [(line, text) for line, severity, text, _ in reported if severity == "error"]
    for lineno, wanted in expected_texts(path).items():
        on_line = [text for line, text in messages if line == lineno]
        assert any(wanted in text for text in on_line), (lineno, wanted, on_line)


def test_examples_typecheck_clean_with_plugin(tmp_path: Path) -> None:
    assert EXAMPLES, "examples/*.py is empty"
    result = run_mypy(
        ["--cache-dir", str(tmp_path / "cache"), *map(str, EXAMPLES)],
        tmp_path,
        config=STRICT_PLUGIN,
    )
    assert_no_crash(result)
    assert result.returncode == 0, result.stdout
    assert "Success: no issues found" in result.stdout, result.stdout


def test_expect_parser() -> None:
    sample = (
        "x = 1  # expect: typedtensor-axis\ny = 2\nz = 3  # expect: arg-type, typedtensor-shape\n"
        'w = 4  # expect: typedtensor-axis "axis 3 is out of range"\n'
    )
    path = Path(__file__).parent / "_expect_sample.tmp"
    try:
        path.write_text(sample)
        assert expected_errors(path) == {
            (1, "typedtensor-axis"),
            (3, "arg-type"),
            (3, "typedtensor-shape"),
            (4, "typedtensor-axis"),
        }
        assert expected_texts(path) == {4: "axis 3 is out of range"}
    finally:
        path.unlink()
