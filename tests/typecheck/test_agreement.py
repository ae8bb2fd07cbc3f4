"""The plugin's static result type equals the runtime ``(shape, dtype)``, case by case.

One generated module holds every case of ``_corpus`` as ``reveal_type(<expr>)``; mypy (plugin on)
checks it once, and each revealed type is compared with evaluating ``<expr>`` at run time:
- the call succeeds at run time -> the revealed type is exact and equal (shape and dtype), or
  for binary ops with an unsupported dtype combination, the dtype is ``Any`` (never wrong);
- the call raises (bad axis, bad target shape) -> mypy reports a typedtensor error on that line.
"""

from __future__ import annotations

import re

import pytest

import typedtensor as tt

from ._corpus import corpus, prelude
from .conftest import assert_no_crash, run_mypy

TENSOR_RE = re.compile(r"^typedtensor\._tensor\.Tensor\[(.*)\]$")


def _parse(revealed: str) -> tuple[str | None, tuple[int | None, ...] | None]:
    """``(dtype name or None for Any, dims with None for non-literal)`` of a revealed Tensor."""
    m = TENSOR_RE.match(revealed)
    if m is None:  # not a Tensor at all (e.g. plain Any): never what the runtime gives
        return "<not a Tensor: " + revealed + ">", None
    parts = [p.strip() for p in m.group(1).split(",")]
    dtype_part, dims = parts[0], parts[1:]
    if any(d.startswith("*") for d in dims):
        return _dtype(dtype_part), None
    return _dtype(dtype_part), tuple(
        int(d[len("Literal[") : -1]) if d.startswith("Literal[") else None for d in dims
    )


def _dtype(text: str) -> str | None:
    if not text.startswith("typedtensor._dtypes."):
        return None
    name = text.rsplit(".", 1)[1]
    return "bool" if name == "bool_" else name


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[list[object], dict[int, list[tuple[str, str, str | None]]]]:
    cases, constants = corpus()
    lines = prelude(constants)
    first = len(lines) + 1
    lines += [f"reveal_type({c.expr})" for c in cases]
    tmp = tmp_path_factory.mktemp("agreement")
    (tmp / "corpus_mod.py").write_text("\n".join(lines) + "\n")
    result = run_mypy(
        ["--no-error-summary", "--cache-dir", str(tmp / "cache"), "corpus_mod.py"], tmp
    )
    assert_no_crash(result)
    by_line: dict[int, list[tuple[str, str, str | None]]] = {}
    for line, severity, message, code in result.messages("corpus_mod.py"):
        by_line.setdefault(line - first, []).append((severity, message, code))
    namespace: dict[str, object] = {"tt": tt}
    exec("\n".join(prelude(constants)), namespace)
    return [(c, namespace) for c in cases], by_line


def test_corpus_is_large_and_deterministic() -> None:
    a, _ = corpus()
    b, _ = corpus()
    assert [c.expr for c in a] == [c.expr for c in b]
    assert len(a) > 2000
    assert {c.kind for c in a} == {"reduce", "reduce_to", "binary", "scan", "dtype_arg"}


def test_static_type_equals_runtime(
    checked: tuple[
        list[tuple[object, dict[str, object]]], dict[int, list[tuple[str, str, str | None]]]
    ],
) -> None:
    cases, by_line = checked
    failures: list[str] = []
    n_ok = n_err = 0
    for index, (case, namespace) in enumerate(cases):
        msgs = by_line.get(index, [])
        reveals = [m for s, m, _ in msgs if s == "note" and m.startswith("Revealed type is ")]
        errors = [(m, c) for s, m, c in msgs if s == "error"]
        try:
            value = eval(case.expr, namespace)
        except (tt.AxisError, tt.ShapeError, TypeError, ValueError) as err:
            plugin_codes = {c for _, c in errors}
            if case.kind == "binary" and not isinstance(err, tt.ShapeError):
                # numpy rejects the dtype pair (e.g. bool - bool): the static dtype must be Any
                dtype, _ = _parse(reveals[0][len('Revealed type is "') : -1])
                if dtype is not None:
                    failures.append(f"{case.expr}: runtime {err!r} but static dtype {dtype}")
            elif not plugin_codes & {"typedtensor-axis", "typedtensor-shape"}:
                failures.append(f"{case.expr}: runtime raised {err!r}, plugin: {msgs}")
            n_err += 1
            continue
        if errors:
            failures.append(f"{case.expr}: runtime ok, plugin errors {errors}")
            continue
        assert len(reveals) == 1, (case.expr, msgs)
        dtype, dims = _parse(reveals[0][len('Revealed type is "') : -1])
        want = (value.dtype.name, value.shape)
        if (dtype, dims) != want:
            failures.append(f"{case.expr}: static {(dtype, dims)} != runtime {want}")
        n_ok += 1
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:40])
    assert n_ok > 2000 and n_err > 50, (n_ok, n_err)
