"""float16, complex64 and complex128 everywhere, and ``dtype=`` on sum/prod/mean/var/std, on
every backend against numpy as the oracle.

The dtype rules over every pair of dtypes are checked in test_shape_rules.py (exhaustive over
``DTYPE_NAMES``, which holds the new dtypes); the generic hypothesis suites of
test_reductions.py draw them too. This file pins what is specific to them: numpy's result
dtype *and* value for every reduction and elementwise op, float16's float32 accumulation in
``mean``, complex ``var/std/norm`` being real, numpy's lexicographic ``max/argmax`` of complex,
constructors, and numpy's ``dtype=`` semantics.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._strategies import arrays, axis_spellings

Array = np.ndarray[Any, Any]
NEW = ["float16", "complex64", "complex128"]


def _quiet(fn: Any, *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(fn(*args, **kw))


def _close(got: tt.Tensor[Any, Any], want: Array) -> None:
    g = got.numpy()
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, g.dtype, want.dtype)
    loose = {"float16": 1e-2, "float32": 1e-5, "complex64": 1e-5}.get(g.dtype.name, 1e-12)
    if g.dtype.kind in "fc":
        np.testing.assert_allclose(g, want, rtol=loose, atol=loose, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


def _sample(dtype: str, shape: tuple[int, ...] = (4, 5, 6), seed: int = 0) -> Array:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


# ----------------------------------------------------------------- every reduction, numpy
NUMPY_REDUCTIONS = {
    "sum": np.sum,
    "prod": np.prod,
    "mean": np.mean,
    "max": np.max,
    "min": np.min,
    "any": np.any,
    "all": np.all,
    "var": np.var,
    "std": np.std,
}


@pytest.mark.parametrize("dtype", NEW)
@pytest.mark.parametrize("op", sorted(NUMPY_REDUCTIONS))
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
def test_reductions_match_numpy(backend: str, dtype: str, op: str, axis: Any) -> None:
    a = _sample(dtype)
    with tt.use_backend(backend):
        got = getattr(tt.asarray(a), op)(axis=axis)
    _close(got, _quiet(NUMPY_REDUCTIONS[op], a, axis=axis))


@pytest.mark.parametrize("dtype", NEW)
@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_argmax_lexicographic(backend: str, dtype: str, op: str, axis: Any) -> None:
    a = _sample(dtype)
    if dtype.startswith("complex"):  # ties in the real part: numpy orders by the imaginary
        a.real = np.round(a.real)
    with tt.use_backend(backend):
        got = getattr(tt.asarray(a), op)(axis=axis)
    _close(got, _quiet(getattr(np, op), a, axis=axis))


def test_complex_max_is_lexicographic(backend: str) -> None:
    a = np.array([1 + 5j, 2 - 1j, 2 + 0j, 2 - 3j], np.complex64)
    with tt.use_backend(backend):
        assert tt.asarray(a).max().item() == np.max(a) == 2 + 0j
        assert tt.asarray(a).min().item() == np.min(a) == 1 + 5j
        assert tt.asarray(a).argmax().item() == np.argmax(a) == 2


@pytest.mark.parametrize("dtype", NEW)
@pytest.mark.parametrize("p", [1, 2, 3, np.inf, -np.inf, 0, 0.5])
def test_norm_is_real(backend: str, dtype: str, p: float) -> None:
    a = _sample(dtype)
    with tt.use_backend(backend):
        got = tt.asarray(a).norm(p, axis=-1)
    want = _quiet(np.linalg.norm, a, ord=p, axis=-1)
    assert got.numpy().dtype == want.dtype == np.abs(a).dtype  # complex64 -> float32
    _close(got, want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_the_l2_norm_of_complex_values_is_numpys_bit_for_bit(backend: str, dtype: str) -> None:
    """np.linalg.norm over an axis sums ``(conj(x) * x).real``: the same squares, the same
    sum and root (the modulus then its square, a second pass through hypot, differed in the
    last bit)."""
    a = _sample(dtype, (64, 33), seed=3)
    for axis in (0, 1, -1):
        with tt.use_backend(backend):
            got = tt.asarray(a).norm(2, axis=axis).numpy()
        want = np.linalg.norm(a, axis=axis)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), axis


@pytest.mark.parametrize("dtype", NEW)
def test_logsumexp(backend: str, dtype: str) -> None:
    a = _sample(dtype, (3, 7))
    with tt.use_backend(backend):
        got = tt.asarray(a).logsumexp(axis=1)
    # complex: the principal log of the sum (as scipy's logsumexp for complex input)
    want = _quiet(lambda v: np.log(np.sum(np.exp(v.astype(np.complex128)), axis=1)), a)
    if dtype == "float16":
        want = _quiet(np.logaddexp.reduce, a.astype(np.float64), axis=1)
    _close(got, want.astype(got.numpy().dtype))


@pytest.mark.parametrize("dtype", NEW)
def test_l2_normalize(backend: str, dtype: str) -> None:
    a = _sample(dtype, (3, 7))
    with tt.use_backend(backend):
        got = tt.l2_normalize(tt.asarray(a), -1, 1e-3)
    want = a / np.linalg.norm(a.astype(np.complex128), axis=-1, keepdims=True)
    _close(got, want.astype(dtype))


@pytest.mark.parametrize("dtype", NEW)
@pytest.mark.parametrize("op", ["nanvar", "nanstd", "nansum", "nanmean"])
def test_nan_reductions_of_new_dtypes(backend: str, dtype: str, op: str) -> None:
    a = _sample(dtype, (5, 6))
    a[1, 2] = np.nan
    with tt.use_backend(backend):
        got = getattr(tt, op)(tt.asarray(a), axis=0)
    _close(got, _quiet(getattr(np, op), a, axis=0))  # complex var/std: real, imaginary kept


def test_float16_mean_accumulates_in_float32(backend: str) -> None:
    # 4096 * 0.1 in float16 steps would stall; numpy sums in float32 and rounds once
    a = np.full(4096, 0.1, np.float16)
    with tt.use_backend(backend):
        got = tt.asarray(a).mean()
    assert got.numpy().dtype == np.float16
    assert got.item() == np.mean(a) == np.float16(np.float32(0.1))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_reductions_property(backend: str, data: st.DataObject) -> None:
    case = data.draw(arrays(dtypes=NEW, max_rank=4), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim), label="axis")
    op = data.draw(st.sampled_from(["sum", "prod", "mean", "var", "std"]), label="op")
    with tt.use_backend(backend):
        got = getattr(tt.asarray(a), op)(axis=axis)
    want = _quiet(NUMPY_REDUCTIONS[op], a, axis=axis)
    wide = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    exact = _quiet(NUMPY_REDUCTIONS[op], wide, axis=axis)
    assert got.numpy().dtype == want.dtype
    if op in ("sum", "prod") and a.dtype == np.float16:
        exact = want  # numpy's own float16 rounding is the answer
    np.testing.assert_allclose(
        got.numpy(), exact.astype(want.dtype), rtol=3e-2, atol=3e-2, equal_nan=True
    )


# --------------------------------------------------------------------- elementwise ops
BINARY = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide, "**": np.power}


@pytest.mark.parametrize("a_dtype", [*NEW, "int8", "int16", "float32", "float64", "bool"])
@pytest.mark.parametrize("b_dtype", NEW)
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_ops(a_dtype: str, b_dtype: str, op: str) -> None:
    a = _sample(a_dtype, (3, 1)) if a_dtype != "bool" else np.array([[True], [False], [True]])
    a = a.astype(a_dtype)
    b = np.abs(_sample(b_dtype, (4,))) + np.asarray(1, b_dtype)  # no zero divisors
    x, y = tt.asarray(a), tt.asarray(b)
    got = {"+": x + y, "-": x - y, "*": x * y, "/": x / y, "**": x**y}[op]
    _close(got, _quiet(BINARY[op], a, b))


@pytest.mark.parametrize("dtype", [*NEW, "int8", "float32"])
@pytest.mark.parametrize("scalar", [True, 2, 1.5, 0.5 + 2j])
def test_python_scalars(dtype: str, scalar: Any) -> None:
    a = _sample(dtype, (5,)) if dtype != "int8" else np.arange(5, dtype=np.int8)
    x = tt.asarray(a)
    _close(x + scalar, _quiet(np.add, a, scalar))
    _close(scalar * x, _quiet(np.multiply, scalar, a))


@pytest.mark.parametrize("dtype", [*NEW, "bool", "int8", "uint8", "int16", "int32", "uint64"])
def test_unary_ops(dtype: str) -> None:
    a = np.abs(_sample(dtype, (6,))) + np.asarray(0.5, dtype) if dtype != "bool" else None
    if a is None:
        a = np.array([True, False, True])
    elif dtype[0] in "iu":
        a = np.arange(1, 7).astype(dtype)
    x = tt.asarray(a)
    for fn in ("exp", "log", "sqrt", "abs", "negative"):
        if fn == "negative" and dtype == "bool":
            continue
        _close(getattr(tt, fn)(x), _quiet(getattr(np, fn), a))  # exp(int8): float16, as numpy
    _close(abs(x), np.abs(a))  # complex64 -> float32
    if dtype != "bool":
        _close(-x, -a)
    for fn in ("isnan", "isfinite", "isinf"):
        _close(getattr(tt, fn)(x), getattr(np, fn)(a))
    assert tt.maximum(x, x).numpy().dtype == np.maximum(a, a).dtype


# ---------------------------------------------------------------------------- constructors
@pytest.mark.parametrize("dtype", NEW)
def test_constructors(dtype: str) -> None:
    cls = getattr(tt, dtype)
    for made in (tt.zeros((2, 3), cls), tt.ones((2, 3), dtype), tt.empty((2, 3), cls)):
        assert made.dtype is cls and made.shape == (2, 3)
    assert tt.full((2,), 3, cls).numpy().tolist() == [3, 3]
    assert tt.arange(4, cls).numpy().dtype == np.dtype(dtype)
    assert tt.asarray(np.zeros(3, dtype)).dtype is cls
    assert tt.tensor(np.zeros((2, 3), dtype), shape=(2, None), dtype=cls).dtype is cls
    assert tt.zeros((2,)).astype(cls).dtype is cls
    r = tt.random((4000,), cls, seed=1)
    assert r.dtype is cls
    data = r.numpy()
    parts = [data.real, data.imag] if dtype.startswith("complex") else [data]
    for part in parts:  # standard normal real and imaginary parts
        assert abs(float(np.mean(part))) < 0.1 and abs(float(np.std(part)) - 1) < 0.1


def test_family_classes() -> None:
    assert issubclass(tt.float16, tt.Floating) and issubclass(tt.complex64, tt.ComplexFloating)
    assert issubclass(tt.ComplexFloating, tt.Number)
    assert not issubclass(tt.complex128, tt.Floating)
    assert tt.full((2,), 1j).dtype is tt.complex128


# -------------------------------------------------------------------------------- dtype=
DTYPE_OPS = ["sum", "prod", "mean", "var", "std"]


@pytest.mark.parametrize("op", DTYPE_OPS)
@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("float32", "float64"),
        ("float64", "float32"),
        ("int8", "int16"),
        ("int32", "float64"),
        ("uint8", "uint16"),
        ("float16", "float32"),
        ("float32", "float16"),
        ("float32", "complex128"),
        ("bool", "int32"),
    ],
)
@pytest.mark.parametrize("spelling", ["class", "numpy", "name"])
def test_dtype_argument_matches_numpy(
    backend: str, op: str, src: str, dst: str, spelling: str
) -> None:
    a = _sample(src, (6, 50)) if src[0] in "fc" else np.arange(300).reshape(6, 50) % 7
    a = a.astype(src)
    arg = {"class": getattr(tt, dst), "numpy": np.dtype(dst), "name": dst}[spelling]
    x = tt.asarray(a)
    if op in ("mean", "var", "std") and np.dtype(dst).kind in "iub":  # test_moments_reject_...
        with tt.use_backend(backend), pytest.raises(TypeError, match="is not supported"):
            getattr(x, op)(axis=0, dtype=arg)
        return
    for axis in (None, 0, 1):
        with tt.use_backend(backend):
            got = getattr(x, op)(axis=axis, dtype=arg)
            fn_got = getattr(tt, op)(x, axis, dtype=arg)
        want = _quiet(getattr(np, op), a, axis=axis, dtype=dst)
        _close(got, want)
        _close(fn_got, want)


VARIANCES = ["var", "std", "nanvar", "nanstd"]


@pytest.mark.parametrize("op", ["mean", "nanmean", *VARIANCES])
@pytest.mark.parametrize("src", ["float32", "int16", "bool", "complex64"])
@pytest.mark.parametrize("dst", ["int8", "int64", "uint8", "bool"])
def test_moments_reject_an_integer_dtype(backend: str, op: str, src: str, dst: str) -> None:
    # numpy wraps the sums (mean), truncates each squared deviation into the integer dtype
    # (var), raises for array results (std) or for float input (the nan forms): typedtensor
    # raises for every one, and says what to write instead
    a = (np.arange(12).reshape(3, 4) % 5).astype(src)
    x = tt.asarray(a)
    for axis in (None, 0):
        with tt.use_backend(backend), pytest.raises(TypeError) as err:
            getattr(tt, op)(x, axis, dtype=getattr(tt, "bool_" if dst == "bool" else dst))
        assert f"{op}(dtype={dst}) is not supported" in str(err.value)
        in_float = (
            f"tt.{op}(x.astype(tt.float64), ...)"
            if op[:3] == "nan"
            else f"x.astype(tt.float64).{op}(...)"
        )
        assert in_float in str(err.value)
        if op in ("mean", "var", "std"):
            with tt.use_backend(backend), pytest.raises(TypeError, match=f"{op}\\(dtype={dst}"):
                getattr(x, op)(axis=axis, dtype=dst)
    assert a.dtype == np.dtype(src) and a.sum() == (np.arange(12) % 5).astype(src).sum()
    if op == "std" or (op.startswith("nan") and src in ("float32", "complex64")):
        with pytest.raises(TypeError):  # numpy's own TypeError for these
            _quiet(getattr(np, op), a, axis=0, dtype=dst)


@pytest.mark.parametrize("op", VARIANCES)
@pytest.mark.parametrize(("src", "dst"), [("complex64", "float32"), ("complex128", "float16")])
def test_variance_of_complex_in_a_real_dtype_is_numpys(
    backend: str, op: str, src: str, dst: str
) -> None:
    # numpy casts the mean to the real dtype (dropping its imaginary part, ComplexWarning) but
    # not the values: not the variance of the values, which is what dtype= left out gives
    a = _sample(src, (4, 5)) + 3j
    a[1, 2] = np.nan
    with tt.use_backend(backend), pytest.warns(np.exceptions.ComplexWarning):
        got = getattr(tt, op)(tt.asarray(a), 0, dtype=dst)
    _close(got, _quiet(getattr(np, op), a, axis=0, dtype=dst))
    with tt.use_backend(backend):
        plain = getattr(tt, op)(tt.asarray(a), 0)  # the real result dtype, not numpy's cast
    _close(plain, _quiet(getattr(np, op), a, axis=0))
    assert not np.allclose(plain.numpy(), got.numpy(), equal_nan=True)
    with tt.use_backend(backend):  # a complex dtype= is numpy's: the variance, complex-typed
        wide = getattr(tt, op)(tt.asarray(a), 0, dtype=tt.complex128)
    _close(wide, _quiet(getattr(np, op), a, axis=0, dtype=np.complex128))


@pytest.mark.parametrize("op", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize(
    ("src", "dst"),
    [
        (src, dst)
        for src in ("float16", "float32", "float64", "int16", "uint8", "complex64")
        for dst in ("float16", "float32", "float64", "complex128")
    ],
)
def test_variance_dtype_argument_is_numpys_bit_for_bit(
    backend: str, op: str, src: str, dst: str
) -> None:
    # numpy's steps in dtype=: the mean and the sum of squares in it (overflowing a float16
    # where numpy does), the deviations in the promoted dtype
    a = (_sample(src if src[0] in "fc" else "float64", (7, 9), seed=3) * 60).astype(src)
    for axis in (None, 0, 1):
        with tt.use_backend(backend):
            got = getattr(tt, op)(tt.asarray(a), axis, dtype=dst).numpy()
        want = _quiet(getattr(np, op), a, axis=axis, dtype=dst)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_float16_mean_with_dtype_float16_sums_in_float16(backend: str) -> None:
    """numpy's mean of float16 sums in float32 without dtype= and in float16 with it."""
    a = np.full((3, 20), 30000, np.float16)
    for axis in (None, 0, 1):
        with tt.use_backend(backend):
            named = tt.mean(tt.asarray(a), axis=axis, dtype=tt.float16).numpy()
            default = tt.mean(tt.asarray(a), axis=axis).numpy()
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(named, np.mean(a, axis=axis, dtype=np.float16))
        assert np.isinf(named).all() and not np.isinf(np.mean(a, axis=axis)).any()
        np.testing.assert_array_equal(default, np.mean(a, axis=axis))


def test_dtype_argument_accumulates_in_that_dtype(backend: str) -> None:
    # int8 accumulation wraps around as numpy's; int64 does not; float32 input summed in
    # float64 (the numba backend leaves dtype= to numpy's loops)
    a = np.full(1000, 100, np.int8)
    with tt.use_backend(backend):
        assert tt.asarray(a).sum(dtype=tt.int8).item() == np.sum(a, dtype=np.int8)
        assert tt.asarray(a).sum(dtype=tt.int64).item() == 100_000
    big = np.full(1 << 18, 0.1, np.float32)
    with tt.use_backend(backend):
        got = tt.asarray(big).sum(dtype=tt.float64)
    assert got.numpy().dtype == np.float64
    assert got.item() == pytest.approx(float(np.sum(big, dtype=np.float64)), rel=1e-12)


def test_dtype_argument_with_out(backend: str) -> None:
    x = tt.random((4, 5), tt.float32, seed=2)
    out = tt.zeros((5,), tt.float64)
    with tt.use_backend(backend):
        assert x.sum(0, dtype=tt.float64, out=out) is out
        with pytest.raises(TypeError, match="out= has dtype float32"):
            x.sum(0, dtype=tt.float64, out=tt.zeros((5,), tt.float32))
    np.testing.assert_allclose(out.numpy(), np.sum(x.numpy(), 0, dtype=np.float64))


def test_dtype_argument_rejects_what_is_not_a_dtype() -> None:
    x = tt.ones((2, 3))
    with pytest.raises(TypeError, match="dtype family"):
        x.sum(dtype=tt.Floating)
    with pytest.raises(TypeError, match="not supported"):
        x.mean(dtype="float128")
    with pytest.raises(TypeError):
        x.sum(dtype=3)
