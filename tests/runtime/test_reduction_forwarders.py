"""The ``tt.`` reduction functions are generated from the reduction table
(``stubs/forwarders.py``, run by ``python -m stubs.generate``): every row has its function with
the signature and docstring the row says, the generated text is what ruff formats, and
``--check`` fails when ``reductions.py`` is edited by hand or the table changes."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import typedtensor as tt
from stubs import forwarders, generate
from typedtensor import _rules as rules
from typedtensor import reductions

KINDS = {False: inspect.Parameter.POSITIONAL_OR_KEYWORD, True: inspect.Parameter.KEYWORD_ONLY}


@pytest.mark.parametrize("name", list(rules.REDUCTIONS))
def test_every_row_has_its_function_with_the_tables_signature(name: str) -> None:
    spec = rules.REDUCTIONS[name]
    fn = getattr(reductions, name)
    assert getattr(tt, name) is fn
    assert name in reductions.__all__
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    assert (params[0].name, params[0].annotation, params[0].default) == (
        "x",
        "AnyTensor",
        inspect.Parameter.empty,
    )
    got = [(p.name, p.kind, p.annotation, p.default, type(p.default)) for p in params[1:]]
    want = [
        (
            a.name,
            KINDS[a.keyword],
            a.annotation,
            ast.literal_eval(a.default),
            type(ast.literal_eval(a.default)),
        )
        for a in spec.function_args()
    ]
    assert got == want
    assert sig.return_annotation == "AnyTensor"
    assert inspect.getdoc(fn) == spec.doc


def test_rows_agree_with_their_signatures() -> None:
    """``single_axis``, ``keepdims`` and ``params`` say what the signature takes."""
    for name, spec in rules.REDUCTIONS.items():
        args = {a.name: a for a in spec.function_args()}
        assert (args["axis"].annotation == "int | None") == spec.single_axis, name
        assert ("keepdims" in args) == spec.keepdims, name
        assert set(spec.params) <= set(args), name
        assert ("dtype" in args) == spec.dtype_arg, name
        assert list(args)[-1] == "out", name


def test_functions_forward_to_the_methods_and_reduce() -> None:
    x = tt.asarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4) - 5.5)
    a = x.numpy()
    np.testing.assert_array_equal(
        tt.sum(x, 1, True, dtype=tt.float32).numpy(), a.sum(1, np.float32, keepdims=True)
    )
    np.testing.assert_allclose(tt.var(x, (0, 2), ddof=1).numpy(), a.var((0, 2), ddof=1))
    np.testing.assert_allclose(tt.nanstd(x, 0, correction=1).numpy(), np.nanstd(a, 0, ddof=1))
    np.testing.assert_allclose(tt.norm(x, 1, axis=-1).numpy(), np.abs(a).sum(-1))
    np.testing.assert_array_equal(tt.sum(a.tolist()).numpy(), a.sum())  # not a Tensor: asarray
    # count_nonzero's numpy rank-0 int axis (rules.rank0_axis): counts the one element
    assert tt.count_nonzero(tt.asarray(np.float64(3.0)), axis=-1).numpy() == 1
    with pytest.raises(TypeError, match="not both"):
        tt.nanvar(x, correction=1, ddof=1)


def _render_into(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generate, "ROOT", root)
    for path, text in generate.render_all().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def assert_check_fails_on_a_hand_edit(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    module: str,
    replace: tuple[str, str],
) -> None:
    """Fresh generated files pass ``--check``; ``replace`` applied to ``module`` (a generated
    file's path) makes it fail, naming that file."""
    _render_into(tmp_path, monkeypatch)
    assert generate.main(["--check"]) == 0
    path = tmp_path / module
    text = path.read_text()
    edited = text.replace(*replace)
    assert edited != text
    path.write_text(edited)
    capsys.readouterr()
    assert generate.main(["--check"]) == 1
    assert f"stale stubs: {module};" in capsys.readouterr().err


def test_check_fails_on_a_hand_edited_forwarder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    edit = (
        "def nansum(\n    x: AnyTensor,\n    axis: Axis = None,\n    keepdims: bool = False,",
        "def nansum(\n    x: AnyTensor,\n    axis: Axis = None,\n    keepdims: bool = True,",
    )
    assert_check_fails_on_a_hand_edit(
        tmp_path, monkeypatch, capsys, "typedtensor/reductions.py", edit
    )


def test_check_fails_on_a_changed_table_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _render_into(tmp_path, monkeypatch)
    table = dict(rules.REDUCTIONS)
    table["nanmax"] = dataclasses.replace(table["nanmax"], doc="Maximum ignoring NaNs.")
    monkeypatch.setattr(rules, "REDUCTIONS", table)
    capsys.readouterr()
    assert generate.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert '+    """Maximum ignoring NaNs."""' in err
    assert "typedtensor/reductions.py" in err.splitlines()[-1]


def test_a_new_row_gets_its_function() -> None:
    table = dict(rules.REDUCTIONS)
    table["nanfoo"] = dataclasses.replace(table["nanvar"], name="nanfoo", doc="Foo: ``(8, 3)``.")
    module = forwarders.load(forwarders.render_forwarders(table))
    assert "nanfoo" in module.__all__
    assert inspect.signature(module.nanfoo) == inspect.signature(reductions.nanvar)
    assert module.nanfoo.__doc__ == "Foo: ``(8, 3)``."
    assert (
        '    return _t(x)._reduce(\n        "nanfoo", axis, keepdims, out, dtype, correction='
        in (forwarders.render_function(table["nanfoo"]))
    )


def test_generated_text_is_ruff_formatted_at_every_wrap() -> None:
    """One-line, hugged and one-argument-per-line returns (long names) all as ruff formats."""
    table = dict(rules.REDUCTIONS)
    for n in (30, 60):
        name = "nanvar_" + "x" * n
        table[name] = dataclasses.replace(table["nanvar"], name=name)
    text = forwarders.render_forwarders(table)
    assert "        correction=_correction(correction, ddof),\n    )" in text
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "format",
            "--check",
            "--diff",
            "--stdin-filename",
            "r.py",
            "-",
        ],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"args": (rules.Arg("p", "float", "2"), rules.Arg("axis", "Axis", "None"))},
            "method=True",
        ),
        ({"doc": "a \\ backslash"}, "backslashes"),
        ({"doc": ""}, "non-empty"),
    ],
)
def test_rows_the_generator_cannot_write_are_rejected(
    change: dict[str, object], message: str
) -> None:
    spec = dataclasses.replace(rules.REDUCTIONS["nansum"], **change)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        forwarders.render_function(spec)
