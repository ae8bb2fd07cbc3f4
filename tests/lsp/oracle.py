"""What `mypy` with the typedtensor plugin says about a file: the answers the server must give.

Run on the same text the server sees: ``reveal_type`` of every assigned name, and mypy's
messages with columns. Nothing here is hand-written: the tests compare the server to these.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

_REVEALED = re.compile(r'^(?P<path>.+?):(?P<line>\d+): note: Revealed type is "(?P<type>.*)"$')
_MESSAGE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+):(?P<end_line>\d+):(?P<end_col>\d+): "
    r"(?P<severity>error|note): (?P<text>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


@dataclass(frozen=True)
class Reveal:
    """``name`` bound on ``line`` (0-based), ending at ``col``, has mypy type ``type``."""

    line: int
    col: int
    name: str
    type: str


@dataclass(frozen=True)
class MypyMessage:
    """One mypy message, 0-based lines and columns, end column exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int
    severity: str
    text: str
    code: str | None


def run_mypy(workspace: Path, name: str, text: str, *extra: str) -> list[str]:
    """mypy's output lines for ``text`` written as ``workspace/name`` (config from there)."""
    (workspace / name).write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", *extra, name],
        cwd=workspace,
        capture_output=True,
        text=True,
        env={**os.environ, "MYPY_FORCE_COLOR": "0"},
        timeout=300,
    )
    assert done.returncode in (0, 1) or "[syntax]" in done.stdout, done.stdout + done.stderr
    return done.stdout.splitlines()


def reveals(workspace: Path, text: str) -> list[Reveal]:
    """``reveal_type`` of each name an assignment (or ``for``/``with``) binds, right after it."""
    tree = ast.parse(text)
    lines = text.splitlines()
    inserts: dict[int, list[tuple[str, int, int]]] = {}  # after line -> (name, line, col)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, (ast.For, ast.With)):
            continue  # the test programs bind names by assignment only
        else:
            continue
        names = [n for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        for n in names:
            assert node.end_lineno is not None and n.end_col_offset is not None
            inserts.setdefault(node.end_lineno, []).append((n.id, n.lineno - 1, n.end_col_offset))
    out_lines: list[str] = []
    where: dict[int, tuple[str, int, int]] = {}  # inserted line (1-based) -> binding
    for number, line in enumerate(lines, start=1):
        out_lines.append(line)
        start = lines[_statement_start(tree, number) - 1]
        indent = start[: len(start) - len(start.lstrip())]
        for name, bound_line, col in inserts.get(number, []):
            out_lines.append(f"{indent}reveal_type({name})")
            where[len(out_lines)] = (name, bound_line, col)
    found = []
    for line in run_mypy(workspace, "_oracle_reveal.py", "\n".join(out_lines) + "\n"):
        m = _REVEALED.match(line)
        if m and int(m["line"]) in where:
            name, bound_line, col = where[int(m["line"])]
            found.append(Reveal(bound_line, col, name, m["type"]))
    assert len(found) == len(where), "mypy did not reveal every binding"
    return found


def _statement_start(tree: ast.Module, end_line: int) -> int:
    """The first line of the statement ending on ``end_line`` (itself when none ends there)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.end_lineno == end_line:
            return node.lineno
    return end_line


def messages(workspace: Path, text: str) -> list[MypyMessage]:
    """mypy's errors and notes for ``text``, with columns and ends."""
    out = []
    for line in run_mypy(
        workspace, "_oracle_messages.py", text, "--show-column-numbers", "--show-error-end"
    ):
        m = _MESSAGE.match(line)
        if m:
            out.append(
                MypyMessage(
                    int(m["line"]) - 1, int(m["col"]) - 1, int(m["end_line"]) - 1,
                    int(m["end_col"]), m["severity"], m["text"], m["code"],
                )
            )  # fmt: skip
    return out


_DTYPE_SHORT = {"float32": "f32", "float64": "f64", "int64": "i64", "int32": "i32", "bool_": "bool"}


def short_label(revealed: str) -> str:
    """The hint label the docs promise for a revealed type, derived from mypy's text:

    ``typedtensor._tensor.Tensor[typedtensor._dtypes.float32, B`-1, Literal[16]?]`` ->
    ``f32[B, 16]``.
    """
    unknown_rank = revealed.replace("*tuple[Any, ...]", "...")
    m = re.fullmatch(r"typedtensor\._tensor\.Tensor\[(.*)\]", unknown_rank)
    assert m, revealed
    items = [s.strip() for s in m[1].split(",")]
    dtype = items[0].removeprefix("typedtensor._dtypes.")
    dims = []
    for item in items[1:]:
        if lit := re.fullmatch(r"Literal\[(-?\d+)\]\??", item):
            dims.append(lit[1])
        elif var := re.fullmatch(r"(\w+)`-?\d+", item):
            dims.append(var[1])
        else:
            dims.append("?" if item == "Any" else item)
    return f"{_DTYPE_SHORT.get(dtype, dtype)}[{', '.join(dims)}]"
