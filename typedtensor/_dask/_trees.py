"""How partials merge up a dask reduction tree (``combine``) and become the result
(``aggregate``).

dask concatenates the partials of neighbouring chunks along the reduced axes and calls
``combine(parts, axis, keepdims=True)`` (a partial again) and, at the root,
``aggregate(parts, axis, keepdims)`` (the result, in the result dtype). Each merge here is
exact in the sense the in-memory kernels are: Chan's parallel-variance merge for
``(n, mean, m2)``, rescaling by the larger max for logsumexp's ``(m, s)`` pairs, the first
index among equal values (the first NaN for argmax/argmin, as numpy) for ``(v, i)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .._backend._numpy_nan import all_nan_error
from .._backend.norm_finish import norm_from_power_sum
from ._partials import fold, keep_shape

__all__ = [
    "arg_aggregate",
    "arg_combine",
    "chunk_step",
    "lse_aggregate",
    "lse_combine",
    "moments_aggregate",
    "moments_combine",
    "nan_mean_aggregate",
    "nan_sum_count_combine",
    "norm_aggregate",
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


# --------------------------------------------------------------------------- nanmean
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


# --------------------------------------------------------------------------- logsumexp
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


# --------------------------------------------------------------------------- norms
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


# --------------------------------------------------------------------------- argmax
def _select(x: Array, axis: tuple[int, ...], ismax: bool) -> Array:
    """The winning ``(v, i)`` per kept position, reduced axes kept at size 1: a NaN first
    (the smallest index among NaNs), else the best value with the smallest index; candidates
    with ``i == -1`` (none) never win; none at all gives ``i == -1``."""
    kept = [d for d in range(x.ndim) if d not in axis]
    width = 1
    for d in axis:
        width *= x.shape[d]
    flat = x.transpose(kept + list(axis)).reshape([x.shape[d] for d in kept] + [width])
    v, i = flat["v"], flat["i"]
    valid = i >= 0
    order = v.view(np.uint8) if v.dtype == np.bool_ else v
    is_nan = np.isnan(order) if order.dtype.kind == "f" else np.zeros(order.shape, bool)
    usable = valid & ~is_nan
    ext = (np.max if ismax else np.min)(
        np.where(usable, order, _worst(order.dtype, ismax)), axis=-1, keepdims=True
    )
    best = usable & (order == ext)
    nan = valid & is_nan
    has_nan = nan.any(axis=-1, keepdims=True)
    candidates = np.where(has_nan, nan, best)
    pick = np.argmin(np.where(candidates, i, np.iinfo(np.int64).max), axis=-1)[..., None]
    chosen = np.take_along_axis(flat, pick, -1)
    chosen["i"] = np.where(np.take_along_axis(candidates, pick, -1), chosen["i"], -1)
    chosen["r"] = flat["r"].any(axis=-1, keepdims=True)
    out_shape = [x.shape[d] if d not in axis else 1 for d in range(x.ndim)]
    return chosen.reshape(out_shape)


def _worst(dtype: np.dtype[Any], ismax: bool) -> Any:
    if dtype.kind == "f":
        return -np.inf if ismax else np.inf
    if dtype.kind == "c":  # pragma: no cover - complex argmax runs the single-block path
        raise TypeError("complex argmax/argmin trees are not supported")
    info = np.iinfo(dtype)
    return info.min if ismax else info.max


def arg_combine(x: Array, axis: tuple[int, ...], keepdims: bool, *, ismax: bool) -> Array:
    """Merged ``(v, i)`` candidates: the winner of each group of chunks."""
    return _select(x, axis, ismax)


def arg_aggregate(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, ismax: bool, skip_nan: bool
) -> Array:
    """The global index of the winner (int64); nanargmax/nanargmin of a slice holding only
    NaNs raises numpy's ValueError (at compute time: only then is it known)."""
    chosen = _select(x, axis, ismax)
    if skip_nan and not chosen["r"].all():
        raise all_nan_error()
    return squeeze_reduced(np.ascontiguousarray(chosen["i"]), axis, keepdims)
