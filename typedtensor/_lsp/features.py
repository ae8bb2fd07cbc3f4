"""Inlay hints, hover and code actions, read from the types mypy inferred for a document.

Each function takes the :class:`~typedtensor._lsp.session.MypySession` after a check and the
document's path; it walks mypy's tree of the document and reads its type map. Positions: mypy
counts lines from 1 and columns from 0, LSP both from 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from .._cli import _bindings, mentions_tensor, statement_blocks
from .render import annotation, import_names, short_type

if TYPE_CHECKING:
    from mypy import nodes
    from mypy.nodes import Expression, MypyFile

    from .session import MypySession

__all__ = ["HintSettings", "code_actions", "hover", "inlay_hints"]


@dataclass(frozen=True)
class HintSettings:
    """Which inlay hints to show (client settings ``typedtensor.inlayHints.*``)."""

    variables: bool = True  # `x = ...`, `for x in ...`, `with ... as x`: after the name
    call_results: bool = False  # after each tensor-valued call not assigned to a name

    @classmethod
    def from_settings(cls, settings: object) -> HintSettings:
        """``{"inlayHints": {"variables": true, "callResults": false}}`` -> HintSettings."""
        hints = settings.get("inlayHints", {}) if isinstance(settings, dict) else {}
        hints = hints if isinstance(hints, dict) else {}
        return cls(
            variables=bool(hints.get("variables", cls.variables)),
            call_results=bool(hints.get("callResults", cls.call_results)),
        )


def inlay_hints(session: MypySession, path: str, settings: HintSettings) -> list[lsp.InlayHint]:
    """``x = tt.zeros((8, 3), dtype=tt.float32)`` -> ``x: f32[8, 3]`` after ``x``.

    The label is :func:`short_type`; the tooltip is the type as ``reveal_type`` prints it.
    """
    from mypy import nodes

    tree = session.tree(path)
    if tree is None:
        return []
    hints: list[lsp.InlayHint] = []
    if settings.variables:
        for _, _, names in _bindings(tree):
            for name, expr in names:
                if name == "return" or not isinstance(expr, nodes.NameExpr):
                    continue
                hint = _hint(session, expr, ": ")
                if hint is not None:
                    hints.append(hint)
    if settings.call_results:
        assigned = {id(stmt.rvalue) for stmt in _assignments(tree)}
        for expr in _calls(tree):
            if id(expr) not in assigned:  # an assigned call shows through its name
                hint = _hint(session, expr, "-> ")
                if hint is not None:
                    hints.append(hint)
    hints.sort(key=lambda h: (h.position.line, h.position.character))
    return hints


def _hint(session: MypySession, expr: Expression, prefix: str) -> lsp.InlayHint | None:
    typ = session.type_of(expr)
    if typ is None or not mentions_tensor(typ) or expr.end_line is None:
        return None
    return lsp.InlayHint(
        position=lsp.Position(line=expr.end_line - 1, character=expr.end_column or 0),
        label=prefix + short_type(typ),
        kind=lsp.InlayHintKind.Type,
        tooltip=session.type_string(typ),
        padding_left=prefix == "-> ",
    )


def _calls(tree: MypyFile) -> list[nodes.CallExpr]:
    """Every call expression of ``tree`` (mypy's own walk, as its fine-grained engine uses)."""
    from mypy import nodes
    from mypy.server.subexpr import get_subexpressions

    return [e for e in get_subexpressions(tree) if isinstance(e, nodes.CallExpr)]


def _assignments(tree: MypyFile) -> list[nodes.AssignmentStmt]:
    """Every assignment statement of ``tree``, nested ones included (from the bindings walk)."""
    from mypy import nodes

    out: list[nodes.AssignmentStmt] = []
    pending: list[nodes.Statement] = list(tree.defs)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, nodes.AssignmentStmt):
            out.append(stmt)
        for block in statement_blocks(stmt):
            pending.extend(block.body)
    return out


def hover(session: MypySession, path: str, line: int, character: int) -> lsp.Hover | None:
    """The type of the innermost expression at (0-based) ``line:character`` that has one.

    Markdown: the short form, then mypy's exact type (``reveal_type``'s text).
    """
    from mypy.inspections import find_all_by_location

    tree = session.tree(path)
    if tree is None:
        return None
    for expr in find_all_by_location(tree, line + 1, character):
        typ = session.type_of(expr)
        if typ is None:
            continue
        exact = session.type_string(typ)
        short = short_type(typ) if mentions_tensor(typ) else None
        value = f"```python\n{exact}\n```"
        if short is not None:
            value = f"`{short}`\n\n{value}"
        end = lsp.Position(line=(expr.end_line or expr.line) - 1, character=expr.end_column or 0)
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=value),
            range=lsp.Range(lsp.Position(line=expr.line - 1, character=expr.column), end),
        )
    return None


def code_actions(
    session: MypySession, path: str, text: str, uri: str, first: int, last: int
) -> list[lsp.CodeAction]:
    """ "Annotate ``x: Tensor[tt.float32, B, L[10]]``" for unannotated assignments to a name,
    and "Annotate the return" for unannotated ``def`` s, on (0-based) lines ``first..last``.
    """
    from mypy import nodes

    tree = session.tree(path)
    if tree is None:
        return []
    names = import_names(tree)
    lines = text.splitlines()
    actions: list[lsp.CodeAction] = []

    def edit(title: str, line: int, col: int, new_text: str) -> None:
        where = lsp.Position(line=line, character=col)
        change = lsp.TextEdit(range=lsp.Range(where, where), new_text=new_text)
        actions.append(
            lsp.CodeAction(
                title=title,
                kind=lsp.CodeActionKind.RefactorRewrite,
                edit=lsp.WorkspaceEdit(changes={uri: [change]}),
            )
        )

    for stmt in _assignments(tree):
        if not first <= stmt.line - 1 <= last or stmt.unanalyzed_type is not None:
            continue
        target = stmt.lvalues[0]
        if len(stmt.lvalues) != 1 or not isinstance(target, nodes.NameExpr):
            continue
        typ = session.type_of(target)
        ann = annotation(typ, names) if typ is not None and mentions_tensor(typ) else None
        if ann is not None and target.end_column is not None:
            edit(f"Annotate {target.name}: {ann}", target.line - 1, target.end_column, f": {ann}")
    for func in _functions(tree):
        if not first <= func.line - 1 <= last or _has_return_annotation(func):
            continue
        returned = {
            a
            for r in _returns(func)
            if r.expr is not None and (t := session.type_of(r.expr)) is not None
            for a in [annotation(t, names) if mentions_tensor(t) else None]
        }
        colon = _header_colon(lines, func)
        if len(returned) == 1 and None not in returned and colon is not None:
            ann = next(iter(returned))
            assert ann is not None
            edit(f"Annotate the return of {func.name}: -> {ann}", *colon, f" -> {ann}")
    return actions


def _functions(tree: MypyFile) -> list[nodes.FuncDef]:
    from mypy import nodes

    out: list[nodes.FuncDef] = []
    pending: list[nodes.Statement] = list(tree.defs)
    while pending:
        stmt = pending.pop()
        func = stmt.func if isinstance(stmt, nodes.Decorator) else stmt
        if isinstance(func, nodes.FuncDef):
            out.append(func)
        for block in statement_blocks(stmt):
            pending.extend(block.body)
    return out


def _has_return_annotation(func: nodes.FuncDef) -> bool:
    from mypy import types as t

    sig = func.unanalyzed_type
    if not isinstance(sig, t.CallableType):
        return False
    ret = t.get_proper_type(sig.ret_type)
    return not (isinstance(ret, t.AnyType) and ret.type_of_any == t.TypeOfAny.unannotated)


def _returns(func: nodes.FuncDef) -> list[nodes.ReturnStmt]:
    """The ``return`` statements of ``func`` itself (not of nested functions)."""
    from mypy import nodes

    out: list[nodes.ReturnStmt] = []
    pending: list[nodes.Statement] = list(func.body.body)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, nodes.ReturnStmt):
            out.append(stmt)
        elif not isinstance(stmt, (nodes.FuncDef, nodes.Decorator, nodes.ClassDef)):
            for block in statement_blocks(stmt):
                pending.extend(block.body)
    return out


_HEADER_END = re.compile(r"\)\s*:")


def _header_colon(lines: list[str], func: nodes.FuncDef) -> tuple[int, int] | None:
    """(0-based line, column) just after the ``)`` closing ``func`` 's parameters."""
    body = func.body.body[0].line if func.body.body else func.line
    for number in range(func.line - 1, min(body, len(lines))):
        text = lines[number].split("#", 1)[0]
        found = list(_HEADER_END.finditer(text))
        if found:
            return number, found[-1].start() + 1
    return None
