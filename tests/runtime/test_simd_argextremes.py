"""The explicit-vector argmax/argmin of rows (``_numba/simd_argextremes.py``, run by ``arg_rows``
and ``arg_h``) give numpy's first index: ties, signed zeros, infinities, NaN anywhere (the sum
check hands those rows to the scalar search), rows that are not a whole number of vectors, row
segments of the parallel split, and dtypes the vectors do not take."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from typedtensor._backend._numba import _kernels as kern
from typedtensor._backend._numba.direct import first_extreme_of_rows
from typedtensor._backend._numba.simd_argextremes import NAN_SEEN, NOT_TAKEN, simd_lanes

Array = np.ndarray[Any, Any]


def _numpy_index(x: Array, ismax: bool) -> Array:
    return x.argmax(axis=1) if ismax else x.argmin(axis=1)


def _rows(dtype: str, length: int, kind: str, rng: np.random.Generator) -> Array:
    x = rng.standard_normal((6, length)).astype(dtype)
    if kind == "ties":
        x = np.round(x)
    elif kind == "zeros":
        x[:] = -0.0
        x[:, 1::3] = 0.0
    elif kind == "nan":
        x[0, 0] = np.nan
        x[1, -1] = np.nan
        x[2, length // 2] = np.nan
        x[2, length // 3] = np.nan
    elif kind == "inf":
        x[0, -1] = np.inf
        x[1, 0] = -np.inf
        x[2, :] = np.inf
        x[3, :] = -np.inf
        x[4, 0], x[4, -1] = np.inf, -np.inf  # a NaN sum without a NaN
    return x


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("ismax", [True, False])
@pytest.mark.parametrize("kind", ["plain", "ties", "zeros", "nan", "inf"])
def test_rows_of_every_length_give_numpys_first_index(dtype: str, ismax: bool, kind: str) -> None:
    rng = np.random.default_rng(7)
    lanes = simd_lanes(np.dtype(dtype).itemsize)
    lengths = [1, 2, lanes - 1, lanes, lanes + 1, 2 * lanes, 3 * lanes - 1, 3 * lanes + 5]
    lengths += [4 * lanes, 100, 256, 257, 1000]
    for length in lengths:
        x = _rows(dtype, length, kind, rng)
        got = first_extreme_of_rows(x, ismax)
        np.testing.assert_array_equal(got, _numpy_index(x, ismax), err_msg=f"{length}")


@settings(max_examples=200, deadline=None)
@given(
    x=hnp.arrays(
        st.sampled_from([np.float32, np.float64]),
        st.tuples(st.integers(1, 4), st.integers(1, 80)),
        elements=st.one_of(
            st.floats(-3, 3, width=32),
            st.sampled_from([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0]),
        ),
    ),
    ismax=st.booleans(),
)
def test_random_rows(x: Array, ismax: bool) -> None:
    before = x.copy()
    np.testing.assert_array_equal(first_extreme_of_rows(x, ismax), _numpy_index(x, ismax))
    np.testing.assert_array_equal(x, before)  # the input is not modified


@pytest.mark.parametrize("ismax", [True, False])
def test_row_segments_of_the_split_kernel(ismax: bool) -> None:
    """``arg_h`` with rows split into segments (the parallel split): each segment's first index,
    offset by the segment's start, whichever chains of vectors its length leaves."""
    x = np.random.default_rng(3).standard_normal((5, 301)).astype(np.float32)
    x[1, 150:] = x[1, :151]  # the same max in two segments: the first wins
    x[2, 200] = np.nan
    ns = 3
    pval = np.empty((5, ns), np.float32)
    pidx = np.empty((5, ns), np.int64)
    kern.arg_h(x, pval, pidx, ismax, 2)
    for s in range(ns):
        lo, hi = (s * 301) // ns, ((s + 1) * 301) // ns
        np.testing.assert_array_equal(pidx[:, s], lo + _numpy_index(x[:, lo:hi], ismax))
        want = x[np.arange(5), pidx[:, s]]
        np.testing.assert_array_equal(pval[:, s], want)


def test_other_dtypes_and_layouts_take_the_scalar_path() -> None:
    """The vectors decline integer rows and strided rows; ``arg_rows`` still answers."""
    rng = np.random.default_rng(4)
    ints = rng.integers(-50, 50, (4, 100)).astype(np.int16)
    np.testing.assert_array_equal(first_extreme_of_rows(ints, True), ints.argmax(axis=1))
    strided = rng.standard_normal((4, 200)).astype(np.float32)[:, ::2]
    out = np.empty(4, np.int64)
    kern.arg_rows(strided, out, False)
    np.testing.assert_array_equal(out, strided.argmin(axis=1))
    assert NAN_SEEN < 0 and NOT_TAKEN < 0 and NAN_SEEN != NOT_TAKEN
