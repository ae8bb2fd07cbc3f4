"""``tt.einsum`` and ``_rules.einsum_shape`` against numpy's einsum (the oracle): random
subscripts (explicit and implicit outputs, repeated letters, ``...``, size-1 broadcasting) and
sizes; the rule's shape is numpy's, and the rule raises exactly where numpy does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt
from typedtensor import _rules as rules

LETTERS = "abcdA"


@st.composite
def einsum_cases(draw: st.DrawFn) -> tuple[str, list[tuple[int, ...]]]:
    """Subscripts and operand shapes, mostly consistent, sometimes not."""
    sizes = {c: draw(st.integers(1, 4)) for c in LETTERS}
    spread = draw(st.lists(st.integers(1, 3), max_size=2))
    terms, shapes = [], []
    for _ in range(draw(st.integers(1, 3))):
        letters = draw(st.lists(st.sampled_from(LETTERS), max_size=3))
        ellipsis = draw(st.booleans())
        dims = [sizes[c] for c in letters]
        if draw(st.integers(0, 5)) == 0 and dims:  # a size-1 dim (broadcasts across operands)
            dims[draw(st.integers(0, len(dims) - 1))] = 1
        if draw(st.integers(0, 7)) == 0 and dims:  # a wrong size
            dims[draw(st.integers(0, len(dims) - 1))] += 1
        at = draw(st.integers(0, len(letters)))
        term = "".join(letters)
        if ellipsis:
            term = term[:at] + "..." + term[at:]
            tail = spread[draw(st.integers(0, len(spread))) :]
            dims[at:at] = tail
        terms.append(term)
        shapes.append(tuple(dims))
    subscripts = ",".join(terms)
    if draw(st.booleans()):
        used = sorted(set("".join(terms).replace(".", "")))
        out = draw(st.permutations(used)).__iter__()
        keep = "".join(c for c in out if draw(st.booleans()))
        if draw(st.booleans()):
            keep = "..." + keep
        subscripts += "->" + keep
    return subscripts, shapes


@settings(max_examples=500, deadline=None)
@given(case=einsum_cases())
def test_einsum_shape_matches_numpy(case: tuple[str, list[tuple[int, ...]]]) -> None:
    subscripts, shapes = case
    arrays = [np.ones(s) for s in shapes]
    try:
        expected = np.einsum(subscripts, *arrays, optimize=True).shape
    except ValueError:
        with pytest.raises(rules.ShapeMismatchError):
            rules.einsum_shape(subscripts, shapes)
        return
    assert rules.einsum_shape(subscripts, shapes) == expected
    got = tt.einsum(subscripts, *(tt.tensor(a, shape=a.shape) for a in arrays))
    assert got.shape == expected


def test_einsum_values_and_errors() -> None:
    x = tt.random((2, 3), tt.float32, seed=0)
    y = tt.random((3, 4), tt.float32, seed=1)
    np.testing.assert_allclose(tt.einsum("ij,jk->ik", x, y).numpy(), x.numpy() @ y.numpy())
    np.testing.assert_allclose(tt.einsum("ij,jk", x, y).numpy(), x.numpy() @ y.numpy())
    square = tt.random((3, 3), tt.float64, seed=2)
    assert tt.einsum("ii", square).numpy() == pytest.approx(np.trace(square.numpy()))
    assert tt.einsum("ij,jk->ik", x, y).dtype is tt.float32
    with pytest.raises(tt.ShapeError, match="'j' is 3 in an earlier operand but 2 in operand 1"):
        tt.einsum("ij,jk->ik", x, x)
    with pytest.raises(tt.ShapeError, match="name 2 operands but 1 were given"):
        tt.einsum("ij,jk", x)
    with pytest.raises(TypeError, match="subscripts must be a str"):
        tt.einsum(3, x)  # type: ignore[arg-type]


def test_einsum_rule_with_symbolic_dims() -> None:
    def size(d: object) -> int | None:
        return None if isinstance(d, str) else d  # type: ignore[return-value]

    sym = {"size_of": size, "is_symbolic": lambda d: isinstance(d, str)}
    assert rules.einsum_shape("btd,de->bte", [("B", "T", 8), (8, 16)], **sym) == ("B", "T", 16)
    assert rules.einsum_shape("bhtd,bhsd->bhts", [("B", 4, "T", 8)] * 2, **sym) == (
        "B",
        4,
        "T",
        "T",
    )
    with pytest.raises(rules.ShapeMismatchError) as info:
        rules.einsum_shape("ij,jk", [(2, "N"), ("M", 3)], **sym)
    assert info.value.symbolic
    with pytest.raises(rules.ShapeMismatchError) as info:
        rules.einsum_shape("ii", [("N", "M")], **sym)
    assert info.value.symbolic
