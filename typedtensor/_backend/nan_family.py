"""The NaN-aware family: ``nansum``, ``nanprod``, ``nanmean``, ``nanmax``, ``nanmin``,
``nanvar``, ``nanstd``, ``nanargmax``, ``nanargmin`` and ``count_nonzero``, registered once
(``registry.py``, ``Routes``).

Here: the numpy backend's functions, numpy's own ``nan*`` functions (numpy's semantics and
RuntimeWarnings by construction); empty reductions of ``nanmax``/``nanmin``/``nanargmax``/
``nanargmin`` are rejected by the caller. The numba backend's entry is
``_numba/nan_reductions.reduce_nan`` (``Routes.numba_checks_itself``: it takes the op's name
and checks the dtypes and the layout itself); they have no numpy runner and no plan-bound
kernels.

    >>> import numpy as np
    >>> float(_nanmean(np.array([1.0, np.nan, 3.0]), (0,), False, np.dtype("float64")))
    2.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ._numpy_nan import all_nan_error
from .registry import DaskTree, Operation, Routes, register, routed

Array = npt.NDArray[Any]


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


_NUMBA = "typedtensor._backend._numba.nan_reductions:reduce_nan"


def _nan_aware(name: str, backend: Any, dask: DaskTree, order_free: bool = False) -> Operation:
    routes = Routes(backend, numba=_NUMBA, numba_checks_itself=True, order_free=order_free)
    return routed(name, routes, dask)


_STEPS = "typedtensor._dask.tree_steps"


def _merged_by(ufunc: np.ufunc, empty: str, partial: str = "result") -> DaskTree:
    """dask: each chunk's partial is the op itself, merged by ``ufunc``."""
    options = (("ufunc", ufunc), ("empty", empty), ("partial", partial))
    return DaskTree(f"{_STEPS}:ufunc_steps", options)


def _moments(sqrt: bool) -> DaskTree:
    options = (("skip_nan", True), ("sqrt", sqrt))
    return DaskTree("typedtensor._dask.moments_tree:moment_steps", options)


_NANMEAN = DaskTree("typedtensor._dask.mean_tree:mean_steps", (("skip_nan", True),))
_CANDIDATES = DaskTree(
    "typedtensor._dask.arg_extremes_tree:arg_tree", candidates=True, complex_one_chunk=True
)


register(
    _nan_aware("nansum", _nansum, _merged_by(np.add, "zero")),
    _nan_aware("nanprod", _nanprod, _merged_by(np.multiply, "one")),
    _nan_aware(
        "nanmean",
        _nanmean,
        DaskTree("typedtensor._dask.mean_tree:mean_steps", (("skip_nan", True),)),
    ),
    _nan_aware("nanmax", _nanmax, _merged_by(np.fmax, "nan_or_lowest", "input"), True),
    _nan_aware("nanmin", _nanmin, _merged_by(np.fmin, "nan_or_highest", "input"), True),
    _nan_aware("nanvar", _nanvar, _moments(sqrt=False)),
    _nan_aware("nanstd", _nanstd, _moments(sqrt=True)),
    _nan_aware("nanargmax", _nanargmax, _CANDIDATES),
    _nan_aware("nanargmin", _nanargmin, _CANDIDATES),
    _nan_aware("count_nonzero", _count_nonzero, _merged_by(np.add, "zero")),
)
