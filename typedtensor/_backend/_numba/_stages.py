"""The numba backend's stages: one ``(O, R, I)`` view reduced over ``R`` by the kernels of
``_kernels`` (horizontal for ``I == 1``, vertical otherwise, the narrow transposed-block
kernels for many short rows), with the thread policy that picks serial or parallel kernels
(``_parallel``) and the merge of per-segment partial results.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from .. import _thread_policy as policy
from .._background_compile import kernel_ready
from ..kernel_twins import NOT_TWINNED, twin_of
from . import _kernels as kern
from ._canonical import _Canon, _canon, _rest, _split

Array = npt.NDArray[Any]

#: below this many elements a kernel runs serially (parallel kernels are never compiled)
PAR_MIN = policy.PARALLEL_FROM_ELEMENTS
_WB = 1 << 16  # vertical column block: whole rows stream sequentially (accumulators in L2)
_WB_VAR = 1 << 14  # vertical column block for var (4 float64 accumulator rows in L2)
_WB_2PASS = 1024  # vertical column block for var / logsumexp (64-row block re-read from L2)
_NARROW_MIN_ROWS = 1024  # fewer short rows: the horizontal kernels (one compile fewer)
_NORM_FAMILY = frozenset((kern.SUMABS, kern.SUMSQ, kern.SUMPOW))
_LOCK = threading.Lock()  # parallel launches are serialised: safe under any threading layer


def _threads() -> int:
    return int(numba.get_num_threads())


#: the thread policy's reading of the machine (``_thread_policy``), named here for the tests
_idle_cores = policy.idle_cores


def _parallel(size: int) -> bool:
    """Run a kernel's parallel variant? Not below PAR_MIN elements (the serial kernel wins and
    the parallel one need not compile); else as ``_thread_policy.parallel_now`` says (the
    setting, two or more numba threads and a free core)."""
    if size < PAR_MIN:
        return False
    return policy.parallel_now(_threads(), lambda: _idle_cores())


def _launch(serial: Any, parallel: Any, par: bool, *args: Any) -> None:
    """Run ``parallel(*args)`` (timed by the thread policy, one launch at a time) or
    ``serial(*args)``: the same bits either way. A parallel variant not compiled yet for
    these argument types compiles in a helper process while the serial one runs
    (``_background_compile``). Inside ``kernel_twins.serving()`` the serial kernel's numpy
    twin runs where it has one (the same bits again)."""
    twin = twin_of(serial)
    if twin is not None and twin(*args) is not NOT_TWINNED:
        return
    if par and kernel_ready(parallel, args, deferrable=True):
        with _LOCK:
            policy.timed_launch(parallel, _threads(), *args)
        return
    serial(*args)


#: the tasks a reduction of few rows (or column blocks) is split into, whatever the thread count:
#: a row's segments are a function of its shape alone, so the serial and parallel kernels
#: compute the same partial results and combine them in the same order (bit for bit equal)
SEGMENT_TASKS = 16


def _segments(o: int, r: int, nb: int, size: int, min_seg: int) -> int:
    """Segments per row of ``R`` for ``o`` rows (``nb`` column blocks each) of an input of
    ``size`` elements: 1 below ``PAR_MIN`` (nothing runs in parallel there), else enough for
    ``SEGMENT_TASKS`` tasks, each at least ``min_seg`` rows long. Neither the thread count nor
    the route (serial or parallel) enters: both routes give the same bits."""
    if size < PAR_MIN or o * nb >= SEGMENT_TASKS:
        return 1
    return max(1, min(-(-SEGMENT_TASKS // (o * nb)), r // min_seg))


def _rb(n: int, ns: int) -> int:
    """Rows per horizontal task: short rows are batched so a task holds ~16K elements."""
    return 1 if ns > 1 else max(1, (1 << 14) // max(n, 1))


def _narrow(o: int, r: int, i: int) -> bool:
    """Short rows (R <= NARROW) of a tall array: the transposed-block kernels."""
    return i == 1 and 2 <= r <= kern.NARROW and o >= _NARROW_MIN_ROWS


#: the row kernels of one op (serial, parallel): the code and bits of ``acc_h`` for that op,
#: without the other ops' loops, so that a first sum or L2 norm compiles a fraction of it
ONE_OP_ROW_KERNELS: dict[int, tuple[Any, Any]] = {
    kern.SUM: (kern.sum_h, kern.sum_h_par),
    kern.SUMSQ: (kern.sumsq_h, kern.sumsq_h_par),
}


def _stage_acc(x3: Array, op: int, p: float, zc: Any, zt: Any) -> Array:
    o, r, i = x3.shape
    par = _parallel(x3.size)
    zt_t = np.asarray(zt).dtype
    norm = op in _NORM_FAMILY  # the norm loops live in kernels of their own (compile time)
    if _narrow(o, r, i):
        acc: Array = np.empty(o, zt_t)
        fam = True if norm else None  # None: numba compiles the sum family only
        _launch(kern.acc_n, kern.acc_n_par, par, x3.reshape(o, r), acc, op, p, zc, _rb(r, 1), fam)
        return acc.reshape(o, 1)
    if i == 1:
        ns = _segments(o, r, 1, x3.size, 1 << 14)
        part: Array = np.empty((o, ns), zt_t)
        rb = _rb(r, ns)
        one_op = ONE_OP_ROW_KERNELS.get(op)
        if one_op is not None:
            _launch(*one_op, par, x3.reshape(o, r), part, zc, zt, rb)
        else:
            _launch(kern.acc_h, kern.acc_h_par, par, x3.reshape(o, r), part, op, p, zc, zt, rb)
        part = part.reshape(o, ns, 1)
    else:
        wb = min(i, _WB)
        ns = _segments(o, r, -(-i // wb), x3.size, 64)
        part = np.empty((o, ns, i), zt_t)
        vk = (kern.nrm_v, kern.nrm_v_par) if norm else (kern.acc_v, kern.acc_v_par)
        _launch(*vk, par, x3, part, op, p, zc, wb)
    return _combine_acc(part, op)


def _combine_acc(part: Array, op: int) -> Array:
    """The ``(O, I)`` accumulate from the ``(O, ns, I)`` partials of ``ns`` row segments, in
    segment order (the serial and parallel kernels fill ``part`` alike)."""
    o, ns, i = part.shape
    if ns == 1:
        return part.reshape(o, i)
    comb = part.prod(axis=1) if op == kern.PROD else part.sum(axis=1)
    return np.asarray(comb, dtype=part.dtype)


def _acc(
    a: Array, axes: tuple[int, ...], op: int, p: float, zc: Any, zt: Any
) -> tuple[_Canon, Array]:
    """Accumulate over ``axes``: the (canon, result in canonical kept order) pair."""
    c = _canon(a, axes)
    groups, x = c.groups, c.b
    while any(red for _, red in groups):
        k, o, r, i = _split(groups)
        x = _stage_acc(x.reshape(o, r, i), op, p, zc, zt)
        groups = _rest(groups, k)
        # later stages combine partials (already in the total dtype)
        op = kern.PROD if op == kern.PROD else kern.SUM
        zc = zt
    return c, x


def _stage_ext(x3: Array, ismax: bool) -> Array:
    o, r, i = x3.shape
    par = _parallel(x3.size)
    pf = x3.nbytes >= kern.PF_MIN  # software prefetch, for arrays beyond the caches
    if _narrow(o, r, i):
        ext: Array = np.empty(o, x3.dtype)
        _launch(kern.ext_n, kern.ext_n_par, par, x3.reshape(o, r), ext, ismax, _rb(r, 1))
        return ext.reshape(o, 1)
    if i == 1:
        ns = _segments(o, r, 1, x3.size, 1 << 14)
        part: Array = np.empty((o, ns), x3.dtype)
        _launch(kern.ext_h, kern.ext_h_par, par, x3.reshape(o, r), part, ismax, _rb(r, ns), pf)
        part = part.reshape(o, ns, 1)
    else:
        wb = min(i, _WB)
        ns = _segments(o, r, -(-i // wb), x3.size, 64)
        part = np.empty((o, ns, i), x3.dtype)
        _launch(kern.ext_v, kern.ext_v_par, par, x3, part, ismax, wb, pf)
    if ns == 1:
        return part.reshape(o, i)
    return np.asarray(np.max(part, axis=1) if ismax else np.min(part, axis=1))


def _ext(a: Array, axes: tuple[int, ...], ismax: bool) -> tuple[_Canon, Array]:
    c = _canon(a, axes)
    groups, x = c.groups, c.b
    while any(red for _, red in groups):
        k, o, r, i = _split(groups)
        x = _stage_ext(x.reshape(o, r, i), ismax)
        groups = _rest(groups, k)
    return c, x


def _stage_var(x3: Array) -> tuple[Array, Array]:
    o, r, i = x3.shape
    par = _parallel(x3.size)
    if _narrow(o, r, i):
        vm: Array = np.empty(o)
        v2: Array = np.empty(o)
        _launch(kern.var_n, kern.var_n_par, par, x3.reshape(o, r), vm, v2, _rb(r, 1))
        return vm.reshape(o, 1), v2.reshape(o, 1)
    if i == 1:
        ns = _segments(o, r, 1, x3.size, 1 << 14)
        pm: Array = np.empty((o, ns))
        p2: Array = np.empty((o, ns))
        _launch(kern.var_h, kern.var_h_par, par, x3.reshape(o, r), pm, p2, _rb(r, ns))
        pm, p2 = pm.reshape(o, ns, 1), p2.reshape(o, ns, 1)
    else:
        wb = min(i, _WB_VAR)
        ns = _segments(o, r, -(-i // wb), x3.size, 64)
        pm, p2 = np.empty((o, ns, i)), np.empty((o, ns, i))
        _launch(kern.var_v, kern.var_v_par, par, x3, pm, p2, wb)
    return _combine_moments(pm, p2, r)


def _combine_moments(pm: Array, p2: Array, r: int) -> tuple[Array, Array]:
    """(mean, M2) of rows of ``r`` elements from the ``(O, ns, I)`` means and M2s of their
    ``ns`` segments (Chan's merge, in segment order)."""
    o, ns, i = pm.shape
    if ns == 1:
        return pm.reshape(o, i), p2.reshape(o, i)
    cnt = np.diff((np.arange(ns + 1) * r) // ns).astype(np.float64).reshape(1, ns, 1)
    with np.errstate(invalid="ignore", over="ignore"):
        mean = (pm * cnt).sum(axis=1, keepdims=True) / r
        m2 = p2.sum(axis=1) + (cnt * (pm - mean) ** 2).sum(axis=1)
    return mean.reshape(o, i), m2


def _var_stats(a: Array, axes: tuple[int, ...]) -> tuple[_Canon, Array, int]:
    """(canon, M2 in canonical kept order, count)."""
    c = _canon(a, axes)
    groups = c.groups
    k, o, r, i = _split(groups)
    mean, m2 = _stage_var(c.b.reshape(o, r, i))
    groups = _rest(groups, k)
    if any(red for _, red in groups):  # merge equal-count partials over the other groups
        shp = [s for s, _ in groups]
        rax = tuple(j for j, (_, red) in enumerate(groups) if red)
        mean, m2 = mean.reshape(shp), m2.reshape(shp)
        with np.errstate(invalid="ignore", over="ignore"):
            mt = mean.mean(axis=rax, keepdims=True)
            m2 = m2.sum(axis=rax) + r * ((mean - mt) ** 2).sum(axis=rax)
    n = math.prod(a.shape[d] for d in axes)
    return c, m2, n


def _lse_merge(m: Array, s: Array, axis: Any) -> tuple[Array, Array]:
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        mt = np.max(m, axis=axis, keepdims=True)
        fin = np.isfinite(mt)
        st = np.sum(s * np.exp(m - np.where(fin, mt, 0.0)), axis=axis, keepdims=True)
        st = np.where(fin, st, np.where(mt == -np.inf, 0.0, 1.0))
    return np.squeeze(mt, axis=axis), np.squeeze(st, axis=axis)


def _stage_lse(x3: Array, z0: Any) -> tuple[Array, Array]:
    o, r, i = x3.shape
    par = _parallel(x3.size)
    if _narrow(o, r, i):
        lm: Array = np.empty(o)
        ls: Array = np.empty(o)
        _launch(kern.lse_n, kern.lse_n_par, par, x3.reshape(o, r), lm, ls, z0, _rb(r, 1))
        return lm.reshape(o, 1), ls.reshape(o, 1)
    if i == 1:
        ns = _segments(o, r, 1, x3.size, 1 << 14)
        pm: Array = np.empty((o, ns))
        ps: Array = np.empty((o, ns))
        _launch(kern.lse_h, kern.lse_h_par, par, x3.reshape(o, r), pm, ps, z0, _rb(r, ns))
        pm, ps = pm.reshape(o, ns, 1), ps.reshape(o, ns, 1)
    else:
        wb = min(i, _WB_2PASS)
        ns = _segments(o, r, -(-i // wb), x3.size, 64)
        pm, ps = np.empty((o, ns, i)), np.empty((o, ns, i))
        _launch(kern.lse_v, kern.lse_v_par, par, x3, pm, ps, z0, wb)
    return _combine_lse(pm, ps)


def _combine_lse(pm: Array, ps: Array) -> tuple[Array, Array]:
    """(max, sum of exp(x - max)) from the ``(O, ns, I)`` partials of ``ns`` row segments."""
    o, ns, i = pm.shape
    if ns == 1:
        return pm.reshape(o, i), ps.reshape(o, i)
    return _lse_merge(pm, ps, 1)


def _stage_prodf(x3: Array, one: Any) -> Array:
    """The float product of ``x3`` (O, R, I) over R in numpy's order: one segment per row
    (segments would start new partial products), ``kern.PRODF`` for rows, the sequential
    vertical kernels (one accumulator per column) otherwise."""
    o, r, i = x3.shape
    if _narrow(o, r, i):
        acc: Array = np.empty(o, x3.dtype)
        args = (x3.reshape(o, r), acc, kern.PROD, 0.0, one, _rb(r, 1), None)
        _launch(kern.acc_n, kern.acc_n_par, _parallel(x3.size), *args)
        return acc.reshape(o, 1)
    if i == 1:
        part: Array = np.empty((o, 1), x3.dtype)
        big = float(np.ldexp(1.0, np.finfo(x3.dtype).maxexp - 4))  # 2^1020 / 2^124
        args_h = (x3.reshape(o, r), part, kern.PRODF, big, one, one, _rb(r, 1))
        _launch(kern.acc_h, kern.acc_h_par, _parallel(x3.size) and o > 1, *args_h)
        return part
    wb = min(i, _WB)
    part = np.empty((o, 1, i), x3.dtype)
    par = _parallel(x3.size) and o * -(-i // wb) > 1
    _launch(kern.acc_v, kern.acc_v_par, par, x3, part, kern.PROD, 0.0, one, wb)
    return part.reshape(o, i)


def _index_zero(itemsize: int, rows: int) -> Any:
    """The vertical argmax's running row index type: float32 (vectorises beside 4-byte data)
    while it counts ``rows`` exactly, else float64."""
    return np.float32(0) if itemsize <= 4 and rows < (1 << 24) else np.float64(0)


def _stage_arg(x3: Array, ismax: bool) -> tuple[Array, Array]:
    o, r, i = x3.shape
    par = _parallel(x3.size)
    if _narrow(o, r, i):
        av: Array = np.empty(o, x3.dtype)
        ai: Array = np.empty(o, np.int64)
        zi = _index_zero(x3.itemsize, r)
        _launch(kern.arg_n, kern.arg_n_par, par, x3.reshape(o, r), av, ai, ismax, zi, _rb(r, 1))
        return av.reshape(o, 1), ai.reshape(o, 1)
    if i == 1:
        ns = _segments(o, r, 1, x3.size, 1 << 14)
        pv: Array = np.empty((o, ns), x3.dtype)
        pi: Array = np.empty((o, ns), np.int64)
        _launch(kern.arg_h, kern.arg_h_par, par, x3.reshape(o, r), pv, pi, ismax, _rb(r, ns))
        pv, pi = pv.reshape(o, ns, 1), pi.reshape(o, ns, 1)
    else:
        wb = min(i, _WB)
        ns = _segments(o, r, -(-i // wb), x3.size, 64)
        pv, pi = np.empty((o, ns, i), x3.dtype), np.empty((o, ns, i), np.int64)
        zi = _index_zero(x3.itemsize, -(-r // ns))
        _launch(kern.arg_v, kern.arg_v_par, par, x3, pv, pi, ismax, zi, wb)
    if ns == 1:
        return pv.reshape(o, i), pi.reshape(o, i)
    best = np.argmax(pv, axis=1) if ismax else np.argmin(pv, axis=1)  # first NaN / first best
    sel = np.take_along_axis(pi, best[:, None, :], axis=1)[:, 0, :]
    return np.take_along_axis(pv, best[:, None, :], axis=1)[:, 0, :], sel
