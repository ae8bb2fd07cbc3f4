"""Plugin hygiene: the rules load without numpy, the cache key, the incremental cache, dmypy,
and the ``TYPEDTENSOR_MYPY_PLUGIN`` always-true name for stubs."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import textwrap
import time
import venv
from pathlib import Path

import pytest

from .conftest import PLUGIN_CONFIG, REPO, assert_no_crash, run_mypy

TENSOR_MOD = """\
from typing import Literal as L
import typedtensor as tt
from typedtensor import Tensor

x: Tensor[tt.float32, L[{a}], L[{b}]]
"""
USER_MOD = """\
from shapes import x

reveal_type(x.sum(axis=-1))
x.sum(axis=2)
"""


def _write(path: Path, text: str) -> None:
    path.write_text(text)
    # mypy trusts a cached file of equal size and mtime: move the mtime on explicitly
    stamp = time.time() + next(_TICKS)
    os.utime(path, (stamp, stamp))


_TICKS = itertools.count(2)


def test_rules_load_without_importing_numpy() -> None:
    code = textwrap.dedent(
        """
        import sys
        import typedtensor_mypy
        from typedtensor_mypy._rules import rules
        assert "numpy" not in sys.modules, "the plugin imported numpy"
        assert "typedtensor" not in sys.modules, "the plugin ran typedtensor/__init__.py"
        assert rules.normalize_axes((-1, 0), 3) == (0, 2)
        print(rules.__name__, rules.__file__)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    name, path = proc.stdout.split()
    assert name == "typedtensor_mypy._loaded_rules"
    assert Path(path).resolve() == (REPO / "typedtensor" / "_rules" / "__init__.py").resolve()


def test_rules_reuse_an_imported_module() -> None:
    from typedtensor_mypy._rules import load_rules

    import typedtensor._rules as real

    assert load_rules() is real


def test_entry_point_and_cache_key() -> None:
    import typedtensor_mypy
    from mypy.options import Options
    from mypy.plugin import ReportConfigContext

    cls = typedtensor_mypy.plugin("2.4.1")
    options = Options()
    plugin = cls(options)
    data = plugin.report_config_data(ReportConfigContext("m", "m.py", is_check=False))
    assert data["typedtensor_mypy"] == typedtensor_mypy.__version__
    assert len(data["sources"]) == 16
    json.dumps(data)  # stored in the cache metadata: must be JSON
    assert options.always_true.count("TYPEDTENSOR_MYPY_PLUGIN") == 1
    cls(options)  # a second instance (dmypy restarts) does not append twice
    assert options.always_true.count("TYPEDTENSOR_MYPY_PLUGIN") == 1


def test_plugin_is_pure_python() -> None:
    import typedtensor_mypy._plugin as mod

    assert mod.__file__ is not None and mod.__file__.endswith(".py")


def _reveals(result_stdout: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in result_stdout.splitlines() if "user_mod.py" in line]


def test_incremental_cache_follows_changes(tmp_path: Path) -> None:
    _write(tmp_path / "shapes.py", TENSOR_MOD.format(a=8, b=10))
    _write(tmp_path / "user_mod.py", USER_MOD)
    args = ["--cache-dir", str(tmp_path / "cache"), "user_mod.py", "shapes.py"]
    first = run_mypy(args, tmp_path)
    assert_no_crash(first)
    expected_first = [
        'note: Revealed type is "typedtensor._tensor.Tensor[typedtensor._dtypes.float32, '
        'Literal[8]]"',
        "error: axis 2 is out of range for a rank-2 tensor; valid axes are -2..1  "
        "[typedtensor-axis]",
    ]
    assert _reveals(first.stdout) == expected_first
    again = run_mypy(args, tmp_path)  # warm cache: the same answer, errors included
    assert _reveals(again.stdout) == expected_first
    _write(tmp_path / "shapes.py", TENSOR_MOD.format(a=5, b=7).replace("L[7]]", "L[7], L[9]]"))
    changed = run_mypy(args, tmp_path)
    assert _reveals(changed.stdout) == [
        'note: Revealed type is "typedtensor._tensor.Tensor[typedtensor._dtypes.float32, '
        'Literal[5], Literal[7]]"'
    ]


def test_dmypy_follows_changes(tmp_path: Path) -> None:
    _write(tmp_path / "shapes.py", TENSOR_MOD.format(a=8, b=10))
    _write(tmp_path / "user_mod.py", USER_MOD)
    (tmp_path / "mypy.ini").write_text(PLUGIN_CONFIG)
    status = str(tmp_path / "dmypy.json")
    base = ["--status-file", status]
    run_args = [*base, "run", "--", "--config-file", "mypy.ini", "user_mod.py", "shapes.py"]
    try:
        first = run_mypy(run_args, tmp_path, config=None, module="mypy.dmypy")
        assert_no_crash(first)
        assert any("Literal[8]]" in r for r in _reveals(first.stdout)), first.stdout + first.stderr
        assert any("[typedtensor-axis]" in r for r in _reveals(first.stdout))
        _write(tmp_path / "shapes.py", TENSOR_MOD.format(a=3, b=10).replace("L[10]]", "L[3]]"))
        second = run_mypy(run_args, tmp_path, config=None, module="mypy.dmypy")
        assert_no_crash(second)
        assert _reveals(second.stdout)[0] == (
            'note: Revealed type is "typedtensor._tensor.Tensor[typedtensor._dtypes.float32, '
            'Literal[3]]"'
        ), second.stdout
        assert "Restarting" not in second.stdout + second.stderr  # the options did not drift
    finally:
        run_mypy([*base, "stop"], tmp_path, config=None, module="mypy.dmypy")


STUB = """\
from typing import Final, overload

TYPEDTENSOR_MYPY_PLUGIN: Final[bool]
MYPY: Final[bool]

if TYPEDTENSOR_MYPY_PLUGIN:
    def answer() -> int: ...
    def plugin_only() -> int: ...
else:
    def answer() -> int: ...
    def without_plugin() -> str: ...

class Box:
    # the generated stubs' pattern: nested in a class body, negated
    if MYPY:
        if not TYPEDTENSOR_MYPY_PLUGIN:
            @overload
            def get(self, a: int) -> int: ...
            @overload
            def get(self, a: str) -> str: ...
        else:
            def get(self, a: object) -> bytes: ...
"""
USE_STUB = """\
from fakestubs import Box, answer, plugin_only, without_plugin

reveal_type(answer())
reveal_type(Box().get(1))
"""
UNREACHABLE = 'Module "fakestubs" has no attribute "without_plugin"'


@pytest.fixture(scope="module")
def installed_stub_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway virtualenv with a stub-only package installed in its site-packages."""
    root = tmp_path_factory.mktemp("stubenv")
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    pkg = Path(site) / "fakestubs"
    pkg.mkdir(parents=True)
    (pkg / "__init__.pyi").write_text(STUB)
    (pkg / "py.typed").write_text("")
    return python


@pytest.mark.parametrize("plugin_on", [True, False])
def test_always_true_name_selects_the_stub_branch(
    installed_stub_env: Path, tmp_path_factory: pytest.TempPathFactory, plugin_on: bool
) -> None:
    work = tmp_path_factory.mktemp("stubuse")
    (work / "use_stub.py").write_text(USE_STUB)
    config = PLUGIN_CONFIG if plugin_on else "[mypy]\n"
    args = ["--python-executable", str(installed_stub_env), "--no-incremental", "use_stub.py"]
    result = run_mypy(args, work, config=config)
    assert_no_crash(result)
    assert 'use_stub.py:3: note: Revealed type is "int"' in result.stdout, result.stdout
    if plugin_on:  # the else branch is unreachable: its names do not exist
        assert UNREACHABLE in result.stdout, result.stdout
        assert "plugin_only" not in result.stdout, result.stdout
        assert 'use_stub.py:4: note: Revealed type is "bytes"' in result.stdout, result.stdout
    else:  # mypy alone: the value of a `bool` is unknown, both branches count
        assert result.returncode == 0, result.stdout
        assert 'use_stub.py:4: note: Revealed type is "int"' in result.stdout, result.stdout


def test_always_true_survives_the_cache_in_both_directions(
    installed_stub_env: Path, tmp_path: Path
) -> None:
    (tmp_path / "use_stub.py").write_text(USE_STUB)
    args = ["--python-executable", str(installed_stub_env), "--cache-dir", "cache", "use_stub.py"]
    outputs = []
    for config in (PLUGIN_CONFIG, "[mypy]\n", PLUGIN_CONFIG):
        result = run_mypy(args, tmp_path, config=config)
        assert_no_crash(result)
        outputs.append(UNREACHABLE in result.stdout)
    assert outputs == [True, False, True]


ANCHORS = """\
from typing import Literal as L
import typedtensor as tt
from typedtensor import Tensor

x: Tensor[tt.float32, L[2], L[3]]
y: Tensor[tt.float32, L[4]]
s: Tensor[tt.float32]
x.sum(keepdims=True, axis=(0, 5))
tt.mean(x, -3)
x + y
x.sum_to((1, 7))
s.l2_normalize()
"""


def test_errors_are_anchored_at_the_offending_argument(tmp_path: Path) -> None:
    (tmp_path / "anchors.py").write_text(ANCHORS)
    result = run_mypy(["--show-column-numbers", "--no-incremental", "anchors.py"], tmp_path)
    assert_no_crash(result)
    columns = {}
    for line in result.stdout.splitlines():
        m = re.match(r"anchors\.py:(\d+):(\d+): error: .*\[(typedtensor-[a-z]+)\]$", line)
        if m:
            columns[int(m.group(1))] = (int(m.group(2)), m.group(3))
    source = ANCHORS.splitlines()

    def col(lineno: int, text: str) -> int:  # mypy columns are 1-based
        return source[lineno - 1].index(text) + 1

    assert columns == {
        8: (col(8, "(0, 5)"), "typedtensor-axis"),
        9: (col(9, "-3"), "typedtensor-axis"),
        10: (col(10, "y"), "typedtensor-shape"),
        11: (col(11, "(1, 7)"), "typedtensor-shape"),
        12: (col(12, "s.l2_normalize()"), "typedtensor-axis"),  # a default axis: the call
    }, result.stdout


def test_a_failing_hook_falls_back_or_raises_under_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from typedtensor_mypy import _reduce_fast
    from typedtensor_mypy._guard import guarded

    def broken(*args: object) -> None:
        raise RuntimeError("hook bug")

    monkeypatch.setattr(_reduce_fast, "_fast_reduce", broken)
    ctx = SimpleNamespace(default_return_type="mypy's own answer")
    hooks = [guarded(broken), _reduce_fast.reduction_hook("sum", method=True)]
    assert guarded(hooks[1]) is hooks[1]  # guards itself: no second wrapper
    monkeypatch.delenv("TYPEDTENSOR_MYPY_DEBUG", raising=False)
    for hook in hooks:
        assert hook(ctx) == "mypy's own answer"  # type: ignore[arg-type]
    monkeypatch.setenv("TYPEDTENSOR_MYPY_DEBUG", "1")
    for hook in hooks:
        with pytest.raises(RuntimeError, match="hook bug"):
            hook(ctx)  # type: ignore[arg-type]


def test_guard_falls_back_to_the_attribute_type_for_property_hooks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mypy.plugin import AttributeContext
    from mypy.types import AnyType, TypeOfAny
    from typedtensor_mypy._guard import guarded

    def broken(ctx: AttributeContext) -> AnyType:
        raise RuntimeError("a bug in a property hook")

    monkeypatch.delenv("TYPEDTENSOR_MYPY_DEBUG", raising=False)
    default = AnyType(TypeOfAny.special_form)
    ctx = AttributeContext(
        type=default, default_attr_type=default, is_lvalue=False, context=None, api=None
    )  # type: ignore[arg-type]
    assert guarded(broken)(ctx) is default
