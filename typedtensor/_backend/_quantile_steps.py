"""numpy's quantile steps around a selection kernel: ``quantile_of_rows`` checks ``q`` and
computes the virtual indexes, the neighbouring indexes, gamma and the interpolation with
numpy's own helpers (``numpy.lib._function_base_impl``), so the result is numpy's bit for
bit; only the partition is replaced by ``_numba.selection.order_values`` (selection of just
the needed order statistics, no full sort). ``AVAILABLE`` is false where this numpy lacks
the helpers (the callers then run numpy's reference).

    >>> quantile_of_rows(np.array([[3.0, 1.0, 2.0, 4.0]]), [0.5], "linear", False, False)
    array([[2.5]])
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["AVAILABLE", "quantile_of_rows"]

Array = npt.NDArray[Any]

try:
    _impl: Any = importlib.import_module("numpy.lib._function_base_impl")
    _METHODS: dict[str, dict[str, Any]] = _impl._QuantileMethods
    _get_indexes = _impl._get_indexes
    _get_gamma = _impl._get_gamma
    _lerp = _impl._lerp
    _quantile_is_valid = _impl._quantile_is_valid
    AVAILABLE = True
except (ImportError, AttributeError):  # pragma: no cover - another numpy
    AVAILABLE = False


def _order_stats(rows2: Array, indexes: Array, full: bool) -> Any:
    """``rows2`` (rows, n) -> ``indexes.shape + (rows,)``: each row's sorted values at
    ``indexes`` (ints, -1 for the last; any order, repeats allowed); ``full`` (one row, the
    whole input reduced): indexed as numpy indexes its 1-D sorted array (a 0-d ``indexes``
    gives a numpy scalar, which matters to the result dtype)."""
    from ._numba.selection import order_values

    n = rows2.shape[1]
    wanted = np.unique(np.where(indexes < 0, indexes + n, indexes)).astype(np.int64)
    found = np.empty((rows2.shape[0], wanted.shape[0]), rows2.dtype)
    order_values(rows2, wanted, found)
    where = np.searchsorted(wanted, np.where(indexes < 0, indexes + n, indexes))
    if full:
        return found[0][where]
    return np.ascontiguousarray(found.T[where.ravel()].reshape(*indexes.shape, rows2.shape[0]))


def quantile_of_rows(rows2: Array, q: Any, method: str, percent: bool, full: bool) -> Array:
    """numpy's ``quantile`` (``percent``: ``percentile``) of each row of ``rows2`` (rows, n),
    ``n >= 1``, shaped ``q.shape + (rows,)`` (``full``, the whole input reduced: one row,
    shaped ``q.shape``); numpy's errors for a bad ``q``."""
    weak_q = type(q) in (int, float)
    if percent:
        qa = np.true_divide(q, 100, out=...)
        if not _quantile_is_valid(qa):
            raise ValueError("Percentiles must be in the range [0, 100]")
    else:
        qa = np.asanyarray(q)
        if not _quantile_is_valid(qa):
            raise ValueError("Quantiles must be in the range [0, 1]")
    if qa.ndim > 1:
        raise ValueError("q must be a scalar or 1d")
    props = _METHODS[method]
    n = rows2.shape[1]
    virtual = np.asanyarray(props["get_virtual_index"](n, qa))
    supports_integers = props["fix_gamma"] is None or (
        method == "linear" and np.issubdtype(virtual.dtype, np.integer)
    )
    if supports_integers:
        return np.asarray(_order_stats(rows2, virtual.astype(np.intp), full))
    previous_indexes, next_indexes = _get_indexes(rows2[:0, 0], virtual, n)
    both = _order_stats(rows2, np.stack([previous_indexes, next_indexes]), full)
    previous, following = both[0], both[1]
    gamma = _get_gamma(virtual, previous_indexes, props)
    gamma = float(gamma) if weak_q else gamma.reshape(virtual.shape + (() if full else (1,)))
    result: Array = np.asarray(_lerp(previous, following, gamma))
    if result.ndim == 0 and rows2.dtype.kind == "f" and np.isnan(previous):
        result = np.asarray(previous)  # numpy: the row's NaN itself (its dtype) for a 0-d result
    return result
