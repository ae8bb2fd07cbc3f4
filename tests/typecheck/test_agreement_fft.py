"""The plugin's static types of ``tt.fft.*`` against numpy's run-time answer (the oracle; the
run time is ``numpy.fft`` behind typedtensor's checks), generated cases:

- literal shapes over every dtype, each transform with its default, a literal ``n``/``axis``
  (``s``/``axes``), and a length that is not literal: each revealed dtype and dim is exactly
  the run time's or unknown (``Any``); a call that raises at run time is a checker error, or
  typed unknown (counted);
- symbolic dims (TypeVars ``B``, ``M``) at several bindings (sizes >= 2): every exact dim (a
  symbol or an expression such as ``M // 2 + 1``, evaluated with the binding) equals the
  run-time size.
Never a wrong exact type. The counts are printed (``pytest -s``) and floored."""

from __future__ import annotations

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _rules as rules

from .conftest import check_function_corpus, check_reveal_corpus
from .test_agreement_dims import _dims as split_dims
from .test_agreement_numpy_shapes import _run, binding_failures, literal_agreement

DTYPES = [("bool_" if n == "bool" else n) for n in rules.DTYPE_NAMES]
SHAPES = [(), (5,), (4, 6), (1, 3), (2, 3, 4), (0, 3)]
ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_AXES = ("fftn", "ifftn", "rfftn", "irfftn")


def _name(shape: tuple[int, ...], dtype: str) -> str:
    return "t_" + "_".join(map(str, shape)) + "_" + dtype if shape else "t_" + dtype


def corpus(dtypes: list[str] = DTYPES) -> tuple[list[str], list[str]]:
    """The tensors (``t_4_6_float32 = tt.ones(...)``) and the cases."""
    lines = ["import typedtensor as tt", "n: int = int('3')"]
    cases: list[str] = []
    for d in dtypes:
        for shape in SHAPES:
            t = _name(shape, d)
            lines.append(f"{t} = tt.ones({shape!r}, tt.{d})")
            for fn in ONE_AXIS:
                cases += [f"tt.fft.{fn}({t})", f"tt.fft.{fn}({t}, n=7, axis=0)"]
                cases += [f"tt.fft.{fn}({t}, n=n)"]
            for fn in N_AXES:
                cases += [f"tt.fft.{fn}({t})", f"tt.fft.{fn}({t}, s=(3, 4))"]
                cases += [f"tt.fft.{fn}({t}, axes=[0])", f"tt.fft.{fn}({t}, s=(2,), axes=(-1,))"]
            cases += [f"tt.fft.fftshift({t})", f"tt.fft.ifftshift({t}, axes=0)"]
    for n in (1, 4, 7):
        cases += [f"tt.fft.fftfreq({n})", f"tt.fft.rfftfreq({n}, d=0.5, dtype=tt.float32)"]
    cases += ["tt.fft.fftfreq(0)", "tt.fft.rfftfreq(n)"]
    return lines, cases


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], object]:
    lines, cases = corpus()
    tmp = tmp_path_factory.mktemp("agreement_fft")
    return cases, check_reveal_corpus(tmp, "corpus_fft", lines, cases)


def test_literal_shapes_never_wrong(
    checked: tuple[list[str], dict[int, list[tuple[str, str, str | None]]]],
) -> None:
    cases, by_line = checked
    lines, _ = corpus()
    namespace: dict[str, object] = {}
    exec("\n".join(lines), namespace)
    failures, counts = literal_agreement(cases, by_line, namespace)
    print(f"\nfft (mypy + plugin), {len(cases)} cases: {counts}")
    assert not failures, f"{len(failures)} wrong static types:\n" + "\n".join(failures[:40])
    assert counts["exact"] > 0.5 * len(cases), counts  # the n=n cases are unknown by design
    assert counts["errors"] > 10 * counts["raised_unknown"], counts


# ----------------------------------------------------------------------------- symbolic
#: sizes >= 2: below, numpy has no default length for ``irfft``/``hfft`` (``2 * (m - 1)`` is 0)
#: and the static types do not say so (as ``max`` of an empty symbolic axis: a run-time error)
BINDINGS = [{"B": b, "M": m} for b, m in [(2, 2), (2, 3), (3, 4), (2, 7), (5, 10)]]
PARAMS = "x: Tensor[tt.float32, B, M], c: Tensor[tt.complex128, M], n: int"
SYMBOLIC_CASES = [
    *[f"tt.fft.{fn}(x)" for fn in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")],
    *[f"tt.fft.{fn}(x, axis=0)" for fn in ("fft", "rfft", "irfft")],
    *[f"tt.fft.{fn}(c)" for fn in ("fft", "irfft", "hfft")],
    *[f"tt.fft.{fn}(x)" for fn in ("fftn", "ifftn", "rfftn", "irfftn")],
    "tt.fft.rfftn(x, axes=(1, 0))",
    "tt.fft.irfftn(x, s=(4,))",
    "tt.fft.rfft(x, n=6)",
    "tt.fft.fftfreq(x.shape[1])",
    "tt.fft.rfftfreq(x.shape[1])",
    "tt.fft.fftshift(x)",
    "tt.fft.rfft(c)",
]


@pytest.fixture(scope="module")
def symbolic(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[tuple[str, str, str]]]:
    lines = [
        "from typing import TypeVar",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        'B = TypeVar("B", bound=int)',
        'M = TypeVar("M", bound=int)',
    ]
    tmp = tmp_path_factory.mktemp("agreement_fft_symbolic")
    return check_function_corpus(tmp, "fft_sym", lines, PARAMS, SYMBOLIC_CASES)


def test_symbolic_shapes_never_wrong(symbolic: dict[int, list[tuple[str, str, str]]]) -> None:
    failures: list[str] = []
    counts = dict.fromkeys(("exact dims", "unknown dims", "errors"), 0)
    for index, case in enumerate(SYMBOLIC_CASES):
        msgs = symbolic.get(index, [])
        errors = [code for severity, _, code in msgs if severity == "error"]
        rng = np.random.default_rng(index)
        outcomes = []
        for b in BINDINGS:
            x = rng.standard_normal((b["B"], b["M"])).astype(np.float32)
            c = rng.standard_normal(b["M"]) + 1j
            namespace = {"tt": tt, "x": tt.asarray(x), "c": tt.asarray(c), "n": 3}
            outcomes.append(_run(case, namespace))
        if errors:  # only ever an error numpy raises for every binding
            counts["errors"] += 1
            if errors != ["typedtensor-shape"] or not all(
                isinstance(o, Exception) for o in outcomes
            ):
                failures.append(f"{case}: {errors} but run time {outcomes}")
            continue
        (note,) = [m for s, m, _ in msgs if s == "note"]
        dims = split_dims(note[len('Revealed type is "') : -1])
        failures += binding_failures(case, dims, BINDINGS, outcomes)
        counts["exact dims"] += sum(d != "Any" for d in dims)
        counts["unknown dims"] += sum(d == "Any" for d in dims)
    print(f"\nfft, symbolic ({len(SYMBOLIC_CASES)} cases x {len(BINDINGS)}): {counts}")
    assert not failures, "\n".join(failures[:30])
    assert counts["unknown dims"] == 0, counts
    assert counts["errors"] == 1, counts  # rfft of complex input
