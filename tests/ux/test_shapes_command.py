"""``typedtensor shapes FILE.py``: source listing with mypy's tensor types and errors in place."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from typedtensor import _cli

GOOD = """\
from typing import Any, Literal as L, TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")


def center(x: Tensor[tt.float32, B, L[3]]) -> Tensor[tt.float32, B, L[3]]:
    y: Tensor[tt.float32, B, L[3]] = x
    return y


x: Tensor[tt.float32, L[8], L[3]] = tt.zeros((8, 3), dtype=tt.float32)
c = center(x)
a, n = c, 3
for t in [c, c]:
    print(t)
"""

BAD = """\
from typing import Any, Literal as L

import typedtensor as tt
from typedtensor import Tensor


def first(x: Tensor[tt.float32, L[3]]) -> Tensor[tt.float32, L[3]]:
    return x


w: Tensor[tt.int64, L[3]] = tt.tensor([1, 2, 3], shape=(3,))  # type: ignore[assignment]
v = first(
    w,
)
"""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("shapes")
    (d / "good.py").write_text(GOOD)
    (d / "bad.py").write_text(BAD)
    return d


def run(workdir: Path, *args: str) -> tuple[int, str, str]:
    import io

    out, err = io.StringIO(), io.StringIO()
    files = [str(workdir / a) if a.endswith(".py") else a for a in args]
    code = _cli.shapes(
        files,
        ["--cache-dir", str(workdir / ".mypy_cache"), "--config-file", ""],
        out=out,
        err=err,
    )
    return code, out.getvalue(), err.getvalue()


def block(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


@pytest.mark.slow
def test_shapes_lists_types_after_lines_and_errors_in_place(workdir: Path) -> None:
    code, out, _ = run(workdir, "good.py", "bad.py")
    assert code == 1
    assert (
        block("""
        def center(x: Tensor[tt.float32, B, L[3]]) -> Tensor[tt.float32, B, L[3]]:
            y: Tensor[tt.float32, B, L[3]] = x
            #   y: Tensor[float32, B, 3]
            return y
            #   return: Tensor[float32, B, 3]
        """)
        in out
    )
    assert (
        block("""
        x: Tensor[tt.float32, L[8], L[3]] = tt.zeros((8, 3), dtype=tt.float32)
        #   x: Tensor[float32, 8, 3]
        c = center(x)
        #   c: Tensor[float32, 8, 3]
        a, n = c, 3
        #   a: Tensor[float32, 8, 3]
        for t in [c, c]:
        #   t: Tensor[float32, 8, 3]
            print(t)
        """)
        in out
    )
    # the error of a multi-line statement is shown under the statement, with its code
    assert (
        block("""
        v = first(
            w,
        )
        #   v: Tensor[float32, 3]
        #   error: Argument 1 to "first" has incompatible type "Tensor[int64, Literal[3]]"; \
expected "Tensor[float32, Literal[3]]"  [arg-type]
        """)
        in out
    )
    assert "#   n:" not in out and "#   B:" not in out  # only tensor-typed bindings
    assert out.count("# ==> ") == 2
    assert out.rstrip().endswith("Found 1 error in 1 file (checked 2 source files)")


@pytest.mark.slow
def test_shapes_clean_file_exits_zero(workdir: Path) -> None:
    code, out, _ = run(workdir, "good.py")
    assert code == 0
    assert "# ==> " not in out
    assert out.rstrip().endswith("Success: no issues found (checked 1 source file)")
    assert out.startswith(GOOD.splitlines()[0] + "\n")


def test_module_entry_point_reports_syntax_errors(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("x = (\n")
    proc = subprocess.run(
        [sys.executable, "-m", "typedtensor", "shapes", "broken.py", "--", "--config-file", ""],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "broken.py:2: error:" in proc.stdout and "[syntax]" in proc.stdout


def test_missing_file_and_bad_mypy_option_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _cli.main(["shapes", str(tmp_path / "nope.py")]) == 2
    assert "nope.py: no such file" in capsys.readouterr().err
    (tmp_path / "ok.py").write_text("x = 1\n")
    assert _cli.main(["shapes", str(tmp_path / "ok.py"), "--", "--no-such-mypy-flag"]) == 2
    assert "--no-such-mypy-flag" in capsys.readouterr().err


def test_clear_message_when_mypy_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "mypy", None)  # import mypy -> ImportError
    (tmp_path / "ok.py").write_text("x = 1\n")
    assert _cli.main(["shapes", str(tmp_path / "ok.py")]) == 2
    assert "pip install mypy" in capsys.readouterr().err


def test_plugin_is_added_only_when_it_has_an_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    empty = types.ModuleType(_cli.PLUGIN)
    monkeypatch.setitem(sys.modules, _cli.PLUGIN, empty)
    plugins: list[str] = []
    assert "no entry point" in _cli._enable_plugin(plugins)
    assert plugins == []
    with_entry = types.ModuleType(_cli.PLUGIN)
    with_entry.plugin = lambda version: object  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, _cli.PLUGIN, with_entry)
    assert _cli._enable_plugin(plugins) == f"plugin {_cli.PLUGIN}"
    assert plugins == [_cli.PLUGIN]
    assert "from the mypy config" in _cli._enable_plugin(plugins)
    assert plugins == [_cli.PLUGIN]
