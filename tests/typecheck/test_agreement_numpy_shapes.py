"""The plugin's static types of ``svd qr solve dot hstack vstack pad repeat tile`` (and ``eig``'s
dtype) against numpy's run-time answer (the oracle), generated cases:

- literal shapes over every dtype: each revealed dtype and dim is exactly the run time's or
  unknown (``Any``); a call that raises at run time is a checker error or typed unknown;
- symbolic dims (TypeVars ``M``, ``N``) at several bindings: an exact dim (a symbol or an
  expression, evaluated with the binding) equals the run-time size wherever the call succeeds;
  a ``typedtensor-shape`` error raises for every binding, a ``typedtensor-symbolic`` one for
  some. Never a wrong exact type. The counts are printed (``pytest -s``) and floored.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _rules as rules

from .conftest import check_function_corpus, check_reveal_corpus, dim_value
from .test_agreement_dims import _dims as split_dims
from .test_agreement_linalg_indexing import _parse

DTYPES = [("bool_" if n == "bool" else n) for n in rules.DTYPE_NAMES]
SHAPES = [(), (3,), (3, 3), (4, 2), (2, 4), (2, 3, 3), (2, 0, 3), (2, 4, 3, 2)]
RAISES = (TypeError, ValueError, IndexError, np.linalg.LinAlgError, tt.ShapeError)


def _name(shape: tuple[int, ...], dtype: str) -> str:
    return "t_" + "_".join(map(str, shape)) + "_" + dtype if shape else "t_" + dtype


def _one_dtype_cases(t: str) -> list[str]:
    out = [f"tt.linalg.svd({t})[{i}]" for i in range(3)]
    out += [f"tt.linalg.svd({t}, False)[{i}]" for i in range(3)]
    out += [f"tt.linalg.svd({t}, compute_uv=False)"]
    out += [f"tt.linalg.qr({t})[{i}]" for i in range(2)]
    out += [f"tt.linalg.qr({t}, 'complete')[{i}]" for i in range(2)]
    out += [f"tt.linalg.qr({t}, 'r')", f"tt.linalg.eig({t})[0]", f"tt.linalg.eig({t})[1]"]
    # the named results' fields (issue #33)
    out += [f"tt.linalg.svd({t}).{f}" for f in ("U", "S", "Vh")]
    out += [f"tt.linalg.qr({t}, 'complete').Q", f"tt.linalg.eig({t}).eigenvectors"]
    out += [f"tt.pad({t}, 1)", f"tt.pad({t}, (0, 2))", f"tt.repeat({t}, 2)"]
    out += [f"tt.repeat({t}, 3, axis={a})" for a in (0, -1)]
    out += [f"tt.tile({t}, 2)", f"tt.tile({t}, (2, 1, 3))", f"tt.hstack([{t}, {t}])"]
    out += [f"tt.vstack(({t}, {t}))", f"tt.hstack(({t}, {t}, {t}))", f"tt.vstack(({t}, {t}, {t}))"]
    return out


def annotated_prelude(dtypes: list[str]) -> list[str]:
    """The tensors declared with their types (pyright reads declarations), identity matrices
    at run time where square (as ``_invertible``)."""
    lines = ["from typing import Literal as L", "import numpy as np", "import typedtensor as tt"]
    lines.append("from typedtensor import Tensor")
    for d in dtypes:
        for shape in SHAPES:
            dims = "".join(f", L[{n}]" for n in shape)
            square = len(shape) >= 2 and shape[-1] == shape[-2]
            data = (
                f"np.broadcast_to(np.eye({shape[-1]}), {shape!r})"
                if square
                else f"np.ones({shape!r})"
            )
            value = f"tt.asarray({data}.astype(tt.{d}.numpy_dtype))"
            lines.append(f"{_name(shape, d)}: Tensor[tt.{d}{dims}] = {value}")
    return lines


def corpus(dtypes: list[str] = DTYPES) -> tuple[list[str], list[str]]:
    lines = ["import numpy as np", "import typedtensor as tt"]
    for d in dtypes:
        for shape in SHAPES:
            lines.append(f"{_name(shape, d)} = tt.ones({shape!r}, tt.{d})")
    cases: list[str] = []
    for d in dtypes:
        for shape in SHAPES:
            cases += _one_dtype_cases(_name(shape, d))
    pairs = list(itertools.product(SHAPES, repeat=2))
    for i, (sa, sb) in enumerate(pairs):  # pairs of shapes, the dtypes cycling
        da, db = dtypes[i % len(dtypes)], dtypes[(3 * i + 1) % len(dtypes)]
        a, b = _name(sa, da), _name(sb, db)
        same = _name(sb, da)
        cases += [f"tt.linalg.solve({a}, {b})", f"tt.dot({a}, {b})", f"tt.dot({a}, {same})"]
        cases += [f"tt.hstack([{a}, {b}])", f"tt.vstack([{a}, {same}])"]
        cases += [f"tt.hstack(({a}, {same}))", f"tt.vstack(({a}, {b}))"]
    return lines, cases


def _invertible(namespace: dict[str, object]) -> None:
    """Square stacks as identity matrices (``solve``'s operands; the static types are the
    ``tt.ones`` declarations'): a singular matrix is a value error, not a shape one."""
    for key, value in list(namespace.items()):
        shape = getattr(value, "shape", ())
        if isinstance(value, tt.Tensor) and len(shape) >= 2 and shape[-1] == shape[-2]:
            eye = np.broadcast_to(np.eye(shape[-1]), shape).astype(value.dtype.numpy_dtype)
            namespace[key] = tt.asarray(eye)


def _run(expr: str, namespace: dict[str, object]) -> object:
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(expr, namespace)
    except RAISES as err:
        return err


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], object]:
    lines, cases = corpus()
    tmp = tmp_path_factory.mktemp("agreement_numpy_shapes")
    return cases, check_reveal_corpus(tmp, "corpus_np_shapes", lines, cases)


def literal_agreement(
    cases: list[str],
    by_line: dict[int, list[tuple[str, str, str | None]]],
    namespace: dict[str, object],
) -> tuple[list[str], dict[str, int]]:
    """Each case's revealed type against its run-time value in ``namespace``: the wrong static
    types, and the counts of exact, unknown, flagged and unflagged raising cases (also the fft
    family's check, ``test_agreement_fft.py``)."""
    failures: list[str] = []
    counts = dict.fromkeys(("exact", "unknown", "errors", "raised_unknown"), 0)
    for index, expr in enumerate(cases):
        msgs = by_line.get(index, [])
        errors = [m for s, m, _ in msgs if s == "error"]
        reveals = [m for s, m, _ in msgs if s == "note" and m.startswith("Revealed type is ")]
        value = _run(expr, namespace)
        if isinstance(value, Exception):
            counts["errors" if errors else "raised_unknown"] += 1
            if not errors and reveals and "Any" not in reveals[0] and "*tuple" not in reveals[0]:
                failures.append(f"{expr}: raises {value!r} but typed exactly {reveals[0]}")
            continue
        if errors:
            failures.append(f"{expr}: runs ({value.shape}) but the checker says {errors}")
            continue
        text = reveals[0][len('Revealed type is "') : -1]
        if text == "Any":
            counts["unknown"] += 1
            continue
        dtype, dims = _parse(text)
        if dtype is not None and dtype != value.dtype.name:
            failures.append(f"{expr}: static dtype {dtype} != run time {value.dtype.name}")
        if dims is not None:
            if len(dims) != len(value.shape):
                failures.append(f"{expr}: static dims {dims} != run time {value.shape}")
            for d, size in zip(dims, value.shape, strict=False):
                if d.startswith("Literal[") and int(d[len("Literal[") : -1]) != size:
                    failures.append(f"{expr}: static dims {dims} != run time {value.shape}")
        exact = dtype is not None and dims is not None and "Any" not in dims
        counts["exact" if exact else "unknown"] += 1
    return failures, counts


def test_literal_shapes_never_wrong(
    checked: tuple[list[str], dict[int, list[tuple[str, str, str | None]]]],
) -> None:
    cases, by_line = checked
    lines, _ = corpus()
    namespace: dict[str, object] = {}
    exec("\n".join(lines), namespace)
    _invertible(namespace)
    failures, counts = literal_agreement(cases, by_line, namespace)
    print(f"\nnumpy-ops shapes (mypy + plugin), {len(cases)} cases: {counts}")
    assert not failures, f"{len(failures)} wrong static types:\n" + "\n".join(failures[:40])
    # floors: most cases are exact; most raising calls are flagged
    assert counts["exact"] > 0.6 * len(cases), counts
    assert counts["errors"] > 3 * counts["raised_unknown"], counts


# ----------------------------------------------------------------------------- symbolic
BINDINGS = [{"M": m, "N": n} for m, n in [(1, 1), (2, 3), (3, 2), (4, 4), (1, 5), (3, 3)]]
PARAMS = (
    "x: Tensor[tt.float64, M, N], y: Tensor[tt.float64, M, M], v: Tensor[tt.float64, N], "
    "w: Tensor[tt.float32, M], c: Tensor[tt.float64, L[2], M]"
)
SYMBOLIC_CASES = [
    *[f"tt.linalg.svd({t})[{i}]" for t in ("x", "y", "c") for i in range(3)],
    *[f"tt.linalg.svd({t}, False)[{i}]" for t in ("x", "y", "c") for i in range(3)],
    *[f"tt.linalg.qr({t})[{i}]" for t in ("x", "y") for i in range(2)],
    *[f"tt.linalg.qr({t}, 'complete')[{i}]" for t in ("x", "y") for i in range(2)],
    "tt.linalg.qr(x, 'r')",
    "tt.linalg.svd(tt.concatenate([y, y]), False)[1]",
    "tt.linalg.solve(y, x)",
    "tt.linalg.solve(y, w)",
    "tt.linalg.solve(y, v)",
    "tt.linalg.solve(x, x)",
    "tt.linalg.solve(y, c.mT)",
    "tt.dot(x, v)",
    "tt.dot(y, x)",
    "tt.dot(x, y)",
    "tt.dot(w, y)",
    "tt.dot(c, x)",
    "tt.dot(v, w)",
    "tt.hstack([x, x])",
    "tt.hstack([x, y])",
    "tt.hstack([v, w])",
    "tt.vstack([x, y])",
    "tt.vstack([x, c])",
    "tt.vstack([w, w, w])",
    "tt.pad(x, ((1, 2), (0, 3)))",
    "tt.pad(w, 2)",
    "tt.repeat(x, 3, axis=0)",
    "tt.repeat(x, 2)",
    "tt.repeat(v, [1, 2], axis=0)",
    "tt.tile(x, 2)",
    "tt.tile(w, (3, 2))",
]


@pytest.fixture(scope="module")
def symbolic(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[tuple[str, str, str]]]:
    lines = [
        "from typing import Literal as L, TypeVar",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        'M = TypeVar("M", bound=int)',
        'N = TypeVar("N", bound=int)',
    ]
    tmp = tmp_path_factory.mktemp("agreement_numpy_symbolic")
    return check_function_corpus(tmp, "sym_mod", lines, PARAMS, SYMBOLIC_CASES)


def _symbolic_run(case: str, binding: dict[str, int]) -> object:
    m, n = binding["M"], binding["N"]
    rng = np.random.default_rng(m * 10 + n)
    namespace = {
        "tt": tt,
        "x": tt.asarray(rng.standard_normal((m, n))),
        "y": tt.asarray(rng.standard_normal((m, m)) + 4 * np.eye(m)),
        "v": tt.asarray(rng.standard_normal(n)),
        "w": tt.asarray(rng.standard_normal(m).astype(np.float32)),
        "c": tt.asarray(rng.standard_normal((2, m))),
    }
    return _run(case, namespace)


def binding_failures(
    case: str, dims: list[str], bindings: list[dict[str, int]], outcomes: list[object]
) -> list[str]:
    """A case without an error at each binding: it must run, and every exact dim (a symbol or
    an expression, evaluated with the binding) must be the run-time size (also the fft
    family's check)."""
    failures = []
    for binding, outcome in zip(bindings, outcomes, strict=True):
        if isinstance(outcome, Exception):
            failures.append(f"{case}: no error, but raises at {binding}: {outcome!r}")
            continue
        shape = outcome.shape  # type: ignore[attr-defined]
        if len(dims) != len(shape):
            failures.append(f"{case}: {dims} vs {shape} at {binding}")
            continue
        for d, size in zip(dims, shape, strict=True):
            if d != "Any" and dim_value(d, binding) != size:
                failures.append(f"{case}: dim {d} != {size} at {binding}")
    return failures


def test_symbolic_shapes_never_wrong(symbolic: dict[int, list[tuple[str, str, str]]]) -> None:
    failures: list[str] = []
    counts = dict.fromkeys(("exact dims", "unknown dims", "shape errors", "symbolic errors"), 0)
    for index, case in enumerate(SYMBOLIC_CASES):
        msgs = symbolic.get(index, [])
        errors = [code for severity, _, code in msgs if severity == "error"]
        outcomes = [_symbolic_run(case, b) for b in BINDINGS]
        raised = [isinstance(o, Exception) for o in outcomes]
        if errors:
            if errors == ["typedtensor-shape"] and all(raised):
                counts["shape errors"] += 1
            elif errors == ["typedtensor-symbolic"] and any(raised):
                counts["symbolic errors"] += 1
            else:
                failures.append(f"{case}: {errors} but run time {outcomes}")
            continue
        (note,) = [m for s, m, _ in msgs if s == "note"]
        dims = split_dims(note[len('Revealed type is "') : -1])
        failures += binding_failures(case, dims, BINDINGS, outcomes)
        counts["exact dims"] += sum(d != "Any" for d in dims)
        counts["unknown dims"] += sum(d == "Any" for d in dims)
    print(f"\nnumpy-ops shapes, symbolic ({len(SYMBOLIC_CASES)} cases x {len(BINDINGS)}): {counts}")
    assert not failures, "\n".join(failures[:30])
    assert counts["exact dims"] > 3 * counts["unknown dims"], counts
    assert counts["symbolic errors"] >= 5, counts
