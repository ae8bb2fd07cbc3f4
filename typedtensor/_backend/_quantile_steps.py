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
import warnings
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["AVAILABLE", "nanquantile_of_rows", "quantile_of_rows"]

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


def _checked_q(q: Any, percent: bool) -> tuple[Array, bool]:
    """numpy's checks of ``q``: ``(q as an array of fractions, weak_q)`` (a Python number's
    weak promotion decides the result dtype)."""
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
    return qa, weak_q


class _Steps:
    """numpy's index steps of ``method`` for rows of ``n`` values: ``indexes`` (the order
    statistics each ``q`` needs: ``q.shape``, or ``(2,) + q.shape`` for the two neighbours
    of an interpolation) and ``wanted``, their distinct ranks ascending."""

    def __init__(self, qa: Array, method: str, n: int, dtype: np.dtype[Any]) -> None:
        props = _METHODS[method]
        self.virtual = np.asanyarray(props["get_virtual_index"](n, qa))
        self.props = props
        self.n = n
        if props["fix_gamma"] is None or (
            method == "linear" and np.issubdtype(self.virtual.dtype, np.integer)
        ):
            self.previous: Array | None = None
            self.indexes = self.virtual.astype(np.intp)
        else:
            self.previous, following = _get_indexes(np.empty(0, dtype), self.virtual, n)
            self.indexes = np.stack([self.previous, following])
        self.positive = np.where(self.indexes < 0, self.indexes + n, self.indexes)
        self.wanted = np.unique(self.positive).astype(np.int64)

    def finish(self, found: Array, wanted: Array, weak_q: bool, full: bool) -> Array:
        """numpy's quantiles from ``found`` (rows, len(wanted)): row ``r``'s order statistics
        at ranks ``wanted`` (a superset of ``self.wanted``, ascending); shaped ``q.shape +
        (rows,)`` (``full``: one row, shaped ``q.shape``, as numpy's 1-D steps give it)."""
        where = np.searchsorted(wanted, self.positive)
        if full:  # a 0-d ``where`` gives a numpy scalar, which matters to the result dtype
            values = found[0][where]
        else:
            values = np.ascontiguousarray(
                found.T[where.ravel()].reshape(*self.indexes.shape, found.shape[0])
            )
        if self.previous is None:
            return np.asarray(values)
        previous, following = values[0], values[1]
        gamma = _get_gamma(self.virtual, self.previous, self.props)
        gamma = float(gamma) if weak_q else gamma.reshape(self.virtual.shape + ((1,), ())[full])
        result: Array = np.asarray(_lerp(previous, following, gamma))
        if result.ndim == 0 and found.dtype.kind == "f" and np.isnan(previous):
            result = np.asarray(
                previous
            )  # numpy: the row's NaN itself (its dtype) for a 0-d result
        return result


def quantile_of_rows(rows2: Array, q: Any, method: str, percent: bool, full: bool) -> Array:
    """numpy's ``quantile`` (``percent``: ``percentile``) of each row of ``rows2`` (rows, n),
    ``n >= 1``, shaped ``q.shape + (rows,)`` (``full``, the whole input reduced: one row,
    shaped ``q.shape``); numpy's errors for a bad ``q``."""
    from ._numba.selection import order_values

    qa, weak_q = _checked_q(q, percent)
    n = rows2.shape[1]
    steps = _Steps(qa, method, n, rows2.dtype)
    found = np.empty((rows2.shape[0], steps.wanted.shape[0]), rows2.dtype)
    order_values(rows2, steps.wanted[None], np.array([n], np.int64), False, found)
    return steps.finish(found, steps.wanted, weak_q, full)


def nanquantile_of_rows(rows2: Array, q: Any, method: str, percent: bool, full: bool) -> Array:
    """numpy's ``nanquantile`` (``percent``: ``nanpercentile``) of each row of ``rows2``, as
    ``quantile_of_rows`` gives ``quantile``: each row's non-NaN values (their count sets the
    ranks) by numpy's 1-D steps; an all-NaN row gives NaN and numpy's RuntimeWarning, and the
    result takes the first row's dtype (numpy's ``apply_along_axis``)."""
    if rows2.dtype.kind != "f":  # no NaNs: numpy's answer is quantile's
        return quantile_of_rows(rows2, q, method, percent, full)
    from ._numba.selection import non_nan_counts, order_values

    qa, weak_q = _checked_q(q, percent)
    rows = rows2.shape[0]
    counts = np.empty(rows, np.int64)
    non_nan_counts(rows2, counts)
    groups = {int(m): _Steps(qa, method, int(m), rows2.dtype) for m in np.unique(counts) if m}
    width = max((s.wanted.shape[0] for s in groups.values()), default=1)
    ranks = np.zeros((rows, width), np.int64)
    members = {m: np.flatnonzero(counts == m) for m in groups}
    for m, steps in groups.items():  # pad each row's ranks with its last
        padded = np.concatenate([steps.wanted, steps.wanted[-1:].repeat(width - len(steps.wanted))])
        ranks[members[m]] = padded
    found = np.empty((rows, width), rows2.dtype)
    order_values(rows2, ranks, counts, True, found)
    parts = {
        m: steps.finish(found[members[m]], ranks[members[m][0]], weak_q, full)
        for m, steps in groups.items()
    }
    for _ in range(int(np.count_nonzero(counts == 0))):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=7)
    if full:
        return parts[int(counts[0])] if counts[0] else np.full(qa.shape, np.nan, rows2.dtype)
    dtype = rows2.dtype if counts[0] == 0 else parts[int(counts[0])].dtype
    result = np.full((*qa.shape, rows), np.nan, dtype)
    for m, part in parts.items():
        result[..., members[m]] = part
    return result
