"""The moments family, ``var`` and ``std``, registered once (``registry.py``, ``Routes``).

Here: the numpy backend's functions and numpy's own steps for the ``dtype=`` cases they
differ in (``moment_in_named_dtype``, mean and the NaN-aware variances too). Named by the
``Routes``: numpy's runner ``_numpy_runners.moments_runner`` (mean's too; numpy's runners
of the older families stay in that module, where the routing tests find numpy's route by
the runner's module), the numba backend's ``_numba._var``/``_numba._std`` (stage
``_stages._var_stats``); the plan-bound kernels' builders ``_numba/direct.py``'s
``direct_var``/``direct_std``.

    >>> import numpy as np
    >>> float(_var(np.array([1.0, 2.0, 4.0]), (0,), False, np.dtype("float64"), 1.0))
    2.333333333333333
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ._numpy import _count, _shape
from ._numpy_runners import moments_runner
from .registry import DaskTree, Routes, register, routed

__all__ = ["moment_in_named_dtype"]

Array = npt.NDArray[Any]


def _var(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], correction: float
) -> Array:
    with np.errstate(invalid="ignore", divide="ignore"):
        if _count(a, axes) == 0:
            return np.full(_shape(a, axes, keepdims), np.nan, dtype=dtype)
        # numpy's own var in dtype (numpy's dtype=: the mean and the sum of squares in it, the
        # deviations in the promoted dtype); complex input with a real dtype is the default
        # (a real result): computed in the input's own complex dtype
        acc = None if a.dtype.kind == "c" and dtype.kind != "c" else dtype
        r = np.var(a, axis=axes, keepdims=keepdims, ddof=correction, dtype=acc)
        return np.asarray(r, dtype=dtype)


def _std(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], correction: float
) -> Array:
    return np.sqrt(_var(a, axes, keepdims, dtype, correction))


#: numpy's own functions of the moments, for the ``dtype=`` cases only numpy's steps answer
_MOMENTS: dict[str, Any] = {
    "mean": np.mean,
    "var": np.var,
    "std": np.std,
    "nanvar": np.nanvar,
    "nanstd": np.nanstd,
}


def moment_in_named_dtype(
    name: str, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]
) -> Any:
    """The run of ``mean``/``var``/``std``/``nanvar``/``nanstd`` with a ``dtype=`` whose
    numpy steps differ from the backends' computation of the same result dtype: numpy's own
    function with that ``dtype=``.

    - a real ``dtype=`` of complex input (the variances): numpy casts the mean to ``dtype``
      (dropping its imaginary part, with numpy's ``ComplexWarning``) but not the values;
    - ``mean`` of float16 input with ``dtype=float16``: numpy sums in float16 (inf past 65504),
      where its ``mean`` without ``dtype=`` (and the backends) sum in float32."""
    fn = _MOMENTS[name]
    variance = name != "mean"

    def run(a: Array, params: dict[str, Any]) -> Array:
        ddof = {"ddof": params.get("correction") or 0.0} if variance else {}
        with np.errstate(invalid="ignore", divide="ignore"):
            r = fn(a, axis=axes, keepdims=keepdims, dtype=dtype, **ddof)
        return np.asarray(r, dtype=dtype)

    return run


_NUMBA = "typedtensor._backend._numba"


def _routes(backend: Any, name: str) -> Routes:
    """numpy's moments runner, the numba backend's ``_numba._<name>`` and its plan-bound
    kernels' builder ``direct_<name>``."""
    return Routes(
        backend,
        moments_runner,
        numba=f"{_NUMBA}:_{name}",
        direct=f"{_NUMBA}.direct:direct_{name}",
    )


def _moments(sqrt: bool) -> DaskTree:
    """dask: ``(n, mean, m2)`` per chunk, Chan's merge (``_dask/tree_steps.moment_steps``)."""
    options = (("skip_nan", False), ("sqrt", sqrt))
    return DaskTree("typedtensor._dask.moments_tree:moment_steps", options)


register(
    routed("var", _routes(_var, "var"), _moments(sqrt=False)),
    routed("std", _routes(_std, "std"), _moments(sqrt=True)),
)
