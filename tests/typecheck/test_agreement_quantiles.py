"""The plugin's static type of ``tt.quantile``/``percentile``/``nanquantile``/``nanpercentile``
equals the runtime's, case by case (numpy is the oracle): one generated module of
``reveal_type(<expr>)`` lines checked once by mypy with the plugin, each compared with the
value at run time. A runtime result must match the revealed rank, every dim, and the dtype
unless the plugin says ``Any`` (allowed only where ``rules.quantile_result_dtype`` has no
answer); a runtime error must be a ``typedtensor-*`` error, or (bool/complex inputs, which
numpy rejects with TypeError) an ``Any`` dtype."""

from __future__ import annotations

import itertools
import re

import pytest

import typedtensor as tt
from typedtensor import _rules as rules

from .conftest import check_reveal_corpus

DTYPES = ("float16", "float32", "float64", "int8", "uint32", "int64", "bool_", "complex64")
SIZES = (2, 3, 4, 5)
Q_SPELLINGS = ("0.3", "1", "-0.0", "[0.25, 0.75]", "(0, 1)", "[0.5, 1]", "qs3", "qs0", "qf")
AXES = ("", ", axis=-1", ", axis=(0, -1)", ", 0, True", ", axis=None, keepdims=True", ", axis=5")


def name(rank: int, dtype: str) -> str:
    return f"x{rank}_{dtype}"


def corpus() -> list[str]:
    out = []
    methods = (*rules.QUANTILE_METHODS, "cubic")
    combos = itertools.product(range(4), DTYPES, rules.QUANTILE_FUNCTIONS, Q_SPELLINGS)
    for i, (rank, dtype, fn, q) in enumerate(combos):
        axis = AXES[i % len(AXES)] if rank else AXES[i % 2 * 4]
        method = methods[(i * 7) % len(methods)]
        if fn.endswith("percentile") and q[0] not in "qf":
            q = re.sub(r"\d+(\.\d+)?", lambda m: str(float(m.group()) * 100), q)
        out.append(f"tt.{fn}({name(rank, dtype)}, {q}{axis}, method={method!r})")
    return out


def prelude() -> list[str]:
    lines = [
        "from typing import Literal as L",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        "qs3: Tensor[tt.float64, L[3]] = tt.asarray([0.1, 0.5, 0.9])  # type: ignore",
        "qs0: Tensor[tt.float64] = tt.asarray(0.5)  # type: ignore",
        "qf: float = 0.5",
    ]
    for rank in range(4):
        for dtype in DTYPES:
            dims = "".join(f", L[{d}]" for d in SIZES[:rank])
            lines.append(
                f"{name(rank, dtype)}: Tensor[tt.{dtype}{dims}] = "
                f"tt.ones({SIZES[:rank]!r}, tt.{dtype})"
            )
    return lines


TENSOR_RE = re.compile(r"typedtensor\._tensor\.Tensor\[(.*)\]")


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], dict, dict]:  # type: ignore[type-arg]
    exprs = corpus()
    tmp = tmp_path_factory.mktemp("agreement_quantiles")
    by_line = check_reveal_corpus(tmp, "corpus_mod", prelude(), exprs)
    assert not [m for i, m in by_line.items() if i < 0], by_line
    namespace: dict[str, object] = {}
    exec("\n".join(prelude()), namespace)
    return exprs, by_line, namespace


def test_static_type_equals_runtime(checked: tuple[list[str], dict, dict]) -> None:  # type: ignore[type-arg]
    exprs, by_line, namespace = checked
    failures: list[str] = []
    counts = {"exact": 0, "any_dtype": 0, "error": 0}
    for index, expr in enumerate(exprs):
        msgs = by_line.get(index, [])
        reveals = [m[len('Revealed type is "') : -1] for s, m, _ in msgs if s == "note"]
        errors = [c for s, _, c in msgs if s == "error"]
        try:
            value = eval(expr, namespace)
        except (tt.AxisError, TypeError, ValueError) as err:
            typed_error = any(c and c.startswith("typedtensor-") for c in errors)
            unknown_dtype = bool(reveals) and reveals[0].startswith(
                "typedtensor._tensor.Tensor[Any"
            )
            if not typed_error and not (isinstance(err, TypeError) and unknown_dtype):
                failures.append(f"{expr}: runtime raised {err!r}, plugin: {msgs}")
            counts["error"] += 1
            continue
        if errors or len(reveals) != 1:
            failures.append(f"{expr}: runtime ok, plugin {msgs}")
            continue
        m = TENSOR_RE.fullmatch(reveals[0])
        dtype, *dims = [] if m is None else [p.strip() for p in m.group(1).split(",")]
        want = value.numpy().dtype.name
        want_dims = [f"Literal[{n}]" for n in value.shape]
        if m is None or dims != want_dims:
            failures.append(f"{expr}: revealed {reveals[0]}, runtime shape {value.shape}")
        elif dtype == "Any":
            counts["any_dtype"] += 1
        elif dtype != f"typedtensor._dtypes.{'bool_' if want == 'bool' else want}":
            failures.append(f"{expr}: revealed dtype {dtype}, runtime {want}")
        else:
            counts["exact"] += 1
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:40])
    assert counts["exact"] > 300 and counts["error"] > 60 and counts["any_dtype"] > 20, counts
