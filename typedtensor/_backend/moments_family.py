"""The moments family, ``var`` and ``std``, registered once (``registry.py``, ``Routes``).

Here: the numpy backend's functions, numpy's runner of mean/var/std bound to a plan
(``moments_runner``: the sums family's mean runs it too), and numpy's own steps for the
``dtype=`` cases they differ in (``moment_in_named_dtype``, mean and the NaN-aware variances
too). Named by the ``Routes``: the numba backend's ``_numba._var``/``_numba._std`` (stage
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
from ._numpy_runners import (
    ERRSTATE,
    INVALID_DIVIDE,
    OUT_ELLIPSIS,
    Run,
    RunnerPlan,
    quiet_state,
)
from .registry import DaskTree, Routes, register, routed

__all__ = ["moment_in_named_dtype", "moments_runner"]

Array = npt.NDArray[Any]
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


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


#: the inputs ``_moments_runner`` takes -> (their mean's dtype, their variance's), as numpy's
#: functions give them (bool and the integers: float64; complex: a real variance)
_MOMENT_DTYPES: dict[np.dtype[Any], tuple[np.dtype[Any], np.dtype[Any]]] = {
    **{np.dtype(char): (_F64, _F64) for char in "?bhilqBHILQ"},
    _F16: (_F16, _F16),
    _F32: (_F32, _F32),
    _F64: (_F64, _F64),
    np.dtype(np.complex64): (np.dtype(np.complex64), _F32),
    np.dtype(np.complex128): (np.dtype(np.complex128), _F64),
}


def _moments_take(op: str, input_dtype: np.dtype[Any] | None, dtype: np.dtype[Any]) -> bool:
    """Does ``_moments_runner`` give ``op`` of ``input_dtype`` in ``dtype``? (No ``== None``:
    numpy reads None as float64.)"""
    dtypes = None if input_dtype is None else _MOMENT_DTYPES.get(input_dtype)
    return dtypes is not None and dtypes[0 if op == "mean" else 1] == dtype


def _moments_runner(
    op: str,
    axes: tuple[int, ...],
    shape: tuple[int, ...],
    keepdims: bool,
    zero_d: bool,
    dtype: np.dtype[Any],
) -> Run:
    """mean/var/std (``_MOMENT_DTYPES``: bool, the integers, the floats, complex) into the
    rules' ``dtype`` over a non-empty reduction: the calls the numpy backend makes
    (``np.mean``'s sum in that dtype, float32 for float16, and in-place divide;
    ``ndarray.var``), under its error state."""
    count = 1
    for d in axes:
        count *= shape[d]
    # np.mean divides by an intp scalar: a complex mean then divides in complex128 and rounds
    # (complex64's own division, which multiplies by 1/count, can differ in the last bit), a
    # float16 one in float64 (a float32 sum); a real one otherwise divides by a Python int in
    # its own dtype, as exact as dividing in float64
    divisor: Any = np.intp(count) if dtype.kind == "c" or dtype == _F16 else count
    add_reduce: Any = np.add.reduce
    divide: Any = np.true_divide
    switch, quiet = ERRSTATE, quiet_state

    def half_mean(a: Array, params: dict[str, Any]) -> Array:
        """np.mean of float16: summed in float32, divided in float64 and rounded to float32
        (to float16 at once for a 0-d result, numpy's scalar path), then to float16."""
        token = switch.set(quiet(INVALID_DIVIDE))
        try:
            if zero_d:
                total = add_reduce(a, axes, _F32, keepdims=False, out=...)
                return divide(total, divisor, out=...).astype(_F16)  # type: ignore[no-any-return]
            total = add_reduce(a, axes, _F32, None, keepdims)
            return divide(total, divisor, out=total, casting="unsafe").astype(_F16)  # type: ignore[no-any-return]
        finally:
            switch.reset(token)

    def mean(a: Array, params: dict[str, Any]) -> Array:
        token = switch.set(quiet(INVALID_DIVIDE))
        try:
            if zero_d:
                total = add_reduce(a, axes, dtype, keepdims=keepdims, out=...)
            else:
                total = add_reduce(a, axes, dtype, None, keepdims)
            return divide(total, divisor, out=total, casting="unsafe")  # type: ignore[no-any-return]
        finally:
            switch.reset(token)

    def var(a: Array, params: dict[str, Any]) -> Array:
        correction = params["correction"]
        if correction == 0:  # numpy's var runs ~1.2 us longer with a float ddof; int 0 divides
            correction = 0  # by the same float64 count (an intp scalar either way): same bits
        token = switch.set(quiet(INVALID_DIVIDE))
        try:
            v = a.var(axes, None, None, correction, keepdims=keepdims)
            if op == "std":
                v = np.sqrt(v)
        finally:
            switch.reset(token)
        return np.asarray(v) if zero_d else v

    if op == "mean":
        return half_mean if dtype == _F16 else mean
    return var


def moments_runner(plan: RunnerPlan) -> Run | None:
    """numpy's runner of mean/var/std for ``plan`` (``_moments_runner``), or None where it
    does not take the plan (an input dtype outside ``_MOMENT_DTYPES``, a ``dtype=``, an
    empty reduction)."""
    if not plan.nonempty() or not (OUT_ELLIPSIS or plan.op != "mean"):
        return None
    if not _moments_take(plan.op, plan.input_dtype, plan.dtype):
        return None
    shape = plan.shape or ()
    return _moments_runner(plan.op, plan.axes, shape, plan.keepdims, plan.zero_d, plan.dtype)


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
