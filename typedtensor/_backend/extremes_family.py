"""The extremes and arg-extremes: ``max``, ``min``, ``any``, ``all``, ``argmax`` and
``argmin``, registered once (``registry.py``, ``Routes``). Their results do not depend on
the order the elements are visited in (``Routes.order_free``); max/min/any/all read each
element once (``Routes.numpy_for_copied_layouts``).

Here: the numpy backend's functions and numpy's runner of argmax/argmin (``arg_runner``;
max/min/any/all run ``_numpy_runners.ufunc_runner``, the ufunc's ``reduce``). Named by the
``Routes``: the numba backend's functions ``_numba._max``/``_min``/``_any``/``_all``/
``_argmax``/``_argmin`` (stages ``_stages._ext``, ``_acc``, ``_stage_arg``) and the
plan-bound kernels' builders ``_numba/direct.py``'s ``direct_max``... ``direct_argmin``.

    >>> import numpy as np
    >>> int(_argmax(np.array([[1, 5], [7, 2]]), (0, 1), False, np.dtype("int64")))
    2
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ._numpy_runners import Run, RunnerPlan, ufunc_runner
from .registry import DaskTree, Routes, register, routed

Array = npt.NDArray[Any]


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


_NUMBA = "typedtensor._backend._numba"
_BOOL = np.dtype(bool)


def _reads_once(backend: Any, runner: Any, name: str) -> Routes:
    """max/min/any/all: order-free, one read per element (numpy's loops over a layout the
    kernels would copy, but for strided rows)."""
    return Routes(
        backend,
        runner,
        numba=f"{_NUMBA}:_{name}",
        direct=f"{_NUMBA}.direct:direct_{name}",
        order_free=True,
        numpy_for_copied_layouts="unless_strided_rows",
    )


_STEPS = "typedtensor._dask.tree_steps"


def _merged_by(ufunc: np.ufunc, empty: str, partial: str) -> DaskTree:
    """dask: each chunk's extreme (or test), merged by ``ufunc``."""
    options = (("ufunc", ufunc), ("empty", empty), ("partial", partial))
    return DaskTree(f"{_STEPS}:ufunc_steps", options)


#: numpy's argmax gives intp; the fast runners need it to be the int64 the rules promise
_INTP_IS_INT64 = np.dtype(np.intp) == np.dtype(np.int64)


def _arg_runner(name: str, axes: tuple[int, ...], ndim: int, keepdims: bool) -> Run:
    """ndarray's ``argmax``/``argmin`` method bound to one plan."""
    method = getattr(np.ndarray, name)
    axis = axes[0] if len(axes) == 1 else None  # every axis: numpy's flat index (axis=None)
    if keepdims or (axis is not None and ndim > 1):
        return lambda a, params: method(a, axis, None, keepdims=keepdims)
    return lambda a, params: np.asarray(method(a, axis, None, keepdims=keepdims))


def arg_runner(plan: RunnerPlan) -> Run | None:
    """numpy's runner of argmax/argmin: ndarray's method, where numpy's intp is the int64 the
    rules promise; else None."""
    if not _INTP_IS_INT64 or plan.dtype != np.dtype(np.int64):
        return None
    return _arg_runner(plan.op, plan.axes, plan.ndim, plan.keepdims)


#: dask: each chunk's ``(value, global index)`` candidate, merged by value then index
_CANDIDATES = DaskTree(
    "typedtensor._dask.arg_extremes_tree:arg_tree", candidates=True, complex_one_chunk=True
)
register(
    routed(
        "max",
        _reads_once(_max, ufunc_runner(np.maximum, None), "max"),
        _merged_by(np.maximum, "lowest", "input"),
    ),
    routed(
        "min",
        _reads_once(_min, ufunc_runner(np.minimum, None), "min"),
        _merged_by(np.minimum, "highest", "input"),
    ),
    routed(
        "any",
        _reads_once(_any, ufunc_runner(np.logical_or, _BOOL), "any"),
        _merged_by(np.logical_or, "zero", "bool"),
    ),
    routed(
        "all",
        _reads_once(_all, ufunc_runner(np.logical_and, _BOOL), "all"),
        _merged_by(np.logical_and, "one", "bool"),
    ),
    routed(
        "argmax",
        Routes(
            _argmax,
            arg_runner,
            numba=f"{_NUMBA}:_argmax",
            direct=f"{_NUMBA}.direct:direct_argmax",
            order_free=True,
        ),
        _CANDIDATES,
    ),
    routed(
        "argmin",
        Routes(
            _argmin,
            arg_runner,
            numba=f"{_NUMBA}:_argmin",
            direct=f"{_NUMBA}.direct:direct_argmin",
            order_free=True,
        ),
        _CANDIDATES,
    ),
)
