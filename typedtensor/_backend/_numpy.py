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
from .norm_finish import l2_denominator, norm_from_power_sum

__all__ = ["NAME", "moment_in_named_dtype", "reduce"]

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


def _norm(
    a: Array,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    p: float,
    eps: float,
    mode: str,
) -> Array:
    r: Any
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        if p == 2 and a.dtype.kind == "c":  # np.linalg.norm's squares: (conj(x) * x).real,
            sq = (a.conj() * a).real.astype(dtype, copy=False)  # no modulus pass (hypot)
            s = np.sum(sq, axis=axes, keepdims=keepdims)
            return np.asarray(norm_from_power_sum(s, p, eps, mode, dtype), dtype=dtype)
        # |x| in the real result dtype (complex: numpy's abs, the modulus, then the dtype)
        x: Array = (
            np.abs(a).astype(dtype, copy=False)
            if a.dtype.kind == "c"
            else np.abs(a.astype(dtype, copy=False))
        )
        if p == np.inf:
            r = np.max(x, axis=axes, keepdims=keepdims, initial=0)  # empty -> 0
        elif p == -np.inf:
            r = np.min(x, axis=axes, keepdims=keepdims, initial=np.inf)
        elif p == 0:
            r = np.sum(x != 0, axis=axes, keepdims=keepdims, dtype=dtype)
        else:
            s = np.sum(x if p == 1 else x * x if p == 2 else x**p, axis=axes, keepdims=keepdims)
            r = norm_from_power_sum(s, p, eps, mode, dtype)
    return np.asarray(r, dtype=dtype)


def _l2_normalize(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], eps: float, variant: str
) -> Array:
    x = a.astype(dtype, copy=False)
    e = np.asarray(eps, dtype=x.real.dtype)  # complex: the norm is real
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        sq = (x * x.conj()).real if x.dtype.kind == "c" else x * x
        ss = np.sum(sq, axis=axes, keepdims=True)
        denom = l2_denominator(ss, e, variant)
        return np.asarray(x / denom, dtype=dtype)


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
    "var": _var,
    "std": _std,
    "argmax": _argmax,
    "argmin": _argmin,
    "norm": _norm,
    "l2_normalize": _l2_normalize,
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
    fn = _OPS.get(op)
    if fn is None:  # an op of a family in the registry (logsumexp)
        routes = registry.routes(op)
        if routes is None:
            raise KeyError(op)
        fn = routes.backend
    result: Array = fn(a, axes, keepdims, dtype, **params)
    return result
