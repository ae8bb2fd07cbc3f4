# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""var/std statistics in one pass: per-chunk mean and M2 merged with Chan's formula
(horizontal), shifted block sums (vertical), and the short-row kernels."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from ._cache import kernel
from ._lanes import EXACT, LANES, add_squared_deviations, add_values, fill, fold
from ._primitives import CH, VBS, _empty, _full, _n_span, _tr
from .sums import _column_task_span


# ----------------------------------------------------------------------------- var (mean, M2)
@njit(fastmath=EXACT, inline="always")
def _chunk_var(seg: Any, lanes: Any) -> Any:
    """(mean, M2) of a chunk: two passes in float64 lanes (``lanes``, overwritten)."""
    fill(lanes, 0.0)
    add_values(seg, lanes, 0.0)
    mc = fold(lanes) / seg.shape[0]
    fill(lanes, 0.0)
    add_squared_deviations(seg, lanes, mc)
    return mc, fold(lanes)


@njit(fastmath=EXACT, inline="always")
def _row_var(row: Any, lanes: Any) -> Any:
    """(mean, M2) of a row: two passes per L1-resident chunk, chunks merged with Chan's rule."""
    n = row.shape[0]
    if n <= CH:
        return _chunk_var(row, lanes)
    cnt = 0.0
    mean = 0.0
    m2 = 0.0
    for ci in range((n + CH - 1) // CH):  # a step range would divide per row
        c0 = ci * CH
        c1 = min(c0 + CH, n)
        mc, q = _chunk_var(row[c0:c1], lanes)
        k = c1 - c0
        nt = cnt + k
        delta = mc - mean
        mean += delta * (k / nt)
        m2 += q + delta * delta * (cnt * k / nt)
        cnt = nt
    return mean, m2


@njit(fastmath=EXACT)
def _var_rows_task(x: Any, pmean: Any, pm2: Any, t: int, ns: int, rb: int) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    lanes = _full(LANES, 0.0)
    for r in range(r0, r1):
        mean, m2 = _row_var(x[r, lo:hi], lanes)
        pmean[r, s] = mean
        pm2[r, s] = m2


@kernel()
def var_h(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """Per row segment: mean and sum of squared deviations (chunked two-pass, Chan merge)."""
    ns = pmean.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _var_rows_task(x, pmean, pm2, t, ns, rb)


@kernel(parallel=True)
def var_h_par(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """var_h in parallel."""
    ns = pmean.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _var_rows_task(x, pmean, pm2, np.int64(t), ns, rb)


@njit(fastmath=EXACT)
def _var_columns_task(x: Any, pmean: Any, pm2: Any, t: int, ns: int, wb: int) -> None:
    o, s, r0, r1, j0, j1 = _column_task_span(x, t, ns, wb)
    w = j1 - j0
    mean = pmean[o, s, j0:j1]
    m2 = pm2[o, s, j0:j1]
    # one pass: per block of VBS rows, sums of (x - shift) and their squares, the shift being
    # the running mean (the first row for the first block); blocks merged with Chan's rule
    s1 = _full(w, 0.0)
    s2 = _full(w, 0.0)
    x0 = x[o, r0, j0:j1]
    for j in range(w):
        mean[j] = np.float64(x0[j])
        m2[j] = 0.0
    cnt = 0.0
    for b0 in range(r0, r1, VBS):
        b1 = min(b0 + VBS, r1)
        k = b1 - b0
        for j in range(w):
            s1[j] = 0.0
            s2[j] = 0.0
        r = b0
        if w > 1024:  # accumulators in L2: 4 rows per pass over them
            while r + 4 <= b1:
                xa = x[o, r, j0:j1]
                xb = x[o, r + 1, j0:j1]
                xc = x[o, r + 2, j0:j1]
                xd = x[o, r + 3, j0:j1]
                for j in range(w):
                    m = mean[j]
                    da = np.float64(xa[j]) - m
                    db = np.float64(xb[j]) - m
                    dc = np.float64(xc[j]) - m
                    dd = np.float64(xd[j]) - m
                    s1[j] += (da + db) + (dc + dd)
                    s2[j] += (da * da + db * db) + (dc * dc + dd * dd)
                r += 4
        for rr in range(r, b1):
            xr = x[o, rr, j0:j1]
            for j in range(w):
                d = np.float64(xr[j]) - mean[j]
                s1[j] += d
                s2[j] += d * d
        nt = cnt + k
        f = cnt / nt
        for j in range(w):
            dm = s1[j] / k  # block mean minus the shift
            q = s2[j] - s1[j] * dm  # block M2
            mean[j] += dm * (k / nt)
            m2[j] += q + dm * dm * (k * f)
        cnt = nt


@kernel()
def var_v(x: Any, pmean: Any, pm2: Any, wb: int) -> None:
    """Per column of x (O, R, I) and segment of R: mean and M2 (blocked two-pass); serial."""
    ns = pmean.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _var_columns_task(x, pmean, pm2, t, ns, wb)


@kernel(parallel=True)
def var_v_par(x: Any, pmean: Any, pm2: Any, wb: int) -> None:
    """var_v in parallel."""
    ns = pmean.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _var_columns_task(x, pmean, pm2, np.int64(t), ns, wb)


@njit(fastmath=EXACT)
def _var_short_rows_task(x: Any, pmean: Any, pm2: Any, t: int, rb: int) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    bm = _empty((1, 1, w), np.float64)
    b2 = _empty((1, 1, w), np.float64)
    _var_columns_task(_tr(x, r0, r1), bm, b2, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        pmean[r0 + i] = bm[0, 0, i]
        pm2[r0 + i] = b2[0, 0, i]


@kernel()
def var_n(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """Mean and M2 of each short row of x (O, R); serial."""
    for t in range(-(-x.shape[0] // rb)):
        _var_short_rows_task(x, pmean, pm2, t, rb)


@kernel(parallel=True)
def var_n_par(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """var_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _var_short_rows_task(x, pmean, pm2, np.int64(t), rb)
