"""The Array API namespace: ``x.__array_namespace__()`` is ``typedtensor``, the Tensor
attributes the standard requires, and the standard's functions beyond numpy's operations
(``_standard.py``, the linalg extension) against numpy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import typedtensor as tt

M = np.arange(12, dtype=np.float64).reshape(3, 4) - 5.5
SQ = M[:, :3] @ M[:, :3].T + 3 * np.eye(3)


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, (tuple, list)):
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            _same(g, e)
        return
    expected = np.asarray(expected)
    assert isinstance(got, tt.Tensor)
    assert got.shape == expected.shape and got.numpy().dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_namespace_and_attributes() -> None:
    x = tt.asarray(M)
    assert x.__array_namespace__() is tt and x.__array_namespace__(api_version="2024.12") is tt
    with pytest.raises(ValueError, match=r"2024\.12"):
        x.__array_namespace__(api_version="1999.01")
    assert tt.__array_api_version__ == "2024.12"
    assert (tt.e, tt.pi, tt.newaxis) == (math.e, math.pi, None)
    assert math.isinf(tt.inf) and math.isnan(tt.nan) and tt.bool is tt.bool_
    assert x.device == "cpu" and x.to_device("cpu") is x
    with pytest.raises(ValueError, match="cpu"):
        x.to_device("cuda:0")
    assert np.from_dlpack(x).ctypes.data == M.ctypes.data  # shares memory
    _same(tt.from_dlpack(x), M)
    assert x.__dlpack_device__() == M.__dlpack_device__()
    assert [10, 20, 30][tt.asarray(np.int64(1))] == 20 and complex(tt.asarray(2.0)) == 2
    _same(x.mT, M.T)


def test_creation() -> None:
    _same(tt.eye(3), np.eye(3))
    _same(tt.eye(2, 4, k=1, dtype=tt.int8), np.eye(2, 4, k=1, dtype=np.int8))
    _same(tt.linspace(0, 1, 5), np.linspace(0, 1, 5))
    _same(
        tt.linspace(0, 1, 4, endpoint=False, dtype=tt.float32),
        np.linspace(0, 1, 4, endpoint=False, dtype=np.float32),
    )
    x = tt.asarray(M.astype(np.float32))
    for fn, value in ((tt.zeros_like, 0), (tt.ones_like, 1)):
        _same(fn(x), np.full(M.shape, value, np.float32))
    _same(tt.full_like(x, 7, dtype=tt.int16), np.full(M.shape, 7, np.int16))
    assert tt.empty_like(x).shape == M.shape
    a, b = np.arange(3.0), np.arange(4.0)
    for indexing in ("xy", "ij"):
        _same(
            tt.meshgrid(tt.asarray(a), tt.asarray(b), indexing=indexing),
            np.meshgrid(a, b, indexing=indexing),
        )
    with pytest.raises(ValueError, match="cpu"):
        tt.eye(2, device="gpu")


def test_data_type_functions() -> None:
    assert tt.result_type(tt.int8, tt.uint8) is tt.int16
    assert tt.result_type(tt.asarray(np.ones(2, np.float32)), 1.0) is tt.float32
    assert tt.can_cast(tt.int8, tt.int16) and not tt.can_cast(tt.float64, tt.int8)
    assert tt.finfo(tt.float32).eps == np.finfo(np.float32).eps
    assert tt.finfo(tt.float32).dtype is tt.float32
    assert tt.iinfo(tt.uint8).max == 255 and tt.iinfo(tt.int8).min == -128
    assert tt.isdtype(tt.int8, "integral") and tt.isdtype(tt.float32, ("bool", "real floating"))
    assert not tt.isdtype(tt.complex64, "real floating") and tt.isdtype(tt.int8, tt.int8)
    with pytest.raises(ValueError, match="unknown dtype kind"):
        tt.isdtype(tt.int8, "integer")
    info = tt.__array_namespace_info__()
    assert info.default_device() == "cpu" and info.devices() == ["cpu"]
    assert info.default_dtypes()["real floating"] is tt.float64
    assert set(info.dtypes(kind="unsigned integer")) == {"uint8", "uint16", "uint32", "uint64"}


def test_manipulation_sets_utility() -> None:
    x = tt.asarray(M)
    _same(tt.unstack(x, axis=1), tuple(np.moveaxis(M, 1, 0)))
    _same(
        tt.broadcast_arrays(tt.ones((3, 1)), tt.ones((4,))),
        np.broadcast_arrays(np.ones((3, 1)), np.ones(4)),
    )
    _same(tt.take(x, tt.asarray(np.array([2, 0])), axis=1), np.take(M, [2, 0], axis=1))
    _same(tt.diff(x, axis=0), np.diff(M, axis=0))
    _same(tt.diff(x, n=2, prepend=tt.zeros((3, 1))), np.diff(M, n=2, prepend=np.zeros((3, 1))))
    data = np.array([[3, 1, 3], [2, 1, 1]])
    t = tt.asarray(data)
    _same(tt.unique_values(t), np.unique(data))  # sorted (np.unique_values need not be)
    _same(tt.unique_counts(t), tuple(np.unique_counts(data)))
    _same(tt.unique_inverse(t), tuple(np.unique_inverse(data)))
    _same(tt.unique_all(t), tuple(np.unique_all(data)))


def test_linalg_extension() -> None:
    x, sq = tt.asarray(M), tt.asarray(SQ)
    la = tt.linalg
    _same(la.eigvalsh(sq), np.linalg.eigvalsh(SQ))
    _same(la.svdvals(x), np.linalg.svdvals(M))
    _same(la.slogdet(sq), tuple(np.linalg.slogdet(SQ)))
    _same(la.pinv(x), np.linalg.pinv(M))
    _same(la.matrix_power(sq, 3), np.linalg.matrix_power(SQ, 3))
    _same(la.matrix_rank(x), np.linalg.matrix_rank(M))
    for order in ("fro", "nuc", 1, -np.inf):
        _same(la.matrix_norm(x, ord=order), np.linalg.matrix_norm(M, ord=order))
    _same(la.vector_norm(x, axis=-1, ord=3), np.linalg.vector_norm(M, axis=-1, ord=3))
    _same(la.vector_norm(x), np.linalg.vector_norm(M))
    _same(la.trace(sq, offset=1), np.linalg.trace(SQ, offset=1))
    _same(la.diagonal(x, offset=-1), np.linalg.diagonal(M, offset=-1))
    v = np.array([[1.0, 2, 3], [4, 5, 6]])
    _same(la.cross(tt.asarray(v), tt.asarray(v[::-1])), np.linalg.cross(v, v[::-1]))
    _same(la.vecdot(tt.asarray(v), tt.asarray(v[0])), np.vecdot(v, v[0]))
    _same(la.tensordot(x, tt.asarray(M.T), axes=1), np.tensordot(M, M.T, axes=1))
    _same(la.matrix_transpose(x), M.T)
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        la.matrix_power(x, 2)
    with pytest.raises(ValueError, match="rank >= 2"):
        la.trace(tt.ones((3,)))
