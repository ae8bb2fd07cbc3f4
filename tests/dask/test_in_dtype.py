"""mean/var/std and the nan variants with a ``dtype=`` numpy accumulates in
(``typedtensor._dask._in_dtype``), against numpy called with the same ``dtype=``: integer
results bit for bit (sums wrap modulo 2**k, quotients truncate), float results within the
summation-order rounding of the named dtype, infinities (float16/float32 overflow) and NaNs
(empty and all-NaN slices) where numpy has them. Every op x input dtype x ``dtype=`` in scope,
ranks 1..3, axes as ints, negative ints, tuples and None, keepdims, uneven / single-chunk /
1-element / 0-size chunks."""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import typedtensor as tt  # noqa: E402
from typedtensor._dask import _in_dtype  # noqa: E402
from typedtensor._dask.reductions import reduce_dask  # noqa: E402

Array = Any

#: (shape, chunks, axes to reduce)
LAYOUTS: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...], list[Any]]] = [
    ((13,), ((4, 0, 1, 8),), [0, -1, None]),  # uneven, a 0-size and a 1-element chunk
    ((7, 6), ((3, 4), (1, 2, 3)), [0, 1, (0, 1), None]),
    ((7, 6), ((7,), (6,)), [0, -1, None]),  # one chunk: no tree
    ((5, 4, 3), ((2, 2, 1), (1, 3), (3,)), [0, 2, (0, 2), (-1, -2), None]),
    ((4, 1, 3), ((1,) * 4, (1,), (1, 1, 1)), [0, (0, 2), None]),  # 1-element chunks
]
EMPTY: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...], list[Any]]] = [
    ((0, 4), ((0,), (2, 2)), [0, 1, None]),
    ((4, 0), ((1, 3), (0,)), [0, 1, None]),
]


def _cases() -> list[tuple[str, str, str]]:
    """(op, input dtype, dtype=) in scope: float and complex dtype= only (the rules layer
    rejects integer and bool ones for the moments); a real dtype= of a complex input casts
    the mean only, as numpy."""
    inputs = ("float16", "float32", "float64", "complex64", "int16", "uint8", "bool")
    out = []
    for op, src in itertools.product(("mean", "nanmean", "var", "std", "nanvar", "nanstd"), inputs):
        if op in ("mean", "nanmean"):
            dts: tuple[str, ...] = ("float16", "float32", "complex64")
        else:
            dts = ("float16", "float32", "complex64")
            if src == "complex64":
                dts = ("complex64", "float32", "float64")
            if op.startswith("nan") and src in ("float16", "float32", "complex64"):
                dts = (*dts, "complex128" if src == "complex64" else "float64")
        out += [(op, src, d) for d in dts]
    return out


CASES = _cases()


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    """numpy warns about overflow, casts and empty slices; the values are what is tested."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        yield


def _data(shape: tuple[int, ...], src: str, kind: str, seed: int, nans: bool) -> Array:
    """Seeded values of dtype ``src``: ``small`` ones (no overflow anywhere) or ``large``
    ones (float16 sums and squares overflow, uint8/int8 sums wrap, int16 squares exceed
    float16), positive for ``large`` means so that overflow does not depend on the order."""
    rng = np.random.default_rng(seed)
    if src == "bool":
        return rng.random(shape) < 0.5
    if src in ("int16", "uint8"):
        lo, hi = {"small": (0, 20), "large": (0, 255) if src == "uint8" else (-3000, 3000)}[kind]
        return rng.integers(lo, hi, shape).astype(src)
    real = "float64" if src == "complex64" else src
    top = {"float16": 6e4, "float32": 3e38, "float64": 3e38}[real]
    if kind == "small":
        a = rng.standard_normal(shape) * 3 + 1
    else:
        a = rng.uniform(0.6, 1.0, shape) * top  # any two overflow together
    a = a.astype(real)
    if src == "complex64":
        a = (a + 1j * a[::-1] if a.ndim else a + 1j * a).astype(src)
    if nans and a.size:
        a[rng.random(shape) < 0.25] = np.nan
        a.reshape(-1, a.shape[-1])[0] = np.nan  # an all-NaN slice along the last axis
    return a


def _numpy(op: str, a: Array, axis: Any, keepdims: bool, dtype: str, ddof: int) -> Array:
    fn = getattr(np, op)
    if op.endswith(("var", "std")):
        return np.asarray(fn(a, axis=axis, keepdims=keepdims, dtype=dtype, ddof=ddof))
    return np.asarray(fn(a, axis=axis, keepdims=keepdims, dtype=dtype))


def _eps(op: str, src: str, dtype: np.dtype[Any]) -> float:
    eps = float(np.finfo(dtype).eps)
    if op.startswith("nanv") or op.startswith("nans"):  # deviations rounded to the input
        if src in ("float16", "float32", "complex64"):
            eps = max(eps, float(np.finfo(src).eps))
    return eps


def _assert_equal_numpy(
    got: Array, want: Array, op: str, src: str, a: Array, axis: Any, ddof: int, what: str
) -> None:
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != numpy's {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != numpy's {want.shape}"
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    # floats: numpy's answer up to the order of the sums in the named dtype. n terms of size
    # at most s sum with an error below n * eps * s (mean: divided by n); var's terms are the
    # squared deviations, at most (2 max|x|)^2; std is compared squared
    eps = _eps(op, src, want.dtype)
    n = a.size if axis is None else int(np.prod([a.shape[d] for d in np.atleast_1d(axis)]))
    with np.errstate(all="ignore"):
        big = float(np.nanmax(np.abs(a.astype(np.complex128)), initial=0.0))
        g, w = got.astype(np.complex128), want.astype(np.complex128)
        if op in ("mean", "nanmean"):
            atol = 2 * max(n, 1) * eps * big
        else:
            atol = 8 * max(n, 1) * eps * (2 * big) ** 2 / max(n - ddof, 1)
            if op.endswith("std"):
                g, w = g * g, w * w
    np.testing.assert_allclose(
        g, w, rtol=4 * max(n, 1) * eps, atol=atol, equal_nan=True, err_msg=what
    )


@pytest.mark.parametrize("case", [f"{op}-{src}-{dt}" for op, src, dt in CASES])
def test_dtype_reductions_equal_numpy(case: str) -> None:
    op, src, dt = case.split("-")
    nans = op.startswith("nan") and src.startswith(("float", "complex"))
    ddofs = (0, 1) if op.endswith(("var", "std")) else (0,)
    seed = 0
    layouts = [(*lay, kind) for lay in LAYOUTS for kind in ("small", "large")]
    for shape, chunks, axes, kind in layouts + [(*lay, "small") for lay in EMPTY]:
        seed += 1
        a = _data(shape, src, kind, seed, nans)
        x = tt.asarray(da.from_array(a, chunks=chunks))
        # keepdims and ddof alternate over the axes (both values of each on every layout)
        for i, axis in enumerate(axes + axes[:1]):
            keepdims, ddof = i % 2 == 1, ddofs[(i // 2 + seed) % len(ddofs)]
            want = _numpy(op, a, axis, keepdims, dt, ddof)
            kw = {"correction": ddof} if op.endswith(("var", "std")) else {}
            got = getattr(tt, op)(x, axis=axis, keepdims=keepdims, dtype=dt, **kw).numpy()
            what = f"{op}({src} {kind} {shape} {chunks}, axis={axis}, keepdims={keepdims}, "
            what += f"dtype={dt}, ddof={ddof})"
            _assert_equal_numpy(got, want, op, src, a, axis, ddof, what)


# ------------------------------------------------------------------- the cases the fix is for
def _dask(a: Array, chunks: Any) -> Any:
    return tt.asarray(da.from_array(a, chunks=chunks))


def test_float16_sums_of_the_mean_overflow_as_numpy() -> None:
    """A float16 dtype= sums in float16 on dask as in memory (numpy's inf past 65504), not in a
    wider dtype that a final cast would hide."""
    for src in ("float16", "float32", "int16"):
        a = np.full((4, 20), 30000, src)
        for axis in (0, 1, None):
            with np.errstate(over="ignore"):
                want = np.mean(a, axis=axis, dtype=np.float16)
            assert np.isinf(want).all()
            got = tt.mean(_dask(a, (2, 7)), axis=axis, dtype="float16").numpy()
            in_memory = tt.mean(tt.asarray(a), axis=axis, dtype="float16").numpy()
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(in_memory, want)


def test_float16_sums_of_squares_overflow_as_numpy() -> None:
    a = (np.tile(np.array([[-250], [250]], np.int16), (3, 5)) + np.arange(5)).astype(np.int16)
    want = np.var(a, axis=0, dtype=np.float16)
    assert np.isinf(want).all()  # six squares of ~250 pass float16's 65504
    got = tt.var(_dask(a, (4, 3)), axis=0, dtype="float16").numpy()
    np.testing.assert_array_equal(got, want)
    got = tt.std(_dask(a, (4, 3)), axis=None, dtype="float16").numpy()
    assert got.dtype == np.float16 and np.isinf(got)


def test_nanvar_squares_deviations_in_the_inputs_dtype() -> None:
    a = np.array([[-300.0, 300.0, np.nan], [10.0, 11.0, np.nan]], dtype=np.float16)
    for op in ("nanvar", "nanstd"):
        want = getattr(np, op)(a, axis=1, dtype=np.float64)
        assert np.isinf(want[0]) and np.isfinite(want[1])  # 300**2 overflows float16
        got = getattr(tt, op)(_dask(a, (1, 2)), axis=1, dtype="float64").numpy()
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got, want)


def test_all_nan_and_no_dof_slices_are_nan() -> None:
    a = np.array([[np.nan, np.nan, np.nan], [1.0, np.nan, 2.0], [3.0, np.nan, np.nan]], "f4")
    x = _dask(a, (2, 2))
    for op, kw in (("nanmean", {}), ("nanvar", {"correction": 1}), ("nanstd", {})):
        for dt in ("float16", "float32", "float64"):
            ddof = {"ddof": kw["correction"]} if kw else {}
            want = getattr(np, op)(a, axis=1, dtype=dt, **ddof)
            got = getattr(tt, op)(x, axis=1, dtype=dt, **kw).numpy()
            assert got.dtype == np.dtype(dt)
            np.testing.assert_allclose(got, want, rtol=1e-3, equal_nan=True)
            assert np.isnan(got[0])


@pytest.mark.parametrize("op", ["mean", "nanmean", "var", "std", "nanvar", "nanstd"])
def test_moments_with_an_integer_dtype_raise_at_graph_construction(op: str) -> None:
    for src in (np.float32, np.int16):
        x = _dask(np.ones((4, 3), src), (2, 2))
        for dt in ("int8", "uint8", "bool"):
            with pytest.raises(TypeError, match=rf"{op}\(dtype={dt}\) is not supported"):
                getattr(tt, op)(x, axis=0, dtype=dt)  # before any compute


def test_split_every_and_reduce_dask_directly() -> None:
    a = _data((9, 8), "float32", "small", 3, False)
    x = da.from_array(a, chunks=(1, 3))
    for split_every in (2, 3, {0: 2, 1: 2}):
        for name, dt in (("mean", "float16"), ("var", "float16"), ("std", "complex64")):
            params = {"correction": 1} if name != "mean" else {}
            got = reduce_dask(x, name, (0, 1), False, params, dtype=dt, split_every=split_every)
            want = _numpy(name, a, None, False, dt, params.get("correction", 0))
            _assert_equal_numpy(got.compute(), want, name, "float32", a, None, 1, name)


def test_unknown_chunk_sizes_count_in_the_tree() -> None:
    a = np.arange(200, 240, dtype=np.uint8).reshape(20, 2)
    x = da.from_array(a, chunks=(6, 2))
    picked = x[x[:, 0] % 3 != 0]  # rows kept: unknown until computed
    want_a = a[a[:, 0] % 3 != 0]
    for name, dt, params in (
        ("mean", "uint8", {}),
        ("nanmean", "int8", {}),
        ("var", "float16", {"correction": 1}),
        ("std", "float32", {"correction": 0}),
    ):
        for axes in ((0,), (0, 1)):
            got = reduce_dask(picked, name, axes, False, params, dtype=np.dtype(dt)).compute()
            want = _numpy(name, want_a, axes, False, dt, params.get("correction", 0))
            _assert_equal_numpy(got, want, name, "uint8", want_a, axes, 1, f"{name} {axes}")


def test_which_dtypes_follow_numpy() -> None:
    f = _in_dtype.follows_numpy
    d = np.dtype
    assert not f("mean", d("float32"), None)
    assert not f("mean", d("float32"), d("float64"))
    assert not f("var", d("float16"), d("float64"))  # deviations promote to float64
    assert not f("sum", d("float32"), d("float16"))  # sums are trees in the dtype already
    assert not f("var", d("int16"), d("int8"))  # the rules layer's business
    assert f("var", d("complex64"), d("float32"))  # numpy casts the mean only
    assert f("std", d("complex64"), d("float64"))
    assert f("mean", d("float32"), d("float32"))
    assert f("nanmean", d("int16"), d("uint8"))
    assert f("std", d("int16"), d("float16"))
    assert f("nanvar", d("float16"), d("float64"))
    assert f("nanstd", d("complex64"), d("complex128"))
    assert not f("nanvar", d("float64"), d("float64"))
    assert f("var", d("float16"), None)  # numpy's default for float16 is float16 itself
    assert f("nanstd", d("float16"), None)
    assert not f("var", d("float32"), None)
    assert not f("mean", d("float16"), None)  # numpy sums float16 in float32 for the mean


def test_default_path_builds_the_one_pass_tree() -> None:
    x = da.from_array(np.ones((8, 6), np.float32), chunks=(2, 3))
    plain = reduce_dask(x, "var", (0,), False, {"correction": 0})
    as_f8 = reduce_dask(x, "var", (0,), False, {"correction": 0}, dtype=np.dtype("float64"))
    for tree in (plain, as_f8):  # no dtype=, or one the float64 trees reproduce: unchanged
        assert not any("-in-" in str(k) for k in tree.__dask_graph__())
    named = reduce_dask(x, "var", (0,), False, {"correction": 0}, dtype=np.dtype("float16"))
    assert any("squares-in-float16" in str(k) for k in named.__dask_graph__())


@pytest.mark.parametrize("op", ["var", "std", "nanvar", "nanstd"])
def test_float16_moments_without_dtype_overflow_as_numpy(op: str) -> None:
    # numpy computes them in float16: squares of +-100 deviations sum past 65504 along axis 1
    a = np.where(np.arange(200).reshape(10, 20) % 2, 100, -100).astype(np.float16)
    a[0, 0] = np.nan
    got = getattr(tt, op)(_dask(a, (4, 6)), axis=1).compute().numpy()
    want = getattr(np, op)(a, axis=1)
    assert got.dtype == want.dtype == np.float16
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    assert np.isinf(want).any()
    np.testing.assert_allclose(got, want, rtol=1e-2, equal_nan=True)
