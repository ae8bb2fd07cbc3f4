"""How partials merge up a dask reduction tree (``combine``) and become the result
(``aggregate``).

dask concatenates the partials of neighbouring chunks along the reduced axes and calls
``combine(parts, axis, keepdims=True)`` (a partial again) and, at the root,
``aggregate(parts, axis, keepdims)`` (the result, in the result dtype). Here the shared
steps (``chunk_step``, the ufunc folds' ``ufunc_combine``/``ufunc_aggregate``); each family's
own merge is exact in the sense the in-memory kernels are and lives in its tree module:
Chan's parallel-variance merge for ``(n, mean, m2)`` (``moments_tree``), rescaling by the
larger max for logsumexp's ``(m, s)`` pairs (``logsumexp_tree``), the first index among equal
values (the first NaN for argmax/argmin, as numpy) for ``(v, i)`` (``arg_extremes_tree``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ._partials import fold

__all__ = [
    "chunk_step",
    "pass_through",
    "squeeze_reduced",
    "ufunc_aggregate",
    "ufunc_combine",
]

Array = npt.NDArray[Any]


def chunk_step(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    computing_meta: bool = False,
    *,
    step: Callable[..., Array],
) -> Array | None:
    """A chunk's partial, ``step(x, axis, keepdims)``, as ``da.reduction``'s chunk function:
    nothing while dask probes it with an empty ``meta`` (the partial's structured dtype would
    not cast to the result dtype it expects)."""
    if computing_meta:
        return None
    return step(x, axis, keepdims)


def pass_through(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """The chunk step of a tree whose partials were made beforehand (argmax's, by map_blocks)."""
    return x


def squeeze_reduced(r: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """A merged result kept at size 1 over ``axis``, those dims dropped unless ``keepdims``."""
    return r if keepdims else r.reshape([s for d, s in enumerate(r.shape) if d not in axis])


# --------------------------------------------------------------------------- one ufunc
def ufunc_combine(x: Array, axis: tuple[int, ...], keepdims: bool, *, ufunc: np.ufunc) -> Array:
    """Partials of sum/prod/max/min/any/all/count merged by their ufunc, kept at size 1."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(fold(ufunc, x, axis, x.dtype, None, True))


def ufunc_aggregate(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    ufunc: np.ufunc,
    result_dtype: np.dtype[Any],
    scale: float | None = None,
) -> Array:
    """The result from ufunc partials: merged, divided by ``scale`` (mean's element count:
    0 gives NaN as numpy's mean of nothing) and cast to the result dtype."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        r = np.asarray(fold(ufunc, x, axis, x.dtype, None, keepdims))
        if scale is not None:
            r = np.asarray(r / scale) if scale else np.full_like(r, np.nan)
        return np.asarray(r, dtype=result_dtype)


# --------------------------------------------------------------------------- moments


# --------------------------------------------------------------------------- nanmean


# --------------------------------------------------------------------------- logsumexp


# --------------------------------------------------------------------------- norms


# --------------------------------------------------------------------------- argmax
