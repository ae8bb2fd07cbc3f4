"""The numba backend: every reduction in one pass over memory, numpy's semantics.

Dispatch (this module) canonicalises any (shape, strides, axes) to C-contiguous groups of
merged dims, alternately kept and reduced; each stage reduces the last reduced group of a
``(O, R, I)`` view with a horizontal (``I == 1``) or vertical kernel from ``_kernels`` and the
partial results feed the next stage, so non-adjacent axes need no transposed copy. Short rows
(``I == 1``, ``R <= 16``, many of them) go to the narrow kernels, which transpose blocks of
rows in cache and reuse the vertical task bodies. max/min over arrays beyond the caches
(``kern.PF_MIN``) stream in 512-byte chunks with software prefetch ahead. Layouts
that are not a permutation of a contiguous block (slices with gaps, broadcast views) are copied
once into (kept..., reduced...) order. Empty inputs, 0-d inputs and ``axis=()`` go to the
numpy reference; dtypes outside bool/int/uint/float32/float64 (float16, complex) and a
``dtype=`` other than the rules' result dtype return ``None`` (fallback).
"""

from __future__ import annotations

import itertools
import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from ... import _rules as rules
from .. import _numpy as _ref
from .._routing import idle_cores as _idle_cores
from . import _kernels as kern
from ._cache import CACHE, CACHE_DIR

__all__ = ["CACHE", "CACHE_DIR", "NAME", "reduce"]

NAME = "numba"

Array = npt.NDArray[Any]

#: below this many elements a kernel runs serially (parallel kernels are never compiled)
PAR_MIN = 1 << 18
_WB = 1 << 16  # vertical column block: whole rows stream sequentially (accumulators in L2)
_WB_VAR = 1 << 14  # vertical column block for var (4 float64 accumulator rows in L2)
_WB_2PASS = 1024  # vertical column block for var / logsumexp (64-row block re-read from L2)
_NARROW_MIN_ROWS = 1024  # fewer short rows: the horizontal kernels (one compile fewer)
_NORM_FAMILY = frozenset((kern.SUMABS, kern.SUMSQ, kern.SUMPOW))
_SUPPORTED = frozenset("?bhilqBHILQfd")
_LOCK = threading.Lock()  # parallel launches are serialised: safe under any threading layer


def _threads() -> int:
    return int(numba.get_num_threads())


def _parallel(size: int) -> bool:
    """Run a kernel's parallel variant? Not below PAR_MIN elements (the serial kernel wins and
    the parallel one need not compile) nor with one numba thread; on an idle 2-core machine two
    threads stream more memory than one, so even memory-bound kernels split their work.
    ``TYPEDTENSOR_NUMBA_PARALLEL=0/1`` forces the choice; by default (``auto``) a kernel also
    runs serially while the machine's other cores are busy (1-minute load average at or above
    the core count less a half): a descheduled worker thread stalls the whole kernel, and a
    4 MB sum then took 12-15 ms in parallel against numpy's 0.3 ms (load 5 on 2 cores)."""
    if size < PAR_MIN or _threads() < 2:
        return False
    forced = os.environ.get("TYPEDTENSOR_NUMBA_PARALLEL", "auto").strip().lower()
    if forced in ("0", "1", "false", "true", "no", "yes", "off", "on"):
        return forced in ("1", "true", "yes", "on")
    return _idle_cores()


def _launch(serial: Any, parallel: Any, par: bool, *args: Any) -> None:
    if par:
        with _LOCK:
            parallel(*args)
    else:
        serial(*args)


# ------------------------------------------------------------------------------ canonical form
@dataclass
class _Canon:
    b: Array  # C-contiguous, shape = sizes of the groups
    groups: list[tuple[int, bool]]  # (size, reduced) per merged group
    perm: list[int]  # every original axis, in the order b's memory follows
    flips: list[int]  # original axes reversed to make strides positive
    copied: bool


def _groups(sizes_red: list[tuple[int, bool]]) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    for size, red in sizes_red:
        if size == 1:
            continue
        if out and out[-1][1] == red:
            out[-1] = (out[-1][0] * size, red)
        else:
            out.append((size, red))
    if not any(red for _, red in out):  # every reduced dim has size 1: a trivial stage
        out.append((1, True))
    return out


def _canon(a: Array, axes: tuple[int, ...], flip_red: bool = True) -> _Canon:
    red = set(axes)
    nd = a.ndim
    item = a.itemsize
    ones = [d for d in range(nd) if a.shape[d] == 1]
    dims = [d for d in range(nd) if a.shape[d] != 1]
    flips = [d for d in dims if a.strides[d] < 0]
    ok = all(a.strides[d] != 0 for d in dims) and (flip_red or not (set(flips) & red))
    view = a
    if ok and flips:
        index = tuple(slice(None, None, -1) if d in flips else slice(None) for d in range(nd))
        view = a[index]
    if ok:
        dims.sort(key=lambda d: -view.strides[d])
        expected = item
        for d in reversed(dims):
            if view.strides[d] != expected:
                ok = False
                break
            expected *= view.shape[d]
    if not ok:  # one copy into (kept..., reduced...) order, then everything is canonical
        perm = [d for d in range(nd) if d not in red] + sorted(red)
        b = np.ascontiguousarray(a.transpose(perm))
        groups = _groups([(a.shape[d], d in red) for d in perm])
        return _Canon(b.reshape([s for s, _ in groups]), groups, perm, [], True)
    perm = ones + dims
    groups = _groups([(a.shape[d], d in red) for d in perm])
    b = view.transpose(perm).reshape([s for s, _ in groups])
    return _Canon(b, groups, perm, flips, False)


def _place(c: _Canon, a: Array, axes: tuple[int, ...], res: Array, out: Array) -> Array:
    """Write ``res`` (kept groups in canonical order) into ``out`` (kept dims, original order)."""
    red = set(axes)
    kept = [d for d in c.perm if d not in red]
    r = res.reshape([a.shape[d] for d in kept]).transpose(np.argsort(kept))
    korder = sorted(kept)
    fl = [korder.index(d) for d in c.flips if d not in red]
    if fl:
        r = r[tuple(slice(None, None, -1) if i in fl else slice(None) for i in range(r.ndim))]
    out[...] = r.reshape(out.shape) if r.shape != out.shape else r
    return out


def _unplace_full(c: _Canon, a: Array, full: Array) -> Array:
    """A full-size result computed in canonical order, viewed in the original axis order."""
    r: Array = full.reshape([a.shape[d] for d in c.perm]).transpose(np.argsort(c.perm))
    if c.flips:
        r = r[tuple(slice(None, None, -1) if d in c.flips else slice(None) for d in range(a.ndim))]
    return r


def _split(groups: list[tuple[int, bool]]) -> tuple[int, int, int, int]:
    k = max(i for i, (_, red) in enumerate(groups) if red)
    outer = math.prod(s for s, _ in groups[:k])
    inner = math.prod(s for s, _ in groups[k + 1 :])
    return k, outer, groups[k][0], inner


def _segments(o: int, r: int, nb: int, par: bool, min_seg: int) -> int:
    if not par:
        return 1
    want = 4 * _threads()
    if o * nb >= want:
        return 1
    return max(1, min(-(-want // (o * nb)), r // min_seg))


def _rb(n: int, ns: int) -> int:
    """Rows per horizontal task: short rows are batched so a task holds ~16K elements."""
    return 1 if ns > 1 else max(1, (1 << 14) // max(n, 1))


def _narrow(o: int, r: int, i: int) -> bool:
    """Short rows (R <= NARROW) of a tall array: the transposed-block kernels."""
    return i == 1 and 2 <= r <= kern.NARROW and o >= _NARROW_MIN_ROWS


def _rest(groups: list[tuple[int, bool]], k: int) -> list[tuple[int, bool]]:
    return groups[:k] + groups[k + 1 :]


# ------------------------------------------------------------------------------ stage runners
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
        ns = _segments(o, r, 1, par, 1 << 14)
        part: Array = np.empty((o, ns), zt_t)
        _launch(kern.acc_h, kern.acc_h_par, par, x3.reshape(o, r), part, op, p, zc, zt, _rb(r, ns))
        part = part.reshape(o, ns, 1)
    else:
        wb = min(i, _WB)
        ns = _segments(o, r, -(-i // wb), par, 64)
        part = np.empty((o, ns, i), zt_t)
        vk = (kern.nrm_v, kern.nrm_v_par) if norm else (kern.acc_v, kern.acc_v_par)
        _launch(*vk, par, x3, part, op, p, zc, wb)
    if ns == 1:
        return part.reshape(o, i)
    comb = part.prod(axis=1) if op == kern.PROD else part.sum(axis=1)
    return np.asarray(comb, dtype=zt_t)


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
        ns = _segments(o, r, 1, par, 1 << 14)
        part: Array = np.empty((o, ns), x3.dtype)
        _launch(kern.ext_h, kern.ext_h_par, par, x3.reshape(o, r), part, ismax, _rb(r, ns), pf)
        part = part.reshape(o, ns, 1)
    else:
        wb = min(i, _WB)
        ns = _segments(o, r, -(-i // wb), par, 64)
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
        ns = _segments(o, r, 1, par, 1 << 14)
        pm: Array = np.empty((o, ns))
        p2: Array = np.empty((o, ns))
        _launch(kern.var_h, kern.var_h_par, par, x3.reshape(o, r), pm, p2, _rb(r, ns))
        pm, p2 = pm.reshape(o, ns, 1), p2.reshape(o, ns, 1)
    else:
        wb = min(i, _WB_VAR)
        ns = _segments(o, r, -(-i // wb), par, 64)
        pm, p2 = np.empty((o, ns, i)), np.empty((o, ns, i))
        _launch(kern.var_v, kern.var_v_par, par, x3, pm, p2, wb)
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
        ns = _segments(o, r, 1, par, 1 << 14)
        pm: Array = np.empty((o, ns))
        ps: Array = np.empty((o, ns))
        _launch(kern.lse_h, kern.lse_h_par, par, x3.reshape(o, r), pm, ps, z0, _rb(r, ns))
        pm, ps = pm.reshape(o, ns, 1), ps.reshape(o, ns, 1)
    else:
        wb = min(i, _WB_2PASS)
        ns = _segments(o, r, -(-i // wb), par, 64)
        pm, ps = np.empty((o, ns, i)), np.empty((o, ns, i))
        _launch(kern.lse_v, kern.lse_v_par, par, x3, pm, ps, z0, wb)
    if ns == 1:
        return pm.reshape(o, i), ps.reshape(o, i)
    return _lse_merge(pm, ps, 1)


# ------------------------------------------------------------------------------ ops
def _zeros(a: Array, dtype: np.dtype[Any]) -> tuple[Any, Any]:
    """(chunk zero, total zero) for a sum-like accumulate producing ``dtype``."""
    if a.dtype.kind == "f":
        return a.dtype.type(0), np.float64(0)
    zt = np.dtype(dtype).type(0) if np.dtype(dtype).kind in "iuf" else np.int64(0)
    return zt, zt


def _kept_shape(a: Array, axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if d in axes else s for d, s in enumerate(a.shape))
    return tuple(s for d, s in enumerate(a.shape) if d not in axes)


def _finish(
    c: _Canon, a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, res: Array
) -> Array:
    red = set(axes)
    kept = [d for d in c.perm if d not in red]
    if kept == sorted(kept) and not any(d not in red for d in c.flips):
        r = res.astype(dtype, copy=False)  # res is a fresh partial: no copy when it fits
        if r.flags.c_contiguous:
            return r.reshape(_kept_shape(a, axes, keepdims))
    out = np.empty(_kept_shape(a, axes, False), dtype=dtype)
    _place(c, a, axes, res, out)
    return out.reshape(_kept_shape(a, axes, keepdims))


def _sum(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    zc, zt = _zeros(a, dtype)
    c, res = _acc(a, axes, kern.SUM, 0.0, zc, zt)
    return _finish(c, a, axes, keepdims, dtype, res)


def _prod(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array | None:
    one = np.dtype(dtype).type(1)
    if a.dtype.kind != "f":  # integer products wrap around: any order gives numpy's answer
        c, res = _acc(a, axes, kern.PROD, 0.0, one, one)
        return _finish(c, a, axes, keepdims, dtype, res)
    # numpy multiplies floats one after the other, reduced axes by decreasing |stride|, each
    # in index order (negative strides are not flipped), and where a partial product overflows
    # or underflows its answer depends on that order: keep it, or let the reference run. The
    # canonical copy holds the reduced axes in index order: numpy's when their strides fall.
    c = _canon(a, axes, flip_red=False)
    steps = [abs(a.strides[d]) for d in axes if a.shape[d] > 1]
    falling = all(s > t for s, t in itertools.pairwise(steps)) and 0 not in steps
    if (c.copied and not falling) or sum(red for _, red in c.groups) != 1:
        return None
    _, o, r, i = _split(c.groups)
    return _finish(c, a, axes, keepdims, dtype, _stage_prodf(c.b.reshape(o, r, i), one))


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


def _logsumexp(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    c = _canon(a, axes)
    groups = c.groups
    k, o, r, i = _split(groups)
    z0 = np.float32(0) if a.dtype == np.float32 else np.float64(0)
    m, s = _stage_lse(c.b.reshape(o, r, i), z0)
    groups = _rest(groups, k)
    if any(red for _, red in groups):
        shp = [g for g, _ in groups]
        rax = tuple(j for j, (_, red) in enumerate(groups) if red)
        m, s = _lse_merge(m.reshape(shp), s.reshape(shp), rax)
    with np.errstate(invalid="ignore", divide="ignore"):
        res = m + np.log(s)
    return _finish(c, a, axes, keepdims, dtype, res)


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


def _index_zero(x3: Array, rows: int) -> Any:
    """The vertical argmax's running row index type: float32 (vectorises beside 4-byte data)
    while it counts ``rows`` exactly, else float64."""
    return np.float32(0) if x3.itemsize <= 4 and rows < (1 << 24) else np.float64(0)


def _stage_arg(x3: Array, ismax: bool) -> tuple[Array, Array]:
    o, r, i = x3.shape
    par = _parallel(x3.size)
    if _narrow(o, r, i):
        av: Array = np.empty(o, x3.dtype)
        ai: Array = np.empty(o, np.int64)
        zi = _index_zero(x3, r)
        _launch(kern.arg_n, kern.arg_n_par, par, x3.reshape(o, r), av, ai, ismax, zi, _rb(r, 1))
        return av.reshape(o, 1), ai.reshape(o, 1)
    if i == 1:
        ns = _segments(o, r, 1, par, 1 << 14)
        pv: Array = np.empty((o, ns), x3.dtype)
        pi: Array = np.empty((o, ns), np.int64)
        _launch(kern.arg_h, kern.arg_h_par, par, x3.reshape(o, r), pv, pi, ismax, _rb(r, ns))
        pv, pi = pv.reshape(o, ns, 1), pi.reshape(o, ns, 1)
    else:
        wb = min(i, _WB)
        ns = _segments(o, r, -(-i // wb), par, 64)
        pv, pi = np.empty((o, ns, i), x3.dtype), np.empty((o, ns, i), np.int64)
        zi = _index_zero(x3, -(-r // ns))
        _launch(kern.arg_v, kern.arg_v_par, par, x3, pv, pi, ismax, zi, wb)
    if ns == 1:
        return pv.reshape(o, i), pi.reshape(o, i)
    best = np.argmax(pv, axis=1) if ismax else np.argmin(pv, axis=1)  # first NaN / first best
    sel = np.take_along_axis(pi, best[:, None, :], axis=1)[:, 0, :]
    return np.take_along_axis(pv, best[:, None, :], axis=1)[:, 0, :], sel


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
        s = s.astype(dt)
        if mode in ("lp_max", "power_p_max"):
            s = np.maximum(s, np.asarray(eps, dtype=dt))
        elif mode in ("lp_sum", "power_p_sum"):
            s = s + np.asarray(eps, dtype=dt)
        if mode.startswith("power_p") or p == 1:
            r = s
        elif p == 2:
            r = np.sqrt(s)
        else:
            r = s ** (1.0 / p)
        return _finish(c, a, axes, keepdims, dt, np.asarray(r, dtype=dt))


def _l2_normalize(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any, eps: float, variant: str
) -> Array:
    dt = np.dtype(dtype)
    c, ss = _sumpow(a, axes, 2.0)
    e = np.asarray(eps, dtype=dt)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        ss = ss.astype(dt)
        if variant in ("tensorflow", "openvino-max"):
            denom = np.sqrt(np.maximum(ss, e))
        elif variant == "pytorch":
            denom = np.maximum(np.sqrt(ss), e)
        else:  # openvino-add
            denom = np.sqrt(ss + e)
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


_OPS: dict[str, Callable[..., Array | None]] = {
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
    "logsumexp": _logsumexp,
    "norm": _norm,
    "l2_normalize": _l2_normalize,
}


def reduce(
    op: str,
    a: Array,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    **params: Any,
) -> Array | None:
    """Run reduction ``op`` with numba kernels; ``None`` where the numpy backend must run it."""
    if op.startswith("nan") or op == "count_nonzero":  # kernels of their own module
        from .nan_reductions import reduce_nan

        return reduce_nan(op, a, axes, keepdims, dtype, **params)
    fn = _OPS.get(op)
    if fn is None or a.dtype.char not in _SUPPORTED or not a.dtype.isnative:
        return None  # float16 and complex among them: numpy's loops
    if dtype.name != rules.result_dtype(rules.REDUCTIONS[op].dtype_rule, a.dtype.name):
        return None  # a dtype= argument: numpy accumulates in that dtype
    if a.ndim == 0 or a.size == 0 or not axes:
        return _ref.reduce(op, a, axes, keepdims, dtype, **params)
    x = a.view(np.uint8) if a.dtype == np.bool_ else a
    return fn(x, axes, keepdims, dtype, **params)
