"""The plugin's static type of ``tt.einsum`` equals numpy's runtime answer, case by case.

Generated subscripts (explicit and implicit outputs, diagonals, traces, ``...``, size-1
broadcasting, mismatched labels, malformed terms) over tensors of literal dims and of a
symbolic ``tt.Dim`` marker bound to several sizes. One module holds every case as
``reveal_type(tt.einsum(...))``; mypy (plugin on) checks it once, then each call is run with
numpy's ``einsum`` for every size of the marker:
- it succeeds for every size: the revealed type is a Tensor of the runtime dtype whose dims
  equal the runtime shape (the marker's dim equals the size it is bound to);
- it raises for some size: mypy reports a ``typedtensor-*`` error on that line (the symbolic
  rule: a symbol against a different dim fails for most sizes).
Nothing here computes an expected shape.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from .conftest import check_reveal_corpus

SIZES = (1, 2, 3, 4)
BATCH_SIZES = (2, 5)  # the sizes the marker ``Batch`` is bound to at run time
TENSOR_RE = re.compile(r"^typedtensor\._tensor\.Tensor\[(.*)\]$")
DTYPES = ("float32", "float64", "int8", "int64", "complex64", "bool_")


def _terms(rng: random.Random) -> tuple[str, list[str]]:
    """Random subscripts for one to three operands and the dims each operand is declared
    with (literal sizes, ``Batch`` or a size the subscripts make wrong on purpose)."""
    letters = "ijkl"
    size = {c: rng.choice(SIZES) for c in letters}
    batch_label = rng.choice([None, "i", "j"])
    n_ops = rng.choice([1, 2, 2, 3])
    terms, decls = [], []
    for _ in range(n_ops):
        labels = "".join(rng.choice(letters) for _ in range(rng.choice([1, 2, 2, 3])))
        ellipsis = rng.random() < 0.15
        dims = []
        for c in labels:
            if c == batch_label:
                dims.append("Batch")
            elif rng.random() < 0.08:
                dims.append(str(rng.choice([1, 5])))  # broadcasts (1) or mismatches (5)
            else:
                dims.append(str(size[c]))
        if ellipsis:
            dims = [str(rng.choice([1, 3])), *dims]
            labels = "..." + labels
        terms.append(labels)
        decls.append(", ".join(dims))
    subscripts = ",".join(terms)
    style = rng.random()
    if style < 0.45:
        used = sorted({c for t in terms for c in t if c.isalpha()})
        out = "".join(rng.sample(used, rng.randint(0, len(used))))
        if any("..." in t for t in terms):
            out = "..." + out
        subscripts += "->" + out
    elif style < 0.5:
        subscripts += "->z"  # a label no operand has
    return subscripts, decls


def corpus(n: int = 260, seed: int = 31) -> tuple[list[str], list[str]]:
    """(module prelude, one ``tt.einsum(...)`` expression per case)."""
    rng = random.Random(seed)
    prelude = ["import numpy as np", "import typedtensor as tt", "class Batch(tt.Dim): ..."]
    exprs = []
    for i in range(n):
        subscripts, decls = _terms(rng)
        names = []
        for j, dims in enumerate(decls):
            dtype = rng.choice(DTYPES)
            name = f"t{i}_{j}"
            names.append(name)
            prelude.append(f"{name}: tt.Tensor[tt.{dtype}, {_typed(dims)}]")
        exprs.append(f"tt.einsum({subscripts!r}, {', '.join(names)})")
    return prelude, exprs


def _typed(dims: str) -> str:
    return ", ".join(d if d == "Batch" else f"L[{d}]" for d in dims.split(", "))


def _runtime_namespace(prelude: list[str], batch: int) -> dict[str, object]:
    """The declared tensors as real ones, ``Batch`` dims of size ``batch``."""
    import typedtensor as tt

    ns: dict[str, object] = {"tt": tt, "np": np}
    pattern = re.compile(r"^(t\d+_\d+): tt\.Tensor\[tt\.(\w+), (.*)\]$")
    for line in prelude:
        m = pattern.match(line)
        if m is None:
            continue
        name, dtype, dims = m.groups()
        shape = tuple(batch if d == "Batch" else int(d[2:-1]) for d in dims.split(", "))
        np_dtype = np.dtype("bool" if dtype == "bool_" else dtype)
        ns[name] = tt.asarray(np.ones(shape, np_dtype))
    return ns


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[int, list[tuple[str, str, str | None]]]:
    prelude, exprs = corpus()
    tmp = tmp_path_factory.mktemp("agreement_einsum")
    return check_reveal_corpus(
        tmp, "corpus_einsum", ["from typing import Literal as L", *prelude], exprs
    )


def test_einsum_static_type_equals_numpy(
    checked: dict[int, list[tuple[str, str, str | None]]],
) -> None:
    prelude, exprs = corpus()
    spaces = {b: _runtime_namespace(prelude, b) for b in BATCH_SIZES}
    failures: list[str] = []
    n_exact = n_err = 0
    for index, expr in enumerate(exprs):
        msgs = checked.get(index, [])
        codes = {c for s, _, c in msgs if s == "error"}
        results: dict[int, object] = {}
        for batch, ns in spaces.items():
            try:
                results[batch] = eval(expr, ns)
            except ValueError as err:  # numpy's ValueError, or tt.ShapeError (a subclass)
                results[batch] = err
        raised = [b for b, r in results.items() if isinstance(r, Exception)]
        if raised:
            if not any(c and c.startswith("typedtensor-") for c in codes):
                failures.append(f"{expr}: raises for Batch={raised} ({results}), plugin {msgs}")
            n_err += 1
            continue
        if codes:
            failures.append(f"{expr}: runs for every size, plugin errors {msgs}")
            continue
        reveals = [m for s, m, _ in msgs if s == "note" and m.startswith("Revealed type is ")]
        assert len(reveals) == 1, (expr, msgs)
        m = TENSOR_RE.match(reveals[0][len('Revealed type is "') : -1])
        assert m is not None, (expr, reveals)
        parts = [p.strip() for p in m.group(1).split(",") if p.strip()]
        dtype = parts[0].rsplit(".", 1)[1].replace("bool_", "bool")
        for batch, value in results.items():
            shape = value.shape  # type: ignore[attr-defined]
            dims = parts[1:]
            if dtype != value.dtype.name:  # type: ignore[attr-defined]
                failures.append(f"{expr}: static dtype {dtype} != runtime {value.dtype.name}")  # type: ignore[attr-defined]
            if len(dims) != len(shape) or not all(
                _dim_is(d, s, batch) for d, s in zip(dims, shape, strict=True)
            ):
                failures.append(f"{expr}: static {dims} != runtime {shape} (Batch={batch})")
        n_exact += 1
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:30])
    print(f"einsum agreement: {n_exact} exact, {n_err} errors")
    assert n_exact > 60 and n_err > 30, (n_exact, n_err)


def _dim_is(text: str, size: int, batch: int) -> bool:
    if text.startswith("Literal["):
        return int(text[len("Literal[") : -1]) == size
    return text.endswith(".Batch") and size == batch
