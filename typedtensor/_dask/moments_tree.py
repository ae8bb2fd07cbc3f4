"""The dask tree of var/std and nanvar/nanstd (moments family).

The chunk's partial, the merge of neighbouring partials (``combine``), the root's answer
(``aggregate``) and the steps builder the family's registry entry names
(``registry.DaskTree``). Shared steps: ``_partials``, ``_trees``, ``tree_steps`` (folds).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt

from .._backend import partials
from ._partials import F8, fold, keep_shape
from ._trees import squeeze_reduced
from .tree_steps import Steps, TreeCall

__all__ = ["moment_steps", "moments", "moments_aggregate", "moments_combine", "moments_dtype"]

Array = npt.NDArray[Any]


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


def _merge_moments(x: Array, axis: tuple[int, ...]) -> tuple[Array, Array, Array]:
    """Chan's merge of ``(n, mean, m2)`` partials over ``axis`` (kept at size 1)."""
    n, mean, m2 = x["n"], x["mean"], x["m2"]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        total = fold(np.add, n, axis, None, None, True)
        safe = np.where(total > 0, total, 1.0)
        mt = fold(np.add, n * mean, axis, None, None, True) / safe
        dev = np.where(n > 0, mean - mt, 0)  # empty partials hold mean 0: no contribution
        squares = (dev * dev.conj()).real if dev.dtype.kind == "c" else dev * dev
        m2t = fold(np.add, m2, axis, None, None, True) + fold(
            np.add, n * squares, axis, None, None, True
        )
    return total, mt, m2t


def moments_combine(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """Merged ``(n, mean, m2)`` partials (Chan et al.'s pairwise update, all at once)."""
    n, mean, m2 = _merge_moments(x, axis)
    out = np.empty(n.shape, x.dtype)
    out["n"], out["mean"], out["m2"] = n, mean, m2
    return out


def moments_aggregate(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    correction: float,
    sqrt: bool,
    skip_nan: bool,
    result_dtype: np.dtype[Any],
) -> Array:
    """var (std with ``sqrt``) = m2 / (n - correction). As numpy: var divides by
    max(n - correction, 0) (inf or NaN past it), nanvar gives NaN where n - correction <= 0."""
    n, _, m2 = _merge_moments(x, axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        dof = n - correction
        if skip_nan:
            v = np.where(dof > 0, m2 / np.where(dof > 0, dof, 1.0), np.nan)
        else:
            v = m2 / np.maximum(dof, 0.0)
        if sqrt:
            v = np.sqrt(v)
    return squeeze_reduced(np.asarray(v, dtype=result_dtype), axis, keepdims)


def moment_steps(
    call: TreeCall,
    *,
    skip_nan: bool,
    sqrt: bool,
) -> Steps:
    """var/std (``sqrt``) and their nan forms: ``(n, mean, m2)`` per chunk, Chan's merge."""
    p = functools.partial
    chunk = p(moments, skip_nan=skip_nan, backend=call.backend)
    agg = p(
        moments_aggregate,
        correction=float(call.params.get("correction") or 0.0),
        sqrt=sqrt,
        skip_nan=skip_nan,
        result_dtype=call.out_dtype,
    )
    return chunk, moments_combine, agg, moments_dtype(call.in_dtype)
