"""The numpy operations beyond the standard's elementwise functions (sorting, searching,
matrices, rearranging, linalg) against numpy itself: values, shapes and dtypes over ranks 0..5,
empty dims, every dtype and layout (C, F, negative strides, broadcast and strided views,
read-only inputs), inputs unchanged, and numpy's exception classes for what numpy rejects."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._strategies import Case, arrays

REAL = [d for d in tt._rules.DTYPE_NAMES if not d.startswith("complex")]
LINALG = ["float32", "float64", "complex64", "complex128", "int32", "bool"]


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            _same(g, e)
        return
    expected = np.asarray(expected)
    assert isinstance(got, tt.Tensor), type(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.numpy().dtype == expected.dtype, (got.numpy().dtype, expected.dtype)
    np.testing.assert_array_equal(got.numpy(), expected)


def _check(fn: Callable[[Any], Any], reference: Callable[[Any], Any], case: Case) -> None:
    """``fn(Tensor)`` equals ``reference(ndarray)``, or raises numpy's exception class;
    the input is unchanged (read-only where the layout allows)."""
    a = case.array
    if a.base is None and a.size:
        a.flags.writeable = False
    before = a.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = reference(a)
        except (ValueError, TypeError, IndexError, np.linalg.LinAlgError) as err:
            with pytest.raises(type(err)):
                fn(tt.asarray(a))
            return
        _same(fn(tt.asarray(a)), expected)
    np.testing.assert_array_equal(a, before)


KINDS = [None, "quicksort", "mergesort", "heapsort", "stable"]


@settings(max_examples=60, deadline=None)
@given(case=arrays(dtypes=REAL, min_rank=1), data=st.data())
def test_sort_argsort(case: Case, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-case.array.ndim, case.array.ndim - 1))
    kind = data.draw(st.sampled_from(KINDS))
    _check(lambda t: tt.sort(t, axis, kind=kind), lambda a: np.sort(a, axis, kind=kind), case)
    stable_ref = lambda a: np.argsort(a, axis, kind="stable")  # noqa: E731
    _check(lambda t: tt.argsort(t, axis, stable=True), stable_ref, case)
    descending = lambda a: np.flip(  # noqa: E731
        a.shape[axis] - 1 - np.argsort(np.flip(a, axis), axis, kind="stable"), axis
    )
    _check(lambda t: tt.argsort(t, axis, descending=True), descending, case)


def test_sort_errors() -> None:
    with pytest.raises(np.exceptions.AxisError):
        tt.sort(tt.ones((2, 3)), axis=2)
    with pytest.raises(np.exceptions.AxisError):
        tt.argsort(tt.ones(()))
    with pytest.raises(ValueError, match="kind must be"):
        tt.sort(tt.ones((3,)), kind="bogus")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="reshape"):
        tt.sort(tt.ones((3,)), axis=None)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(case=arrays())
def test_searching(case: Case) -> None:
    def nonzero_ref(a: Any) -> Any:
        if a.ndim == 0:
            raise ValueError("rank 0")
        return np.nonzero(a)

    _check(tt.nonzero, nonzero_ref, case)
    _check(tt.flatnonzero, np.flatnonzero, case)
    _check(tt.argwhere, np.argwhere, case)


@settings(max_examples=60, deadline=None)
@given(case=arrays(min_rank=1, max_rank=4), data=st.data())
def test_take_along_axis(case: Case, data: st.DataObject) -> None:
    a = case.array
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    shape = list(a.shape)
    shape[axis] = data.draw(st.integers(0, 3))
    idx = np.zeros(shape, np.int64) if n == 0 else np.random.default_rng(0).integers(0, n, shape)
    ref = lambda x: np.take_along_axis(x, idx, axis)  # noqa: E731
    _check(lambda t: tt.take_along_axis(t, tt.asarray(idx), axis), ref, case)


def test_searchsorted() -> None:
    x1 = tt.asarray(np.array([1.0, 2.0, 2.0, 5.0]))
    x2 = np.array([[0.0, 2.0], [3.0, 9.0]])
    for side in ("left", "right"):
        _same(tt.searchsorted(x1, tt.asarray(x2), side=side), np.searchsorted(x1.numpy(), x2, side))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1-D"):
        tt.searchsorted(tt.ones((2, 2)), tt.ones((2,)))  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(case=arrays(), k=st.integers(-3, 3))
def test_matrices(case: Case, k: int) -> None:
    def tri_ref(fn: Callable[..., Any]) -> Callable[[Any], Any]:
        def ref(a: Any) -> Any:
            if a.ndim == 0:
                raise ValueError("rank 0")
            return fn(a, k)

        return ref

    _check(lambda t: tt.tril(t, k), tri_ref(np.tril), case)
    _check(lambda t: tt.triu(t, k), tri_ref(np.triu), case)

    def diag_ref(a: Any) -> Any:
        if a.ndim not in (1, 2):
            raise ValueError("rank")
        return np.diag(a, k)

    _check(lambda t: tt.diag(t, k), diag_ref, case)


@pytest.mark.parametrize("n, m, k", [(3, None, 0), (3, 4, 1), (0, 2, 0), (4, 2, -1)])
def test_tri(n: int, m: int | None, k: int) -> None:
    _same(tt.tri(n, m, k), np.tri(n, m, k))
    _same(tt.tri(n, m, k, dtype=tt.int8), np.tri(n, m, k, dtype=np.int8))
    with pytest.raises(ValueError):
        tt.tri(-1)


@settings(max_examples=40, deadline=None)
@given(case=arrays(min_rank=1, max_rank=2), rowvar=st.booleans())
def test_cov_corrcoef(case: Case, rowvar: bool) -> None:
    _check(lambda t: tt.cov(t, rowvar=rowvar), lambda a: np.cov(a, rowvar=rowvar), case)
    _check(lambda t: tt.corrcoef(t, rowvar=rowvar), lambda a: np.corrcoef(a, rowvar=rowvar), case)


def test_cov_rank_error() -> None:
    with pytest.raises(ValueError, match="1-D or 2-D"):
        tt.cov(tt.ones((2, 2, 2)))


@settings(max_examples=60, deadline=None)
@given(case=arrays(), data=st.data())
def test_rearranging(case: Case, data: st.DataObject) -> None:
    a = case.array
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    _check(lambda t: tt.flip(t, axis), lambda x: np.flip(x, axis), case)
    shift = data.draw(st.integers(-7, 7))
    _check(lambda t: tt.roll(t, shift, axis), lambda x: np.roll(x, shift, axis), case)
    if a.ndim:  # several axes in any order, each paired with its shift (repeats add up)
        axes = tuple(data.draw(st.lists(st.integers(-a.ndim, a.ndim - 1), max_size=3)))
        shifts = tuple(data.draw(st.integers(-7, 7)) for _ in axes)
        _check(lambda t: tt.roll(t, shifts, axes), lambda x: np.roll(x, shifts, axes), case)
    reps = data.draw(st.integers(0, 3))
    _check(lambda t: tt.repeat(t, reps, axis), lambda x: np.repeat(x, reps, axis), case)
    tiles = data.draw(st.lists(st.integers(0, 2), min_size=1, max_size=3).map(tuple))
    _check(lambda t: tt.tile(t, tiles), lambda x: np.tile(x, tiles), case)
    width = data.draw(st.sampled_from([0, 1, (1, 2)]))
    _check(lambda t: tt.pad(t, width), lambda x: np.pad(x, width), case)


def test_pad_and_join_errors() -> None:
    with pytest.raises(ValueError, match="constant"):
        tt.pad(tt.ones((2,)), 1, mode="edge")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=">= 0"):
        tt.pad(tt.ones((2,)), -1)
    with pytest.raises(ValueError, match=r"hstack of shapes \(2, 3\), \(3, 3\)"):
        tt.hstack([tt.ones((2, 3)), tt.ones((3, 3))])
    with pytest.raises(ValueError, match=r"vstack of shapes \(2, 3\), \(2, 4\)"):
        tt.vstack([tt.ones((2, 3)), tt.ones((2, 4))])


@settings(max_examples=40, deadline=None)
@given(left=arrays(max_rank=3), data=st.data())
def test_stacks_dot_outer(left: Case, data: st.DataObject) -> None:
    a = left.array
    dtype = data.draw(st.sampled_from(["int8", "float32", "float64", "bool"]))
    b = np.ones(data.draw(st.sampled_from([a.shape, a.shape[::-1], a.shape[-1:]])), dtype)
    _check(lambda t: tt.hstack([t, tt.asarray(b)]), lambda x: np.hstack([x, b]), left)
    _check(lambda t: tt.vstack([t, tt.asarray(b)]), lambda x: np.vstack([x, b]), left)
    _check(lambda t: tt.dot(t, tt.asarray(b)), lambda x: np.dot(x, b), left)
    _check(lambda t: tt.outer(t, tt.asarray(b)), lambda x: np.outer(x, b), left)


def _spd(n: int, batch: tuple[int, ...], dtype: str, layout: str) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(n)
    m = rng.standard_normal((*batch, n, n))
    if dtype.startswith("complex"):
        m = m + 1j * rng.standard_normal((*batch, n, n))
    spd = m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n)
    out = (
        spd.astype(dtype)
        if dtype != "bool"
        else np.eye(n, dtype=bool) + np.zeros((*batch, n, n), bool)
    )
    return np.asfortranarray(out) if layout == "F" else out


@pytest.mark.parametrize("dtype", LINALG)
@pytest.mark.parametrize("shape", [(3,), (1,), (0,), (2, 3), (2, 1, 4)], ids=str)
@pytest.mark.parametrize("layout", ["C", "F"])
def test_linalg_square(dtype: str, shape: tuple[int, ...], layout: str) -> None:
    *batch, n = shape
    a = _spd(n, tuple(batch), dtype, layout)
    a.flags.writeable = False
    case = Case(a, layout)
    for name in ("inv", "det", "cholesky", "eigh"):
        _check(getattr(tt.linalg, name), getattr(np.linalg, name), case)
    if dtype not in ("bool",):
        _check(tt.linalg.eig, np.linalg.eig, case)
    rhs = np.ones((*batch, n, 2), "float64")
    _check(lambda t: tt.linalg.solve(t, tt.asarray(rhs)), lambda x: np.linalg.solve(x, rhs), case)
    for full in (True, False):
        _check(lambda t: tt.linalg.svd(t, full), lambda x: tuple(np.linalg.svd(x, full)), case)  # noqa: B023
    for mode in ("reduced", "complete"):
        _check(lambda t: tt.linalg.qr(t, mode), lambda x: tuple(np.linalg.qr(x, mode)), case)  # noqa: B023


def test_linalg_errors() -> None:
    with pytest.raises(
        np.linalg.LinAlgError, match="square matrices: the last two dims are 2 and 3"
    ):
        tt.linalg.inv(tt.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="rank >= 2"):
        tt.linalg.det(tt.ones((3,)))
    with pytest.raises(TypeError, match="float16"):
        tt.linalg.eigh(tt.ones((2, 2), tt.float16))
    with pytest.raises(np.linalg.LinAlgError):
        tt.linalg.inv(tt.zeros((2, 2)))  # singular
    with pytest.raises(
        ValueError, match=r"solve: a of shape \(3, 3\) does not fit b of shape \(4,\)"
    ):
        tt.linalg.solve(tt.asarray(np.eye(3)), tt.ones((4,)))
    with pytest.raises(ValueError, match="not aligned"):
        tt.dot(tt.ones((2, 3)), tt.ones((2, 3)))
