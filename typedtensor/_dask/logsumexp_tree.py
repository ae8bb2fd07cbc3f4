"""The dask tree of logsumexp (logsumexp family).

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
from ._partials import F8, _reduced_count, fold, keep_shape
from ._trees import squeeze_reduced
from .tree_steps import Steps, TreeCall

__all__ = ["LSE", "lse_aggregate", "lse_combine", "lse_pairs", "lse_steps"]

Array = npt.NDArray[Any]


#: logsumexp partials: the max m and sum(exp(x - m)) (0 for m = -inf, 1 for m = inf or NaN)
LSE = np.dtype([("m", F8), ("s", F8)])


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


def _merge_lse(x: Array, axis: tuple[int, ...]) -> tuple[Array, Array]:
    m, s = x["m"], x["s"]
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        mt = fold(np.maximum, m, axis, None, None, True)  # NaN propagates
        fin = np.isfinite(mt)
        scaled = np.where(s > 0, s * np.exp(m - np.where(fin, mt, 0.0)), 0.0)
        st = fold(np.add, scaled, axis, None, None, True)
        st = np.where(fin, st, np.where(mt == -np.inf, 0.0, 1.0))
    return mt, st


def lse_combine(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """Merged ``(m, s)`` pairs: the larger max, the sums rescaled to it."""
    m, s = _merge_lse(x, axis)
    out = np.empty(m.shape, x.dtype)
    out["m"], out["s"] = m, s
    return out


def lse_aggregate(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, result_dtype: np.dtype[Any]
) -> Array:
    """logsumexp = m + log(s), in the result dtype."""
    m, s = _merge_lse(x, axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = m + np.log(s)
    return squeeze_reduced(np.asarray(r, dtype=result_dtype), axis, keepdims)


def lse_steps(call: TreeCall) -> Steps:
    """logsumexp: ``(max, sum of exp)`` pairs per chunk."""
    chunk = functools.partial(lse_pairs, backend=call.backend)
    agg = functools.partial(lse_aggregate, result_dtype=call.out_dtype)
    return chunk, lse_combine, agg, LSE
