"""dask for the registry's operations (``_backend/registry.py``) whose ``dask`` is
``"one_chunk"``: each reduced slice is rechunked into one chunk and every block runs the
in-memory runner, so the answer is the in-memory answer (exact: a median has no partial
state to merge)."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
import numpy.typing as npt

from .._backend import registry

__all__ = ["registry_one_chunk"]


def registry_one_chunk(
    arr: da.Array, name: str, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]
) -> da.Array:
    """Operation ``name`` of ``arr`` over ``axes``, one chunk along them: (8, 1000) in chunks
    of (4, 100), median over axis 1 -> (8,) in chunks of (4,)."""
    arr = arr.rechunk({a: -1 for a in axes})

    def block(b: npt.NDArray[Any]) -> npt.NDArray[Any]:
        # dask's workers run the numba kernels (serial) where the registry binds them
        run = registry.bind("numba", name, b.shape, b.strides, b.dtype, axes, keepdims)
        return run(b, {})

    if keepdims:
        chunks = tuple((1,) if i in axes else c for i, c in enumerate(arr.chunks))
        result: da.Array = da.map_blocks(block, arr, chunks=chunks, dtype=dtype)
    else:
        result = da.map_blocks(block, arr, drop_axis=list(axes), dtype=dtype)
    return result


def registry_one_chunk_q(
    arr: da.Array,
    name: str,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    params: dict[str, Any],
    lead: tuple[int, ...],
) -> da.Array:
    """``registry_one_chunk`` for quantile/percentile: ``params`` (``q``, ``method``) go to
    every block and ``q``'s shape ``lead`` leads the result: (8, 1000) in chunks of (4, 100),
    q of 3 over axis 1 -> (3, 8) in chunks of ((3,), (4, 4))."""
    arr = arr.rechunk({a: -1 for a in axes})
    trailing = tuple(range(arr.ndim, arr.ndim + len(lead)))

    def block(b: npt.NDArray[Any]) -> npt.NDArray[Any]:
        run = registry.bind("numba", name, b.shape, b.strides, b.dtype, axes, True)
        return np.moveaxis(run(b, params), tuple(range(len(lead))), trailing)

    chunks = tuple((1,) if i in axes else c for i, c in enumerate(arr.chunks))
    chunks += tuple((n,) for n in lead)
    result: da.Array = da.map_blocks(
        block, arr, chunks=chunks, dtype=dtype, new_axis=list(trailing)
    )
    result = da.moveaxis(result, trailing, tuple(range(len(lead))))
    if not keepdims:
        result = result.squeeze(axis=tuple(a + len(lead) for a in axes))
    return result
