"""cumsum, cumprod, cumulative_sum and cumulative_prod, on every backend, against numpy.

Ranks 0..5 with empty and size-1 dims, every layout, every axis (None included), ``dtype=``,
``include_initial``; shapes and dtypes equal numpy's, values numpy-close. The float32 cumsum
is at least as accurate as numpy's (measured against a float64 reference).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._strategies import _relayout, arrays

#: the dtypes these ops run on both backends (float16/complex: helper D1's dtypes, numpy only)
CLASSIC = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64"]  # fmt: skip

SCANS = ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod"]


def _numpy_scan(op: str, a: Any, axis: Any, dtype: Any, include_initial: bool) -> Any:
    if op in ("cumsum", "cumprod"):
        return getattr(np, op)(a, axis=axis, dtype=dtype)
    fn = np.cumsum if op == "cumulative_sum" else np.cumprod
    x = a.reshape(-1) if a.ndim == 0 else a
    ax = 0 if axis is None else axis
    r = fn(x, axis=ax, dtype=dtype)
    if include_initial:
        shape = list(r.shape)
        shape[ax] = 1
        r = np.concatenate([np.full(shape, 0 if "sum" in op else 1, r.dtype), r], axis=ax)
    return r


@pytest.mark.parametrize("op", SCANS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_matches_numpy(backend: str, op: str, data: st.DataObject) -> None:
    a = data.draw(arrays([*CLASSIC, "float16"]), label="array").array
    ndim = max(a.ndim, 1)
    axes: list[Any] = [d for k in range(ndim) for d in (k, k - ndim)]
    if not op.startswith("cumulative") or ndim == 1:
        axes.append(None)
    axis = data.draw(st.sampled_from(axes), label="axis")
    dtype = data.draw(st.sampled_from([None, None, "float64", "int64"]), label="dtype")
    include_initial = data.draw(st.booleans(), label="include_initial")
    kw: dict[str, Any] = {"axis": axis, "dtype": dtype}
    if op.startswith("cumulative"):
        kw["include_initial"] = include_initial
    else:
        include_initial = False
    before = a.copy()
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = _numpy_scan(op, a, axis, dtype, include_initial)
        with tt.use_backend(backend):
            got = getattr(tt, op)(tt.asarray(a), **kw).numpy()
    np.testing.assert_array_equal(a, before)
    assert got.shape == expected.shape and got.dtype == expected.dtype, (a.shape, axis)
    if got.dtype.kind == "f":
        tol = {"float16": 1e-2, "float32": 1e-5}.get(got.dtype.name, 1e-12)
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape_axis", [((300_000,), 0), ((512, 700), 1), ((700, 512), 0)])
@pytest.mark.parametrize("layout", ["C", "F", "negative", "strided"])
def test_large_and_parallel(backend: str, shape_axis: tuple[Any, int], layout: str) -> None:
    """Beyond the parallel threshold and the column blocks, in each layout."""
    shape, axis = shape_axis
    rng = np.random.default_rng(1)
    a = _relayout(rng.standard_normal(shape), layout, None)  # type: ignore[arg-type]
    with tt.use_backend(backend):
        np.testing.assert_allclose(tt.cumsum(a, axis).numpy(), np.cumsum(a, axis), rtol=1e-9)
        ones = np.ones(shape, np.int32)
        np.testing.assert_array_equal(tt.cumprod(ones, axis).numpy(), np.cumprod(ones, axis))
        r = tt.cumulative_sum(a.astype(np.float32), axis=axis, include_initial=True).numpy()
        assert r.shape[axis] == shape[axis] + 1 and r.dtype == np.float32


def test_float32_cumsum_not_less_accurate_than_numpy(backend: str) -> None:
    rng = np.random.default_rng(2)
    a = (rng.random(1 << 20) + 0.5).astype(np.float32)
    exact = np.cumsum(a.astype(np.float64))
    with tt.use_backend(backend):
        ours = tt.cumsum(a).numpy()
    ours_err = np.max(np.abs(ours - exact) / exact)
    numpy_err = np.max(np.abs(np.cumsum(a) - exact) / exact)
    assert ours.dtype == np.float32
    assert ours_err <= numpy_err


def test_overflow_and_products_follow_numpy(backend: str) -> None:
    a = np.array([1e30, 1e30, 1e-30, 0.0, 2.0], dtype=np.float32)
    with tt.use_backend(backend), np.errstate(all="ignore"):
        np.testing.assert_array_equal(tt.cumprod(a).numpy(), np.cumprod(a))
        ints = np.array([2**62, 2, 3], dtype=np.int64)
        np.testing.assert_array_equal(tt.cumsum(ints).numpy(), np.cumsum(ints))


def test_shapes_errors_and_methods() -> None:
    x = tt.ones((2, 3), tt.int8)
    assert x.cumsum().shape == (6,) and x.cumsum().dtype is tt.int64
    assert x.cumprod(1, tt.float32).dtype is tt.float32
    assert tt.cumsum(tt.asarray(np.array(2.0))).shape == (1,)
    assert tt.cumulative_prod(x, axis=0, include_initial=True).numpy()[0].tolist() == [1, 1, 1]
    assert tt.cumsum(tt.ones((2, 0)), axis=None).shape == (0,)
    out = tt.zeros((2, 3), tt.int64)
    assert tt.cumsum(x, 1, out=out) is out and out.numpy()[:, -1].tolist() == [3, 3]
    with pytest.raises(ValueError, match="axis is required"):
        tt.cumulative_sum(x)
    with pytest.raises(tt.AxisError):
        x.cumsum(2)
    with pytest.raises(TypeError):
        x.cumsum((0,))  # type: ignore[arg-type]
    with pytest.raises(tt.ShapeError):
        tt.cumsum(x, 0, out=tt.zeros((3, 2), tt.int64))


@pytest.mark.parametrize("op", ["sum", "prod"])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_numba_scans_match_the_reference(op: str, data: st.DataObject) -> None:
    """The numba scan kernels at every size (the public API scans small inputs with numpy)."""
    from typedtensor._backend import _scan
    from typedtensor._backend._numba import scans

    a = data.draw(arrays(CLASSIC, min_rank=1), label="array").array
    axis = data.draw(st.integers(0, a.ndim - 1), label="axis")
    dtype = np.dtype(data.draw(st.sampled_from(["int64", "uint64", "float32", "float64"])))
    initial = data.draw(st.booleans(), label="include_initial")
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _scan.reference_scan(op, a, axis, dtype, initial)
        got = scans.scan(op, a, axis, dtype, initial)
    if got is None:  # numpy's loop: a scan along the innermost dim of a strided view, ...
        assert (
            not (a.flags.c_contiguous or a.flags.f_contiguous)
            or a.size == 0
            or (a.dtype.kind == "f" and dtype.kind in "iu")
        ), (a.shape, a.strides, axis)
        return
    assert got.shape == want.shape and got.dtype == want.dtype
    if dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float32_overflow_stays_inf_as_numpy(backend: str, dtype: str) -> None:
    """numpy's float32 running sum stays inf once it overflows (NaN after inf - inf): the
    float64 accumulation must not come back to finite values, rows or columns, big or small."""
    seq = np.array([3e38, 3e38, -3e38, -3e38, 1.0, -np.inf, 5.0, 2e38], dtype=dtype)
    rng = np.random.default_rng(4)
    for n_rows in (1, 300_000 // seq.size):  # below and above the scan's numba threshold
        a = np.tile(seq, (n_rows, 1)) * rng.choice([1, -1], size=(n_rows, 1)).astype(dtype)
        for x, axis in ((a, 1), (np.ascontiguousarray(a.T), 0), (a, None)):
            with np.errstate(all="ignore"), tt.use_backend(backend):
                got = tt.cumsum(x, axis).numpy()
                want = np.cumsum(x, axis)
            assert got.dtype == want.dtype
            for special in (np.isnan, np.isposinf, np.isneginf):
                np.testing.assert_array_equal(special(got), special(want))
            np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("layout", ["F", "negative", "strided", "transposed3"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_numba_scans_of_non_contiguous_layouts(layout: str, dtype: str) -> None:
    """F order runs through its transpose, other layouts scanned along a strided dim are
    copied once into C order; only a scan along a strided view's innermost dim stays numpy's."""
    from typedtensor._backend._numba import scans

    rng = np.random.default_rng(5)
    base = (rng.standard_normal((40, 30, 20)) * 10).astype(dtype)
    x = {
        "F": np.asfortranarray(base),
        "negative": base[::-1, :, ::-1],
        "strided": base[:, ::2, :],
        "transposed3": base.transpose(1, 2, 0),
    }[layout]
    for axis in range(3):
        for op in ("sum", "prod"):
            want_dtype = np.dtype("float64" if dtype == "float64" else dtype)
            if dtype == "int32":
                want_dtype = np.dtype("int64")
            got = scans.scan(op, x, axis, want_dtype, True)
            strides = [abs(s) for s in x.strides]
            innermost = strides.index(min(strides))
            if got is None:
                assert layout != "F" and axis == innermost
                continue
            with np.errstate(all="ignore"):
                want = np.concatenate(
                    [np.full_like(np.take(x, [0], axis), 0 if op == "sum" else 1, want_dtype),
                     (np.cumsum if op == "sum" else np.cumprod)(x, axis, dtype=want_dtype)],
                    axis=axis,
                )  # fmt: skip
            assert got.shape == want.shape and got.dtype == want.dtype
            if dtype == "int32":
                np.testing.assert_array_equal(got, want)
            else:  # float32: numpy's running sum of |x| ~ 10 carries ~1e-4 absolute error
                tol = 1e-3 if dtype == "float32" else 1e-9
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
