"""The dask tree of mean (sums family) and nanmean (NaN-aware family).

The chunk's partial, the merge of neighbouring partials (``combine``), the root's answer
(``aggregate``) and the steps builder the family's registry entry names
(``registry.DaskTree``). Shared steps: ``_partials``, ``_trees``, ``tree_steps`` (folds).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from .._backend import partials
from . import _trees as tree
from ._partials import _reduced_count, fold, keep_shape
from ._trees import squeeze_reduced
from .tree_steps import Steps, TreeCall

__all__ = [
    "mean_steps",
    "nan_mean_aggregate",
    "nan_sum_count",
    "nan_sum_count_combine",
    "nan_sum_count_dtype",
    "sum_f8",
]

Array = npt.NDArray[Any]


def sum_f8(x: Array, axis: tuple[int, ...], keepdims: bool, *, backend: str) -> Array:
    """The chunk's sum in float64 (complex128 for complex) over ``axis``, kept at size 1:
    mean's partial (``partials.sums``: numba's serial kernels or numpy's loops, the faster
    for the chunk's layout)."""
    return partials.sums(x, axis, backend=backend)


def nan_sum_count_dtype(x_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """nanmean partials: the count of non-NaNs and their float64 (complex128) sum."""
    total = np.complex128 if np.dtype(x_dtype).kind == "c" else np.float64
    return np.dtype([("n", np.int64), ("s", total)])


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


def nan_sum_count_combine(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """Merged ``(n, s)`` partials: counts and sums add."""
    out = np.empty(keep_shape(x.shape, axis), x.dtype)
    out["n"] = fold(np.add, x["n"], axis, None, None, True)
    out["s"] = fold(np.add, x["s"], axis, None, None, True)
    return out


def nan_mean_aggregate(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, result_dtype: np.dtype[Any]
) -> Array:
    """nanmean = s / n (NaN where every value was NaN, as numpy)."""
    merged = nan_sum_count_combine(x, axis, True)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = merged["s"] / merged["n"]
    return squeeze_reduced(np.asarray(r, dtype=result_dtype), axis, keepdims)


def mean_steps(
    call: TreeCall,
    *,
    skip_nan: bool,
) -> Steps:
    """mean: float64 sums scaled by the count at the root; nanmean (and a mean over chunks
    of unknown size): (sum, count) pairs."""
    p = functools.partial
    if skip_nan or any(math.isnan(call.shape[d]) for d in call.axes):
        chunk = p(nan_sum_count, backend=call.backend, skip_nan=skip_nan)
        agg = p(nan_mean_aggregate, result_dtype=call.out_dtype)
        return chunk, nan_sum_count_combine, agg, nan_sum_count_dtype(call.in_dtype)
    count = math.prod(call.shape[d] for d in call.axes)
    chunk = p(sum_f8, backend=call.backend)
    agg = p(tree.ufunc_aggregate, ufunc=np.add, result_dtype=call.out_dtype, scale=count)
    return chunk, p(tree.ufunc_combine, ufunc=np.add), agg, np.dtype(np.float64)
