"""``tt.einsum`` against numpy's ``einsum``: values, shape, dtype, errors (numpy's class or a
subclass, with the rule's message), every layout, inputs never modified."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _rules as rules

Array = np.ndarray[Any, Any]

#: (subscripts, operand shapes)
CASES: list[tuple[str, tuple[tuple[int, ...], ...]]] = [
    ("ij,jk->ik", ((2, 3), (3, 4))),
    ("ij,jk", ((2, 3), (3, 4))),
    ("bhtd,bhsd->bhts", ((2, 3, 4, 5), (2, 3, 6, 5))),
    ("ii->i", ((3, 3),)),
    ("ii", ((3, 3),)),
    ("ij->ji", ((2, 3),)),
    ("ba", ((2, 3),)),
    ("i,i", ((4,), (4,))),
    ("i,j->ij", ((2,), (3,))),
    ("...ij,...jk", ((5, 2, 3), (3, 4))),
    ("...ij,...jk->...ik", ((1, 2, 3), (7, 3, 4))),
    ("ij,ij->ij", ((2, 3), (1, 3))),
    ("ijk->", ((2, 3, 4),)),
    ("Ab,bA", ((2, 3), (3, 2))),
    (",ij->ij", ((), (2, 3))),
    ("iij->j", ((2, 2, 0),)),
]


def _sample(shape: tuple[int, ...], dtype: str, seed: int) -> Array:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    return np.asarray((rng.standard_normal(shape) * 3).astype(dtype))


@pytest.mark.parametrize(("subscripts", "shapes"), CASES)
@pytest.mark.parametrize("dtypes", [("float64",), ("float32", "int8"), ("complex64", "int64")])
def test_einsum_matches_numpy(
    subscripts: str, shapes: tuple[tuple[int, ...], ...], dtypes: tuple[str, ...]
) -> None:
    arrays = [_sample(s, dtypes[i % len(dtypes)], i) for i, s in enumerate(shapes)]
    before = [a.copy() for a in arrays]
    want = np.einsum(subscripts, *arrays, optimize=True)
    for layout in ("C", "F", "strided"):
        ops = [_layout(a, layout) for a in arrays]
        got = tt.einsum(subscripts, *(tt.asarray(a) for a in ops))
        assert got.shape == np.shape(want) and got.dtype.numpy_dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
        assert got.shape == rules.einsum_shape(subscripts, [a.shape for a in ops])
    for a, b in zip(arrays, before, strict=True):
        np.testing.assert_array_equal(a, b)


def _layout(a: Array, layout: str) -> Array:
    if a.ndim == 0:
        return a
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided":
        wide = np.zeros((*a.shape[:-1], 2 * a.shape[-1]), a.dtype)
        wide[..., ::2] = a
        return wide[..., ::2]
    return a


def test_einsum_takes_ndarrays_and_read_only_inputs() -> None:
    a = np.arange(6.0).reshape(2, 3)
    a.setflags(write=False)
    got = tt.einsum("ij,kj->ik", a, tt.asarray(a))
    np.testing.assert_array_equal(got.numpy(), np.einsum("ij,kj->ik", a, a))


@pytest.mark.parametrize(
    ("subscripts", "shapes", "error", "message"),
    [
        ("ij,jk", ((2, 3), (4, 5)), tt.ShapeError, "label 'j' is 3 at dim 1 of operand 0 but 4"),
        ("ii", ((2, 3),), tt.ShapeError, "a label repeated in one term takes equal dims"),
        ("ii->i", ((1, 3),), tt.ShapeError, "label 'i' is 1"),
        ("...i,...i", ((2, 3), (4, 3)), tt.ShapeError, "'...' dims do not broadcast"),
        (
            "ij",
            ((2, 3, 4),),
            ValueError,
            "2 label(s) for a rank-3 operand; give one label per dim, or '...' for the rest",
        ),
        ("ij,jk", ((2, 3),), ValueError, "name 2 operand(s) but 1 were given"),
        ("i->j", ((3,),), ValueError, "output label 'j' appears in no operand"),
        ("i->ii", ((3,),), ValueError, "repeats label 'i'"),
        ("i1", ((3, 3),), ValueError, "'1' is not a label"),
        ("i->i->i", ((3,),), ValueError, "'->' may appear once"),
        ("...i->i", ((2, 3),), ValueError, "must appear in the output"),
    ],
)
def test_einsum_errors_are_numpys_class(
    subscripts: str, shapes: tuple[tuple[int, ...], ...], error: type, message: str
) -> None:
    arrays = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError):  # numpy rejects each of them too
        np.einsum(subscripts, *arrays)
    with pytest.raises(error) as err:
        tt.einsum(subscripts, *(tt.asarray(a) for a in arrays))
    assert message in str(err.value)
    with pytest.raises(TypeError, match="subscripts string first"):
        tt.einsum(tt.asarray(arrays[0]), subscripts)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="einsum takes Tensors or ndarrays, got list"):
        tt.einsum("i", [1, 2])


def test_einsum_rule_agrees_with_numpy_on_every_small_pair() -> None:
    """Every two-operand subscripts over labels ``i``/``j`` up to rank 2, with sizes 1..3:
    the rule's shape is numpy's, and the rule raises exactly where numpy does."""
    terms = ["", "i", "j", "ij", "ji", "ii"]
    outputs = [None, "", "i", "j", "ij", "ji"]
    checked = 0
    for ta, tb, out in itertools.product(terms, terms, outputs):
        subscripts = f"{ta},{tb}" + ("" if out is None else f"->{out}")
        for sa, sb in itertools.product(
            itertools.product((1, 2, 3), repeat=len(ta)),
            itertools.product((1, 2, 3), repeat=len(tb)),
        ):
            try:
                want: tuple[int, ...] | None = np.einsum(subscripts, np.ones(sa), np.ones(sb)).shape
            except ValueError:
                want = None
            try:
                got: tuple[int, ...] | None = rules.einsum_shape(subscripts, [sa, sb])
            except rules.RuleError:
                got = None
            assert got == want, (subscripts, sa, sb)
            checked += 1
    assert checked > 2000
