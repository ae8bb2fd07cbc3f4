"""Shared by the dask reduction tests: seeded sample data and numpy-oracle comparisons."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Array = Any


def sample(shape: tuple[int, ...], dtype: str, seed: int, nans: bool) -> Array:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("int"):
        return rng.integers(-5, 6, size=shape).astype(dtype)
    a = np.asarray(rng.standard_normal(shape) * 0.5 + 1.0).astype(dtype)
    if nans and a.size:
        a[rng.random(shape) < 0.2] = np.nan
    return a


def lse(a: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    x = a.astype(np.float64)
    if math.prod(a.shape[d] for d in axis) == 0:
        return np.log(np.sum(np.exp(x), axis, keepdims=keepdims))  # -inf, as numpy would
    m = np.max(x, axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    r = np.log(np.sum(np.exp(x - m), axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis)


def check(got: Array, want: Array, dtype: np.dtype[Any], what: str) -> None:
    want = np.asarray(want).astype(dtype) if np.asarray(want).dtype != dtype else np.asarray(want)
    assert got.dtype == dtype, f"{what}: dtype {got.dtype} != {dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if dtype.kind in "fc":
        tol = 2e-4 if dtype in (np.float32, np.complex64) else 1e-9
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)
