# mypy: disable-error-code="no-untyped-call"
"""NaN-aware reductions on the numba backend: one pass over memory, numpy's semantics and
RuntimeWarnings; the kernels are in ``nan_kernels``, ``nan_extremes`` (nanmax, nanmin) and
``nan_products`` (nanprod).

Each reduction is canonicalised by the backend's ``_canon`` to ``(O, R, I)`` reduced over
``R`` (reduced dims that are not adjacent in memory are copied once into (kept..., reduced...)
order). ``I == 1`` runs a row kernel (one contiguous run per output, split into segments when
there are few rows), ``I > 1`` a column kernel (a block of ``I`` accumulators, rows streamed).
Ints and bool have no NaN: they run the plain reductions (numpy's rule too). float16/complex,
and a ``nanprod`` whose order of multiplication the kernels cannot keep, return ``None``.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ... import _rules as rules
from .._layouts import kernel_dtype
from . import nan_extremes as ne
from . import nan_kernels as nk
from . import nan_products as np_
from ._primitives import PF_MIN

__all__ = ["NAN_OPS", "reduce_nan"]

Array = npt.NDArray[Any]

_WB = 1 << 12  # column block: accumulators stay in L1/L2
_WB_EXT = 1 << 16  # nanmax/nanmin column block: whole rows stream (narrower blocks ran 2-4x
# slower at 64 MB: each block re-walks every row)
_MIN_SEG = 1 << 14  # a row is split into segments of at least this many elements


def _warn(message: str) -> None:
    warnings.warn(message, RuntimeWarning, stacklevel=5)


def _three(a: Array, axes: tuple[int, ...]) -> tuple[Any, Array]:
    """(canon, x3 (O, R, I)): one reduced group; non-adjacent reduced dims are copied once
    into (kept..., reduced...) order."""
    from . import _Canon, _canon, _split

    c = _canon(a, axes)
    if sum(1 for _, red in c.groups if red) == 1:
        _, o, r, i = _split(c.groups)
        return c, c.b.reshape(o, r, i)
    red = set(axes)
    perm = [d for d in range(a.ndim) if d not in red] + sorted(red)
    r = math.prod(a.shape[d] for d in red)
    b = np.ascontiguousarray(a.transpose(perm)).reshape(-1, r)
    return _Canon(b, [(b.shape[0], False), (r, True)], perm, [], True), b.reshape(-1, r, 1)


def _plan(x3: Array, block: int = _WB) -> tuple[bool, int, int]:
    """(parallel, row segments, column block of at most ``block``)."""
    from . import _parallel, _segments

    o, r, i = x3.shape
    par = _parallel(x3.size)
    wb = min(i, block)
    nb = -(-i // wb) if i > 1 else 1
    return par, _segments(o, r, nb, x3.size, _MIN_SEG if i == 1 else 64), wb


def _run(serial: Any, parallel: Any, par: bool, *args: Any) -> None:
    from . import _launch

    _launch(serial, parallel, par, *args)


def _sum_count(a: Array, axes: tuple[int, ...]) -> tuple[Any, Array, Array]:
    c, x3 = _three(a, axes)
    o, r, i = x3.shape
    par, ns, wb = _plan(x3)
    if i == 1:
        sums, cnts = np.empty((o, ns)), np.empty((o, ns), np.int64)
        z = x3.dtype.type(0)
        _run(nk.nansum_count_rows, nk.nansum_count_rows_par, par, x3.reshape(o, r), sums, cnts, z)
    else:
        sums, cnts = np.empty((o, ns, i)), np.empty((o, ns, i), np.int64)
        _run(nk.nansum_count_columns, nk.nansum_count_columns_par, par, x3, sums, cnts, wb)
    return c, sums.sum(axis=1).reshape(o, i), cnts.sum(axis=1).reshape(o, i)


def _nansum(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    from . import _finish

    c, sums, _ = _sum_count(a, axes)
    return _finish(c, a, axes, keepdims, dtype, sums)


def _nanmean(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    from . import _finish

    c, sums, cnts = _sum_count(a, axes)
    if not cnts.all():
        _warn("Mean of empty slice")
    with np.errstate(invalid="ignore", divide="ignore"):
        return _finish(c, a, axes, keepdims, dtype, sums / cnts)


def _extreme(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, ismax: bool) -> Array:
    from . import _finish

    c, x3 = _three(a, axes)
    o, r, i = x3.shape
    par, ns, wb = _plan(x3, _WB_EXT)
    if i == 1:
        ext = np.empty((o, ns), x3.dtype)
        _run(ne.nanext_rows, ne.nanext_rows_par, par, x3.reshape(o, r), ext, ismax)
    else:
        ext = np.empty((o, ns, i), x3.dtype)
        pf = x3.nbytes >= PF_MIN  # prefetching rows pays beyond the caches only
        _run(ne.nanext_columns, ne.nanext_columns_par, par, x3, ext, ismax, wb, pf)
    if ns == 1:
        res = ext.reshape(o, i)
    else:  # fmax/fmin of quiet NaNs raise no floating-point flag
        res = (np.fmax if ismax else np.fmin).reduce(ext, axis=1).reshape(o, i)
    if np.isnan(res).any():
        _warn("All-NaN slice encountered")
    return _finish(c, a, axes, keepdims, dtype, res)


def _nanmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _extreme(a, axes, keepdims, dtype, True)


def _nanmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _extreme(a, axes, keepdims, dtype, False)


def _nanprod(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array | None:
    """numpy multiplies in index order, reduced axes by decreasing |stride| (its ``nanprod``
    is ``prod`` of a copy with NaN replaced by 1): the canonical view keeps the reduced axes
    in index order, as the plain ``prod`` does; ``None`` (numpy runs it) where that order is
    not numpy's or the reduced dims are not adjacent in memory."""
    from . import _finish, _in_numpy_product_order, _parallel

    ordered = _in_numpy_product_order(a, axes)
    if ordered is None:
        return None
    c, x3 = ordered
    o, r, i = x3.shape
    if i == 1:
        res = np.empty(o, x3.dtype)
        big = float(np.ldexp(1.0, np.finfo(x3.dtype).maxexp - 4))  # 2^1020 / 2^124
        par = _parallel(x3.size) and o > 1
        _run(np_.nanprod_rows, np_.nanprod_rows_par, par, x3.reshape(o, r), res, big)
    else:
        wb = min(i, _WB_EXT)
        res = np.empty((o, i), x3.dtype)
        par = _parallel(x3.size) and o * -(-i // wb) > 1
        _run(np_.nanprod_columns, np_.nanprod_columns_par, par, x3, res, wb)
    return _finish(c, a, axes, keepdims, dtype, res.reshape(o, i))


def _nanvar(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, correction: float
) -> Array:
    from . import _finish

    c, x3 = _three(a, axes)
    o, r, i = x3.shape
    par, ns, wb = _plan(x3)
    shape = (o, ns) if i == 1 else (o, ns, i)
    cnt, mean, m2 = np.empty(shape), np.empty(shape), np.empty(shape)
    if i == 1:
        z = x3.dtype.type(0)
        _run(nk.nanmoments_rows, nk.nanmoments_rows_par, par, x3.reshape(o, r), cnt, mean, m2, z)
    else:
        _run(nk.nanmoments_columns, nk.nanmoments_columns_par, par, x3, cnt, mean, m2, wb)
    cnt, mean, m2 = (p.reshape(o, ns, i) for p in (cnt, mean, m2))
    with np.errstate(invalid="ignore", divide="ignore"):
        n = cnt.sum(axis=1)
        if ns > 1:  # Chan's merge of the segments
            mu = (cnt * mean).sum(axis=1) / n
            m2 = m2.sum(axis=1) + (cnt * (mean - mu[:, None, :]) ** 2).sum(axis=1)
        else:
            m2 = m2[:, 0, :]
        dof = n - correction
        if (dof <= 0).any():
            _warn("Degrees of freedom <= 0 for slice.")
        var = np.where(dof > 0, m2 / np.where(dof > 0, dof, 1.0), np.nan)
    return _finish(c, a, axes, keepdims, dtype, var)


def _nanstd(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, correction: float
) -> Array:
    return np.sqrt(_nanvar(a, axes, keepdims, dtype, correction))


def _nanarg(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, ismax: bool) -> Array:
    from . import _finish, _kept_shape

    if len(axes) != 1 or a.ndim == 1:  # every axis: the index into the C-order flattening
        x3 = np.ascontiguousarray(a).reshape(1, -1, 1)
        c = None
    else:
        from . import _canon, _split

        c = _canon(a, axes, flip_red=False)
        _, o, r, i = _split(c.groups)
        x3 = c.b.reshape(o, r, i)
    o, r, i = x3.shape
    par = _plan(x3)[0]
    idx = np.empty((o, i), np.int64)
    if i == 1:
        _run(nk.nanarg_rows, nk.nanarg_rows_par, par, x3.reshape(o, r), idx.reshape(o), ismax)
    else:
        _run(nk.nanarg_columns, nk.nanarg_columns_par, par, x3, idx, ismax, min(i, _WB))
    if (idx < 0).any():
        from .._numpy_nan import all_nan_error

        raise all_nan_error()
    if c is None:
        return idx.reshape(_kept_shape(a, tuple(range(a.ndim)), keepdims)).astype(dtype)
    return _finish(c, a, axes, keepdims, dtype, idx)


def _nanargmax(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _nanarg(a, axes, keepdims, dtype, True)


def _nanargmin(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    return _nanarg(a, axes, keepdims, dtype, False)


def _count_nonzero(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    from . import _finish, _nnz

    c, res = _nnz(a, axes)
    return _finish(c, a, axes, keepdims, dtype, res)


_FLOAT_OPS: dict[str, Callable[..., Array | None]] = {
    "nansum": _nansum,
    "nanprod": _nanprod,
    "nanmean": _nanmean,
    "nanmax": _nanmax,
    "nanmin": _nanmin,
    "nanvar": _nanvar,
    "nanstd": _nanstd,
    "nanargmax": _nanargmax,
    "nanargmin": _nanargmin,
}
#: ints and bool: no NaN, the plain reduction (numpy's nan* functions do the same)
_PLAIN = {
    "nansum": "sum",
    "nanprod": "prod",
    "nanmean": "mean",
    "nanmax": "max",
    "nanmin": "min",
    "nanvar": "var",
}
_PLAIN.update(nanstd="std", nanargmax="argmax", nanargmin="argmin")


@functools.lru_cache(maxsize=512)
def _covered(op: str, dtype: np.dtype[Any], result: np.dtype[Any]) -> bool:
    """Do the kernels run ``op`` on ``dtype`` giving ``result``? Not for float16/complex nor
    a ``dtype=`` other than the rule's (numpy accumulates in that dtype); memoized (``.name``
    and the rule cost microseconds a call)."""
    if not kernel_dtype(dtype):
        return False
    return bool(result.name == rules.result_dtype(rules.REDUCTIONS[op].dtype_rule, dtype.name))


def reduce_nan(
    op: str, a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, **params: Any
) -> Array | None:
    """Run ``op`` (a nan* reduction or count_nonzero); ``None`` where numpy must (``_nanprod``,
    float16/complex, a ``dtype=`` other than the rule's)."""
    from .. import _numpy as _ref

    if not _covered(op, a.dtype, np.dtype(dtype)):
        return None
    if a.ndim == 0 or a.size == 0 or not axes:
        return _ref.reduce(op, a, axes, keepdims, dtype, **params)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    if op == "count_nonzero":
        return _count_nonzero(a, axes, keepdims, dtype)
    if a.dtype.kind == "f":
        fn = _FLOAT_OPS.get(op)
        return None if fn is None else fn(a, axes, keepdims, dtype, **params)
    plain = _PLAIN.get(op)
    if plain is None:
        return None
    if plain in ("var", "std"):
        n = math.prod(a.shape[d] for d in axes)
        if n - params["correction"] <= 0:
            _warn("Degrees of freedom <= 0 for slice")
    from . import _OPS

    return _OPS[plain](a, axes, keepdims, dtype, **params)


NAN_OPS = frozenset((*_FLOAT_OPS, "count_nonzero"))
