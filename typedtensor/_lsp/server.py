"""``typedtensor lsp``: the language server's wiring (pygls over stdio).

Documents are checked by :class:`Checker` on one worker thread (mypy's state is not
thread-safe); the event loop keeps answering. A check covers the documents edited since the
last one, so quick edits coalesce; a request for hints, hover or code actions waits until the
document's current version is checked, so an answer never describes an older text.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .features import HintSettings, code_actions, hover, inlay_hints
from .session import CheckerCrashError, CheckOutcome, Message, MypySession

__all__ = ["Checker", "build_server"]

SOURCE = "typedtensor"
_R = TypeVar("_R")
_SEVERITY = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "note": lsp.DiagnosticSeverity.Information,
}
_MAX_CRASHES = 3  # in a row: then wait for the next edit before starting mypy again


class Checker:
    """The mypy session of one server, its worker thread and the check queue."""

    def __init__(self, server: TypedtensorServer) -> None:
        self.server = server
        self.root = os.getcwd()
        self.settings = HintSettings()
        self.session: MypySession | None = None
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="typedtensor-mypy")
        self.pending: set[str] = set()  # uris edited since their last check
        self.checked: dict[str, int | None] = {}  # uri -> version of the last check
        self.paths: dict[str, str] = {}  # uri -> its file, for the documents checked
        self.task: asyncio.Task[None] | None = None
        self.progress = asyncio.Condition()
        self.crashes = 0
        self.warned: set[str] = set()

    # ---------------------------------------------------------------- scheduling
    def schedule(self, uri: str) -> None:
        """Queue ``uri`` (opened or edited) for the next check."""
        path = self.path_of(uri)
        if path is None:
            return
        self.paths[uri] = path
        self.pending.add(uri)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def path_of(self, uri: str) -> str | None:
        """The file of ``uri`` when the server checks it; else says why (once) and None."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        reason = None
        if path is None or not path.endswith((".py", ".pyi")):
            reason = f"{uri} is not a Python file on disk; typedtensor lsp checks .py files"
        elif not os.path.isfile(path):
            reason = f"{path} is not saved on disk yet; save it once for mypy to check it"
        elif os.path.commonpath([os.path.abspath(path), self.root]) != self.root:
            reason = (
                f"{path} is outside the workspace {self.root}: typedtensor lsp checks only the "
                "workspace's files, with its mypy configuration; open its folder as a workspace"
            )
        if reason is None:
            return os.path.abspath(path) if path is not None else None
        if uri not in self.warned:
            self.warned.add(uri)
            self.server.window_show_message(
                lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=reason)
            )
            self._publish(uri, None, [_info(reason)])
        return None

    async def _run(self) -> None:
        while self.pending:
            await asyncio.sleep(0.02)  # let a burst of keystrokes arrive
            uris, self.pending = self.pending, set()
            if self.session is None or self.session.fg is None:
                uris |= {u for u in self.server.workspace.text_documents if u in self.checked}
            docs = {u: self.server.workspace.get_text_document(u) for u in uris}
            texts = {p: d.source for u, d in docs.items() if (p := self.path_of(u)) is not None}
            versions = {u: d.version for u, d in docs.items()}
            started = time.perf_counter()
            try:
                session = self._session()
                outcome = await self.on_thread(partial(session.check, texts))
            except CheckerCrashError as crash:
                self._crashed(crash, uris)
            else:
                self.crashes = 0
                self._publish_outcome(outcome, versions)
                names = ", ".join(os.path.relpath(p, self.root) for p in texts)
                self.log(f"checked {names} in {time.perf_counter() - started:.2f} s")
                self.checked.update(versions)
            async with self.progress:  # wake the requests waiting for these versions
                self.progress.notify_all()
            if self._client_refreshes_hints():
                self.server.workspace_inlay_hint_refresh(None)

    def _session(self) -> MypySession:
        """The mypy session, started on the event loop's thread (it sends messages)."""
        if self.session is None:
            try:
                self.session = MypySession(self.root)
            except (Exception, SystemExit) as exc:  # e.g. an invalid mypy configuration
                raise CheckerCrashError(f"{type(exc).__name__}: {exc}") from exc
            if self.session.plugin_note:
                self.server.window_show_message(
                    lsp.ShowMessageParams(
                        type=lsp.MessageType.Warning,
                        message="typedtensor lsp: " + self.session.plugin_note,
                    )
                )
        return self.session

    def _crashed(self, crash: CheckerCrashError, uris: set[str]) -> None:
        self.crashes += 1
        detail = "".join(traceback.format_exception(crash.__cause__ or crash))
        again = self.crashes < _MAX_CRASHES
        self.log(
            f"typedtensor lsp: the mypy checker crashed ({crash}); "
            + ("restarting it" if again else "restarting it at the next edit")
            + f"\n{detail}",
            lsp.MessageType.Error,
        )
        if self.session is not None:
            self.session.close()
        self.session = None
        if again:
            self.pending |= uris

    def _publish_outcome(self, outcome: CheckOutcome, versions: dict[str, int | None]) -> None:
        for line in outcome.unparsed:
            self.log(f"mypy: {line}", lsp.MessageType.Warning)
        by_uri = {from_fs_path(path): found for path, found in outcome.messages.items()}
        if not outcome.blocked:  # mypy's list is complete: the other open documents' too
            for uri in self.checked:
                if uri in self.paths and uri not in self.pending:
                    by_uri.setdefault(uri, [])
        for uri, messages in by_uri.items():
            if uri is None or uri not in self.server.workspace.text_documents:
                continue
            current = self.server.workspace.get_text_document(uri).version
            if uri in versions and versions[uri] != current:
                continue  # a newer text is queued; its check publishes
            self._publish(uri, current, [_diagnostic(m) for m in messages])

    def _publish(self, uri: str, version: int | None, found: list[lsp.Diagnostic]) -> None:
        self.server.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )

    def _client_refreshes_hints(self) -> bool:
        caps = self.server.client_capabilities.workspace
        hints = caps.inlay_hint if caps is not None else None
        return bool(hints is not None and hints.refresh_support)

    # ---------------------------------------------------------------- answering
    async def on_thread(self, fn: Callable[[], _R]) -> _R:
        """Run ``fn`` on the mypy thread, after the checks queued before it."""
        return await asyncio.get_running_loop().run_in_executor(self.thread, fn)

    async def read(self, uri: str, fn: Callable[[MypySession, str], _R], empty: _R) -> _R:
        """``fn(session, path)`` once ``uri`` 's current text is checked (``empty`` if never)."""
        path = self.path_of(uri)
        if path is None or uri not in self.server.workspace.text_documents:
            return empty
        async with self.progress:
            while True:
                version = self.server.workspace.get_text_document(uri).version
                if self.checked.get(uri, -1) == version:
                    break
                if uri not in self.pending and (self.task is None or self.task.done()):
                    return empty  # not queued: nothing will check it
                await self.progress.wait()
        session = self.session
        if session is None:
            return empty
        return await self.on_thread(lambda: fn(session, path))

    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Log) -> None:
        """To the client's log (window/logMessage) and stderr."""
        print(message, file=sys.stderr, flush=True)
        self.server.window_log_message(lsp.LogMessageParams(type=kind, message=message))


def _diagnostic(msg: Message) -> lsp.Diagnostic:
    return lsp.Diagnostic(
        range=_range(msg),
        message=msg.text,
        severity=_SEVERITY.get(msg.severity, lsp.DiagnosticSeverity.Error),
        code=msg.code,
        source=SOURCE,
        related_information=[
            lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=from_fs_path(n.path) or n.path, range=_range(n)),
                message=n.text,
            )
            for n in msg.notes
        ]
        or None,
    )


def _range(msg: Message) -> lsp.Range:
    start = lsp.Position(line=max(msg.line - 1, 0), character=max(msg.col, 0))
    end = lsp.Position(line=max(msg.end_line - 1, 0), character=max(msg.end_col, 0))
    return lsp.Range(start=start, end=end)


def _info(text: str) -> lsp.Diagnostic:
    start = lsp.Position(line=0, character=0)
    return lsp.Diagnostic(
        range=lsp.Range(start=start, end=start),
        message=text,
        severity=lsp.DiagnosticSeverity.Information,
        source=SOURCE,
    )


class TypedtensorServer(LanguageServer):
    """pygls' server with one :class:`Checker`."""

    checker: Checker


def _settings(raw: Any) -> HintSettings:
    """Client settings, nested under ``typedtensor`` or not."""
    if isinstance(raw, dict) and isinstance(raw.get("typedtensor"), dict):
        raw = raw["typedtensor"]
    return HintSettings.from_settings(raw)


def build_server() -> TypedtensorServer:
    """The server with its features registered: ``build_server().start_io()``."""
    from .. import __version__

    server = TypedtensorServer(
        "typedtensor-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full
    )

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: TypedtensorServer, params: lsp.InitializeParams) -> None:
        folders = params.workspace_folders or []
        root_uri = folders[0].uri if folders else params.root_uri
        root = to_fs_path(root_uri) if root_uri else None
        if root and os.path.isdir(root):
            os.chdir(root)  # mypy finds the workspace's configuration from here
        ls.checker = Checker(ls)
        ls.checker.settings = _settings(params.initialization_options)

    @server.feature(lsp.EXIT)
    def on_exit(ls: TypedtensorServer, params: None) -> None:
        # leave at once: tearing down mypy's object graph at interpreter exit takes seconds
        session = getattr(ls, "checker", None) and ls.checker.session
        if session is not None:
            session.close()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0 if ls.protocol._shutdown else 1)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: TypedtensorServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.checker.checked.setdefault(params.text_document.uri, None)
        ls.checker.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: TypedtensorServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.checker.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: TypedtensorServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri, checker = params.text_document.uri, ls.checker
        checker.checked.pop(uri, None)
        checker.pending.discard(uri)
        path, session = checker.path_of(uri), checker.session
        if path is not None and session is not None:
            await checker.on_thread(lambda: session.forget(path))
        checker._publish(uri, None, [])

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(
        ls: TypedtensorServer, params: lsp.DidChangeConfigurationParams
    ) -> None:
        ls.checker.settings = _settings(params.settings)
        if ls.checker._client_refreshes_hints():
            ls.workspace_inlay_hint_refresh(None)

    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(resolve_provider=False))
    async def inlay_hint(ls: TypedtensorServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
        settings, first, last = ls.checker.settings, params.range.start, params.range.end
        no_hints: list[lsp.InlayHint] = []
        found = await ls.checker.read(
            params.text_document.uri, lambda s, p: inlay_hints(s, p, settings), no_hints
        )
        return [h for h in found if (first.line, first.character) <= _key(h) <= _key_end(last)]

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: TypedtensorServer, params: lsp.HoverParams) -> lsp.Hover | None:
        pos = params.position
        return await ls.checker.read(
            params.text_document.uri, lambda s, p: hover(s, p, pos.line, pos.character), None
        )

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.RefactorRewrite]),
    )
    async def code_action(
        ls: TypedtensorServer, params: lsp.CodeActionParams
    ) -> list[lsp.CodeAction]:
        uri, rng = params.text_document.uri, params.range
        text = ls.workspace.get_text_document(uri).source
        no_actions: list[lsp.CodeAction] = []
        return await ls.checker.read(
            uri,
            lambda s, p: code_actions(s, p, text, uri, rng.start.line, rng.end.line),
            no_actions,
        )

    return server


def _key(hint: lsp.InlayHint) -> tuple[int, int]:
    return hint.position.line, hint.position.character


def _key_end(pos: lsp.Position) -> tuple[int, int]:
    return pos.line, pos.character


def serve() -> int:
    """Run the server over stdin/stdout until the client exits."""
    build_server().start_io()
    return 0
