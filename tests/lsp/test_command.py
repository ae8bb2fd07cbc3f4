"""`typedtensor lsp` as a command: its help, and a clear error without the lsp extra."""

from __future__ import annotations

import subprocess
import sys

import pytest

from typedtensor._lsp import MISSING_PYGLS, run

pytestmark = pytest.mark.lsp


def test_help_names_the_server() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "typedtensor", "lsp", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "Language Server over stdin/stdout" in done.stdout


def test_without_pygls_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pygls", None)  # `import pygls` raises ImportError
    assert run() == 2
    err = capsys.readouterr().err
    assert MISSING_PYGLS in err and "pip install 'typedtensor[lsp]'" in err
    assert "missing: pygls" in err
