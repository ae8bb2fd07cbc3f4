"""`typedtensor lsp` end to end: its answers equal what `mypy` with the plugin prints."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from . import oracle
from .conftest import PROGRAMS, Doc

pytestmark = [pytest.mark.lsp, pytest.mark.asyncio(loop_scope="module")]

TRANSFORMER = (PROGRAMS / "transformer.py").read_text()
RANK6 = (PROGRAMS / "rank6.py").read_text()
# shape bugs injected into the transformer: (original, buggy, the code mypy gives it)
BUGS = [
    ("return (x - mean) /", "return (x - x.mean(axis=-1)) /", "typedtensor-symbolic"),  # + a note
    ("scores = (qh @ kh.mT) * 0.5", "scores = (qh @ kh) * 0.5", "typedtensor-symbolic"),
    ("pooled = y.mean(axis=1)", "pooled = y.mean(axis=3)", "typedtensor-axis"),
    ("attention(layer_norm(x), wqkv, wo)", "attention(layer_norm(x), wo, wo)", "arg-type"),
    ("out = hidden @ w2", "out = hidden.reshape((x.shape[0], x.shape[1], 32)) @ w2",
     "typedtensor-shape"),
]  # fmt: skip


def buggy(text: str) -> str:
    for before, after, _ in BUGS:
        assert text.count(before) == 1, before
        text = text.replace(before, after)
    return text


def tensor_reveals(workspace: Path, text: str) -> list[oracle.Reveal]:
    return [r for r in oracle.reveals(workspace, text) if r.type.startswith("typedtensor._tensor.")]


def assert_hints_are_mypys(hints: list[lsp.InlayHint], expected: list[oracle.Reveal]) -> None:
    got = {(h.position.line, h.position.character, h.label, h.tooltip) for h in hints}
    want = {(r.line, r.col, f": {oracle.short_label(r.type)}", r.type) for r in expected}
    assert got == want


def assert_diagnostics_are_mypys(found: list[lsp.Diagnostic], expected: list[oracle.MypyMessage]):
    errors = [m for m in expected if m.severity == "error"]
    got = {
        (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character,
         d.message, d.code) for d in found
    }  # fmt: skip
    want = {(m.line, m.col, m.end_line, m.end_col, m.text, m.code) for m in errors}
    assert got == want
    notes = sorted(i.message for d in found for i in d.related_information or [])
    assert notes == sorted(m.text for m in expected if m.severity == "note")


@pytest.mark.parametrize("program", ["transformer", "rank6"])
async def test_hints_hover_diagnostics_equal_mypy(
    client: LanguageClient, workspace: Path, program: str
) -> None:
    text = (PROGRAMS / f"{program}.py").read_text()
    doc = Doc(client, workspace / f"{program}.py", text)
    assert await doc.diagnostics() == []
    assert oracle.messages(workspace, text) == []
    expected = tensor_reveals(workspace, text)
    assert len(expected) >= 8
    assert_hints_are_mypys(await doc.hints(), expected)
    for r in expected:  # hover on the name: mypy's exact type
        found = await doc.hover(r.line, r.col - 1)
        assert found is not None and isinstance(found.contents, lsp.MarkupContent)
        assert f"```python\n{r.type}\n```" in found.contents.value
        assert f"`{oracle.short_label(r.type)}`" in found.contents.value
    doc.close()


async def test_injected_bugs_reported_on_their_lines(client: LanguageClient, workspace: Path):
    text = buggy(TRANSFORMER)
    doc = Doc(client, workspace / "transformer_bugs.py", text)
    found = await doc.diagnostics()
    expected = oracle.messages(workspace, text)
    assert_diagnostics_are_mypys(found, expected)
    (noted,) = [d for d in found if d.related_information]  # the plugin's keepdims note
    (note,) = noted.related_information or []
    assert "did you mean keepdims=True?" in note.message and note.location.uri == doc.uri
    lines = text.splitlines()
    for _, after, code in BUGS:
        line = next(i for i, s in enumerate(lines) if after.split("\n")[0].strip() in s)
        assert any(d.range.start.line == line and d.code == code for d in found), (after, found)
    # hints of the names mypy still types, on the buggy text
    assert_hints_are_mypys(await doc.hints(), tensor_reveals(workspace, text))
    doc.close()


async def test_unsaved_edits_change_diagnostics(client: LanguageClient, workspace: Path):
    path = workspace / "edited.py"
    path.write_text(TRANSFORMER)  # the file on disk stays clean: edits are never saved
    doc = Doc(client, path, TRANSFORMER)
    assert await doc.diagnostics() == []
    broken = TRANSFORMER.replace("kh.mT", "kh")
    doc.change(broken)
    after = await doc.diagnostics()
    assert [d.code for d in after] == ["typedtensor-symbolic"]
    assert_diagnostics_are_mypys(after, oracle.messages(workspace, broken))
    assert path.read_text() == TRANSFORMER
    doc.change(TRANSFORMER)
    assert await doc.diagnostics() == []
    doc.close()


async def test_two_quick_edits_give_the_newer_texts_hints(client: LanguageClient, workspace: Path):
    doc = Doc(client, workspace / "quick.py", TRANSFORMER)
    await doc.diagnostics()
    first = TRANSFORMER.replace("pooled = y.mean(axis=1)", "pooled = y.mean(axis=2)")
    second = TRANSFORMER.replace("pooled = y.mean(axis=1)", "pooled = y.sum(axis=0)")
    doc.change(first)
    doc.change(second)  # at once: no wait between the edits
    hints = await doc.hints()
    assert_hints_are_mypys(hints, tensor_reveals(workspace, second))
    assert any(h.label == ": f32[5, 16]" for h in hints)  # pooled, of the second text
    doc.close()


async def test_syntax_error_keeps_last_good_hints(client: LanguageClient, workspace: Path):
    doc = Doc(client, workspace / "typing_in_progress.py", TRANSFORMER)
    await doc.diagnostics()
    good = await doc.hints()
    assert_hints_are_mypys(good, tensor_reveals(workspace, TRANSFORMER))
    broken = TRANSFORMER + "    late = logits.sum(axis=\n"
    doc.change(broken)
    found = await doc.diagnostics()
    expected = oracle.messages(workspace, broken)
    assert [m.code for m in expected] == ["syntax"]
    assert [(d.range.start.line, d.code) for d in found] == [(expected[0].line, "syntax")]
    assert await doc.hints() == good
    doc.change(TRANSFORMER.replace("best =", "top ="))  # fixed: hints follow the new text
    await doc.diagnostics()
    hints = await doc.hints()
    assert any(h.label == ": i64[2]" and h.position.character == 7 for h in hints)
    doc.close()


async def test_code_actions_insert_what_mypy_accepts(client: LanguageClient, workspace: Path):
    text = TRANSFORMER + (
        "\n\ndef scaled(x: Tensor[tt.float32, B, L[16]]):\n    z = x * 2.0\n    return z\n"
    )
    doc = Doc(client, workspace / "actions.py", text)
    await doc.diagnostics()
    lines = text.splitlines()
    n_def = lines.index("def scaled(x: Tensor[tt.float32, B, L[16]]):")
    n_x = next(i for i, s in enumerate(lines) if s.strip().startswith("x = tt.random"))
    edited = text
    for line in (n_x, n_def, n_def + 1):
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=doc.uri),
                range=lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)),
                context=lsp.CodeActionContext(diagnostics=[]),
            )
        )
        assert actions is not None and len(actions) == 1, (line, actions)
        action = actions[0]
        assert isinstance(action, lsp.CodeAction) and action.edit and action.edit.changes
        (edit,) = action.edit.changes[doc.uri]
        rows = edited.splitlines()
        row = rows[edit.range.start.line]
        col = edit.range.start.character
        rows[edit.range.start.line] = row[:col] + edit.new_text + row[col:]
        edited = "\n".join(rows) + "\n"
    assert "x: Tensor[tt.float32, L[2], L[5], L[16]] = tt.random" in edited
    assert "-> Tensor[tt.float32, B, L[16]]:" in edited
    assert "z: Tensor[tt.float32, B, L[16]] = x * 2.0" in edited
    assert oracle.messages(workspace, edited) == []  # what was inserted, mypy accepts
    # and the names' types are unchanged
    before = {(r.name, r.type) for r in tensor_reveals(workspace, text)}
    assert {(r.name, r.type) for r in tensor_reveals(workspace, edited)} == before
    doc.close()


async def test_settings_turn_hint_kinds_on_and_off(client: LanguageClient, workspace: Path):
    call = "attention(layer_norm(x), wqkv, wo)"
    probe = TRANSFORMER.replace(f"h = x + {call}", f"h = x + {call}\n    _probe = {call}")
    (revealed,) = [r.type for r in tensor_reveals(workspace, probe) if r.name == "_probe"]
    doc = Doc(client, workspace / "settings.py", TRANSFORMER)
    await doc.diagnostics()

    def configure(variables: bool, calls: bool) -> None:
        client.workspace_did_change_configuration(
            lsp.DidChangeConfigurationParams(
                settings={"typedtensor": {"inlayHints": {"variables": variables,
                                                         "callResults": calls}}}
            )
        )  # fmt: skip

    configure(False, True)
    hints = await doc.hints()
    assert hints and all(str(h.label).startswith("-> ") for h in hints)
    line = next(i for i, s in enumerate(TRANSFORMER.splitlines()) if f"h = x + {call}" in s)
    end = TRANSFORMER.splitlines()[line].index(call) + len(call)
    (at_call,) = [h for h in hints if (h.position.line, h.position.character) == (line, end)]
    assert (at_call.label, at_call.tooltip) == (f"-> {oracle.short_label(revealed)}", revealed)
    configure(False, False)
    assert await doc.hints() == []
    configure(True, False)
    assert_hints_are_mypys(await doc.hints(), tensor_reveals(workspace, TRANSFORMER))
    doc.close()


async def test_an_unsaved_edit_rechecks_the_open_modules_that_import_it(
    client: LanguageClient, workspace: Path
) -> None:
    lib_text = (
        "from typing import Literal as L\n\nimport typedtensor as tt\n"
        "from typedtensor import Tensor\n"
        "\n\ndef make() -> Tensor[tt.float32, L[3]]:\n    return tt.zeros((3,), tt.float32)\n"
    )
    user_text = "from dep_lib import make\n\ny = make()\ntotal = y.sum(axis=1)\n"
    lib = Doc(client, workspace / "dep_lib.py", lib_text)
    await lib.diagnostics()
    user = Doc(client, workspace / "dep_user.py", user_text)
    assert [d.code for d in await user.diagnostics()] == ["typedtensor-axis"]
    assert [h.label for h in await user.hints()] == [": f32[3]", ": f32[...]"]  # unknown
    published = len(client.published)  # type: ignore[attr-defined]
    rank2 = lib_text.replace("L[3]]", "L[3], L[2]]").replace("(3,)", "(3, 2)")
    lib.change(rank2)  # never saved: dep_user.py is re-checked against the edited text
    await lib.diagnostics()

    def user_diagnostics() -> list[lsp.Diagnostic] | None:
        later = client.published[published:]  # type: ignore[attr-defined]
        found = [p.diagnostics for p in later if p.uri == user.uri]
        return list(found[-1]) if found else None

    deadline = asyncio.get_running_loop().time() + 60
    while user_diagnostics() is None and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    assert user_diagnostics() == []
    assert [h.label for h in await user.hints()] == [": f32[3, 2]", ": f32[3]"]
    (workspace / "dep_lib.py").write_text(rank2)  # as if saved, for the mypy run below
    assert oracle.messages(workspace, user_text) == []
    user.close()
    lib.close()
