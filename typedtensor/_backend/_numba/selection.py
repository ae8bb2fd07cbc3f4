# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""Order statistics by selection, no full sort: the two middle values of each row (median,
nanmedian).

Each row is read once to count its NaNs, count the values below a band around the middle
and copy the values inside the band into a buffer; the band comes from a sorted sample of
the row (Floyd and Rivest's idea), so the buffer holds a few percent of the row and the
selection runs there. Where the band misses the middle (an unlucky sample, many equal
values) the row is copied whole and selected in place (quickselect with a median-of-three
pivot, a sort after too many rounds). The input is never written.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ._cache import kernel

#: rows up to this length are copied and selected directly (no sample)
_DIRECT_MAX = 4096
#: the sample's size
_SAMPLE = 4096
#: rounds of quickselect before the rest of the range is sorted
_MAX_ROUNDS = 64


@njit(inline="always")
def _select(buf: Any, lo: int, hi: int, k: int) -> None:
    """Place the ``k``-th smallest of ``buf[lo:hi + 1]`` at ``buf[k]``, the smaller values
    before it and the larger after (Hoare's partition, median-of-three pivot)."""
    rounds = 0
    while lo < hi:
        if rounds >= _MAX_ROUNDS:
            buf[lo : hi + 1].sort()
            return
        rounds += 1
        mid = lo + (hi - lo) // 2
        x = buf[lo]
        y = buf[mid]
        z = buf[hi]
        pivot = max(min(x, y), min(max(x, y), z))
        i = lo
        j = hi
        while i <= j:
            while buf[i] < pivot:
                i += 1
            while pivot < buf[j]:
                j -= 1
            if i <= j:
                t = buf[i]
                buf[i] = buf[j]
                buf[j] = t
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return


@njit(inline="always")
def _middle_of(buf: Any, first: int, count: int, k: int, even: bool) -> tuple[Any, Any]:
    """The ``k``-th smallest of ``buf[first:first + count]`` and, for ``even``, the next one."""
    end = first + count - 1
    _select(buf, first, end, first + k)
    lo = buf[first + k]
    hi = lo
    if even:
        hi = buf[first + k + 1]
        for i in range(first + k + 2, end + 1):
            if buf[i] < hi:
                hi = buf[i]
    return lo, hi


@njit(inline="always")
def _pair_by_copy(row: Any, skip_nan: bool, buf: Any) -> tuple[Any, Any, int]:
    """``(lo, hi, count)`` of one row, by copying it whole: count -1 when a NaN is seen
    and not skipped, else the number of non-NaN values."""
    m = 0
    for j in range(row.shape[0]):
        v = row[j]
        if v != v:
            if not skip_nan:
                return v, v, -1
            continue
        buf[m] = v
        m += 1
    if m == 0:
        return row[0], row[0], 0
    lo, hi = _middle_of(buf, 0, m, (m - 1) // 2, m % 2 == 0)
    return lo, hi, m


@njit(inline="always")
def _pair(row: Any, skip_nan: bool, buf: Any, sample: Any) -> tuple[Any, Any, int]:
    """``(lo, hi, count)`` of one row (see ``_pair_by_copy``), through a sampled band."""
    n = row.shape[0]
    if n <= _DIRECT_MAX:
        return _pair_by_copy(row, skip_nan, buf)
    size = sample.shape[0]
    s = 0
    for i in range(size):
        v = row[(i * n) // size]
        if v == v:
            sample[s] = v
            s += 1
        elif not skip_nan:
            return v, v, -1
    if s < 64:
        return _pair_by_copy(row, skip_nan, buf)
    sample[:s].sort()
    margin = int(3.0 * np.sqrt(s)) + 8
    centre = (s - 1) // 2
    ilo = centre - margin
    ihi = centre + 1 + margin
    has_lo = ilo >= 0
    has_hi = ihi < s
    blo = sample[ilo if has_lo else 0]
    bhi = sample[ihi if has_hi else s - 1]
    below = 0
    nans = 0
    c = 0
    for j in range(n):
        v = row[j]
        if v != v:
            if not skip_nan:
                return v, v, -1
            nans += 1
        elif has_lo and v < blo:
            below += 1
        elif not (has_hi and v > bhi):
            buf[c] = v
            c += 1
    m = n - nans
    if m == 0:
        return row[0], row[0], 0
    k = (m - 1) // 2
    even = m % 2 == 0
    last = k + 1 if even else k
    if k < below or last >= below + c:
        return _pair_by_copy(row, skip_nan, buf)
    lo, hi = _middle_of(buf, 0, c, k - below, even)
    return lo, hi, m


@kernel()
def middle_pairs(a2: Any, skip_nan: bool, lo: Any, hi: Any, count: Any) -> None:
    """For each row ``r`` of ``a2`` (rows, n): its lower and upper middle values ``lo[r]``,
    ``hi[r]`` (equal for an odd count) among the non-NaN values, and ``count[r]``: their
    number, or -1 where the row holds a NaN and ``skip_nan`` is false (median's NaN)."""
    n = a2.shape[1]
    buf = np.empty(n, a2.dtype)
    sample = np.empty(min(n, _SAMPLE), a2.dtype)
    for r in range(a2.shape[0]):
        x, y, m = _pair(a2[r], skip_nan, buf, sample)
        lo[r] = x
        hi[r] = y
        count[r] = m
