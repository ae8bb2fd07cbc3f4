"""Shared fixtures for the plugin's type-check tests.

The YAML cases (pytest-mypy-plugins) turn the plugin on per case (``mypy_config: *plugin_on``),
so nothing here changes the configuration of other YAML suites. ``TYPEDTENSOR_MYPY_DEBUG=1``
makes a hook that raises crash mypy instead of falling back quietly, so plugin bugs fail tests.
"""

from __future__ import annotations

import operator
import os
import re
import subprocess
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
REPO = HERE.parent.parent

os.environ["TYPEDTENSOR_MYPY_DEBUG"] = "1"
# pytest-mypy-plugins runs the `mypy` found on PATH: use this interpreter's (the venv's)
os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")


@dataclass
class MypyResult:
    returncode: int
    stdout: str
    stderr: str

    def messages(self, path: str | None = None) -> list[tuple[int, str, str, str | None]]:
        """``(line, severity, message, code)`` for every reported line (of ``path`` if given)."""
        out = []
        pattern = re.compile(r"^(.*?):(\d+): (error|note): (.*?)(?:  \[([a-z0-9-]+)\])?$")
        for line in self.stdout.splitlines():
            m = pattern.match(line)
            if m and (path is None or m.group(1).endswith(path)):
                out.append((int(m.group(2)), m.group(3), m.group(4), m.group(5)))
        return out


PLUGIN_CONFIG = "[mypy]\nplugins = typedtensor_mypy\n"


def run_mypy(
    args: list[str],
    cwd: Path,
    config: str | None = PLUGIN_CONFIG,
    env: dict[str, str] | None = None,
    module: str = "mypy",
) -> MypyResult:
    """Run ``python -m mypy`` (or ``mypy.dmypy``) in a subprocess in ``cwd``."""
    cmd = [sys.executable, "-m", module]
    if config is not None and module == "mypy":
        cfg = cwd / "mypy_test.ini"
        cfg.write_text(config)
        cmd += ["--config-file", str(cfg)]
    full_env = {**os.environ, "TYPEDTENSOR_MYPY_DEBUG": "1", **(env or {})}
    proc = subprocess.run(
        [*cmd, *args], cwd=cwd, capture_output=True, text=True, env=full_env, timeout=600
    )
    return MypyResult(proc.returncode, proc.stdout, proc.stderr)


def assert_no_crash(result: MypyResult) -> None:
    """mypy exited normally: 0 or 1, and no INTERNAL ERROR / traceback."""
    text = result.stdout + result.stderr
    assert result.returncode in (0, 1), text
    assert "INTERNAL ERROR" not in text and "Traceback" not in text, text


class _Subscripted:
    """``name[a, b]`` in a revealed type, evaluated by ``apply``."""

    def __init__(self, apply: Callable[..., int]) -> None:
        self.apply = apply

    def __getitem__(self, args: object) -> int:
        return self.apply(*(args if isinstance(args, tuple) else (args,)))


def dim_value(revealed: str, bindings: dict[str, int]) -> int:
    """The size a revealed dim (``typedtensor._dims.Mul[Literal[2], mod.B]``) has when each
    symbol named in ``bindings`` has its size there."""
    dims = types.SimpleNamespace(
        Add=_Subscripted(operator.add),
        Sub=_Subscripted(operator.sub),
        Mul=_Subscripted(operator.mul),
        FloorDiv=_Subscripted(operator.floordiv),
        IntDiv=_Subscripted(operator.floordiv),
    )
    names: dict[str, object] = {**bindings}  # a TypeVar is revealed by its bare name
    names.update(typedtensor=types.SimpleNamespace(_dims=dims), Literal=_Subscripted(int))
    for module in {m.group(1) for m in re.finditer(r"\b(\w+)\.\w+", revealed)}:
        if module not in names:  # the module of the symbols: corpus_mod.Bm
            names[module] = types.SimpleNamespace(**bindings)
    return int(eval(revealed, {"__builtins__": {}}, names))


#: a generated module's case index (0 = the first ``reveal_type`` line) -> its messages
CaseMessages = dict[int, list[tuple[str, str, "str | None"]]]


def check_reveal_corpus(tmp: Path, name: str, prelude: list[str], exprs: list[str]) -> CaseMessages:
    """Write ``prelude`` then ``reveal_type(<expr>)`` per expression as ``<name>.py`` in
    ``tmp``, check it once with mypy and the plugin, and return each case's
    ``(severity, message, code)`` list by case index (the agreement tests' corpus run)."""
    first = len(prelude) + 1
    lines = [*prelude, *(f"reveal_type({e})" for e in exprs)]
    (tmp / f"{name}.py").write_text("\n".join(lines) + "\n")
    result = run_mypy(["--no-error-summary", "--cache-dir", str(tmp / "cache"), f"{name}.py"], tmp)
    assert_no_crash(result)
    by_case: CaseMessages = {}
    for line, severity, message, code in result.messages(f"{name}.py"):
        by_case.setdefault(line - first, []).append((severity, message, code))
    return by_case


def check_function_corpus(
    tmp: Path, name: str, prelude: list[str], params: str, exprs: list[str]
) -> dict[int, list[tuple[str, str, str]]]:
    """Write ``prelude`` then one ``def case_<i>(<params>) -> None: reveal_type(<expr>)`` per
    expression as ``<name>.py`` in ``tmp`` (symbolic parameters need a function), check it
    once with mypy and the plugin, and return each case's ``(severity, message, code)`` list
    by case index (codes ``""`` when absent)."""
    lines, where = list(prelude), {}
    for i, expr in enumerate(exprs):
        lines.append(f"def case_{i}({params}) -> None:")
        lines.append(f"    reveal_type({expr})")
        where[len(lines)] = i
    (tmp / f"{name}.py").write_text("\n".join(lines) + "\n")
    result = run_mypy(["--no-error-summary", f"{name}.py"], tmp)
    assert_no_crash(result)
    out: dict[int, list[tuple[str, str, str]]] = {}
    for line, severity, message, code in result.messages(f"{name}.py"):
        out.setdefault(where[line], []).append((severity, message, code or ""))
    return out
