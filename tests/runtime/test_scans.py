"""cumsum, cumprod, cumulative_sum, cumulative_prod, nancumsum and nancumprod, on every
backend, against numpy.

Ranks 0..5 with empty and size-1 dims, every layout, every axis (None included), ``dtype=``,
``include_initial``; shapes and dtypes equal numpy's, values numpy-close. The float32 cumsum
and nancumsum are at least as accurate as numpy's (measured against a float64 reference). The
NaN-aware scans also run on NaN-heavy inputs with all-NaN slices (0 / 1 there, no warning).
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

#: the dtypes these ops run on both backends (float16 and complex: numpy's loops on every one)
CLASSIC = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64"]  # fmt: skip

SCANS = ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod"]
NAN_SCANS = ["nancumsum", "nancumprod"]


def _numpy_scan(op: str, a: Any, axis: Any, dtype: Any, include_initial: bool) -> Any:
    if op in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
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


@pytest.mark.parametrize("op", ["cumsum", "nancumsum"])
def test_float32_scan_not_less_accurate_than_numpy(backend: str, op: str) -> None:
    rng = np.random.default_rng(2)
    a = (rng.random(1 << 20) + 0.5).astype(np.float32)
    if op == "nancumsum":
        a[rng.random(a.size) < 0.1] = np.nan
    exact = getattr(np, op)(a.astype(np.float64))
    with tt.use_backend(backend):
        ours = getattr(tt, op)(a).numpy()
    ours_err = np.max(np.abs(ours - exact) / exact)
    numpy_err = np.max(np.abs(getattr(np, op)(a) - exact) / exact)
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


@pytest.mark.parametrize("op", ["sum", "prod", "nansum", "nanprod"])
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


@pytest.mark.parametrize("op", ["sum", "nansum", "prod"])
@pytest.mark.parametrize("shape_axis", [((7,), 0), ((3, 7), 1), ((7, 3), 0), ((2, 7, 3), 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_numba_scans_keep_the_sign_of_zero(op: str, shape_axis: Any, dtype: str) -> None:
    # a running sum of -0.0s is -0.0 in numpy (it starts from the first element): the kernels
    # start from -0.0; a NaN of nancumsum counts as +0.0, and include_initial writes +0.0
    from typedtensor._backend import _scan
    from typedtensor._backend._numba import scans

    shape, axis = shape_axis
    a = np.full(shape, -0.0, dtype)
    a[..., -1] = np.nan if op == "nansum" else 2.0
    for initial in (False, True):
        got = scans.scan(op, a, axis, np.dtype(dtype), initial)
        want = _scan.reference_scan(op, a, axis, np.dtype(dtype), initial)
        assert got is not None and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize(
    ("op", "dtype"), [("cumsum", "float32"), ("cumsum", "float64"), ("nancumsum", "float32")]
)
def test_float32_overflow_stays_inf_as_numpy(backend: str, op: str, dtype: str) -> None:
    """numpy's float32 running sum stays inf once it overflows (NaN after inf - inf): the
    float64 accumulation must not come back to finite values, rows or columns, big or small
    (nancumsum: with NaNs counted as 0 between the overflows)."""
    seq = np.array([3e38, 3e38, -3e38, -3e38, 1.0, -np.inf, 5.0, 2e38], dtype=dtype)
    if op == "nancumsum":
        seq = np.insert(seq, [1, 4, 7], np.nan)
    rng = np.random.default_rng(4)
    for n_rows in (1, 300_000 // seq.size):  # below and above the scan's numba threshold
        a = np.tile(seq, (n_rows, 1)) * rng.choice([1, -1], size=(n_rows, 1)).astype(dtype)
        for x, axis in ((a, 1), (np.ascontiguousarray(a.T), 0), (a, None)):
            with np.errstate(all="ignore"), tt.use_backend(backend):
                got = getattr(tt, op)(x, axis).numpy()
                want = getattr(np, op)(x, axis)
            assert got.dtype == want.dtype
            for special in (np.isnan, np.isposinf, np.isneginf):
                np.testing.assert_array_equal(special(got), special(want))
            np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("layout", ["F", "negative", "strided", "transposed3"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_numba_scans_of_non_contiguous_layouts(layout: str, dtype: str) -> None:
    """F order runs through its transpose, other layouts scanned along a strided dim are
    copied once into C order; only a scan along a strided view's innermost dim stays numpy's.
    The NaN-aware scans run on the same values with NaNs and all-NaN runs along every axis."""
    from typedtensor._backend._numba import scans

    rng = np.random.default_rng(5)
    base = (rng.standard_normal((40, 30, 20)) * 10).astype(dtype)
    with_nans = base.copy()
    if dtype != "int32":
        with_nans[rng.random(base.shape) < 0.2] = np.nan
        with_nans[3] = with_nans[:, 4] = with_nans[:, :, 5] = np.nan

    def view(b: Any) -> Any:
        return {
            "F": np.asfortranarray(b),
            "negative": b[::-1, :, ::-1],
            "strided": b[:, ::2, :],
            "transposed3": b.transpose(1, 2, 0),
        }[layout]

    functions = {"sum": np.cumsum, "prod": np.cumprod, "nansum": np.nancumsum}
    for axis in range(3):
        for op in ("sum", "prod", "nansum", "nanprod"):
            x = view(with_nans if op.startswith("nan") else base)
            before = x.copy()
            want_dtype = np.dtype("float64" if dtype == "float64" else dtype)
            if dtype == "int32":
                want_dtype = np.dtype("int64")
            got = scans.scan(op, x, axis, want_dtype, True)
            np.testing.assert_array_equal(x, before)
            strides = [abs(s) for s in x.strides]
            innermost = strides.index(min(strides))
            if got is None:
                assert layout != "F" and axis == innermost
                continue
            with np.errstate(all="ignore"):
                want = np.concatenate(
                    [np.full_like(np.take(x, [0], axis), 1 if "prod" in op else 0, want_dtype),
                     functions.get(op, np.nancumprod)(x, axis, dtype=want_dtype)],
                    axis=axis,
                )  # fmt: skip
            assert got.shape == want.shape and got.dtype == want.dtype
            if dtype == "int32":
                np.testing.assert_array_equal(got, want)
            else:  # float32: numpy's running sum of |x| ~ 10 carries ~1e-4 absolute error
                tol = 1e-3 if dtype == "float32" else 1e-9
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
                if op.startswith("nan"):
                    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


def _nan_heavy(data: st.DataObject, dtypes: list[str]) -> Any:
    """An array with NaNs at a drawn density and an all-NaN slice along a drawn axis."""
    a = data.draw(arrays(dtypes, specials=True), label="array").array
    if a.dtype.kind not in "fc" or a.size == 0:
        return a
    a = np.array(a)  # a writable copy in C order, then a drawn layout again below
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16), label="seed"))
    a[rng.random(a.shape) < data.draw(st.sampled_from([0.0, 0.3, 0.9]), label="density")] = np.nan
    if a.ndim:
        ax = data.draw(st.integers(0, a.ndim - 1), label="all-NaN axis")
        index = [slice(None)] * a.ndim
        index[ax] = data.draw(st.integers(0, a.shape[ax] - 1), label="all-NaN index")
        a[tuple(index)] = np.nan
    layout = data.draw(st.sampled_from(["C", "F", "negative", "strided"]), label="layout")
    return _relayout(a, layout, data)


@pytest.mark.parametrize("op", NAN_SCANS)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_nan_scans_match_numpy_on_nan_heavy_inputs(
    backend: str, op: str, data: st.DataObject
) -> None:
    """NaN-heavy inputs (all-NaN slices included), every dtype numpy's nancumsum takes, every
    axis, ``dtype=`` as a name, a numpy dtype or a typedtensor class: numpy's values, shape
    and dtype; no warning; the input unchanged."""
    a = _nan_heavy(data, [*CLASSIC, "float16", "complex64", "complex128"])
    ndim = max(a.ndim, 1)
    axis = data.draw(st.sampled_from([None, *[d for k in range(ndim) for d in (k, k - ndim)]]))
    name = data.draw(st.sampled_from([None, None, "float64", "float32", "int64", "complex128"]))
    if name is not None and a.dtype.kind == "c" and name in ("float64", "float32", "int64"):
        name = "complex128"  # numpy warns (ComplexWarning) on a complex -> real scan
    spelling = data.draw(st.sampled_from(["name", "numpy", "class"]), label="dtype spelling")
    dtype: Any = name
    if name is not None and spelling == "numpy":
        dtype = np.dtype(name)
    elif name is not None and spelling == "class":
        dtype = getattr(tt, name)
    before = a.copy()
    with np.errstate(all="ignore"):
        expected = getattr(np, op)(a, axis=axis, dtype=name)
    with warnings.catch_warnings(), np.errstate(over="ignore", invalid="ignore"):
        warnings.simplefilter("error")  # all-NaN slices: no RuntimeWarning (numpy gives none)
        with tt.use_backend(backend):
            got = getattr(tt, op)(tt.asarray(a), axis, dtype).numpy()
    np.testing.assert_array_equal(a, before)
    assert got.shape == expected.shape and got.dtype == expected.dtype, (a.shape, axis)
    if got.dtype.kind in "fc":
        tol = {"float16": 1e-2, "float32": 1e-5, "complex64": 1e-5}.get(got.dtype.name, 1e-12)
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape_axis", [((300_000,), 0), ((512, 700), 1), ((700, 512), 0)])
@pytest.mark.parametrize("layout", ["C", "F", "negative", "strided"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_large_nan_scans(
    backend: str, shape_axis: tuple[Any, int], layout: str, dtype: str
) -> None:
    """Beyond the numba threshold, the parallel threshold and the column blocks: NaNs (and an
    all-NaN run) count as 0 / 1 as in numpy, in each layout; ints scan as cumsum/cumprod."""
    shape, axis = shape_axis
    rng = np.random.default_rng(6)
    base = rng.standard_normal(shape).astype(dtype)
    base[rng.random(shape) < 0.25] = np.nan
    base[:100] = np.nan
    a = _relayout(base, layout, None)  # type: ignore[arg-type]
    near = np.where(np.isnan(base), 1.0, 1.0 + base / 1e4).astype(dtype)  # products stay finite
    b = _relayout(near, layout, None)  # type: ignore[arg-type]
    tol = 1e-4 if dtype == "float32" else 1e-9
    with tt.use_backend(backend), warnings.catch_warnings():
        warnings.simplefilter("error")
        got = tt.nancumsum(a, axis).numpy()
        assert got.dtype == np.dtype(dtype)
        exact = np.nancumsum(a.astype(np.float64), axis)  # numpy's float32 running sum drifts
        err = np.max(np.abs(got - exact))
        assert err <= np.max(np.abs(np.nancumsum(a, axis) - exact)) + tol * np.max(np.abs(exact))
        np.testing.assert_array_equal(np.isnan(got), np.isnan(exact))
        got = tt.nancumprod(b, axis).numpy()
        np.testing.assert_allclose(got, np.nancumprod(b, axis), rtol=tol, atol=0)
        got = tt.nancumsum(a, axis, tt.float64).numpy()
        np.testing.assert_allclose(got, np.nancumsum(a, axis, np.float64), rtol=1e-9, atol=1e-9)
        ones = np.ones(shape, np.int32)
        np.testing.assert_array_equal(tt.nancumprod(ones, axis).numpy(), np.cumprod(ones, axis))
        np.testing.assert_array_equal(tt.nancumsum(ones, axis).numpy(), np.cumsum(ones, axis))


def test_nan_scans_shapes_errors_and_no_methods() -> None:
    x = tt.asarray(np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]]))
    assert tt.nancumsum(x).numpy().tolist() == [1.0, 1.0, 4.0, 4.0, 4.0, 4.0]
    assert tt.nancumprod(x, 1).numpy().tolist() == [[1.0, 1.0, 3.0], [1.0, 1.0, 1.0]]
    assert tt.nancumsum(x, axis=-2).numpy().tolist() == [[1.0, 0.0, 3.0], [1.0, 0.0, 3.0]]
    i8 = tt.ones((2, 3), tt.int8)
    assert tt.nancumsum(i8).shape == (6,) and tt.nancumsum(i8).dtype is tt.int64
    assert tt.nancumprod(tt.ones((4,), tt.uint16)).dtype is tt.uint64
    assert tt.nancumsum(tt.ones((4,), tt.bool_)).dtype is tt.int64
    assert tt.nancumprod(i8, 1, tt.float32).dtype is tt.float32
    assert tt.nancumsum(x, 0, np.dtype("float32")).dtype is tt.float32
    rank0 = tt.nancumprod(tt.asarray(np.array(np.nan)))
    assert rank0.shape == (1,) and rank0.numpy().tolist() == [1.0]
    assert tt.nancumsum(tt.ones((2, 0)), axis=None).shape == (0,)
    assert tt.nancumsum(tt.ones((2, 0)), axis=0).shape == (2, 0)
    out = tt.asarray(np.full((2, 3), -7.0))
    assert tt.nancumsum(x, 1, out=out) is out
    assert out.numpy().tolist() == [[1.0, 1.0, 4.0], [0.0, 0.0, 0.0]]
    for op in (tt.nancumsum, tt.nancumprod):
        assert not hasattr(x, op.__name__)  # numpy's ndarray has no nan* methods either
        for bad, error in ((2, tt.AxisError), (-3, tt.AxisError), ((0,), TypeError)):
            with pytest.raises(error) as plain:
                tt.cumsum(x, bad)  # type: ignore[arg-type]
            with pytest.raises(error) as nan:
                op(x, bad)  # type: ignore[arg-type]
            assert str(nan.value) == str(plain.value)
        with pytest.raises(tt.ShapeError):
            op(x, 0, out=tt.zeros((3, 2), tt.float64))
