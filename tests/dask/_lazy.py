"""Lazy test inputs: dask-backed Tensors that count their chunk computations, or that fail if
anything computes them at all."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

import typedtensor as tt
from typedtensor import AnyTensor

#: (shape, chunks) of the elementwise and shape tests: uneven, 1-element and 0-size chunks
LAYOUTS: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = [
    ((7, 6), ((3, 4), (2, 3, 1))),
    ((7, 6), ((1,) * 7, (6,))),
    ((7, 6), ((3, 0, 4), (4, 0, 2))),
]


def data(shape: tuple[int, ...] = (7, 6), dtype: Any = np.float32, seed: int = 0) -> Any:
    """Standard normal values (ints: -5..4) of ``shape``."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-5 if np.dtype(dtype).kind == "i" else 0, 5, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


class Counted:
    """A dask-backed Tensor over ``array`` in ``chunks`` whose chunks count their computation
    in ``calls``: ``calls == []`` proves that nothing ran."""

    def __init__(self, array: Any, chunks: Any) -> None:
        self.calls: list[int] = []
        meta = np.empty((0,) * array.ndim, array.dtype)  # no meta call of the function
        counted = da.from_array(array, chunks=chunks).map_blocks(self._count, meta=meta)
        self.tensor: AnyTensor = tt.asarray(counted)

    def _count(self, block: Any) -> Any:
        self.calls.append(1)
        return block


def _explode(block: Any) -> Any:
    raise AssertionError("a chunk was computed")


def exploding(shape: tuple[int, ...], dtype: Any = np.float32, chunks: Any = 3) -> AnyTensor:
    """A dask-backed Tensor whose compute raises: an error raised by an operation on it was
    raised at graph construction."""
    meta = np.empty((0,) * len(shape), dtype)
    arr = da.zeros(shape, dtype=dtype, chunks=chunks).map_blocks(_explode, meta=meta)
    return tt.asarray(arr)


def assert_same(lazy: object, eager: object) -> None:
    """``lazy`` (computed) equals the in-memory ``eager``: same class of dtype, shape, values."""
    assert isinstance(lazy, tt.Tensor) and isinstance(eager, tt.Tensor)
    got = lazy.compute()
    assert type(got) is tt.Tensor
    assert got.dtype is eager.dtype
    assert got.shape == eager.shape
    if eager.dtype.__name__.startswith(("float", "complex")):
        np.testing.assert_allclose(got.numpy(), eager.numpy(), rtol=2e-6, atol=1e-6)
    else:
        np.testing.assert_array_equal(got.numpy(), eager.numpy())
