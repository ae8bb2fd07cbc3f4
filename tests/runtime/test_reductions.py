"""Every reduction, on every backend, against numpy as the oracle.

Over dtypes bool..float64, ranks 0..5 with empty and size-1 dims, C/F/negative-stride/broadcast/
strided layouts, every axis spelling and both keepdims: the result's shape and dtype equal
numpy's exactly and the values are numpy-close. Ops numpy lacks (logsumexp, the oneDNN norm
modes, l2_normalize) are checked against formulas written here from the oneDNN RFC, computed
independently (``np.logaddexp.reduce``, float64 math).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._strategies import Case, arrays, axis_spellings

Array = np.ndarray[Any, Any]


def _axes_tuple(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % ndim for a in axes))


def _to_last(a: Array, axis: Any) -> tuple[Array, tuple[int, ...]]:
    """Move the reduced axes to the end and merge them into one: (kept..., reduced)."""
    axes = _axes_tuple(axis, a.ndim)
    kept = [d for d in range(a.ndim) if d not in axes]
    moved = np.transpose(a, kept + list(axes))
    n = math.prod(a.shape[d] for d in axes)
    return moved.reshape([a.shape[d] for d in kept] + [n]), axes


def _finish(r: Array, a: Array, axes: tuple[int, ...], keepdims: bool) -> Array:
    shape = [1 if d in axes else n for d, n in enumerate(a.shape) if keepdims or d not in axes]
    return np.asarray(r).reshape(shape)


def _wide(a: Array) -> Array:
    """``a`` in float64 (complex128 for complex): the exact oracle's working precision."""
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _quiet(fn: Any, *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def _tolerance(dtype: np.dtype[Any], op: str) -> dict[str, float]:
    if dtype == np.float16:  # 11-bit mantissa; numpy sums float16 pairwise in float32
        loose = op in ("var", "std", "norm_p", "logsumexp", "lp_modes")
        return {"rtol": 3e-2 if loose else 1e-2, "atol": 3e-2 if loose else 1e-2}
    if dtype in (np.float32, np.complex64):
        loose = op in ("var", "std", "norm_p", "logsumexp", "lp_modes")
        return {"rtol": 2e-3 if loose else 2e-4, "atol": 2e-3 if loose else 2e-4}
    return {"rtol": 1e-9, "atol": 1e-9}


def _check(result: tt.Tensor[Any, Any], expected: Array, op: str) -> None:
    got = result.numpy()
    assert isinstance(result, tt.Tensor)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, equal_nan=True, **_tolerance(got.dtype, op))
    else:
        np.testing.assert_array_equal(got, expected)


# ------------------------------------------------------------------ numpy's own reductions
NUMPY_OPS = {
    "sum": np.sum,
    "prod": np.prod,
    "mean": np.mean,
    "max": np.max,
    "min": np.min,
    "any": np.any,
    "all": np.all,
}


@pytest.mark.parametrize("op", sorted(NUMPY_OPS))
@settings(max_examples=70)
@given(data=st.data())
def test_matches_numpy(backend: str, op: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    before = a.copy()
    axes = _axes_tuple(axis, a.ndim)
    empty = math.prod(a.shape[d] for d in axes) == 0
    x = tt.asarray(a)
    with tt.use_backend(backend):
        if op in ("max", "min") and empty:
            with pytest.raises(ValueError, match="empty"):
                getattr(x, op)(axis=axis, keepdims=keepdims)
            with pytest.raises(ValueError):
                NUMPY_OPS[op](a, axis=axis, keepdims=keepdims)
            return
        result = getattr(x, op)(axis=axis, keepdims=keepdims)
        functional = getattr(tt, op)(x, axis, keepdims)
    expected = np.asarray(_quiet(NUMPY_OPS[op], a, axis=axis, keepdims=keepdims))
    if op == "mean" and a.dtype.kind in "fc":
        # numpy's float32 mean accumulates in float32; compare with the exact mean
        exact = _quiet(np.mean, _wide(a), axis=axis, keepdims=keepdims)
        expected = np.asarray(exact).astype(a.dtype)
    _check(result, expected, op)
    _check(functional, expected, op)
    np.testing.assert_array_equal(a, before)  # input untouched


@pytest.mark.parametrize("op", ["var", "std"])
@settings(max_examples=70)
@given(data=st.data())
def test_var_std(backend: str, op: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    correction = data.draw(st.sampled_from([0, 1, 2.5, 10]), label="correction")
    x = tt.asarray(a)
    with tt.use_backend(backend):
        result = getattr(x, op)(axis=axis, keepdims=keepdims, correction=correction)
        via_ddof = getattr(tt, op)(x, axis, keepdims, ddof=correction)
    fn = np.var if op == "var" else np.std
    numpy_dtype = _quiet(fn, a, axis=axis, keepdims=keepdims, ddof=correction).dtype
    exact = _quiet(fn, _wide(a), axis=axis, keepdims=keepdims, ddof=correction)
    expected = np.asarray(exact).astype(numpy_dtype)
    _check(result, expected, op)
    _check(via_ddof, expected, op)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@settings(max_examples=70)
@given(data=st.data())
def test_argmax_argmin(backend: str, op: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim, single=True), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    x = tt.asarray(a)
    fn = getattr(np, op)
    reduced = a.size if axis is None else a.shape[axis]
    with tt.use_backend(backend):
        if reduced == 0:
            with pytest.raises(ValueError):
                getattr(x, op)(axis=axis, keepdims=keepdims)
            with pytest.raises(ValueError):
                fn(a, axis=axis, keepdims=keepdims)
            return
        result = getattr(x, op)(axis=axis, keepdims=keepdims)
    _check(result, np.asarray(fn(a, axis=axis, keepdims=keepdims)), op)


# ------------------------------------------------------------ ops numpy lacks: formulas
def _float_dtype(a: Array) -> np.dtype[Any]:
    return a.dtype if a.dtype.kind in "fc" else np.dtype(np.float64)


def _real_dtype(a: Array) -> np.dtype[Any]:
    """The norms' result dtype: complex gives its real dtype (complex64 -> float32)."""
    return np.abs(np.zeros(1, _float_dtype(a))).dtype


def _modulus(a: Array) -> Array:
    """|a| in float64: the norms' oracle input."""
    return np.abs(_wide(a)).astype(np.float64)


@settings(max_examples=80)
@given(data=st.data())
def test_logsumexp(backend: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    with tt.use_backend(backend):
        result = tt.asarray(a).logsumexp(axis=axis, keepdims=keepdims)
    flat, axes = _to_last(_wide(a), axis)
    if flat.dtype.kind == "c":  # no complex logaddexp: the principal log of the sum
        r = _quiet(lambda f: np.log(np.sum(np.exp(f), axis=-1)), flat)
    else:
        r = (
            _quiet(np.logaddexp.reduce, flat, axis=-1)
            if flat.shape[-1]
            else np.full(flat.shape[:-1], -np.inf)
        )
    _check(result, _finish(r, a, axes, keepdims).astype(_float_dtype(a)), "logsumexp")


def test_logsumexp_is_stable(backend: str) -> None:
    x = tt.asarray(
        np.array([[1000.0, 1000.0], [-1000.0, -1000.0], [np.inf, 1.0], [-np.inf, -np.inf]])
    )
    with tt.use_backend(backend):
        got = x.logsumexp(axis=1).numpy()
    expected = [1000 + math.log(2), -1000 + math.log(2), math.inf, -math.inf]
    np.testing.assert_allclose(got, expected, rtol=1e-12)


NORM_PS = [1, 2, 3, 0.5, -1, np.inf, -np.inf, 0]


@settings(max_examples=80)
@given(data=st.data())
def test_norm(backend: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(specials=False), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    p = data.draw(st.sampled_from(NORM_PS), label="p")
    flat, axes = _to_last(_modulus(a), axis)
    with tt.use_backend(backend):
        if flat.shape[-1] == 0 and p == -np.inf:  # min |x| of nothing: numpy raises
            with pytest.raises(ValueError, match="empty reduction"):
                tt.asarray(a).norm(p, axis=axis, keepdims=keepdims)
            return
        result = tt.asarray(a).norm(p, axis=axis, keepdims=keepdims)
    if flat.shape[-1] == 0:
        # empty: max|x| -> 0, else numpy's (sum of nothing)**(1/p): inf for p < 0
        r = np.full(flat.shape[:-1], np.inf if p < 0 else 0.0)
    else:
        r = _quiet(np.linalg.norm, flat, ord=p, axis=-1)
    expected = _finish(r, a, axes, keepdims).astype(_real_dtype(a))
    _check(result, expected, "norm" if p in (1, 2, 0, np.inf, -np.inf) else "norm_p")


MODES = {
    "lp_max": lambda s, eps, p: np.maximum(s, eps) ** (1 / p),
    "lp_sum": lambda s, eps, p: (s + eps) ** (1 / p),
    "power_p_max": lambda s, eps, p: np.maximum(s, eps),
    "power_p_sum": lambda s, eps, p: s + eps,
}


@pytest.mark.parametrize("mode", sorted(MODES))
@settings(max_examples=40)
@given(data=st.data())
def test_onednn_norm_modes(backend: str, mode: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(specials=False), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    p = data.draw(st.sampled_from([1, 2, 3, 1.5]), label="p")
    eps = data.draw(st.sampled_from([0.0, 1e-6, 0.5, 100.0]), label="eps")
    x = tt.asarray(a)
    with tt.use_backend(backend):
        via_mode = x.norm(p, axis, keepdims, eps=eps, mode=mode)  # type: ignore[arg-type]
        named = getattr(tt, "norm_" + ("lp_" + mode if mode.startswith("power") else mode))
        via_name = named(x, p, eps, axis, keepdims)
    flat, axes = _to_last(_modulus(a), axis)
    s = np.sum(flat**p, axis=-1)
    expected = _finish(MODES[mode](s, eps, p), a, axes, keepdims).astype(_real_dtype(a))
    _check(via_mode, expected, "lp_modes")
    _check(via_name, expected, "lp_modes")


VARIANTS = {
    "tensorflow": lambda ss, eps: np.maximum(ss, eps) ** 0.5,
    "pytorch": lambda ss, eps: np.maximum(ss**0.5, eps),
    "openvino-add": lambda ss, eps: (ss + eps) ** 0.5,
    "openvino-max": lambda ss, eps: np.maximum(ss, eps) ** 0.5,
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=40)
@given(data=st.data())
def test_l2_normalize(backend: str, variant: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(min_rank=1, specials=False), label="case")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim), label="axis")
    eps = data.draw(st.sampled_from([1e-12, 1e-3, 4.0]), label="eps")
    with tt.use_backend(backend):
        result = tt.l2_normalize(tt.asarray(a), axis, eps, variant)  # type: ignore[arg-type]
    x64 = _wide(a)
    ss = np.sum(_modulus(a) ** 2, axis=axis, keepdims=True)
    eps = float(np.asarray(eps, _real_dtype(a)))  # eps in the result dtype (float16: 1e-12 is 0)
    expected = _quiet(np.divide, x64, VARIANTS[variant](ss, eps)).astype(_float_dtype(a))
    _check(result, expected, "lp_modes")


# ------------------------------------------------------------------------ reduce to shape
@pytest.mark.parametrize("op", ["sum", "mean", "max", "any", "prod", "min", "all"])
@settings(max_examples=40)
@given(data=st.data())
def test_reduce_to(backend: str, op: str, data: st.DataObject) -> None:
    case: Case = data.draw(arrays(min_rank=1, specials=False), label="case")
    a = case.array
    drop = data.draw(st.integers(0, a.ndim), label="leading dims dropped")
    kept = a.shape[drop:]
    ones = data.draw(st.lists(st.booleans(), min_size=len(kept), max_size=len(kept)))
    dst = tuple(1 if o else n for o, n in zip(ones, kept, strict=True))
    axes = tuple(range(drop)) + tuple(drop + i for i, o in enumerate(ones) if o)
    empty = math.prod(a.shape[d] for d in axes) == 0
    x = tt.asarray(a)
    with tt.use_backend(backend):
        if op in ("max", "min") and empty and axes:
            with pytest.raises(ValueError):
                x.reduce_to(dst, op)
            return
        result = x.reduce_to(dst, op) if op != "sum" else tt.sum_to(x, dst)
    expected = np.asarray(_quiet(NUMPY_OPS[op], a, axis=axes, keepdims=True)).reshape(dst)
    if op == "mean" and a.dtype.kind in "fc":
        exact = _quiet(np.mean, _wide(a), axis=axes, keepdims=True)
        expected = np.asarray(exact).astype(a.dtype).reshape(dst)
    _check(result, expected, op)
    # the result broadcasts back against the source (the oneDNN {1, C, 1, 1} pattern)
    assert np.broadcast_shapes(result.shape, a.shape) == a.shape


# --------------------------------------------------------------------------- out= buffers
OUT_OPS: list[tuple[str, dict[str, Any]]] = [
    ("sum", {}),
    ("prod", {}),
    ("mean", {}),
    ("max", {}),
    ("min", {}),
    ("any", {}),
    ("all", {}),
    ("var", {"correction": 1}),
    ("std", {}),
    ("logsumexp", {}),
    ("norm", {}),
    ("norm_lp_max", {"eps": 1e-3}),
    ("norm_lp_power_p_sum", {"eps": 1e-3}),
]


@pytest.mark.parametrize(("op", "kw"), OUT_OPS)
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "uint8"])
def test_out_buffer_fully_written(backend: str, op: str, kw: dict[str, Any], dtype: str) -> None:
    x = tt.random((6, 5, 4), dtype, seed=3)
    with tt.use_backend(backend):
        expected = getattr(x, op)(axis=(0, 2), keepdims=True, **kw)
        out = tt.full(expected.shape, 0, dtype=expected.dtype)
        poison = 123 if expected.dtype.name != "bool" else True
        out.numpy()[...] = np.nan if expected.dtype.name.startswith("float") else poison
        got = getattr(x, op)(axis=(0, 2), keepdims=True, out=out, **kw)
    assert got is out
    np.testing.assert_array_equal(out.numpy(), expected.numpy())


def test_out_argmax_and_l2(backend: str) -> None:
    x = tt.random((6, 5), tt.float64, seed=4)
    with tt.use_backend(backend):
        out = tt.full((5,), -7, dtype=tt.int64)
        x.argmax(axis=0, out=out)
        np.testing.assert_array_equal(out.numpy(), np.argmax(x.numpy(), axis=0))
        out2 = tt.full((6, 5), np.nan, dtype=tt.float64)
        x.l2_normalize(axis=1, out=out2)
        np.testing.assert_allclose(out2.numpy(), x.l2_normalize(axis=1).numpy())


# ------------------------------------------------------------------ dtype-specific edges
def test_int_sums_widen_like_numpy(backend: str) -> None:
    a = np.full((300,), 120, dtype=np.int8)
    with tt.use_backend(backend):
        s = tt.asarray(a).sum()
    assert s.dtype is tt.int64 and s.item() == 36000
    u = np.full((4,), 2**31, dtype=np.uint32)
    with tt.use_backend(backend):
        su = tt.asarray(u).sum()
    assert su.dtype is tt.uint64 and su.item() == 2**33


def test_nan_propagates_in_max_min(backend: str) -> None:
    a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
    with tt.use_backend(backend):
        mx = tt.asarray(a).max(axis=1).numpy()
        mn = tt.asarray(a).min(axis=0).numpy()
        am = tt.asarray(a).argmax(axis=1).numpy()
    np.testing.assert_array_equal(mx, np.max(a, axis=1))
    np.testing.assert_array_equal(mn, np.min(a, axis=0))
    np.testing.assert_array_equal(am, np.argmax(a, axis=1))


def test_correction_at_or_above_n(backend: str) -> None:
    a = np.arange(3.0)
    with tt.use_backend(backend), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for c in (3, 5):
            got = tt.asarray(a).var(correction=c).item()
            expected = float(np.var(a, ddof=c))
            assert (math.isnan(got) and math.isnan(expected)) or got == expected


def test_var_with_large_offset(backend: str) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1000, 7)) + 1e9
    with tt.use_backend(backend):
        got = tt.asarray(a).var(axis=0).numpy()
    np.testing.assert_allclose(got, np.var(a - 1e9, axis=0), rtol=1e-6)


def test_float32_sum_accuracy(backend: str) -> None:
    a = np.random.default_rng(1).random(1_000_003, dtype=np.float32)
    exact = math.fsum(a.astype(np.float64))
    with tt.use_backend(backend):
        got = tt.asarray(a).sum().item()
    numpy_err = abs(float(np.sum(a)) - exact)
    assert abs(got - exact) <= max(numpy_err, exact * 1e-7)


def test_full_reduction_is_rank_0(backend: str) -> None:
    with tt.use_backend(backend):
        s = tt.ones((3, 4), tt.float32).sum()
    assert s.shape == () and s.ndim == 0 and s.dtype is tt.float32
    assert float(s) == 12.0 and isinstance(s.item(), float)
