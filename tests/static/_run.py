"""Run pyright and mypy (without the plugin) on the static test files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PYRIGHT = Path(sys.executable).parent / "pyright"


def pyright(args: list[str], cwd: Path = HERE) -> dict[str, object]:
    """Run pyright with ``--outputjson``; return the parsed report."""
    proc = subprocess.run(
        [str(PYRIGHT), "--outputjson", "--pythonpath", sys.executable, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        report: dict[str, object] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"pyright did not run:\n{proc.stdout}\n{proc.stderr}") from None
    return report


def revealed_types(report: dict[str, object], first: int) -> dict[int, str]:
    """The type each ``reveal_type`` of a pyright report shows, by line counted from ``first``
    (the file's line ``first`` is 0)."""
    types: dict[int, str] = {}
    for d in report["generalDiagnostics"]:  # type: ignore[attr-defined]
        if d["severity"] == "information" and d["message"].startswith("Type of "):
            line = d["range"]["start"]["line"] + 1 - first
            types[line] = d["message"].rsplit('" is "', 1)[1][:-1]
    return types


def errors(report: dict[str, object]) -> list[str]:
    """``file:line: message`` for each error in a pyright report."""
    out = []
    for d in report["generalDiagnostics"]:  # type: ignore[attr-defined]
        if d["severity"] == "error":
            line = d["range"]["start"]["line"] + 1
            out.append(f"{Path(d['file']).name}:{line}: {d['message']}")
    return out


def mypy(args: list[str], cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """Run mypy (this interpreter's) with ``args``."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
