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
