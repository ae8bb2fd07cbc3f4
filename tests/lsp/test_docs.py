"""The editor set-up snippets of docs/editors.md parse and name what the server reads."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from typedtensor._lsp.features import HintSettings

pytestmark = pytest.mark.lsp

REPO = Path(__file__).parents[2]
DOCS = (REPO / "docs" / "editors.md").read_text()


def block(language: str, containing: str) -> str:
    (found,) = [b for b in re.findall(rf"```{language}\n(.*?)```", DOCS, re.S) if containing in b]
    return found


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib is Python 3.11+")
def test_helix_snippet() -> None:
    import tomllib

    config = tomllib.loads(block("toml", "language-server.typedtensor"))
    server = config["language-server"]["typedtensor"]
    assert [server["command"], *server["args"]] == ["typedtensor", "lsp"]
    assert HintSettings.from_settings(server["config"]) == HintSettings(True, False)
    assert "typedtensor" in config["language"][0]["language-servers"]


def test_zed_snippet() -> None:
    config = json.loads(block("json", '"lsp"'))
    binary = config["lsp"]["pylsp"]["binary"]
    assert [binary["path"], *binary["arguments"]] == ["typedtensor", "lsp"]
    options = config["lsp"]["pylsp"]["initialization_options"]
    assert HintSettings.from_settings(options).variables


def test_vscode_extension_settings_are_the_servers() -> None:
    package = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    settings = package["contributes"]["configuration"]["properties"]
    assert settings["typedtensor.server.command"]["default"] == ["typedtensor", "lsp"]
    hints = {k.split(".")[-1]: v["default"] for k, v in settings.items() if ".inlayHints." in k}
    assert HintSettings.from_settings({"inlayHints": hints}) == HintSettings()
    assert set(hints) == {"variables", "callResults"}


def test_neovim_snippet_starts_the_server() -> None:
    lua = block("lua", "vim.lsp.start")
    assert 'cmd = { "typedtensor", "lsp" }' in lua
    assert "vim.lsp.inlay_hint.enable(true" in lua
