"""``typedtensor shapes FILE.py``: source listing with mypy's tensor types and errors in place."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from typedtensor import _cli

GOOD = """\
from typing import Any, Literal as L, TypeVar

from typing_extensions import Unpack

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


def mystery(x: Tensor[tt.float32, Unpack[tuple[Any, ...]]]) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    return x


m = mystery(x)
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


def fake_plugin_module() -> types.ModuleType:
    """A stand-in for typedtensor_mypy whose hook types ``good.mystery(x)`` as
    ``Tensor[<x's dtype>, 7]``: shows that the command runs mypy with the plugin enabled."""
    from mypy.plugin import FunctionContext, Plugin
    from mypy.types import Instance, LiteralType, Type, get_proper_type

    def seven(ctx: FunctionContext) -> Type:
        arg = get_proper_type(ctx.arg_types[0][0])
        ret = get_proper_type(ctx.default_return_type)
        assert isinstance(arg, Instance) and isinstance(ret, Instance)
        dim = LiteralType(7, fallback=ctx.api.named_generic_type("builtins.int", []))
        return ret.copy_modified(args=[arg.args[0], dim])

    class FakePlugin(Plugin):
        def get_function_hook(self, fullname: str) -> Any:
            return seven if fullname == "good.mystery" else None

    module = types.ModuleType(_cli.PLUGIN)
    module.plugin = lambda version: FakePlugin  # type: ignore[attr-defined]
    return module


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("shapes")
    (d / "good.py").write_text(GOOD)
    (d / "bad.py").write_text(BAD)
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, _cli.PLUGIN, fake_plugin_module())
        yield d


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
    # the type the plugin computes is the one listed
    assert "m = mystery(x)\n#   m: Tensor[float32, 7]\n" in out
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
    assert out.rstrip().endswith(
        f"plugin {_cli.PLUGIN}: Found 1 error in 1 file (checked 2 source files)"
    )


@pytest.mark.slow
def test_shapes_clean_file_exits_zero(workdir: Path) -> None:
    code, out, _ = run(workdir, "good.py")
    assert code == 0
    assert "# ==> " not in out
    assert out.rstrip().endswith("Success: no issues found (checked 1 source file)")
    assert out.startswith(GOOD.splitlines()[0] + "\n")


@pytest.mark.slow
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
    from mypy.options import Options

    monkeypatch.setitem(sys.modules, _cli.PLUGIN, types.ModuleType(_cli.PLUGIN))
    state, plugins = _cli._enable_plugin(Options())
    assert "no entry point" in state and plugins == []
    monkeypatch.setitem(sys.modules, _cli.PLUGIN, fake_plugin_module())
    state, plugins = _cli._enable_plugin(Options())
    assert state == f"plugin {_cli.PLUGIN}" and len(plugins) == 1
    configured = Options()
    configured.config_file, configured.plugins = "/x/mypy.ini", [_cli.PLUGIN]
    state, plugins = _cli._enable_plugin(configured)  # mypy loads it itself
    assert "from mypy.ini" in state and plugins == []
    monkeypatch.setitem(sys.modules, _cli.PLUGIN, None)
    assert "not installed" in _cli._enable_plugin(Options())[0]
