"""The numpy reference backend: every reduction written with numpy, numpy's semantics.

Each function takes an ndarray, normalized axes (sorted, non-negative), ``keepdims`` and the
result dtype decided by the shape rules, and returns an ndarray of exactly the result shape
and dtype (0-d for a full reduction). Validation (axes, parameters, empty reductions without
identity) is done by the caller, ``typedtensor._reduce``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import registry
from ._numpy_nan import NAN_OPS

__all__ = ["NAME", "reduce"]

NAME = "numpy"

Array = npt.NDArray[Any]


def _sum(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.sum(a, axis=axes, keepdims=keepdims, dtype=dtype))


def _prod(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.prod(a, axis=axes, keepdims=keepdims, dtype=dtype))


def _mean(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    with np.errstate(invalid="ignore", divide="ignore"):
        if _count(a, axes) == 0:
            return np.full(_shape(a, axes, keepdims), np.nan, dtype=dtype)
        if dtype == a.dtype == np.float16:  # numpy's default: summed in float32, then rounded
            return np.asarray(np.mean(a, axis=axes, keepdims=keepdims), dtype=dtype)
        return np.asarray(np.mean(a, axis=axes, keepdims=keepdims, dtype=dtype))


def _max(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.max(a, axis=axes, keepdims=keepdims))


def _min(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.min(a, axis=axes, keepdims=keepdims))


def _any(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.any(a, axis=axes, keepdims=keepdims))


def _all(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.all(a, axis=axes, keepdims=keepdims))


def _arg(fn: Any, a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    if a.ndim == 0:
        return np.zeros((), dtype=dtype)
    if len(axes) == 1:
        return np.asarray(fn(a, axis=axes[0], keepdims=keepdims), dtype=dtype)
    # every axis: the index into the C-order flattening, as numpy's axis=None
    return np.asarray(fn(a, axis=None, keepdims=keepdims), dtype=dtype)


def _argmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return _arg(np.argmax, a, axes, keepdims, dtype)


def _argmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return _arg(np.argmin, a, axes, keepdims, dtype)


def _count(a: Array, axes: tuple[int, ...]) -> int:
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def _shape(a: Array, axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    return tuple(d for i, d in enumerate(a.shape) if i not in axes)


_OPS: dict[str, Any] = {
    "sum": _sum,
    "prod": _prod,
    "mean": _mean,
    "max": _max,
    "min": _min,
    "any": _any,
    "all": _all,
    "argmax": _argmax,
    "argmin": _argmin,
    **NAN_OPS,
}


def reduce(
    op: str,
    a: Array,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    **params: Any,
) -> Array:
    """Run reduction ``op`` (a name from the reduction table; norm modes arrive as ``norm``)."""
    routes = registry.routes(op)
    fn = _OPS.get(op) if routes is None else routes.backend  # MIGRATION: _OPS goes
    if fn is None:
        raise KeyError(op)
    result: Array = fn(a, axes, keepdims, dtype, **params)
    return result
