"""A real LSP client (pytest-lsp) talking to `python -m typedtensor lsp` over stdio."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

PROGRAMS = Path(__file__).parent / "programs"
SERVER = [sys.executable, "-m", "typedtensor", "lsp"]
PLUGIN_CONFIG = '[tool.mypy]\nplugins = ["typedtensor_mypy"]\n'
TIMEOUT = 120.0  # s: the first check of a busy machine


def make_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics (with its version)."""
    client = LanguageClient(converter_factory=default_converter)
    published: list[lsp.PublishDiagnosticsParams] = []

    def publish(client: LanguageClient, params: lsp.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        published.append(params)

    register_lsp_features(
        client, {**DEFAULT_CLIENT_FEATURES, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish}
    )
    client.published = published  # type: ignore[attr-defined]
    return client


def make_workspace(root: Path, config: str = PLUGIN_CONFIG) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(config)
    return root


async def start(client: LanguageClient, root: Path, options: Any = None) -> None:
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=options,
        )
    )


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_workspace(tmp_path_factory.mktemp("ws"))


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=SERVER, client_factory=make_client)
)
async def client(lsp_client: LanguageClient, workspace: Path) -> AsyncIterator[None]:
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


class Doc:
    """An open document: ``await doc.change(text)`` sends didChange (never saved)."""

    def __init__(self, client: LanguageClient, path: Path, text: str) -> None:
        self.client, self.path, self.uri, self.version = client, path, path.as_uri(), 1
        self.text = text
        if not path.exists():  # an editor opens a file from disk; edits stay unsaved
            path.write_text(text)
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(uri=self.uri, language_id="python", version=1, text=text)
            )
        )

    def change(self, text: str) -> int:
        self.version += 1
        self.text = text
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(
                    uri=self.uri, version=self.version
                ),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.version

    async def diagnostics(self, version: int | None = None) -> list[lsp.Diagnostic]:
        """The diagnostics published for ``version`` (default: the latest sent)."""
        want = self.version if version is None else version
        published: list[lsp.PublishDiagnosticsParams] = self.client.published  # type: ignore[attr-defined]
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while asyncio.get_running_loop().time() < deadline:
            for params in reversed(published):
                if params.uri == self.uri and params.version == want:
                    return list(params.diagnostics)
            await asyncio.sleep(0.02)
        raise AssertionError(f"no diagnostics for version {want} of {self.uri}")

    async def hints(self) -> list[lsp.InlayHint]:
        end = lsp.Position(line=len(self.text.splitlines()) + 1, character=0)
        found = await self.client.text_document_inlay_hint_async(
            lsp.InlayHintParams(
                text_document=lsp.TextDocumentIdentifier(uri=self.uri),
                range=lsp.Range(start=lsp.Position(line=0, character=0), end=end),
            )
        )
        return list(found or [])

    async def hover(self, line: int, character: int) -> lsp.Hover | None:
        return await self.client.text_document_hover_async(
            lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(uri=self.uri),
                position=lsp.Position(line=line, character=character),
            )
        )

    def close(self) -> None:
        self.client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=self.uri))
        )
