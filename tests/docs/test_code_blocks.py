"""Every Python block of README.md and of every page under docs/ is type-checked and run, so a
documented form that does not work fails the build. A new page is picked up by itself.

Conventions the blocks follow (comments a reader understands as they are; docs/contributing.md
says the same to the pages' authors):
- ``expr  # Tensor[float32, B, 10]`` (also after ``name = expr`` and ``return expr``): the
  revealed type of the expression (or the bound name) must be that type. Dims may be spelled
  ``10``, ``L[10]`` or ``Literal[10]``; trailing text after the type is prose.
- ``stmt  # error [typedtensor-axis]`` / ``stmt  # error: ...``: the checker must report an error
  on that line (with that code, where one is named); every other line must be clean.
- ``stmt  # ... raises AxisError``: running the statement must raise that exception (a name of
  ``typedtensor`` or a builtin); the rest of the block runs on.
A block right after the line ``<!-- check: pyright -->`` states pyright's answers: its types are
checked with pyright; every other block with mypy and the plugin. Errors are checked with both
for pyright blocks. Each block is a self-contained program (its own imports). Only ``python``
fences are programs: ``pyi`` (stub excerpts), ``toml``, ``bash`` and plain fences are not run.
"""

from __future__ import annotations

import builtins
import json
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import typedtensor as tt
from tests.static._run import pyright

REPO = Path(__file__).resolve().parent.parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
PYRIGHT_MARK = "<!-- check: pyright -->"

COMMENT = re.compile(r"^(?P<code>\s*[^#\s].*?)\s+#\s?(?P<comment>.*)$")
ASSIGN = re.compile(r"^(?P<indent>\s*)(?P<name>[A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(?P<expr>.+)$")
ERROR = re.compile(r"^error\b(?:\s*\[(?P<code>[a-z0-9-]+)\])?")
RAISES = re.compile(r"\braises (?P<name>[A-Za-z_]\w*)")


@dataclass
class Block:
    page: str  # the Markdown file, relative to the repository
    fence_line: int  # the line of the opening fence
    pyright: bool
    lines: list[str]
    reveals: dict[int, str] = field(default_factory=dict)  # checked line (1-based) -> type
    errors: dict[int, str | None] = field(default_factory=dict)  # block line -> code or None
    checked: list[str] = field(default_factory=list)
    checked_origin: dict[int, int] = field(default_factory=dict)  # checked line -> block line

    @property
    def name(self) -> str:
        """A module name for the block: the page's path and the fence's line."""
        stem = re.sub(r"\W", "_", self.page.removesuffix(".md").lower())
        return f"{stem}_line_{self.fence_line}"


def _balanced_type(comment: str) -> str | None:
    if not comment.startswith("Tensor["):
        return None
    depth = 0
    for i, ch in enumerate(comment):
        depth += ch == "["
        depth -= ch == "]"
        if depth == 0 and ch == "]":
            return comment[: i + 1]
    return None


def page_blocks(page: Path) -> list[Block]:
    """The ``python`` blocks of one Markdown page, with their expectations filled in."""
    out: list[Block] = []
    name = str(page.relative_to(REPO))
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = line.strip()
        if fence.startswith("```"):
            indent = line[: len(line) - len(line.lstrip())]
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            if fence == "```python":
                pyright = i > 0 and lines[i - 1].strip() == PYRIGHT_MARK
                body = [ln.removeprefix(indent) for ln in lines[i + 1 : j]]
                out.append(Block(name, i + 1, pyright, body))
            i = j
        i += 1
    for block in out:
        _instrument(block)
    return out


def blocks() -> list[Block]:
    return [block for page in PAGES for block in page_blocks(page)]


def _instrument(block: Block) -> None:
    """Fill ``checked`` (the block with ``reveal_type`` lines added) and the expectations."""
    for n, line in enumerate(block.lines, start=1):
        m = COMMENT.match(line)
        comment = m.group("comment").strip() if m else ""
        err = ERROR.match(comment)
        if err:
            block.errors[n] = err.group("code")
        expected = _balanced_type(comment)
        reveal = None
        if m and expected is not None:
            code = m.group("code")
            indent = code[: len(code) - len(code.lstrip())]
            assign = ASSIGN.match(code)
            if code.strip().startswith("return "):
                reveal = (f"{indent}reveal_type({code.strip()[len('return ') :]})", True)
            elif assign:
                reveal = (f"{indent}reveal_type({assign.group('name')})", False)
            else:
                reveal = (f"{indent}reveal_type({code.strip()})", False)
        if reveal is not None and reveal[1]:  # before a return
            block.checked.append(reveal[0])
            block.reveals[len(block.checked)] = expected  # type: ignore[assignment]
            block.checked_origin[len(block.checked)] = n
        block.checked.append(line)
        block.checked_origin[len(block.checked)] = n
        if reveal is not None and not reveal[1]:
            block.checked.append(reveal[0])
            block.reveals[len(block.checked)] = expected  # type: ignore[assignment]
            block.checked_origin[len(block.checked)] = n


#: both floor divisions (exact ``FloorDiv``, rounded-down ``IntDiv``) print ``//``
_OPERATORS = {"Add": "+", "Sub": "-", "Mul": "*", "FloorDiv": "//", "IntDiv": "//"}
_INNERMOST = re.compile(r"\b(Add|Sub|Mul|FloorDiv|IntDiv)\[([^\[\],]+?),([^\[\],]+?)\]")


def normalize(type_text: str) -> str:
    """One spelling for the README's, mypy's and pyright's renderings of a tensor type; dim
    expressions (mypy reveals ``Mul[Literal[2], B]``, the pages write ``2 * B``) as arithmetic
    without parentheses."""
    t = re.sub(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])", "", type_text)  # module prefixes
    t = re.sub(r"\b(?:L|Literal)\[(-?\d+)\]", r"\1", t)
    t = re.sub(r"@\w+", "", t)  # pyright's B@f
    t = t.replace(" ", "")
    while True:
        t, n = _INNERMOST.subn(lambda m: f"{m[2]}{_OPERATORS[m[1]]}{m[3]}", t)
        if not n:
            return t.replace("(", "").replace(")", "")


BLOCKS = blocks()


def test_normalize_spells_dim_expressions_as_arithmetic() -> None:
    revealed = "Tensor[float32, Mul[Literal[2], B], FloorDiv[Add[B, N], Literal[3]]]"
    assert normalize(revealed) == normalize("Tensor[float32, 2 * B, (B + N) // 3]")
    assert normalize(revealed) != normalize("Tensor[float32, 2 * B, B + N]")


def test_pages_have_checked_blocks() -> None:
    assert {b.page for b in BLOCKS} >= {"README.md", "docs/index.md", "docs/types.md"}
    assert len(BLOCKS) >= 6
    assert sum(len(b.reveals) for b in BLOCKS) >= 15
    assert sum(len(b.errors) for b in BLOCKS) >= 3
    assert any(b.pyright for b in BLOCKS) and any(not b.pyright for b in BLOCKS)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("docs_blocks")
    for block in BLOCKS:
        (tmp / f"{block.name}.py").write_text("\n".join(block.checked) + "\n")
    (tmp / "pyrightconfig.json").write_text(
        json.dumps({"pythonVersion": "3.11", "reportDeprecated": "error"})
    )
    return tmp


def _mypy_messages(tmp: Path) -> dict[str, list[tuple[int, str, str, str | None]]]:
    (tmp / "mypy.ini").write_text("[mypy]\nplugins = typedtensor_mypy\n")
    files = [f"{b.name}.py" for b in BLOCKS]
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-error-summary", *files],
        cwd=tmp,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stdout + proc.stderr, (
        proc.stdout + proc.stderr
    )
    out: dict[str, list[tuple[int, str, str, str | None]]] = {}
    pattern = re.compile(r"^(\w+)\.py:(\d+): (error|note): (.*?)(?:  \[([a-z0-9-]+)\])?$")
    for line in proc.stdout.splitlines():
        m = pattern.match(line)
        if m:
            out.setdefault(m.group(1), []).append(
                (int(m.group(2)), m.group(3), m.group(4), m.group(5))
            )
    return out


def _pyright_messages(tmp: Path) -> dict[str, list[tuple[int, str, str, str | None]]]:
    report = pyright([f"{b.name}.py" for b in BLOCKS if b.pyright], cwd=tmp)
    diagnostics: list[dict[str, Any]] = report["generalDiagnostics"]  # type: ignore[assignment]
    out: dict[str, list[tuple[int, str, str, str | None]]] = {}
    for d in diagnostics:
        name = Path(d["file"]).stem
        line = d["range"]["start"]["line"] + 1
        severity = {"information": "note"}.get(d["severity"], d["severity"])
        message = d["message"]
        reveal = re.match(r'^Type of ".*" is "(.*)"$', message, re.S)
        if reveal:
            message = f'Revealed type is "{reveal.group(1)}"'
        out.setdefault(name, []).append((line, severity, message, d.get("rule")))
    return out


def _check(
    block: Block, messages: list[tuple[int, str, str, str | None]], *, types: bool, codes: bool
) -> list[str]:
    problems: list[str] = []
    where = f"{block.page} block at line {block.fence_line}"
    error_lines: dict[int, set[str | None]] = {}
    for line, severity, _, code in messages:
        origin = block.checked_origin.get(line, 0)
        if severity == "error":
            error_lines.setdefault(origin, set()).add(code)
    for n, code in block.errors.items():
        if n not in error_lines:
            problems.append(f"{where}, line {n}: expected an error, none reported")
        elif codes and code is not None and code not in error_lines[n]:
            problems.append(f"{where}, line {n}: expected [{code}], got {error_lines[n]}")
    for n, reported in error_lines.items():
        if n not in block.errors:
            problems.append(f"{where}, line {n}: unexpected error {reported}: {messages}")
    if types:
        revealed = {
            line: message[len('Revealed type is "') : -1]
            for line, severity, message, _ in messages
            if severity == "note" and message.startswith("Revealed type is ")
        }
        for line, expected in block.reveals.items():
            got = revealed.get(line)
            n = block.checked_origin[line]
            if got is None or normalize(got) != normalize(expected):
                problems.append(f"{where}, line {n}: the page says {expected}, checker says {got}")
    return problems


@pytest.mark.slow
def test_blocks_type_check_as_documented(workdir: Path) -> None:
    mypy = _mypy_messages(workdir)
    pyright = _pyright_messages(workdir)
    problems: list[str] = []
    for block in BLOCKS:
        problems += _check(block, mypy.get(block.name, []), types=not block.pyright, codes=True)
        if block.pyright:
            problems += _check(block, pyright.get(block.name, []), types=True, codes=False)
    assert not problems, "\n".join(problems)


def _runnable(block: Block) -> str:
    """The block with each ``# raises X`` statement wrapped in a check that it raises X."""
    out: list[str] = []
    for line in block.lines:
        m = COMMENT.match(line)
        raised = RAISES.search(m.group("comment")) if m else None
        if m is None or raised is None:
            out.append(line)
            continue
        code = m.group("code")
        indent = code[: len(code) - len(code.lstrip())]
        exc = raised.group("name")
        out += [
            f"{indent}try:",
            f"{indent}    {code.strip()}",
            f"{indent}except _named_exception({exc!r}):",
            f"{indent}    pass",
            f"{indent}else:",
            f"{indent}    raise AssertionError({exc!r} + ' was not raised')",
        ]
    return "\n".join(out) + "\n"


def _named_exception(name: str) -> type[BaseException]:
    found = getattr(tt, name, None) or getattr(builtins, name, None)
    assert isinstance(found, type) and issubclass(found, BaseException), name
    return found


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_block_runs(block: Block) -> None:
    source = _runnable(block)
    namespace = {"__name__": f"__{block.name}__", "_named_exception": _named_exception}
    exec(compile(textwrap.dedent(source), f"{block.page}:{block.fence_line}", "exec"), namespace)
