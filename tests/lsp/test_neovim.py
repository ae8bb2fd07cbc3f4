"""Neovim's built-in LSP client, headless, against `typedtensor lsp` (skipped without nvim)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from . import oracle
from .conftest import PROGRAMS, SERVER

pytestmark = [
    pytest.mark.lsp,
    pytest.mark.skipif(
        shutil.which("nvim") is None,
        reason="nvim is not installed (scripts/test.sh installs Debian's neovim where it can)",
    ),
]


def run_neovim(workspace: Path, path: Path, out: Path) -> dict[str, object]:
    """Open ``path`` in a headless Neovim attached to the server; its answers as JSON."""
    env = {
        **os.environ,
        "TT_FILE": str(path),
        "TT_ROOT": str(workspace),
        "TT_OUT": str(out),
        "TT_SERVER": json.dumps(SERVER),
    }
    script = Path(__file__).with_name("nvim_client.lua")
    done = subprocess.run(
        ["nvim", "--headless", "-u", "NONE", "-c", f"luafile {script}"],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.exists(), done.stdout + done.stderr
    result: dict[str, object] = json.loads(out.read_text())
    assert result.get("error") is None, result["error"]
    return result


def test_neovim_shows_mypys_hints_and_diagnostics(workspace: Path, tmp_path: Path) -> None:
    text = (PROGRAMS / "transformer.py").read_text()
    text = text.replace("pooled = y.mean(axis=1)", "pooled = y.mean(axis=3)")
    text = text.replace("scores = (qh @ kh.mT) * 0.5", "scores = (qh @ kh) * 0.5")
    path = workspace / "in_neovim.py"
    path.write_text(text)
    result = run_neovim(workspace, path, tmp_path / "neovim.json")

    errors = [m for m in oracle.messages(workspace, text) if m.severity == "error"]
    assert len(errors) == 2
    got = sorted((d["lnum"], d["col"], d["code"], d["message"]) for d in result["diagnostics"])  # type: ignore[attr-defined, index]
    assert got == sorted((m.line, m.col, m.code, m.text) for m in errors)

    expected = [
        r for r in oracle.reveals(workspace, text) if r.type.startswith("typedtensor._tensor.")
    ]
    hints = {(h["line"], h["character"], h["label"], h["tooltip"]) for h in result["hints"]}  # type: ignore[attr-defined, index]
    assert hints == {(r.line, r.col, f": {oracle.short_label(r.type)}", r.type) for r in expected}
    rendered = result["rendered"]
    assert isinstance(rendered, list)
    assert "    pooled: f32[2, 5, 16] = y.mean(axis=3)" not in rendered  # unknown after the bug
    assert any(line.startswith("    x: f32[2, 5, 16] = tt.random(") for line in rendered)


def test_the_capture_in_the_docs_is_what_neovim_receives(workspace: Path, tmp_path: Path):
    docs = (Path(__file__).parents[2] / "docs" / "editors.md").read_text()
    start = docs.index("```\n", docs.index("A capture of that run")) + 4
    capture = docs[start : docs.index("```", start)].rstrip("\n").split("\n")
    path = workspace / "demo.py"
    path.write_text((PROGRAMS / "demo.py").read_text())
    result = run_neovim(workspace, path, tmp_path / "demo.json")
    assert result["rendered"] == capture
