"""What one dask chunk contributes to a tree reduction: a partial result, computed in one pass
by typedtensor's kernels where they cover the chunk, with numpy's loops otherwise.

A partial takes an in-memory chunk and the reduced axes (normalised) and returns its partial
with the reduced axes kept at size 1 (dask concatenates partials along them). Here the
shared ones: ``reduced_chunk`` (the op itself: sum, max, any, count_nonzero..., in the
partial dtype), ``identity_partial``, ``fold``, ``keep_shape``; each family's own partial is
in its tree module, next to its merge (``mean_tree``: ``sum_f8``, ``nan_sum_count``;
``moments_tree``: ``(n, mean, m2)``; ``logsumexp_tree``: ``(m, s)``; ``norms_tree``:
``sum |x|^p``; ``arg_extremes_tree``: ``(v, i, r)`` candidates).

Inside a dask worker the kernels run serially (``serial_kernels``): the worker's threads are
the parallelism. The kernels' side of each partial (numba's serial kernels or numpy's loops,
whichever is faster for the chunk's layout) is ``typedtensor._backend.partials``, the one
interface between the backend and this module. numba is imported on the first chunk that
needs it, never at import.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from .._backend import partials, use_backend
from .._backend.partials import serial_kernels
from .._reduce_plan import reduce_array

__all__ = [
    "fold",
    "identity_partial",
    "keep_shape",
    "reduced_chunk",
    "serial_kernels",
]

Array = npt.NDArray[Any]
F8 = np.dtype(np.float64)


def fold(ufunc: Any, x: Any, axis: Any, dtype: Any, out: None, keepdims: bool) -> Array:
    """``ufunc.reduce(x, axis, dtype, out, keepdims)`` as an ndarray (numpy's positional
    spelling, the fastest call)."""
    return np.asarray(ufunc.reduce(x, axis, dtype, out, keepdims))


def keep_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with the reduced ``axes`` kept at size 1 (a partial's shape)."""
    return tuple(1 if d in axes else s for d, s in enumerate(shape))


def _reduced_count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return math.prod(shape[d] for d in axes)


def identity_partial(
    shape: tuple[int, ...], axes: tuple[int, ...], fill: Any, partial_dtype: np.dtype[Any]
) -> Array:
    """The partial of a chunk that holds no element of the reduction (a 0-size chunk)."""
    return np.full(keep_shape(shape, axes), fill, dtype=partial_dtype)


def reduced_chunk(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    op: str,
    partial_dtype: np.dtype[Any],
    empty_fill: Any,
    backend: str,
) -> Array:
    """``op`` of the chunk over ``axis`` kept at size 1, in ``partial_dtype``: a (2, 5) chunk
    summed over axis 1 gives (2, 1). A chunk with no element reduced gives ``empty_fill``."""
    if _reduced_count(x.shape, axis) == 0:
        return identity_partial(x.shape, axis, empty_fill, partial_dtype)
    backend = partials.serial_backend(op, x, axis, backend)
    with use_backend(backend), serial_kernels(backend):
        r = reduce_array(x, op, axis, True, {}, partial_dtype)
    return r if r.dtype == partial_dtype else r.astype(partial_dtype)
