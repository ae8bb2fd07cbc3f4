"""What one dask chunk contributes to a tree reduction: a partial result, computed in one pass
by typedtensor's kernels where they cover the chunk, with numpy's loops otherwise.

Every function here takes an in-memory chunk and the reduced axes (normalised) and returns its
partial with the reduced axes kept at size 1 (dask concatenates partials along them):

- ``reduced_chunk``: the op itself (sum, max, any, count_nonzero...), in the partial dtype;
- ``sum_f8``: the float64 (complex128) sum, for mean;
- ``moments``: the structured ``(n, mean, m2)`` of var/std, NaNs skipped for nanvar/nanstd;
- ``nan_sum_count``: the structured ``(n, s)`` of nanmean;
- ``lse_pairs``: the structured ``(m, s)`` of logsumexp (``lse = m + log(s)``);
- ``power_sum``: the float64 ``sum |x|^p`` of a finite-p norm;
- ``arg_candidates``: the structured ``(v, i, r)`` of argmax/argmin (i a global index, -1 for
  none; r: the slice held a non-NaN).

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
    "arg_candidates",
    "arg_dtype",
    "fold",
    "identity_partial",
    "keep_shape",
    "lse_pairs",
    "moments",
    "moments_dtype",
    "nan_sum_count_dtype",
    "nan_sum_count",
    "power_sum",
    "reduced_chunk",
    "serial_kernels",
    "sum_f8",
]

Array = npt.NDArray[Any]
F8 = np.dtype(np.float64)

#: logsumexp partials: the max m and sum(exp(x - m)) (0 for m = -inf, 1 for m = inf or NaN)
LSE = np.dtype([("m", F8), ("s", F8)])


def fold(ufunc: Any, x: Any, axis: Any, dtype: Any, out: None, keepdims: bool) -> Array:
    """``ufunc.reduce(x, axis, dtype, out, keepdims)`` as an ndarray (numpy's positional
    spelling, the fastest call)."""
    return np.asarray(ufunc.reduce(x, axis, dtype, out, keepdims))


def nan_sum_count_dtype(x_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """nanmean partials: the count of non-NaNs and their float64 (complex128) sum."""
    total = np.complex128 if np.dtype(x_dtype).kind == "c" else np.float64
    return np.dtype([("n", np.int64), ("s", total)])


def arg_dtype(value_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """argmax/argmin partials: the candidate's value, its global index (-1: none) and
    whether its slice held a non-NaN (nanargmax of only NaNs raises at the end)."""
    return np.dtype([("v", value_dtype), ("i", np.int64), ("r", np.bool_)])


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


def sum_f8(x: Array, axis: tuple[int, ...], keepdims: bool, *, backend: str) -> Array:
    """The chunk's sum in float64 (complex128 for complex) over ``axis``, kept at size 1:
    mean's partial (``partials.sums``: numba's serial kernels or numpy's loops, the faster
    for the chunk's layout)."""
    return partials.sums(x, axis, backend=backend)


def moments_dtype(x_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """var/std partials: element count, mean (complex for complex input) and the sum of
    squared deviations (``|x - mean|^2``) from that mean."""
    mean = np.complex128 if np.dtype(x_dtype).kind == "c" else np.float64
    return np.dtype([("n", F8), ("mean", mean), ("m2", F8)])


def moments(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, skip_nan: bool, backend: str
) -> Array:
    """The chunk's ``(n, mean, m2)`` over ``axis`` (structured, kept at size 1): var/std's
    partial, one pass through the numba var kernels where they run. ``skip_nan``: counts,
    mean and m2 of the non-NaNs only (nanvar/nanstd, one pass of the numba NaN moment kernels
    for float chunks). A slice with n == 0 has mean 0, m2 0."""
    out = np.empty(keep_shape(x.shape, axis), moments_dtype(x.dtype))
    if skip_nan and x.dtype.kind in "fc":
        n, mean, m2 = partials.nan_var_partials(x, axis, backend=backend)
        out["n"], out["mean"], out["m2"] = n, mean, m2
        return out
    if x.size == 0:
        out["n"], out["mean"], out["m2"] = 0.0, 0.0, 0.0
        return out
    count, mean, m2 = partials.var_partials(x, axis, backend=backend)
    out["n"], out["mean"], out["m2"] = count, mean, m2
    return out


def nan_sum_count(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, backend: str, skip_nan: bool = True
) -> Array:
    """The chunk's ``(n, s)``: how many non-NaNs and their float64 sum (nanmean's partial, one
    pass of the numba NaN sum kernels for float chunks); without ``skip_nan`` every element
    counts (mean's partial where the array's chunk sizes are unknown, so the count cannot be
    known when the graph is built)."""
    out = np.empty(keep_shape(x.shape, axis), nan_sum_count_dtype(x.dtype))
    if not skip_nan:
        out["n"] = _reduced_count(x.shape, axis)
        out["s"] = sum_f8(x, axis, True, backend=backend)
    elif x.size == 0:
        out["n"], out["s"] = 0, 0.0
    else:
        out["n"], out["s"] = partials.nan_sum_count(x, axis, backend=backend)
    return out


def lse_pairs(x: Array, axis: tuple[int, ...], keepdims: bool, *, backend: str) -> Array:
    """The chunk's ``(m, s)`` over ``axis``: m its max, s = sum(exp(x - m)) (0 where m is
    -inf, 1 where m is inf or NaN), so logsumexp = m + log(s); one pass of the numba
    logsumexp kernels where they run."""
    out = np.empty(keep_shape(x.shape, axis), LSE)
    if _reduced_count(x.shape, axis) == 0:
        out["m"], out["s"] = -np.inf, 0.0
        return out
    out["m"], out["s"] = partials.lse_partials(x, axis, backend=backend)
    return out


def power_sum(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, p: float, real: np.dtype[Any], backend: str
) -> Array:
    """The chunk's float64 ``sum |x|^p`` over ``axis`` (finite nonzero p), kept at size 1:
    the norms' partial (eps and the root are applied once, at the end). ``|x|`` is taken in
    the norm's real dtype ``real``, as in memory. One pass of the numba kernels where they
    run."""
    if x.size == 0:
        return np.zeros(keep_shape(x.shape, axis), F8)
    return partials.pow_sums(x, axis, p, real, backend=backend)


def arg_candidates(
    x: Array,
    *,
    axes: tuple[int, ...],
    flat: bool,
    op: str,
    backend: str,
    block_info: dict[Any, Any] | None = None,
) -> Array:
    """The chunk's best candidate for argmax/argmin (and the nan variants) per kept position:
    its value and its index in the whole array (the flat C-order index for ``flat``), -1
    where the chunk has no element; for nanargmax/nanargmin the value has NaNs filled as
    numpy fills them and ``r`` says whether the slice held a non-NaN."""
    assert block_info is not None
    info = block_info[0]
    offsets = [start for start, _ in info["array-location"]]
    total_shape = tuple(info["shape"])
    out = np.empty(keep_shape(x.shape, axes), arg_dtype(x.dtype))
    if _reduced_count(x.shape, axes) == 0 or x.size == 0:
        out["v"], out["i"], out["r"] = 0, -1, False
        return out
    skip_nan = op.startswith("nan") and x.dtype.kind in "fc"
    none: Array | None = None
    if skip_nan:  # local index of numpy's filled argmax, and the slices of NaNs only
        ismax = op == "nanargmax"
        local, none = partials.nan_arg_partials(x, axes, flat, ismax, backend=backend)
    else:
        with use_backend(backend), partials.serial_kernels(backend):
            local = reduce_array(x, op, None if flat else axes[0], True, {})
    if flat:
        at = np.unravel_index(int(local.reshape(())), x.shape)
        out["v"] = x[at]
        out["i"] = np.ravel_multi_index(
            tuple(o + j for o, j in zip(offsets, at, strict=True)), total_shape
        )
    else:
        ax = axes[0]
        out["v"] = np.take_along_axis(x, local, ax)
        out["i"] = local + offsets[ax]
    if skip_nan:  # candidates carry the values numpy fills NaNs with: NaNs never win a merge
        fill = -np.inf if op == "nanargmax" else np.inf
        out["v"] = np.where(np.isnan(out["v"]), fill, out["v"])
    out["r"] = True if none is None else ~none
    return out
