"""mypy, with the typedtensor plugin, kept warm in process: the language server's checker.

One :class:`MypySession` holds a fine-grained build (``mypy.server.update``, the engine of
``dmypy``): the first check builds the open documents and what they import, later checks
re-process only the edited modules and their dependents. Unsaved editor buffers reach mypy as
*shadow files* (``--shadow-file``): each open document's text is written to a private
temporary file that mypy reads instead of the file on disk.

Every call runs on one thread (the server's checker thread): mypy's state is not thread-safe.
The types mypy inferred are kept (``export_types``, as ``dmypy inspect`` does); the server
reads them, it never infers a type itself.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .._cli import one_line_messages

if TYPE_CHECKING:
    from mypy.nodes import Expression, MypyFile
    from mypy.options import Options
    from mypy.plugin import Plugin
    from mypy.server.update import FineGrainedBuildManager
    from mypy.types import Type

__all__ = ["CheckerCrashError", "Message", "MypySession", "parse_messages"]

PLUGIN = "typedtensor_mypy"
# path:line:col:end_line:end_col: severity: message  [code]   (columns 1-based, end inclusive)
_MESSAGE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+)(?::(?P<end_line>\d+):(?P<end_col>\d+))?: "
    r"(?P<severity>error|note|warning): (?P<text>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


class CheckerCrashError(RuntimeError):
    """mypy raised while checking; the session is unusable and must be rebuilt."""


@dataclass
class Message:
    """One mypy message: ``a.py:42:5:42:12: error: ...  [typedtensor-symbolic]``.

    Lines are 1-based, columns 0-based (``end_col`` exclusive); ``notes`` are the notes mypy
    printed right after this error.
    """

    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    severity: str
    text: str
    code: str | None
    notes: list[Message] = field(default_factory=list)


def parse_messages(lines: Iterable[str]) -> list[Message]:
    """mypy's formatted messages -> :class:`Message` s, each note attached to its error.

    ``["a.py:3:5:3:9: error: bad  [misc]", "a.py:3:5: note: why"]`` -> one Message with one
    note. A line that does not parse (a summary, a traceback) is dropped.
    """
    out: list[Message] = []
    for line in lines:
        m = _MESSAGE.match(line)
        if m is None:
            continue
        start, col = int(m["line"]), int(m["col"]) - 1
        end_line = int(m["end_line"]) if m["end_line"] else start
        end_col = int(m["end_col"]) if m["end_col"] else col + 1
        msg = Message(
            os.path.abspath(m["path"]), start, col, end_line, end_col,
            m["severity"], m["text"], m["code"],
        )  # fmt: skip
        if msg.severity == "note" and out and out[-1].severity != "note":
            out[-1].notes.append(msg)
        else:
            out.append(msg)
    return out


@dataclass
class CheckOutcome:
    """What one check found: messages per checked path and the paths mypy could not parse."""

    messages: dict[str, list[Message]]
    blocked: set[str]
    unparsed: list[str] = field(default_factory=list)  # messages without a position


class MypySession:
    """A warm fine-grained mypy build of the open documents of one workspace.

    ``check({"/ws/a.py": text})`` -> :class:`CheckOutcome`; then ``tree("/ws/a.py")`` and
    ``type_of(expr)`` read what mypy inferred for that text.
    """

    def __init__(self, root: str) -> None:
        from mypy.main import process_options

        self.root = root
        # the workspace's configuration, found from the workspace root as `mypy` would
        _, options = process_options(["-i"], require_targets=False, server_options=True)
        options.fine_grained_incremental = True  # dmypy's settings (dmypy_server.Server)
        options.cache_dir = os.devnull
        options.local_partial_types = True
        options.show_traceback = True
        options.export_types = True  # keep every expression's type, as `dmypy inspect` does
        one_line_messages(options, columns=True)  # the format parsed above
        self.options: Options = options
        self.plugin_note = ""  # why the server added the plugin ("" when configured)
        self.extra_plugins = self._plugins(options)
        self.fg: FineGrainedBuildManager | None = None
        self.shadow_dir = tempfile.mkdtemp(prefix="typedtensor-lsp-")
        self.modules: dict[str, str] = {}  # path -> module id
        self._own_keys: dict[str, set[Expression]] = {}  # path -> its expressions in the type map

    # ------------------------------------------------------------------ set-up
    def _plugins(self, options: Options) -> list[Plugin]:
        """The plugin object to add when the workspace's configuration does not list it."""
        from mypy.plugin import Plugin
        from mypy.version import __version__ as mypy_version

        if PLUGIN in options.plugins:
            return []
        config = options.config_file or "no mypy configuration file"
        self.plugin_note = (
            f"the workspace's mypy configuration ({config}) does not list the {PLUGIN} "
            f'plugin; the server adds it, so add `plugins = ["{PLUGIN}"]` under [tool.mypy] '
            "(or [mypy]) for a plain `mypy` run to agree with the editor"
        )
        plugin_type = importlib.import_module(PLUGIN).plugin(mypy_version)
        assert isinstance(plugin_type, type) and issubclass(plugin_type, Plugin)
        return [plugin_type(options)]

    def close(self) -> None:
        """Remove the shadow files."""
        shutil.rmtree(self.shadow_dir, ignore_errors=True)

    # ------------------------------------------------------------------ checking
    def check(self, texts: dict[str, str]) -> CheckOutcome:
        """Check the documents ``{path: text}`` (edited or opened since the last check).

        Raises :class:`CheckerCrashError` when mypy itself fails.
        """
        try:
            return self._check(texts)
        except CheckerCrashError:
            raise
        except Exception as exc:  # mypy's internal errors: the session must be rebuilt
            raise CheckerCrashError(f"{type(exc).__name__}: {exc}") from exc

    def _check(self, texts: dict[str, str]) -> CheckOutcome:
        from mypy import build
        from mypy.errors import CompileError
        from mypy.find_sources import create_source_list
        from mypy.fscache import FileSystemCache
        from mypy.server.update import FineGrainedBuildManager

        if _INJECTED_CRASH and any(_INJECTED_CRASH in text for text in texts.values()):
            raise CheckerCrashError(f"injected crash ({_CRASH_ENV} is set; for tests)")
        shadows = {path: self._write_shadow(path, text) for path, text in texts.items()}
        to_update, lines = list(texts), []
        if self.fg is None:  # the first build
            fscache = FileSystemCache()
            self.options.shadow_file = [[p, s] for p, s in shadows.items()]
            sources = create_source_list(list(texts), self.options, fscache)
            try:
                result = build.build(
                    sources, self.options, fscache=fscache, extra_plugins=self.extra_plugins
                )
            except CompileError as exc:  # a syntax error: no build yet, try again next time
                found = parse_messages(exc.messages)
                unparsed = [m for m in exc.messages if not _MESSAGE.match(m)]
                return CheckOutcome(self._by_path(found, texts), set(texts), unparsed)
            self.fg = FineGrainedBuildManager(result)
            self.modules.update({s.path: s.module for s in sources if s.path})
            if len(texts) == 1:  # all its types are this document's or its imports': done
                self._own_keys[to_update.pop()] = set(result.manager.all_types)
            lines = result.errors
        manager = self.fg.manager
        for path, shadow in shadows.items():
            manager.shadow_map[path] = shadow
            manager.shadow_equivalence_map.pop(path, None)
        new = [p for p in texts if p not in self.modules]
        if new:
            sources = create_source_list(new, self.options, manager.fscache)
            self.modules.update({s.path: s.module for s in sources if s.path})
        for path in to_update:  # one module at a time: its new expressions are its own
            before = set(manager.all_types)
            manager.fscache.flush()  # re-read the shadow files (dmypy flushes after each check)
            self.fg.flush_cache()
            lines = self.fg.update([(self.modules[path], path)], [])
            if self.fg.blocking_error is None:  # the new tree replaced the old one
                for key in self._own_keys.pop(path, ()):
                    manager.all_types.pop(key, None)
                self._own_keys[path] = set(manager.all_types) - before
        found = parse_messages(lines)
        unparsed = [m for m in lines if not _MESSAGE.match(m)]
        blocking = self.fg.blocking_error if self.fg is not None else None
        blocked = {os.path.abspath(blocking[1])} if blocking is not None else set()
        return CheckOutcome(self._by_path(found, texts), blocked, unparsed)

    def _write_shadow(self, path: str, text: str) -> str:
        name = re.sub(r"[^A-Za-z0-9_.]", "_", os.path.relpath(path, self.root))
        shadow = os.path.join(self.shadow_dir, name)
        with open(shadow, "w", encoding="utf-8") as fh:
            fh.write(text)
        return shadow

    @staticmethod
    def _by_path(found: list[Message], texts: dict[str, str]) -> dict[str, list[Message]]:
        out: dict[str, list[Message]] = {path: [] for path in texts}
        for msg in found:
            out.setdefault(msg.path, []).append(msg)
        return out

    def forget(self, path: str) -> None:
        """A document was closed: mypy reads the file on disk again at the next check."""
        if self.fg is not None:
            self.fg.manager.shadow_map.pop(path, None)
            self.fg.manager.shadow_equivalence_map.pop(path, None)

    # ------------------------------------------------------------------ reading types
    def tree(self, path: str) -> MypyFile | None:
        """mypy's checked tree of the document at ``path`` (None before its first check)."""
        module = self.modules.get(path)
        if self.fg is None or module is None:
            return None
        state = self.fg.graph.get(module)
        return state.tree if state is not None else None

    def type_of(self, expr: Expression) -> Type | None:
        """The type mypy inferred for ``expr`` (a name falls back to its variable's type)."""
        from mypy import nodes

        if self.fg is None:
            return None
        typ = self.fg.manager.all_types.get(expr)
        if typ is None and isinstance(expr, nodes.NameExpr) and isinstance(expr.node, nodes.Var):
            typ = expr.node.type
        return typ

    def type_string(self, typ: Type) -> str:
        """The type as ``reveal_type`` prints it (``typedtensor._tensor.Tensor[...]``)."""
        return typ.str_with_options(self.options)


_CRASH_ENV = "TYPEDTENSOR_LSP_INJECT_CRASH"
# tests only: a check of a text containing this marker raises, as a crash of mypy would
_INJECTED_CRASH = os.environ.get(_CRASH_ENV, "")
