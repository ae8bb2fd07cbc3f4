"""The Tensor's reduction methods are generated from the reduction table
(``stubs/_render_methods.py``, run by ``python -m stubs.generate``) into
``typedtensor/_tensor_reduction_methods.py``: every row with a Tensor method has its method with
the row's signature and method docstring, the stub ``_tensor.pyi`` declares the same
parameters, the generated text is what ruff formats, and ``--check`` fails when the methods
module is edited by hand or the table changes."""

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
from stubs import _render_methods, generate
from typedtensor import _rules as rules
from typedtensor._tensor_reduction_methods import TableReductionMethods
from typedtensor._tensor_reductions import ReductionMethods

from .test_reduction_forwarders import _render_into, assert_check_fails_on_a_hand_edit

KINDS = {False: inspect.Parameter.POSITIONAL_OR_KEYWORD, True: inspect.Parameter.KEYWORD_ONLY}
#: the long spelling of ``AnyTensor`` (argmax/argmin's hand-written annotations)
ANY_TENSOR = "Tensor[Any, Unpack[tuple[Any, ...]]]"
METHOD_ROWS = [name for name, spec in rules.REDUCTIONS.items() if spec.method]
PYI = Path(tt.__file__).parent / "_tensor.pyi"


#: a parameter: name, kind, annotation (source text), default and the default's type
ParamRow = tuple[str, inspect._ParameterKind, str, object, type]


def _table_params(spec: rules.ReductionSpec) -> list[ParamRow]:
    rows: list[ParamRow] = []
    for a in spec.function_args():
        default = ast.literal_eval(a.default)
        rows.append((a.name, KINDS[a.keyword], a.annotation, default, type(default)))
    return rows


def _runtime_params(fn: object) -> tuple[list[ParamRow], str]:
    """The parameters after ``self`` and the return annotation, ``AnyTensor`` spelled short."""
    sig = inspect.signature(fn)  # type: ignore[arg-type]
    params = list(sig.parameters.values())
    assert params[0].name == "self"
    rows: list[ParamRow] = [
        (
            p.name,
            p.kind,
            str(p.annotation).replace(ANY_TENSOR, "AnyTensor"),
            p.default,
            type(p.default),
        )
        for p in params[1:]
    ]
    return rows, str(sig.return_annotation).replace(ANY_TENSOR, "AnyTensor")


@pytest.mark.parametrize("name", METHOD_ROWS)
def test_every_method_row_has_its_method_with_the_tables_signature(name: str) -> None:
    spec = rules.REDUCTIONS[name]
    method = getattr(tt.Tensor, name)
    if name in _render_methods.HAND_WRITTEN:
        assert method is vars(ReductionMethods)[name]
        assert name not in vars(TableReductionMethods)
    else:
        assert method is vars(TableReductionMethods)[name]
        assert name not in vars(ReductionMethods)  # nothing hand-written shadows it
    params, ret = _runtime_params(method)
    assert params == _table_params(spec)
    assert ret == "AnyTensor"
    assert inspect.getdoc(method) == spec.method_doc


def test_function_only_rows_have_no_method() -> None:
    for name, spec in rules.REDUCTIONS.items():
        if not spec.method:
            assert not hasattr(tt.Tensor, name), name
            assert spec.method_doc == "", name


def _stub_plain_defs() -> dict[str, ast.FunctionDef]:
    """The plain (not overloaded) ``def``s of the stub's ``Tensor``, ``if`` branches included:
    a reduction's is the runtime signature mypy with the plugin reads."""
    tree = ast.parse(PYI.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    found: dict[str, ast.FunctionDef] = {}

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):
                visit(node.body + node.orelse)
            elif isinstance(node, ast.FunctionDef) and not node.decorator_list:
                found.setdefault(node.name, node)

    visit(cls.body)
    return found


@pytest.mark.parametrize("name", METHOD_ROWS)
def test_the_stub_declares_the_runtime_parameters(name: str) -> None:
    node = _stub_plain_defs()[name]
    args = node.args
    defaults = [None] * (len(args.args) - len(args.defaults)) + list(args.defaults)
    stub = [
        (a.arg, "POSITIONAL_OR_KEYWORD", a.annotation, d)
        for a, d in zip(args.args, defaults, strict=True)
    ] + [
        (a.arg, "KEYWORD_ONLY", a.annotation, d)
        for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
    ]
    assert stub[0][:2] == ("self", "POSITIONAL_OR_KEYWORD")
    stub_params = [
        (
            n,
            k,
            ast.unparse(ann) if ann else "",
            ast.literal_eval(d) if d else inspect.Parameter.empty,
        )
        for n, k, ann, d in stub[1:]
    ]
    runtime, ret = _runtime_params(getattr(tt.Tensor, name))
    assert stub_params == [(n, k.name, a, d) for n, k, a, d, _ in runtime]
    assert node.returns is not None and ast.unparse(node.returns) == ret


def test_methods_validate_and_reduce_as_numpy() -> None:
    x = tt.asarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4) - 5.5)
    a = x.numpy()
    np.testing.assert_array_equal(
        x.sum(1, True, dtype=tt.float32).numpy(), a.sum(1, np.float32, keepdims=True)
    )
    np.testing.assert_allclose(x.var((0, 2), ddof=1).numpy(), a.var((0, 2), ddof=1))
    np.testing.assert_allclose(x.norm(1, axis=-1).numpy(), np.abs(a).sum(-1))
    np.testing.assert_allclose(x.norm_lp_max(2, 1e9, -1).numpy(), np.full((2, 3), 1e9**0.5))
    np.testing.assert_allclose(
        x.l2_normalize(-1, variant="pytorch").numpy(),
        a / np.linalg.norm(a, axis=-1, keepdims=True),
    )
    with pytest.raises(ValueError, match=r"eps must be >= 0, got -1\.0"):
        x.l2_normalize(eps=-1)
    with pytest.raises(ValueError, match="unknown l2_normalize variant 'keras'"):
        x.l2_normalize(eps=-1, variant="keras")  # type: ignore[arg-type]  # variant first
    with pytest.raises(TypeError, match="eps must be a real number"):
        x.l2_normalize(eps="1")  # type: ignore[arg-type]


def test_check_fails_on_a_hand_edited_method(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    edit = (
        '        return self._reduce("max", axis, keepdims, out)\n',
        '        return self._reduce("min", axis, keepdims, out)\n',
    )
    module = "typedtensor/_tensor_reduction_methods.py"
    assert_check_fails_on_a_hand_edit(tmp_path, monkeypatch, capsys, module, edit)


def test_check_fails_on_a_changed_method_doc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _render_into(tmp_path, monkeypatch)
    table = dict(rules.REDUCTIONS)
    table["max"] = dataclasses.replace(table["max"], method_doc="The largest element.")
    monkeypatch.setattr(rules, "REDUCTIONS", table)
    capsys.readouterr()
    assert generate.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert '+        """The largest element."""' in err
    stale = err.splitlines()[-1]
    # the method's module and the stub that shows its docstring
    assert "typedtensor/_tensor_reduction_methods.py" in stale
    assert "typedtensor/_tensor.pyi" in stale


def test_a_new_row_gets_its_method() -> None:
    table = dict(rules.REDUCTIONS)
    table["foo"] = dataclasses.replace(table["var"], name="foo", method_doc="Foo: ``(8, 3)``.")
    cls = _render_methods.load(_render_methods.render_methods(table))
    foo = vars(cls)["foo"]
    assert inspect.signature(foo) == inspect.signature(tt.Tensor.var)
    assert foo.__doc__ == "Foo: ``(8, 3)``."
    assert (
        '        return self._reduce(\n            "foo", axis, keepdims, out, dtype, correction='
        in _render_methods.render_method(table["foo"])
    )


def test_generated_text_is_ruff_formatted_at_every_wrap() -> None:
    """Returns on one line, hugged and one argument a line (long names), as ruff formats."""
    table = dict(rules.REDUCTIONS)
    for n in (20, 60):
        name = "norm_" + "x" * n
        table[name] = dataclasses.replace(table["norm"], name=name)
    text = _render_methods.render_methods(table)
    assert "            mode=mode,\n        )" in text
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "format",
            "--check",
            "--diff",
            "--stdin-filename",
            "m.py",
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
        ({"params": ("eps", "foo")}, "VALIDATION"),
        ({"norm_mode": None}, "VALIDATION"),  # a norm_lp_* row without its mode
        ({"method_doc": ""}, "non-empty"),
        ({"method_doc": 'a """ quote'}, "backslashes"),
        (
            {"args": (rules.Arg("p", "float", "2"), rules.Arg("eps", "float", "0.0"))},
            "lacks axis, out",
        ),
    ],
)
def test_rows_the_generator_cannot_write_are_rejected(
    change: dict[str, object], message: str
) -> None:
    spec = dataclasses.replace(rules.REDUCTIONS["norm_lp_max"], **change)
    with pytest.raises(ValueError, match=message):
        _render_methods.render_method(spec)
