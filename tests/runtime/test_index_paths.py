"""argmax/argmin without a plan (``typedtensor/_tensor_index.py``): numpy's call, or the
kernel the plan would run, for small inputs over one int axis, for whole arrays and for rows
of any size, with the answers and errors of the validated path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _reduce_plan
from typedtensor._backend import _numpy
from typedtensor._backend._numba.direct import first_extreme_of_rows

from .test_fast_paths import _same_bits


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_small_index_path_equals_the_validated_path(op: str) -> None:
    """argmax/argmin of small inputs over an int axis call numpy directly: the same int64
    results (rank 0 for a vector), and the rules' errors for bad axes and empty axes."""
    rng = np.random.default_rng(4)
    limit = tt._tensor_index._INDEX_SMALL_BYTES
    for shape in [(7,), (3, 5), (2, 3, 4), (limit // 16, 4), (limit // 16 + 1, 4)]:
        a = rng.standard_normal(shape).astype(np.float32)
        a.flat[::5] = np.nan
        t = tt.asarray(a)
        for axis in range(-a.ndim, a.ndim):
            got = getattr(t, op)(axis).numpy()
            want = _numpy.reduce(op, a, ((axis + a.ndim) % a.ndim,), False, np.dtype(np.int64))
            _same_bits(got, want)
    for bad_axis in (2, -3):
        with pytest.raises(tt.AxisError, match="out of range"):
            getattr(tt.asarray(np.ones((2, 3))), op)(bad_axis)
    with pytest.raises(tt.AxisError, match="rank-0"):
        getattr(tt.asarray(np.float32(1.0)), op)(0)
    with pytest.raises(ValueError, match="empty"):
        getattr(tt.asarray(np.ones((3, 0))), op)(1)
    assert getattr(tt.asarray(np.ones((0, 3))), op)(1).shape == (0,)
    with pytest.raises(TypeError):
        getattr(tt.asarray(np.ones((2, 3))), op)(True)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_whole_arrays_take_the_index_path(
    op: str, fresh_plans: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """argmax/argmin over the whole array (``axis=None``) call numpy without a plan, but for
    the dtypes the parallel kernels take from their size on (moved to 4 KB here); the flat
    index of the first extreme (the first NaN) as a 0-d int64 in every layout, and the rules'
    error for an empty input."""
    reductions = tt._tensor_index
    monkeypatch.setattr(reductions, "_INDEX_FULL_PLANNED_BYTES", 4096)
    rng = np.random.default_rng(8)
    a = rng.standard_normal((16, 32)).astype(np.float32)  # 2 KB
    a[3, 5] = a[9, 1] = 9.0  # a tie: the first in C order wins
    b = a.copy()
    b.flat[[40, 7]] = np.nan
    cases = [(a, False), (b, False), (np.asfortranarray(b), False), (a.T, False), (a[::2], False)]
    cases += [(a.reshape(2, 16, 16), False), (np.asarray(np.float32(2.0)), False)]
    big = rng.standard_normal((64, 64)).astype(np.float32)  # 16 KB: past the moved size
    cases += [(big, True), ((big * 50).astype(np.int32), False), (big.astype(np.float64), True)]
    for x, planned in cases:
        _reduce_plan.clear_plans()
        with tt.use_backend("numba"):
            got = getattr(tt.asarray(x), op)().numpy()
        assert bool(_reduce_plan.PLANS) == planned, (x.shape, x.dtype)
        _same_bits(got, np.asarray(getattr(x, op)(), dtype=np.int64))
    with pytest.raises(ValueError, match="empty"):
        getattr(tt.asarray(np.ones((0, 3), np.float32)), op)()


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_a_vectors_only_axis_takes_the_whole_array_path(
    op: str, fresh_plans: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """argmax/argmin of a vector over axis 0 or -1 is its whole-array index: numpy's call
    without a plan below ``_INDEX_FULL_PLANNED_BYTES`` (moved to 4 KB here), the plan from
    there; the same 0-d int64 either way, and the rules' errors for an empty vector, an axis
    out of range and a bool axis."""
    monkeypatch.setattr(tt._tensor_index, "_INDEX_FULL_PLANNED_BYTES", 4096)
    rng = np.random.default_rng(9)
    small = rng.standard_normal(1000).astype(np.float32)  # 4000 bytes
    small[[17, 400]] = small.max() + 1  # a tie: the first wins
    with_nan = small.copy()
    with_nan[[600, 30]] = np.nan
    big = rng.standard_normal(4096).astype(np.float32)  # 16 KB: the plan
    for x, planned in [(small, False), (with_nan, False), (small[::3], False), (big, True)]:
        for axis in (0, -1):
            _reduce_plan.clear_plans()
            with tt.use_backend("numba"):
                got = getattr(tt.asarray(x), op)(axis).numpy()
            assert bool(_reduce_plan.PLANS) == planned, (x.shape, axis)
            _same_bits(got, np.asarray(getattr(x, op)(), dtype=np.int64))
    with pytest.raises(ValueError, match="empty"):
        getattr(tt.asarray(np.ones(0, np.float32)), op)(0)
    with pytest.raises(tt.AxisError, match="out of range"):
        getattr(tt.asarray(small), op)(1)
    with pytest.raises(TypeError):
        getattr(tt.asarray(small), op)(False)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_rows_of_any_size_take_the_index_path(
    op: str, fresh_plans: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``_INDEX_SMALL_BYTES``, argmax/argmin over the last axis of C-contiguous rows skip
    the plan: numpy's call, or on the numba backend from ``_INDEX_ROWS_KERNEL_BYTES`` the
    kernel for the dtypes and row lengths of ``ARG_ROWS_KERNEL_CHARS``; other layouts of the
    same size build one; every answer is numpy's. The kernel compiles in the foreground
    (``TYPEDTENSOR_NUMBA_BACKGROUND=0``): with an empty kernel cache numpy's argmax would
    serve while a helper process compiled it."""
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_BACKGROUND", "0")
    reductions = tt._tensor_index
    kernel_calls = []

    def spy(x: Any, ismax: bool) -> Any:
        kernel_calls.append(x.shape)
        return first_extreme_of_rows(x, ismax)

    monkeypatch.setattr(reductions, "_first_extreme_of_rows", spy)
    kernel_rows = reductions._INDEX_ROWS_KERNEL_BYTES // (4 * 64) + 8
    small_rows = reductions._INDEX_SMALL_BYTES // (4 * 64) + 8
    assert small_rows < kernel_rows
    rng = np.random.default_rng(6)
    cases = []
    for rows, dtype, kernel in [
        (small_rows, np.float32, False),  # below the kernels' size: numpy's call
        (kernel_rows, np.float32, True),
        (kernel_rows, np.float64, False),  # float64 rows: numpy's call
    ]:
        a = rng.standard_normal((rows, 64)).astype(dtype)
        a.flat[::7] = np.nan
        a[3] = -np.inf  # rows of one value, a row without a NaN
        cases += [(a, -1, False, kernel), (a, 1, False, kernel), (a, 0, True, False)]
        cases += [(np.asfortranarray(a), 1, True, False), (a.reshape(1, -1), 1, True, False)]
        cases += [(a.reshape(-1, 8), 1, True, False)]  # short rows
    long_rows = rng.standard_normal((kernel_rows // 4, 64 * 4)).astype(np.float32)  # 256
    cases += [(long_rows, -1, False, True), (long_rows.reshape(-1, 512), -1, False, False)]
    # from the backend's own threshold the plan picks the parallel kernels per call (floats)
    planned = reductions._INDEX_ROWS_PLANNED_BYTES
    big = rng.standard_normal((planned // (4 * 256), 256)).astype(np.float32)
    cases += [(big, -1, True, False), ((big * 9).astype(np.int32), -1, False, False)]
    for x, axis, planned, kernel in cases:
        _reduce_plan.clear_plans()
        kernel_calls.clear()
        with tt.use_backend("numba"):
            got = getattr(tt.asarray(x), op)(axis).numpy()
        assert bool(_reduce_plan.PLANS) == planned, (x.shape, x.strides, axis)
        assert bool(kernel_calls) == kernel, (x.shape, x.dtype, axis)
        want = _numpy.reduce(op, x, ((axis + 2) % 2,), False, np.dtype(np.int64))
        _same_bits(got, want)
    kernel_calls.clear()
    with tt.use_backend("numpy"):  # the numpy backend runs numpy's call
        tt.asarray(long_rows).argmax(-1)
    assert not kernel_calls
