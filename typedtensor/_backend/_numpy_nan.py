"""The numpy reference of the NaN-aware reductions and ``count_nonzero``: numpy's own ``nan*``
functions, so numpy's semantics (and RuntimeWarnings) by construction.

Same calling convention as ``_numpy``: normalized axes, ``keepdims``, the result dtype from the
shape rules; an ndarray of exactly the result shape and dtype comes back. Empty reductions of
``nanmax``/``nanmin``/``nanargmax``/``nanargmin`` are rejected by the caller.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["NAN_OPS", "all_nan_error"]

Array = npt.NDArray[Any]


def all_nan_error() -> ValueError:
    """numpy's error for ``nanargmax``/``nanargmin`` of a slice holding only NaNs."""
    return ValueError("All-NaN slice encountered")


def _nansum(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.nansum(a, axis=axes, keepdims=keepdims, dtype=dtype))


def _nanprod(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.nanprod(a, axis=axes, keepdims=keepdims, dtype=dtype))


def _nanmean(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.nanmean(a, axis=axes, keepdims=keepdims, dtype=dtype), dtype=dtype)


def _nanmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.nanmax(a, axis=axes, keepdims=keepdims), dtype=dtype)


def _nanmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.nanmin(a, axis=axes, keepdims=keepdims), dtype=dtype)


def _nanvar(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], correction: float
) -> Array:
    # complex input and a real dtype is the default (a real result, cast afterwards)
    acc = None if a.dtype.kind == "c" and dtype.kind != "c" else dtype
    r = np.nanvar(a, axis=axes, keepdims=keepdims, ddof=correction, dtype=acc)
    return np.asarray(r, dtype=dtype)


def _nanstd(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], correction: float
) -> Array:
    # numpy's nanstd is the square root of its nanvar, in the variance's dtype
    return np.sqrt(_nanvar(a, axes, keepdims, dtype, correction))


def _nanarg(
    fn: Any, a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]
) -> Array:
    if a.ndim == 0:
        if a.dtype.kind == "f" and np.isnan(a):
            raise all_nan_error()
        return np.zeros((), dtype=dtype)
    axis = axes[0] if len(axes) == 1 else None  # every axis: the C-order flat index
    return np.asarray(fn(a, axis=axis, keepdims=keepdims), dtype=dtype)


def _nanargmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return _nanarg(np.nanargmax, a, axes, keepdims, dtype)


def _nanargmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return _nanarg(np.nanargmin, a, axes, keepdims, dtype)


def _count_nonzero(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    return np.asarray(np.count_nonzero(a, axis=axes, keepdims=keepdims), dtype=dtype)


#: op name -> reference implementation (merged into the numpy backend's table)
NAN_OPS: dict[str, Any] = {
    "nansum": _nansum,
    "nanprod": _nanprod,
    "nanmean": _nanmean,
    "nanmax": _nanmax,
    "nanmin": _nanmin,
    "nanvar": _nanvar,
    "nanstd": _nanstd,
    "nanargmax": _nanargmax,
    "nanargmin": _nanargmin,
    "count_nonzero": _count_nonzero,
}
