"""Partial results of reductions for chunked engines (dask): the one interface between the
backends' kernels and ``typedtensor._dask._partials``.

Every function takes an in-memory chunk, its reduced axes (normalised, non-empty reduction)
and a backend name, and returns the chunk's partial with the reduced axes kept at size 1,
computed serially (a chunked engine's worker threads are its parallelism): with the numba
backend, numba's serial kernels where they beat numpy's loops serially on the chunk's layout
(``_routing.DASK_SERIAL_NUMBA_FROM_BYTES``, read from ``crossovers.json``; measured with
``benchmarks/bench_dask.py --partials``), numpy's loops otherwise. ``path="numba"``/
``"numpy"`` forces a side (tests, benchmarks). numba is imported only when a kernel runs.

- ``sums(x, axes)``: the float64 (complex128) sum, mean's partial;
- ``pow_sums(x, axes, p, real)``: the float64 ``sum |x|^p``, the norms' partial;
- ``var_partials(x, axes)``: ``(n, mean, m2)``, var/std's partial (``n`` an int);
- ``nan_var_partials(x, axes)``: ``(n, mean, m2)`` of the non-NaNs (``n`` an array);
- ``nan_sum_count(x, axes)``: ``(n, s)``, the count of non-NaNs and their float64 sum;
- ``lse_partials(x, axes)``: ``(m, s)``, the max and ``sum(exp(x - m))`` of logsumexp;
- ``nan_arg_partials(x, axes, ismax)``: nanargmax/nanargmin's local index and all-NaN flag.

A (4096, 64) float32 chunk over axis 0: ``sums(x, (0,))`` -> (1, 64) float64.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterator
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ._layouts import KERNEL_CHARS
from ._routing import DASK_SERIAL_NUMBA_FROM_BYTES, DASK_SERIAL_NUMPY, PARALLEL_ONLY, layout

__all__ = [
    "lse_partials",
    "nan_arg_partials",
    "nan_sum_count",
    "nan_var_partials",
    "numba_serial_runs",
    "pow_sums",
    "serial_backend",
    "serial_kernels",
    "sums",
    "var_partials",
]

Array = npt.NDArray[Any]
Path = Literal["auto", "numba", "numpy"]
F8 = np.dtype(np.float64)

#: dtypes the numba kernels read (bool as uint8); the NaN kernels read floats only
_NUMBA_CHARS = KERNEL_CHARS
_NAN_CHARS = frozenset("fd")


@contextlib.contextmanager
def serial_kernels(backend: str = "numba") -> Iterator[None]:
    """Run the block with numba's thread count at 1 in this thread (numba's setting is
    thread-local), so kernels run serially inside a worker thread; restored afterwards. With
    the numba backend, numba is imported here, before any kernel runs."""
    if backend != "numba" and "numba" not in sys.modules:
        yield  # the numpy backend runs no kernel; nothing to mask
        return
    # the import statement, not sys.modules: while another worker thread imports numba,
    # sys.modules holds the half-initialised module, and only the import waits for it
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def numba_serial_runs(partial: str, x: Array, axes: tuple[int, ...], backend: str) -> bool:
    """Does ``partial`` of this chunk run numba's serial kernels (backend, dtype, size,
    layout)? ``numba_serial_runs("sums", x, (0,), "numba")``."""
    chars = _NAN_CHARS if partial.startswith("nan") else _NUMBA_CHARS
    if backend != "numba" or x.dtype.char not in chars or not x.dtype.isnative:
        return False
    if x.size == 0 or x.ndim == 0 or not axes:
        return False
    threshold = DASK_SERIAL_NUMBA_FROM_BYTES[partial][layout(x.shape, x.strides, axes)]
    return threshold is not None and x.nbytes >= threshold


def serial_backend(op: str, x: Array, axes: tuple[int, ...], backend: str) -> str:
    """The backend that runs reduction ``op`` (through the in-memory routing) on this chunk
    serially: ``backend``, but numpy where the routing table lets numba run ``op`` on this
    layout only when its parallel kernels will (``PARALLEL_ONLY``: serially numpy's loops
    won, e.g. sums over a strided axis) or ``DASK_SERIAL_NUMPY`` says so (``crossovers.json``:
    there the serial kernel lost to numpy's loop)."""
    if backend != "numba" or x.ndim == 0 or not axes:
        return backend
    where = layout(x.shape, x.strides, axes)
    serial_loses = (op, where) in DASK_SERIAL_NUMPY
    return "numpy" if serial_loses or (op, where) in PARALLEL_ONLY else backend


def _numba_side(path: Path, partial: str, x: Array, axes: tuple[int, ...], backend: str) -> bool:
    if path == "auto":
        return numba_serial_runs(partial, x, axes, backend)
    if path == "numba" and not numba_serial_runs(partial, x, axes, "numba"):
        chars = _NAN_CHARS if partial.startswith("nan") else _NUMBA_CHARS
        if x.dtype.char not in chars or x.size == 0 or x.ndim == 0 or not axes:
            return False  # the kernels do not read it: numpy's side is the only one
    return path == "numba"


def _keep_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 if d in axes else s for d, s in enumerate(shape))


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return math.prod(shape[d] for d in axes)


def _fold(ufunc: Any, x: Any, axes: tuple[int, ...], dtype: Any = None) -> Array:
    return np.asarray(ufunc.reduce(x, axes, dtype, None, True))


class _Numba:
    """The numba backend's pieces the partials run, imported on first use (numba with them):
    its canonical form and stage runners (``_canon``, ``_stage_var``, ``_finish``...: looked
    up in ``_numba._canonical``, ``_numba._stages`` and the package, in that order), its
    kernels (``kern``) and its NaN-aware functions and kernels (``nan``, ``nan_kernels``)."""

    def __init__(self) -> None:
        from . import _numba as package
        from ._numba import _canonical, _kernels, _stages, nan_kernels, nan_reductions

        self._modules: tuple[Any, ...] = (_canonical, _stages, package)
        self.kern = _kernels
        self.nan = nan_reductions
        self.nan_kernels = nan_kernels

    def __getattr__(self, name: str) -> Any:
        for module in self._modules:
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"the numba backend defines no {name}")


_LOADED: list[_Numba] = []


def _nb() -> _Numba:
    if not _LOADED:
        _LOADED.append(_Numba())
    return _LOADED[0]


# --------------------------------------------------------------------------- sums
def sums(x: Array, axes: tuple[int, ...], *, backend: str, path: Path = "auto") -> Array:
    """The chunk's float64 (complex128 for complex) sum over ``axes``, kept at size 1: (8, 5)
    over (1,) -> (8, 1). float inputs on the kernel side sum in float64 accumulators."""
    table = "sums64" if x.dtype == np.float64 else "sums"
    if x.dtype.kind == "f" and _numba_side(path, table, x, axes, backend):
        nb = _nb()
        with serial_kernels():
            c, res = nb._acc(x, axes, nb.kern.SUM, 0.0, x.dtype.type(0), np.float64(0))
            return np.asarray(nb._finish(c, x, axes, True, F8, res))
    if x.dtype == np.float32 and layout(x.shape, x.strides, axes) != "columns":
        # contiguous runs: numpy's pairwise float32 sum (numpy's own mean of float32 sums so)
        # ran 1.5x the float64 kernel on 64-float rows; casting to float64 first, 2.4x slower
        return _fold(np.add, x, axes, np.float32).astype(F8)
    return _fold(np.add, x, axes, np.complex128 if x.dtype.kind == "c" else F8)


def pow_sums(
    x: Array,
    axes: tuple[int, ...],
    p: float,
    real: np.dtype[Any],
    *,
    backend: str,
    path: Path = "auto",
) -> Array:
    """The chunk's float64 ``sum |x|^p`` over ``axes`` (finite nonzero p), kept at size 1;
    ``|x|`` taken in ``real`` (the norm's real dtype) on numpy's side, as in memory."""
    if x.dtype.kind in "fiu" and _numba_side(path, "pow_sums", x, axes, backend):
        nb = _nb()
        with serial_kernels():
            c, s = nb._sumpow(x, axes, p) if hasattr(nb, "_sumpow") else _sumpow(nb, x, axes, p)
            return np.asarray(nb._finish(c, x, axes, True, F8, s))
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        ax: Array = np.abs(x).astype(real, copy=False)
        powered = ax if p == 1 else ax * ax if p == 2 else ax**p
        return _fold(np.add, powered, axes, F8)


def _sumpow(nb: _Numba, x: Array, axes: tuple[int, ...], p: float) -> tuple[Any, Array]:
    kern = nb.kern
    zc = x.dtype.type(0) if x.dtype.kind == "f" else np.float64(0)
    op = kern.SUMABS if p == 1 else kern.SUMSQ if p == 2 else kern.SUMPOW
    result: tuple[Any, Array] = nb._acc(x, axes, op, float(p), zc, np.float64(0))
    return result


# --------------------------------------------------------------------------- moments
def var_partials(
    x: Array, axes: tuple[int, ...], *, backend: str, path: Path = "auto"
) -> tuple[int, Array, Array]:
    """The chunk's ``(n, mean, m2)`` over ``axes``: element count, mean (complex for complex
    input) and sum of ``|x - mean|^2``, mean and m2 kept at size 1. One pass of the numba var
    kernels on their side, two numpy passes on the other."""
    n = _count(x.shape, axes)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if _numba_side(path, "var", x, axes, backend):
            mean, m2 = _numba_moments(x, axes)
            return n, mean, m2
        xf = x.astype(np.complex128 if x.dtype.kind == "c" else F8, copy=False)
        mean = _fold(np.add, xf, axes) / max(n, 1)
        dev = xf - mean
        squares = (dev * dev.conj()).real if dev.dtype.kind == "c" else dev * dev
        return n, mean, _fold(np.add, squares, axes)


def _numba_moments(x: Array, axes: tuple[int, ...]) -> tuple[Array, Array]:
    nb = _nb()
    a = x.view(np.uint8) if x.dtype == np.bool_ else x
    with serial_kernels():
        c = nb._canon(a, axes)
        k, o, r, i = nb._split(c.groups)
        mean, m2 = nb._stage_var(c.b.reshape(o, r, i))
    groups = nb._rest(c.groups, k)
    if any(red for _, red in groups):  # Chan's merge of equal-count partials (as _var_stats)
        shp = [s for s, _ in groups]
        rax = tuple(j for j, (_, red) in enumerate(groups) if red)
        mean, m2 = mean.reshape(shp), m2.reshape(shp)
        mt = mean.mean(axis=rax, keepdims=True)
        m2 = m2.sum(axis=rax) + r * ((mean - mt) ** 2).sum(axis=rax)
        mean = np.squeeze(mt, axis=rax)
    return nb._finish(c, a, axes, True, F8, mean), nb._finish(c, a, axes, True, F8, m2)


def nan_var_partials(
    x: Array, axes: tuple[int, ...], *, backend: str, path: Path = "auto"
) -> tuple[Array, Array, Array]:
    """The chunk's ``(n, mean, m2)`` of the non-NaNs over ``axes``, each kept at size 1 (n a
    float64 count); a slice with no non-NaN has mean 0 and m2 0. One pass of the numba NaN
    moment kernels on their side."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if _numba_side(path, "nan_var", x, axes, backend):
            n, mean, m2 = _numba_nan_moments(x, axes)
        else:
            xf = x.astype(np.complex128 if x.dtype.kind == "c" else F8, copy=False)
            keep = ~np.isnan(xf)
            n = _fold(np.add, keep, axes, F8)
            mean = _fold(np.add, np.where(keep, xf, 0.0), axes) / np.where(n > 0, n, 1.0)
            dev = np.where(keep, xf - mean, 0.0)
            squares = (dev * dev.conj()).real if dev.dtype.kind == "c" else dev * dev
            m2 = _fold(np.add, squares, axes)
        empty = n == 0
        return n, np.where(empty, 0.0, mean), np.where(empty, 0.0, m2)


def _numba_nan_moments(x: Array, axes: tuple[int, ...]) -> tuple[Array, Array, Array]:
    nb = _nb()
    nr, nk = nb.nan, nb.nan_kernels
    with serial_kernels():
        c, x3 = nr._three(x, axes)
        o, r, i = x3.shape
        shape = (o, 1) if i == 1 else (o, 1, i)
        cnt, mean, m2 = np.empty(shape), np.empty(shape), np.empty(shape)
        if i == 1:
            nk.nanmoments_rows(x3.reshape(o, r), cnt, mean, m2, x3.dtype.type(0))
        else:
            nk.nanmoments_columns(x3, cnt, mean, m2, min(i, nr._WB))
    return tuple(nb._finish(c, x, axes, True, F8, part.reshape(o, i)) for part in (cnt, mean, m2))


def nan_sum_count(
    x: Array, axes: tuple[int, ...], *, backend: str, path: Path = "auto"
) -> tuple[Array, Array]:
    """The chunk's ``(n, s)`` over ``axes``: the int64 count of non-NaNs and their float64
    (complex128) sum, kept at size 1. One pass of the numba NaN sum kernels on their side."""
    if _numba_side(path, "nan_sum_count", x, axes, backend):
        nb = _nb()
        with serial_kernels():
            c, total, cnt = nb.nan._sum_count(x, axes)
        return nb._finish(c, x, axes, True, np.int64, cnt), nb._finish(c, x, axes, True, F8, total)
    acc = np.complex128 if x.dtype.kind == "c" else F8
    if x.dtype.kind not in "fc":
        n = np.full(_keep_shape(x.shape, axes), _count(x.shape, axes), np.int64)
        return n, _fold(np.add, x, axes, acc)
    keep = ~np.isnan(x)
    return _fold(np.add, keep, axes, np.int64), _fold(np.add, np.where(keep, x, 0), axes, acc)


# --------------------------------------------------------------------------- logsumexp
def lse_partials(
    x: Array, axes: tuple[int, ...], *, backend: str, path: Path = "auto"
) -> tuple[Array, Array]:
    """The chunk's float64 ``(m, s)`` over ``axes``, kept at size 1: m the max and s =
    sum(exp(x - m)) (0 where m is -inf, 1 where m is inf or NaN), so logsumexp = m + log(s).
    One pass of the numba logsumexp kernels (float32/float64) on their side."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if (
            x.dtype.kind == "f"
            and x.dtype.itemsize >= 4
            and _numba_side(path, "lse", x, axes, backend)
        ):
            m, s = _numba_lse(x, axes)
        else:
            xf = x.astype(F8, copy=False)
            m = _fold(np.maximum, xf, axes)
            s = _fold(np.add, np.exp(xf - np.where(np.isfinite(m), m, 0.0)), axes)
        s = np.where(np.isfinite(m), s, np.where(m == -np.inf, 0.0, 1.0))
    return m, s


def _numba_lse(x: Array, axes: tuple[int, ...]) -> tuple[Array, Array]:
    nb = _nb()
    z0 = np.float32(0) if x.dtype == np.float32 else np.float64(0)
    with serial_kernels():
        c = nb._canon(x, axes)
        k, o, r, i = nb._split(c.groups)
        m, s = nb._stage_lse(c.b.reshape(o, r, i), z0)
    groups = nb._rest(c.groups, k)
    if any(red for _, red in groups):
        shp = [g for g, _ in groups]
        rax = tuple(j for j, (_, red) in enumerate(groups) if red)
        m, s = nb._lse_merge(m.reshape(shp), s.reshape(shp), rax)
    return nb._finish(c, x, axes, True, F8, m), nb._finish(c, x, axes, True, F8, s)


# --------------------------------------------------------------------------- nanargmax
def nan_arg_partials(
    x: Array, axes: tuple[int, ...], flat: bool, ismax: bool, *, backend: str, path: Path = "auto"
) -> tuple[Array, Array]:
    """nanargmax (``ismax``) / nanargmin of a float chunk: (the local index of the extreme,
    NaNs read as -inf / +inf as numpy fills them, kept at size 1; slices holding only NaNs),
    over ``axes[0]`` or, for ``flat``, the C-order flattening. One pass of the numba NaN
    argmax kernels on their side; NaN tests, a filled copy and argmax in numpy's."""
    if _numba_side(path, "nan_arg", x, axes, backend):
        return _numba_nan_arg(x, axes, flat, ismax)
    axis = None if flat else axes[0]
    nan = np.isnan(x)
    filled = np.where(nan, -np.inf if ismax else np.inf, x)
    local = (np.argmax if ismax else np.argmin)(filled, axis=axis, keepdims=True)
    return local, np.all(nan, axis=axis, keepdims=True)


def _numba_nan_arg(x: Array, axes: tuple[int, ...], flat: bool, ismax: bool) -> tuple[Array, Array]:
    nb = _nb()
    nr, nk = nb.nan, nb.nan_kernels
    if flat or x.ndim == 1:
        x3 = np.ascontiguousarray(x).reshape(1, -1, 1)
        c = None
    else:
        c = nb._canon(x, axes, False)
        _, o, r, i = nb._split(c.groups)
        x3 = c.b.reshape(o, r, i)
    o, r, i = x3.shape
    idx = np.empty((o, i), np.int64)
    with serial_kernels():
        if i == 1:
            nk.nanarg_rows(x3.reshape(o, r), idx.reshape(o), ismax)
        else:
            nk.nanarg_columns(x3, idx, ismax, min(i, nr._WB))
    none = idx < 0  # every element of the slice is NaN: numpy's filled argmax gives 0
    idx[none] = 0
    if c is None:
        keep = (1,) * x.ndim
        return idx.reshape(keep), none.reshape(keep)
    one_axis = (axes[0],)
    return (
        nb._finish(c, x, one_axis, True, np.int64, idx),
        nb._finish(c, x, one_axis, True, np.bool_, none),
    )
