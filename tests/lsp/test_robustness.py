"""`typedtensor lsp` when things go wrong: a crashing checker, files it cannot check."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from . import oracle
from .conftest import PROGRAMS, SERVER, TIMEOUT, Doc, make_client, make_workspace, start

pytestmark = [pytest.mark.lsp, pytest.mark.asyncio]

TRANSFORMER = (PROGRAMS / "transformer.py").read_text()
MARKER = "CRASH-THE-CHECKER"


async def until(condition: object, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while not condition():  # type: ignore[operator]
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@pytest.fixture
def crash_workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "ws")


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=SERVER,
        client_factory=make_client,
        server_env={**os.environ, "TYPEDTENSOR_LSP_INJECT_CRASH": MARKER},
    )
)
async def crashing(lsp_client: LanguageClient, crash_workspace: Path) -> AsyncIterator[None]:
    await start(lsp_client, crash_workspace)
    yield
    await lsp_client.shutdown_session()


async def test_a_crashed_checker_is_restarted_and_logged(
    crashing: LanguageClient, crash_workspace: Path, workspace: Path
) -> None:
    lsp_client = crashing
    doc = Doc(lsp_client, crash_workspace / "model.py", TRANSFORMER + f"# {MARKER}\n")

    def crash_logs() -> list[str]:
        return [m.message for m in lsp_client.log_messages if "checker crashed" in m.message]

    await until(lambda: len(crash_logs()) >= 1, "the crash in the log")
    assert "restarting it" in crash_logs()[0]
    assert "injected crash" in crash_logs()[0]
    broken = TRANSFORMER.replace("pooled = y.mean(axis=1)", "pooled = y.mean(axis=3)")
    doc.change(broken)  # the editor session goes on: the next edit is checked by a new mypy
    found = await doc.diagnostics()
    expected = [m for m in oracle.messages(workspace, broken) if m.severity == "error"]
    assert [(d.range.start.line, d.code) for d in found] == [(m.line, m.code) for m in expected]
    assert [d.code for d in found] == ["typedtensor-axis"]
    hints = await doc.hints()
    assert any(h.label == ": f32[2, 5, 16]" for h in hints)


@pytest.fixture
def plain_workspace(tmp_path: Path) -> Path:
    return make_workspace(tmp_path / "plain", config='[project]\nname = "plain"\n')


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, client_factory=make_client))
async def plain(lsp_client: LanguageClient, plain_workspace: Path) -> AsyncIterator[None]:
    await start(lsp_client, plain_workspace)
    yield
    await lsp_client.shutdown_session()


async def test_plugin_not_configured_and_files_outside_the_workspace(
    plain: LanguageClient, plain_workspace: Path, workspace: Path, tmp_path: Path
) -> None:
    lsp_client = plain
    broken = TRANSFORMER.replace("pooled = y.mean(axis=1)", "pooled = y.mean(axis=3)")
    doc = Doc(lsp_client, plain_workspace / "model.py", broken)
    found = await doc.diagnostics()
    shown = [m.message for m in lsp_client.messages]
    assert any("does not list the typedtensor_mypy plugin" in m for m in shown), shown
    # the server added the plugin: its errors are those of mypy with the plugin configured
    expected = [m for m in oracle.messages(workspace, broken) if m.severity == "error"]
    assert [(d.range.start.line, d.code) for d in found] == [(m.line, m.code) for m in expected]

    outside = tmp_path / "elsewhere" / "script.py"
    outside.parent.mkdir()
    other = Doc(lsp_client, outside, TRANSFORMER)
    await until(lambda: any("outside the workspace" in m.message for m in lsp_client.messages),
                "a message about the file outside the workspace")  # fmt: skip
    await until(lambda: other.uri in lsp_client.diagnostics, "its diagnostic")
    (info,) = lsp_client.diagnostics[other.uri]
    assert info.severity == lsp.DiagnosticSeverity.Information
    assert "outside the workspace" in info.message and str(plain_workspace) in info.message
    assert await other.hints() == []
