"""The numba backend: every reduction in one pass over memory, numpy's semantics.

Dispatch canonicalises any (shape, strides, axes) to C-contiguous groups of merged dims,
alternately kept and reduced (``_canonical``); each stage (``_stages``) reduces the last
reduced group of a
``(O, R, I)`` view with a horizontal (``I == 1``) or vertical kernel from ``_kernels`` and the
partial results feed the next stage, so non-adjacent axes need no transposed copy. Short rows
(``I == 1``, ``R <= 16``, many of them) go to the narrow kernels, which transpose blocks of
rows in cache and reuse the vertical task bodies. max/min over arrays beyond the caches
(``kern.PF_MIN``) stream in 512-byte chunks with software prefetch ahead. Layouts
that are not a permutation of a contiguous block (slices with gaps, broadcast views) are copied
once in the order their memory runs. Empty inputs, 0-d inputs and ``axis=()`` go to the
numpy reference; dtypes outside bool/int/uint/float32/float64 (float16, complex) and a
``dtype=`` other than the rules' result dtype return ``None`` (fallback). This module holds
the older families' ops (one function per reduction, composing stages; each named by its
registry entry's ``Routes.numba``) and ``reduce``, the entry point, which finds the op's
function through the registry; the NaN-aware reductions and the scans import the dispatch
helpers from here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ... import _rules as rules
from .. import _numpy as _ref
from .. import registry
from .._layouts import kernel_dtype
from ..norm_finish import l2_denominator, norm_from_power_sum
from . import _kernels as kern
from ._cache import CACHE, CACHE_DIR

# dispatch helpers that the NaN-aware reductions, the scans and the tests name through this
# package (the thread policy's settings live in _stages: patch them there)
from ._canonical import _Canon as _Canon
from ._canonical import _canon as _canon
from ._canonical import _finish as _finish
from ._canonical import _in_numpy_product_order as _in_numpy_product_order
from ._canonical import _kept_shape as _kept_shape
from ._canonical import _rest as _rest
from ._canonical import _split as _split
from ._canonical import _unplace_full
from ._stages import _LOCK, _acc, _ext, _stage_arg, _stage_prodf, _threads, _var_stats
from ._stages import PAR_MIN as PAR_MIN
from ._stages import _launch as _launch
from ._stages import _lse_merge as _lse_merge
from ._stages import _narrow as _narrow
from ._stages import _parallel as _parallel
from ._stages import _rb as _rb
from ._stages import _segments as _segments
from ._stages import _stage_lse as _stage_lse

__all__ = ["CACHE", "CACHE_DIR", "NAME", "reduce"]

NAME = "numba"

Array = npt.NDArray[Any]


# ------------------------------------------------------------------------------ ops
def _zeros(a: Array, dtype: np.dtype[Any]) -> tuple[Any, Any]:
    """(chunk zero, total zero) for a sum-like accumulate producing ``dtype``."""
    if a.dtype.kind == "f":
        return a.dtype.type(0), np.float64(0)
    zt = np.dtype(dtype).type(0) if np.dtype(dtype).kind in "iuf" else np.int64(0)
    return zt, zt


def _sum(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    zc, zt = _zeros(a, dtype)
    c, res = _acc(a, axes, kern.SUM, 0.0, zc, zt)
    return _finish(c, a, axes, keepdims, dtype, res)


def _prod(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array | None:
    one = np.dtype(dtype).type(1)
    if a.dtype.kind != "f":  # integer products wrap around: any order gives numpy's answer
        c, res = _acc(a, axes, kern.PROD, 0.0, one, one)
        return _finish(c, a, axes, keepdims, dtype, res)
    ordered = _in_numpy_product_order(a, axes)  # floats: keep numpy's order, or let it run
    if ordered is None:
        return None
    c, x3 = ordered
    return _finish(c, a, axes, keepdims, dtype, _stage_prodf(x3, one))


def _mean(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    if a.dtype.kind == "f":
        zc, zt = a.dtype.type(0), np.float64(0)
    else:
        zc = zt = np.float64(0)
    c, res = _acc(a, axes, kern.SUM, 0.0, zc, zt)
    n = math.prod(a.shape[d] for d in axes)
    return _finish(c, a, axes, keepdims, dtype, res / n)


def _max(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    c, res = _ext(a, axes, True)
    return _finish(c, a, axes, keepdims, dtype, res)


def _min(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    c, res = _ext(a, axes, False)
    return _finish(c, a, axes, keepdims, dtype, res)


def _nnz(a: Array, axes: tuple[int, ...]) -> tuple[_Canon, Array]:
    if a.dtype.kind == "f":
        zc, zt = a.dtype.type(0), np.float64(0)
    elif a.dtype.kind == "u":
        zc = zt = np.uint64(0)
    else:
        zc = zt = np.int64(0)
    return _acc(a, axes, kern.NNZ, 0.0, zc, zt)


def _any(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    c, res = _nnz(a, axes)
    return _finish(c, a, axes, keepdims, dtype, res > 0)


def _all(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    c, res = _nnz(a, axes)
    n = math.prod(a.shape[d] for d in axes)
    return _finish(c, a, axes, keepdims, dtype, res == n)


def _var(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, correction: float) -> Array:
    c, m2, n = _var_stats(a, axes)
    with np.errstate(invalid="ignore", divide="ignore"):
        v = m2 / max(n - correction, 0.0)
    return _finish(c, a, axes, keepdims, dtype, v)


def _std(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, correction: float) -> Array:
    v = _var(a, axes, keepdims, dtype, correction)
    with np.errstate(invalid="ignore"):
        return np.asarray(np.sqrt(v))


def _arg(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, ismax: bool) -> Array:
    if len(axes) != 1 or a.ndim == 1:  # every axis: index into the C-order flattening
        x = np.ascontiguousarray(a).reshape(1, -1)
        _, pi = _stage_arg(x.reshape(1, x.shape[1], 1), ismax)
        res = np.asarray(pi.reshape(()), dtype=dtype)
        return res.reshape((1,) * a.ndim) if keepdims else res
    ax = axes[0]
    if a.shape[ax] == 1:
        return np.zeros(_kept_shape(a, axes, keepdims), dtype=dtype)
    c = _canon(a, axes, flip_red=False)
    _, o, r, i = _split(c.groups)
    _, pi = _stage_arg(c.b.reshape(o, r, i), ismax)
    return _finish(c, a, axes, keepdims, dtype, pi)


def _argmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _arg(a, axes, keepdims, dtype, True)


def _argmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _arg(a, axes, keepdims, dtype, False)


def _sumpow(a: Array, axes: tuple[int, ...], p: float) -> tuple[_Canon, Array]:
    zc = a.dtype.type(0) if a.dtype.kind == "f" else np.float64(0)
    op = kern.SUMABS if p == 1 else kern.SUMSQ if p == 2 else kern.SUMPOW
    return _acc(a, axes, op, float(p), zc, np.float64(0))


def _norm(
    a: Array,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: Any,
    p: float,
    eps: float,
    mode: str,
) -> Array | None:
    dt = np.dtype(dtype)
    if p == -np.inf:
        return None  # min |x| needs an abs pass of its own: the reference does it
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        if p == np.inf:
            c, mx = _ext(a, axes, True)
            _, mn = _ext(a, axes, False)
            r = np.maximum(np.abs(mx.astype(dt)), np.abs(mn.astype(dt)))
            return _finish(c, a, axes, keepdims, dt, r)
        if p == 0:
            c, cnt = _nnz(a, axes)
            return _finish(c, a, axes, keepdims, dt, cnt.astype(dt))
        c, s = _sumpow(a, axes, p)
        r = norm_from_power_sum(s.astype(dt), p, eps, mode, dt)
        return _finish(c, a, axes, keepdims, dt, np.asarray(r, dtype=dt))


def _l2_normalize(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, eps: float, variant: str
) -> Array:
    dt = np.dtype(dtype)
    c, ss = _sumpow(a, axes, 2.0)
    e = np.asarray(eps, dtype=dt)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        denom = l2_denominator(ss.astype(dt), e, variant)
        red = [g for g in c.groups if g[1]]
        if len(red) != 1:  # reduced groups not adjacent: numpy's broadcasting divide
            d = _finish(c, a, axes, True, dt, denom)
            return np.asarray(np.divide(a, d, dtype=dt), dtype=dt)
        _, o, r, i = _split(c.groups)
        x2 = c.b.reshape(o, r * i)
        out = np.empty((o, r * i), dt)
        d2 = np.ascontiguousarray(denom.reshape(o, i))
        par = _parallel(x2.size)
        ns = max(1, min(-(-4 * _threads() // o), r)) if par else 1
        rb = 1 if ns > 1 else max(1, (1 << 14) // (r * i))
        if par:
            with _LOCK:
                kern.scale_par(x2, d2, out, i, ns, rb)
        else:
            kern.scale(x2, d2, out, i, rb)
        return _unplace_full(c, a, out)


class _Functions:
    """``_OPS[op]``: the numba backend's function of a registered op (``Routes.numba``), found
    through the registry; ``nan_reductions`` runs the integer forms of the NaN-aware ops as
    ``_OPS[plain]``."""

    def __getitem__(self, op: str) -> Callable[..., Array | None]:
        routes = registry.routes(op)
        if routes is None or routes.numba is None or routes.numba_checks_itself:
            raise KeyError(op)
        fn: Callable[..., Array | None] = registry.resolve(routes.numba)
        return fn


#: the numba backend's functions, found through the registry
_OPS = _Functions()


def reduce(
    op: str,
    a: Array,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    **params: Any,
) -> Array | None:
    """Run reduction ``op`` with numba kernels; ``None`` where the numpy backend must run it."""
    routes = registry.routes(op)
    if routes is None or routes.numba is None:
        return None
    fn: Callable[..., Array | None] = registry.resolve(routes.numba)
    if routes.numba_checks_itself:  # the NaN-aware family's reduce_nan
        return fn(op, a, axes, keepdims, dtype, **params)
    if not kernel_dtype(a.dtype):
        return None  # float16 and complex among them: numpy's loops
    if dtype.name != rules.result_dtype(rules.REDUCTIONS[op].dtype_rule, a.dtype.name):
        return None  # a dtype= argument: numpy accumulates in that dtype
    if a.ndim == 0 or a.size == 0 or not axes:
        return _ref.reduce(op, a, axes, keepdims, dtype, **params)
    x = a.view(np.uint8) if a.dtype == np.bool_ else a
    return fn(x, axes, keepdims, dtype, **params)
