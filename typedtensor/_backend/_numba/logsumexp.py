# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""logsumexp in one pass: online max rescaling with the vectorisable exp, horizontal, vertical
and short-row kernels writing (max, scaled sum) partials."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, prange

from ._cache import kernel
from ._lanes import EXACT, LANES, fill, fold, lane_adder
from ._primitives import CH, VB, _as, _copy, _empty, _expneg, _full, _n_span, _tr, _vmax
from .extremes import _row_extreme
from .sums import _column_task_span


# ----------------------------------------------------------------------------- logsumexp
# Partial state (M, S): the result is M + log(S). NaN -> (nan, 1), +inf -> (inf, 1),
# all -inf -> (-inf, 0).
@njit(fastmath=EXACT, inline="always")
def _exp_below(z: Any, c: Any, v: Any) -> Any:
    return _expneg(_as(z, v) - c)


#: ``lanes[i % L] += exp(seg[i] - c)``
_add_exps = lane_adder(_exp_below)


@njit(fastmath=EXACT, inline="always")
def _chunk_logsumexp(seg: Any, mc: Any, lanes: Any) -> Any:
    """The sum of exp(seg - mc) in lanes of the compute type (``lanes``, overwritten)."""
    fill(lanes, _as(mc, 0))
    _add_exps(seg, lanes, mc)
    return fold(lanes)


@njit(fastmath=EXACT, inline="always")
def _logsumexp_step(seg: Any, big: float, tot: float, posinf: bool, lanes: Any, pf: bool) -> Any:
    """Fold one chunk into the running (max, sum): returns (nan seen, big, tot, posinf); with
    ``pf`` the max pass prefetches ahead (the next chunk: a long row streams from memory)."""
    mf = np.float64(_row_extreme(seg, True, pf))
    if mf != mf:
        return True, big, tot, posinf
    if posinf or mf == -np.inf:
        return False, big, tot, posinf
    if mf == np.inf:
        return False, big, tot, True
    if mf > big:
        tot *= math.exp(big - mf)
        big = mf
    tot += np.float64(_chunk_logsumexp(seg, _as(lanes[0], big), lanes))
    return False, big, tot, posinf


@njit(fastmath=EXACT, inline="always")
def _row_logsumexp(row: Any, lanes: Any) -> Any:
    """(M, S) of a row in one pass: chunk max, rescale, polynomial exp summed in z0's type."""
    n = row.shape[0]
    big = -np.inf
    tot = 0.0
    posinf = False
    if n <= CH:
        nan, big, tot, posinf = _logsumexp_step(row, big, tot, posinf, lanes, False)
        if nan:
            return np.nan, 1.0
    else:
        for ci in range((n + CH - 1) // CH):  # a step range would divide per row
            c0 = ci * CH
            seg = row[c0 : min(c0 + CH, n)]
            nan, big, tot, posinf = _logsumexp_step(seg, big, tot, posinf, lanes, True)
            if nan:
                return np.nan, 1.0
    if posinf:
        return np.inf, 1.0
    return big, tot


@njit(fastmath=EXACT)
def _logsumexp_rows_task(x: Any, pm: Any, ps: Any, z0: Any, t: int, ns: int, rb: int) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    lanes = _full(LANES, z0)
    for r in range(r0, r1):
        m, q = _row_logsumexp(x[r, lo:hi], lanes)
        pm[r, s] = m
        ps[r, s] = q


@kernel()
def lse_h(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """Per row segment: online (max, sum exp(x - max)) in one pass; serial."""
    ns = pm.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _logsumexp_rows_task(x, pm, ps, z0, t, ns, rb)


@kernel(parallel=True)
def lse_h_par(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """lse_h in parallel."""
    ns = pm.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _logsumexp_rows_task(x, pm, ps, z0, np.int64(t), ns, rb)


@njit(fastmath=EXACT)
def _logsumexp_columns_task(x: Any, pm: Any, ps: Any, z0: Any, t: int, ns: int, wb: int) -> None:
    o, s, r0, r1, j0, j1 = _column_task_span(x, t, ns, wb)
    w = j1 - j0
    big = pm[o, s, j0:j1]  # running max (float64)
    tot = ps[o, s, j0:j1]
    colmax = _copy(x[o, r0, j0:j1])  # NaN-propagating running max: the special cases
    bigc = _full(w, z0)  # the running max in the compute type, for the exp pass
    acc = _full(w, z0)
    for j in range(w):
        big[j] = -np.inf
        tot[j] = 0.0
    for b0 in range(r0, r1, VB):
        b1 = min(b0 + VB, r1)
        for r in range(b0, b1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                colmax[j] = _vmax(colmax[j], xr[j])
        for j in range(w):  # rescale where the max grew (NaN/inf columns are fixed at the end)
            m = np.float64(colmax[j])
            if m > big[j]:
                if tot[j] != 0.0:  # nothing to rescale before the first finite block
                    tot[j] *= math.exp(big[j] - m)
                big[j] = m
            bigc[j] = _as(z0, big[j])
            acc[j] = z0
        for r in range(b0, b1):  # the block again, from cache
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] += _expneg(_as(z0, xr[j]) - bigc[j])
        for j in range(w):
            tot[j] += np.float64(acc[j])
    for j in range(w):
        c = np.float64(colmax[j])
        if c != c:
            big[j] = np.nan
            tot[j] = 1.0
        elif c == np.inf:
            big[j] = np.inf
            tot[j] = 1.0
        elif c == -np.inf:
            big[j] = -np.inf
            tot[j] = 0.0


@kernel()
def lse_v(x: Any, pm: Any, ps: Any, z0: Any, wb: int) -> None:
    """Per column of x (O, R, I): blocked (max, sum exp) state; serial."""
    ns = pm.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _logsumexp_columns_task(x, pm, ps, z0, t, ns, wb)


@kernel(parallel=True)
def lse_v_par(x: Any, pm: Any, ps: Any, z0: Any, wb: int) -> None:
    """lse_v in parallel."""
    ns = pm.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _logsumexp_columns_task(x, pm, ps, z0, np.int64(t), ns, wb)


@njit(fastmath=EXACT)
def _logsumexp_short_rows_task(x: Any, pm: Any, ps: Any, z0: Any, t: int, rb: int) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    bm = _empty((1, 1, w), np.float64)
    bs = _empty((1, 1, w), np.float64)
    _logsumexp_columns_task(_tr(x, r0, r1), bm, bs, z0, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        pm[r0 + i] = bm[0, 0, i]
        ps[r0 + i] = bs[0, 0, i]


@kernel()
def lse_n(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """(max, sum exp) state of each short row of x (O, R); serial."""
    for t in range(-(-x.shape[0] // rb)):
        _logsumexp_short_rows_task(x, pm, ps, z0, t, rb)


@kernel(parallel=True)
def lse_n_par(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """lse_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _logsumexp_short_rows_task(x, pm, ps, z0, np.int64(t), rb)
