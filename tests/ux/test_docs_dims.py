"""Every Python block of docs/dims.md is type-checked (mypy with the plugin) and run, with the
README's conventions (``tests/ux/test_readme.py``): ``# Tensor[...]`` is the revealed type
(expression dims written as arithmetic), ``# error [code]`` an error on that line,
``# raises X`` a statement that must raise ``X``."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_readme import REPO, Block, _check, _instrument, _readme_exception, _runnable, normalize

DOC = REPO / "docs" / "dims.md"
_OPERATORS = {"Add": "+", "Sub": "-", "Mul": "*", "FloorDiv": "//"}
_INNERMOST = re.compile(r"\b(Add|Sub|Mul|FloorDiv)\[([^\[\],]+?),\s*([^\[\],]+?)\]")


def doc_blocks() -> list[Block]:
    lines = DOC.read_text().splitlines()
    out = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            out.append(Block(i + 1, False, lines[i + 1 : j]))
            i = j
        i += 1
    for block in out:
        _instrument(block)
    return out


def arithmetic(type_text: str) -> str:
    """A revealed type with its expression dims as arithmetic, parentheses dropped (the
    page's and mypy's spellings compared after ``normalize``)."""
    text = normalize(type_text)
    while True:
        text, n = _INNERMOST.subn(lambda m: f"{m[2]}{_OPERATORS[m[1]]}{m[3]}", text)
        if not n:
            return text.replace("(", "").replace(")", "")


BLOCKS = doc_blocks()


def test_page_has_checked_blocks() -> None:
    assert len(BLOCKS) >= 4
    assert sum(len(b.reveals) for b in BLOCKS) >= 10
    assert sum(len(b.errors) for b in BLOCKS) >= 3
    assert arithmetic("Tensor[float32, Mul[Literal[2], B], FloorDiv[Add[B, N], Literal[3]]]") == (
        "Tensor[float32,2*B,B+N//3]"
    )


@pytest.mark.slow
def test_blocks_type_check_as_documented(tmp_path: Path) -> None:
    for block in BLOCKS:
        (tmp_path / f"{block.name}.py").write_text("\n".join(block.checked) + "\n")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = typedtensor_mypy\n")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-error-summary"]
        + [f"{b.name}.py" for b in BLOCKS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stdout + proc.stderr
    pattern = re.compile(r"^(\w+)\.py:(\d+): (error|note): (.*?)(?:  \[([a-z0-9-]+)\])?$")
    messages: dict[str, list[tuple[int, str, str, str | None]]] = {}
    for line in proc.stdout.splitlines():
        m = pattern.match(line)
        if m:
            message = m[4]
            if message.startswith('Revealed type is "'):  # compare in the page's spelling
                message = f'Revealed type is "{arithmetic(message[18:-1])}"'
            messages.setdefault(m[1], []).append((int(m[2]), m[3], message, m[5]))
    problems: list[str] = []
    for block in BLOCKS:
        block.reveals = {n: arithmetic(t) for n, t in block.reveals.items()}
        problems += _check(block, messages.get(block.name, []), types=True, codes=True)
    assert not problems, "\n".join(problems) + "\n" + proc.stdout


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_block_runs(block: Block) -> None:
    namespace = {"__name__": f"__{block.name}__", "_readme_exception": _readme_exception}
    source = textwrap.dedent(_runnable(block))
    exec(compile(source, f"docs/dims.md:{block.readme_line}", "exec"), namespace)
