# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""Order statistics by selection, no full sort: the two middle values of each row (median,
nanmedian) and the values at given ranks (quantile and its nan form).

Each row is read once to count its NaNs, count the values below a band around the wanted
rank and copy the values inside the band into a buffer; the band's bounds are two order
statistics of an evenly spaced sample of the row (Floyd and Rivest's idea), its width four
standard deviations of the sample's rank error each side, so the buffer holds a few percent
of the row (less at the tails) and the selection runs there. Where the band misses the rank
(an unlucky sample, many equal values) the row is copied whole and selected in place
(quickselect with a median-of-three pivot, a sort after too many rounds). The input is
never written.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ._cache import kernel

#: rows up to this length are copied and selected directly (no sample)
_DIRECT_MAX = 4096
#: the sample's size
_SAMPLE = 16384
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
def _sample_band(
    src: Any, n: int, rank: int, count: int, sample: Any
) -> tuple[bool, Any, Any, bool, bool]:
    """``(ok, lower, upper, open_lo, open_hi)``: bounds around rank ``rank`` of the ``count``
    non-NaN values of ``src[:n]`` from a sample of its NaN-free values (evenly spaced, up to
    ``n // 8`` of them), four binomial standard deviations of the sample's rank error (plus 8)
    each side; a band that reaches an end of the sample is open there (``open_lo``: no lower
    bound); ``ok`` false: too few values sampled."""
    size = min(sample.shape[0], n // 8)
    step = n // size
    s = 0
    for i in range(size):
        v = src[i * step]
        sample[s] = v
        s += np.intp(v == v)
    if s < 256:
        return False, src[0], src[0], False, False
    p = rank / max(count - 1, 1)
    centre = int(p * (s - 1))
    margin = int(4.0 * np.sqrt(s * p * (1.0 - p))) + 8
    ilo = centre - margin
    ihi = centre + 1 + margin
    open_lo = ilo < 0
    open_hi = ihi >= s
    ilo = max(ilo, 0)
    ihi = min(ihi, s - 1)
    _select(sample, 0, s - 1, ilo)
    _select(sample, ilo, s - 1, ihi)
    return True, sample[ilo], sample[ihi], open_lo, open_hi


@njit(inline="always")
def _in_band(v: Any, lower: Any, upper: Any, open_lo: bool, open_hi: bool) -> bool:
    """Whether ``v`` lies in the band (see ``_sample_band``; a NaN never does)."""
    return (v == v) & ((v >= lower) | open_lo) & ((v <= upper) | open_hi)  # type: ignore[no-any-return]


@njit(inline="always")
def _band_counts(
    src: Any, lo: int, hi: int, lower: Any, upper: Any, open_lo: bool, open_hi: bool
) -> tuple[int, int, int]:
    """``(below, nans, inside)`` of ``src[lo:hi]`` for the band (see ``_sample_band``);
    branch-free; a closed band's loop vectorises."""
    below = 0
    nans = 0
    inside = 0
    if open_lo or open_hi:
        for j in range(lo, hi):
            v = src[j]
            nans += np.intp(v != v)
            below += np.intp((v < lower) & (not open_lo))
            inside += np.intp(_in_band(v, lower, upper, open_lo, open_hi))
        return below, nans, inside
    for j in range(lo, hi):
        v = src[j]
        nans += np.intp(v != v)
        below += np.intp(v < lower)
        inside += np.intp((v >= lower) & (v <= upper))
    return below, nans, inside


#: the band pass counts this many values at a time and copies only blocks the band touches
_BLOCK = 32


@njit(inline="always")
def _band_pass(
    src: Any, n: int, lower: Any, upper: Any, open_lo: bool, open_hi: bool, buf: Any
) -> tuple[int, int, int]:
    """``(below, nans, kept)``: copy the values of ``src[:n]`` within the band (see
    ``_sample_band``) to the front of ``buf`` (``src`` may be ``buf``: a value moves only
    forward), counting the values below and the NaNs. A closed band's pass counts each block
    of ``_BLOCK`` values first (vectorised) and copies, branch-free, only the blocks the band
    touches: a narrow band leaves most blocks alone."""
    below = 0
    nans = 0
    c = 0
    blocked = 0 if open_lo or open_hi else n - n % _BLOCK
    for start in range(0, blocked, _BLOCK):
        inside = 0
        for j in range(start, start + _BLOCK):
            v = src[j]
            nans += np.intp(v != v)
            below += np.intp(v < lower)
            inside += np.intp((v >= lower) & (v <= upper))
        if inside:
            for j in range(start, start + _BLOCK):
                v = src[j]
                buf[c] = v
                c += np.intp((v >= lower) & (v <= upper))
    for j in range(blocked, n):
        v = src[j]
        nans += np.intp(v != v)
        below += np.intp((v < lower) & (not open_lo))
        buf[c] = v
        c += np.intp(_in_band(v, lower, upper, open_lo, open_hi))
    return below, nans, c


#: a band this short is selected in place, not narrowed by another sample
_NARROW_MIN = 16384


@njit(inline="always")
def _narrow(buf: Any, c: int, k: int, last: int, sample: Any) -> tuple[int, int, int]:
    """Narrow ``buf[:c]`` in place around its ranks ``k..last`` by further bands while it
    holds over ``_NARROW_MIN`` values: ``(k, last, c)`` within what is left."""
    while c > _NARROW_MIN:
        ok, lower, upper, open_lo, open_hi = _sample_band(buf, c, k, c, sample)
        if not ok:
            break
        # count first: a pass that misses would lose values
        below, _, inside = _band_counts(buf, 0, c, lower, upper, open_lo, open_hi)
        if k - below < 0 or last - below >= inside or inside == c:
            break  # the band missed, or kept every value (ties)
        _band_pass(buf, c, lower, upper, open_lo, open_hi, buf)
        k -= below
        last -= below
        c = inside
    return k, last, c


@njit(inline="always")
def _pair(row: Any, skip_nan: bool, buf: Any, sample: Any) -> tuple[Any, Any, int]:
    """``(lo, hi, count)`` of one row (see ``_pair_by_copy``): bands around the middle, each
    pass keeping a few percent of the values, then selection in what is left."""
    n = row.shape[0]
    if n <= _DIRECT_MAX:
        return _pair_by_copy(row, skip_nan, buf)
    ok, lower, upper, open_lo, open_hi = _sample_band(row, n, n // 2, n, sample)
    if not ok:
        return _pair_by_copy(row, skip_nan, buf)
    below, nans, c = _band_pass(row, n, lower, upper, open_lo, open_hi, buf)
    if nans and not skip_nan:
        return row[0] * np.nan, row[0] * np.nan, -1
    m = n - nans
    if m == 0:
        return row[0], row[0], 0
    even = m % 2 == 0
    k = (m - 1) // 2 - below  # rank of the lower middle within buf[:c]
    last = k + 1 if even else k
    if k < 0 or last >= c:  # the band missed the middle: copy the row
        return _pair_by_copy(row, skip_nan, buf)
    k, last, c = _narrow(buf, c, k, last, sample)
    lo, hi = _middle_of(buf, 0, c, k, even)
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


@njit(inline="always")
def _rank_pair(
    row: Any, k: int, count: int, skip_nan: bool, buf: Any, sample: Any
) -> tuple[bool, Any, Any]:
    """``(ok, x, y)``: the ``k``-th and ``k + 1``-th smallest of the ``count`` non-NaN values
    of a long row (``y = x`` for the last rank) by one band pass around rank ``k``; ``ok``
    false where the band misses or the row holds a NaN not skipped (the caller copies the
    row then)."""
    n = row.shape[0]
    ok, lower, upper, open_lo, open_hi = _sample_band(row, n, k, count, sample)
    if not ok:
        return False, row[0], row[0]
    below, nans, c = _band_pass(row, n, lower, upper, open_lo, open_hi, buf)
    first = k - below
    last = min(k + 1, count - 1) - below
    if (nans and not skip_nan) or first < 0 or last >= c:
        return False, row[0], row[0]
    first, last, c = _narrow(buf, c, first, last, sample)
    x, y = _middle_of(buf, 0, c, first, last > first)
    return True, x, y


@kernel()
def non_nan_counts(a2: Any, count: Any) -> None:
    """``count[r]``: the number of non-NaN values in row ``r`` of ``a2`` (rows, n)."""
    for r in range(a2.shape[0]):
        row = a2[r]
        m = 0
        for j in range(row.shape[0]):
            v = row[j]
            m += np.intp(v == v)
        count[r] = m


@kernel()
def order_values(a2: Any, ks: Any, counts: Any, skip_nan: bool, out: Any) -> None:
    """For each row ``r`` of ``a2`` (rows, n) and its ranks ``ks[r]`` (a row of ``ks``
    (rows or 1, K), ascending, each in 0..count-1): ``out[r, i]`` is the ``ks[r, i]``-th
    smallest of the row's ``count`` values (``counts[r]``, or ``counts[0]`` when ``counts``
    holds one; ``skip_nan``: the row's non-NaN values, its count of them, rows of count 0
    are left alone). By band passes around each rank on long rows (``_rank_pair``), else by
    successive selections in a copy of the row (quantile); without ``skip_nan`` a row holding
    a NaN gets that NaN in every ``out[r, i]`` (numpy sorts NaNs last and gives NaN for such
    a row)."""
    n = a2.shape[1]
    buf = np.empty(n, a2.dtype)
    sample = np.empty(min(n, _SAMPLE), a2.dtype)
    for r in range(a2.shape[0]):
        row = a2[r]
        kr = ks[min(r, ks.shape[0] - 1)]
        m = counts[min(r, counts.shape[0] - 1)]
        if m <= 0:
            continue
        done = n > _DIRECT_MAX and kr.shape[0] <= 8
        i = 0
        while done and i < kr.shape[0]:
            if i > 0 and kr[i] == kr[i - 1]:
                out[r, i] = out[r, i - 1]
                i += 1
                continue
            done, x, y = _rank_pair(row, kr[i], m, skip_nan, buf, sample)
            out[r, i] = x
            if i + 1 < kr.shape[0] and kr[i + 1] == kr[i] + 1:
                out[r, i + 1] = y
                i += 1
            i += 1
        if done:
            continue
        c = 0
        for j in range(n):  # branch-free compaction of the non-NaN values
            v = row[j]
            buf[c] = v
            c += np.intp(v == v)
        if c < n and not skip_nan:
            nan_at = 0
            while row[nan_at] == row[nan_at]:
                nan_at += 1
            for i in range(kr.shape[0]):
                out[r, i] = row[nan_at]
            continue
        lo = 0
        for i in range(kr.shape[0]):
            k = kr[i]
            _select(buf, lo, c - 1, k)
            out[r, i] = buf[k]
            lo = k
