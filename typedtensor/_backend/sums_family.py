"""The sums family: ``sum``, ``prod`` and ``mean``, registered once (``registry.py``,
``Routes``).

Here: the numpy backend's functions. Named by the ``Routes``: numpy's runners
(``_numpy_runners.ufunc_runner``, the ufunc's ``reduce``; mean: ``moments_family``'s
``moments_runner``) and the numba backend's functions ``_numba._sum``/``_prod``/``_mean``
(stages ``_stages._acc``, ``_stage_prodf``); the plan-bound kernels are
``_numba/direct.py``'s ``direct_sum``, ``direct_prod`` and ``direct_mean``.

    >>> import numpy as np
    >>> float(_mean(np.array([1, 2, 6]), (0,), False, np.dtype("float64")))
    3.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ._numpy import _count, _shape
from ._numpy_runners import ufunc_runner
from .moments_family import moments_runner
from .registry import DaskTree, Routes, register, routed

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


_NUMBA = "typedtensor._backend._numba"
_STEPS = "typedtensor._dask.tree_steps"


def _routes(backend: Any, numpy_runner: Any, name: str) -> Routes:
    """One read per element, little arithmetic: numpy's loops run over a layout the kernels
    would copy (``Routes.numpy_for_copied_layouts``)."""
    return Routes(
        backend,
        numpy_runner,
        f"{_NUMBA}:_{name}",
        direct=f"{_NUMBA}.direct:direct_{name}",
        numpy_for_copied_layouts="always",
    )


def _merged_by(ufunc: np.ufunc, empty: str) -> DaskTree:
    """dask: each chunk's sum or product, merged by ``ufunc``."""
    return DaskTree(f"{_STEPS}:ufunc_steps", (("ufunc", ufunc), ("empty", empty)))


register(
    routed("sum", _routes(_sum, ufunc_runner(np.add, "result"), "sum"), _merged_by(np.add, "zero")),
    routed(
        "prod",
        _routes(_prod, ufunc_runner(np.multiply, "result"), "prod"),
        _merged_by(np.multiply, "one"),
    ),
    routed(
        "mean",
        _routes(_mean, moments_runner, "mean"),
        # dask: float64 sums scaled by the count at the root
        DaskTree("typedtensor._dask.mean_tree:mean_steps", (("skip_nan", False),)),
    ),
)
