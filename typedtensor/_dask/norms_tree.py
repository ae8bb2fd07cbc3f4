"""The dask tree of the norms (norms family; l2_normalize's sums of squares).

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

from .._backend import partials, use_backend
from .._backend.norm_finish import norm_from_power_sum
from .._reduce_plan import reduce_array
from . import _partials as part
from . import _trees as tree
from ._partials import F8, fold, keep_shape
from .tree_steps import Steps, TreeCall

__all__ = ["norm_aggregate", "norm_steps", "power_sum"]

Array = npt.NDArray[Any]


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


def norm_aggregate(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    p: float,
    eps: float,
    mode: str,
    result_dtype: np.dtype[Any],
) -> Array:
    """The norm from the float64 sums of ``|x|^p``: eps as ``mode`` says, then the root
    (none for the ``power_p`` modes), in the result dtype as the in-memory norm."""
    dt = result_dtype
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        s = np.asarray(fold(np.add, x, axis, None, None, keepdims), dtype=dt)
        r = norm_from_power_sum(s, p, eps, mode, dt)
    return np.asarray(r, dtype=dt)


def norm_steps(call: TreeCall) -> Steps:
    """The norms: max/min of |x| for p = +-inf, a count for p = 0, float64 sums of |x|^p
    for finite p (eps and the root once, at the end)."""
    p = functools.partial
    norm_p = float(call.params["p"])
    if norm_p in (math.inf, -math.inf, 0.0):
        op, ufunc, fill = (
            ("count_nonzero", np.add, 0)
            if norm_p == 0
            else ("norm", np.maximum, 0)
            if norm_p > 0
            else ("norm", np.minimum, np.inf)
        )
        pdt = np.dtype(np.int64) if norm_p == 0 else call.out_dtype
        chunk = p(
            _norm_extreme_chunk, op=op, p=norm_p, partial_dtype=pdt, fill=fill, backend=call.backend
        )
        agg = p(tree.ufunc_aggregate, ufunc=ufunc, result_dtype=call.out_dtype)
        return chunk, p(tree.ufunc_combine, ufunc=ufunc), agg, pdt
    chunk = p(power_sum, p=norm_p, real=call.out_dtype, backend=call.backend)
    agg = p(
        norm_aggregate,
        p=norm_p,
        eps=float(call.params.get("eps") or 0.0),
        mode=str(call.params.get("mode") or "plain"),
        result_dtype=call.out_dtype,
    )
    return chunk, p(tree.ufunc_combine, ufunc=np.add), agg, np.dtype(np.float64)


def _norm_extreme_chunk(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    op: str,
    p: float,
    partial_dtype: np.dtype[Any],
    fill: Any,
    backend: str,
) -> Array:
    """max |x| (p = inf), min |x| (p = -inf) or the count of nonzeros (p = 0) of a chunk."""
    if math.prod(x.shape[d] for d in axis) == 0:
        return part.identity_partial(x.shape, axis, fill, partial_dtype)
    if op == "count_nonzero":
        return part.reduced_chunk(
            x, axis, True, op=op, partial_dtype=partial_dtype, empty_fill=0, backend=backend
        )
    params = {"p": p, "eps": 0.0, "mode": "plain"}
    with use_backend(backend), part.serial_kernels(backend):
        return reduce_array(x, "norm", axis, True, params, partial_dtype)
