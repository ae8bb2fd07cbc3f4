"""What one dask chunk contributes to a tree reduction: a partial result, computed in one pass
by typedtensor's kernels where they cover the chunk, with numpy's loops otherwise.

Every function here takes an in-memory chunk and the reduced axes (normalised) and returns its
partial with the reduced axes kept at size 1 (dask concatenates partials along them):

- ``reduced_chunk``: the op itself (sum, max, any, count_nonzero...), in the partial dtype;
- ``sum_f8``: the float64 (complex128) sum, for mean;
- ``moments``: the structured ``(n, mean, m2)`` of var/std, NaNs skipped for nanvar/nanstd;
- ``nan_sum_count``: the structured ``(n, s)`` of nanmean;
- ``lse_pairs``: the structured ``(m, s)`` of logsumexp (``lse = m + log(s)``);
- ``power_sum``: the float64 ``sum |x|^p`` of a finite-p norm;
- ``arg_candidates``: the structured ``(v, i, r)`` of argmax/argmin (i a global index, -1 for
  none; r: the slice held a non-NaN).

Inside a dask worker the kernels run serially (``serial_kernels``): the worker's threads are
the parallelism. numba is imported on the first chunk that needs it, never at import.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from .._backend import use_backend
from .._backend._routing import layout, numba_from_bytes
from .._reduce_plan import reduce_array

__all__ = [
    "arg_candidates",
    "arg_dtype",
    "fold",
    "identity_partial",
    "lse_pairs",
    "moments",
    "moments_dtype",
    "nan_sum_count_dtype",
    "nan_sum_count",
    "power_sum",
    "reduced_chunk",
    "serial_kernels",
    "sum_f8",
]

Array = npt.NDArray[Any]
F8 = np.dtype(np.float64)

#: logsumexp partials: the max m and sum(exp(x - m)) (0 for m = -inf, 1 for m = inf or NaN)
LSE = np.dtype([("m", F8), ("s", F8)])
#: dtypes the numba kernels read (bool as uint8)
_NUMBA_CHARS = frozenset("?bhilqBHILQfd")


def fold(ufunc: Any, x: Any, axis: Any, dtype: Any, out: None, keepdims: bool) -> Array:
    """``ufunc.reduce(x, axis, dtype, out, keepdims)`` as an ndarray (numpy's positional
    spelling, the fastest call)."""
    return np.asarray(ufunc.reduce(x, axis, dtype, out, keepdims))


def nan_sum_count_dtype(x_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """nanmean partials: the count of non-NaNs and their float64 (complex128) sum."""
    total = np.complex128 if np.dtype(x_dtype).kind == "c" else np.float64
    return np.dtype([("n", np.int64), ("s", total)])


def arg_dtype(value_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """argmax/argmin partials: the candidate's value, its global index (-1: none) and
    whether its slice held a non-NaN (nanargmax of only NaNs raises at the end)."""
    return np.dtype([("v", value_dtype), ("i", np.int64), ("r", np.bool_)])


@contextlib.contextmanager
def serial_kernels(backend: str = "numba") -> Iterator[None]:
    """Run the block with numba's thread count at 1 in this thread (numba's setting is
    thread-local), so a chunk's kernels run serially inside a dask worker thread; restored
    afterwards (the synchronous scheduler runs chunks in the caller's own thread). With the
    numba backend, numba is imported here (a worker's first chunk), before any kernel runs."""
    numba: Any = sys.modules.get("numba")
    if numba is None and backend == "numba":
        import numba
    if numba is None:  # the numpy backend runs no kernel; nothing to mask
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def _keep_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 if d in axes else s for d, s in enumerate(shape))


def _reduced_count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return math.prod(shape[d] for d in axes)


def _numba_runs(backend: str, op: str, x: Array, axes: tuple[int, ...]) -> bool:
    """Would the numba backend run ``op`` on this chunk in memory (size, dtype, layout)?"""
    if backend != "numba" or x.dtype.char not in _NUMBA_CHARS or not x.dtype.isnative:
        return False
    if x.size == 0 or x.ndim == 0 or not axes:
        return False
    threshold = numba_from_bytes(op, layout(x.shape, x.strides, axes))
    return threshold is not None and x.nbytes >= threshold


class _NumbaStages:
    """The numba backend's stage runners and canonical form (``_canon``, ``_stage_var``,
    ``_finish``...), wherever the backend's modules define them (the package or its
    ``_stages``/``_canonical`` modules)."""

    def __init__(self) -> None:
        import importlib
        import importlib.util

        from .._backend import _numba as package

        self._modules: list[Any] = [package]
        for name in ("_stages", "_canonical"):
            full = f"{package.__name__}.{name}"
            if importlib.util.find_spec(full) is not None:
                self._modules.append(importlib.import_module(full))

    def __getattr__(self, name: str) -> Any:
        for module in self._modules:
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"the numba backend defines no {name}")


_STAGES: list[_NumbaStages] = []


def _numba() -> Any:
    if not _STAGES:
        _STAGES.append(_NumbaStages())
    return _STAGES[0]


def identity_partial(
    shape: tuple[int, ...], axes: tuple[int, ...], fill: Any, partial_dtype: np.dtype[Any]
) -> Array:
    """The partial of a chunk that holds no element of the reduction (a 0-size chunk)."""
    return np.full(_keep_shape(shape, axes), fill, dtype=partial_dtype)


def reduced_chunk(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    op: str,
    partial_dtype: np.dtype[Any],
    empty_fill: Any,
    backend: str,
) -> Array:
    """``op`` of the chunk over ``axis`` kept at size 1, in ``partial_dtype``: a (2, 5) chunk
    summed over axis 1 gives (2, 1). A chunk with no element reduced gives ``empty_fill``."""
    if _reduced_count(x.shape, axis) == 0:
        return identity_partial(x.shape, axis, empty_fill, partial_dtype)
    with use_backend(backend), serial_kernels(backend):
        r = reduce_array(x, op, axis, True, {}, partial_dtype)
    return r if r.dtype == partial_dtype else r.astype(partial_dtype)


def sum_f8(x: Array, axis: tuple[int, ...], keepdims: bool, *, backend: str) -> Array:
    """The chunk's sum in float64 (complex128 for complex) over ``axis``, kept at size 1:
    mean's partial. float32 chunks go through the numba kernels (float64 accumulators)."""
    acc = np.dtype(np.complex128) if x.dtype.kind == "c" else F8
    if x.dtype == np.float32 and _numba_runs(backend, "sum_f8", x, axis):
        nb = _numba()
        with serial_kernels():
            c, res = nb._acc(x, axis, nb.kern.SUM, 0.0, x.dtype.type(0), np.float64(0))
            return np.asarray(nb._finish(c, x, axis, True, F8, res))
    return np.asarray(fold(np.add, x, axis, acc, None, True))


def moments_dtype(x_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """var/std partials: element count, mean (complex for complex input) and the sum of
    squared deviations (``|x - mean|^2``) from that mean."""
    mean = np.complex128 if np.dtype(x_dtype).kind == "c" else np.float64
    return np.dtype([("n", F8), ("mean", mean), ("m2", F8)])


def moments(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, skip_nan: bool, backend: str
) -> Array:
    """The chunk's ``(n, mean, m2)`` over ``axis`` (structured, kept at size 1): var/std's
    partial, one pass through the numba var kernels where they run. ``skip_nan``: counts,
    mean and m2 of the non-NaNs only (nanvar/nanstd). A slice with n == 0 has mean 0, m2 0."""
    out = np.empty(_keep_shape(x.shape, axis), moments_dtype(x.dtype))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if x.size and not skip_nan and _numba_runs(backend, "var", x, axis):
            count, mean, m2 = _numba_moments(x, axis)
            out["n"], out["mean"], out["m2"] = count, mean, m2
            return out
        xf = x.astype(out.dtype["mean"], copy=False)
        if skip_nan and xf.dtype.kind in "fc":
            keep = ~np.isnan(xf)
            n = fold(np.add, keep, axis, np.float64, None, True)
            total = fold(np.add, np.where(keep, xf, 0.0), axis, None, None, True)
            mean = np.where(n > 0, total / np.where(n > 0, n, 1.0), 0.0)
            dev = np.where(keep, xf - mean, 0.0)
        else:
            n = np.full(out.shape, float(_reduced_count(x.shape, axis)))
            mean = fold(np.add, xf, axis, None, None, True) / np.where(n > 0, n, 1.0)
            dev = xf - mean
        out["n"], out["mean"] = n, mean
        squares = (dev * dev.conj()).real if dev.dtype.kind == "c" else dev * dev
        out["m2"] = fold(np.add, squares, axis, None, None, True)
    return out


def _numba_moments(x: Array, axes: tuple[int, ...]) -> tuple[int, Array, Array]:
    """(n, mean, m2) of a chunk in one pass of the numba var kernels (kept dims at size 1)."""
    nb = _numba()
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
    n = _reduced_count(x.shape, axes)
    return (
        n,
        nb._finish(c, a, axes, True, F8, mean),
        nb._finish(c, a, axes, True, F8, m2),
    )


def nan_sum_count(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, backend: str, skip_nan: bool = True
) -> Array:
    """The chunk's ``(n, s)``: how many non-NaNs and their float64 sum (nanmean's partial);
    without ``skip_nan`` every element counts (mean's partial where the array's chunk sizes
    are unknown, so the count cannot be known when the graph is built)."""
    out = np.empty(_keep_shape(x.shape, axis), nan_sum_count_dtype(x.dtype))
    total = out.dtype["s"]
    if not skip_nan:
        out["n"] = _reduced_count(x.shape, axis)
        out["s"] = sum_f8(x, axis, True, backend=backend)
    elif x.dtype.kind in "fc":
        keep = ~np.isnan(x)
        out["n"] = fold(np.add, keep, axis, np.int64, None, True)
        with use_backend(backend), serial_kernels(backend):
            out["s"] = reduce_array(x, "nansum", axis, True, {}, total) if x.size else 0.0
    else:
        out["n"] = _reduced_count(x.shape, axis)
        out["s"] = fold(np.add, x, axis, total, None, True)
    return out


def lse_pairs(x: Array, axis: tuple[int, ...], keepdims: bool, *, backend: str) -> Array:
    """The chunk's ``(m, s)`` over ``axis``: m its max, s = sum(exp(x - m)) (0 where m is
    -inf, 1 where m is inf or NaN), so logsumexp = m + log(s); one pass of the numba
    logsumexp kernels where they run."""
    out = np.empty(_keep_shape(x.shape, axis), LSE)
    if _reduced_count(x.shape, axis) == 0:
        out["m"], out["s"] = -np.inf, 0.0
        return out
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if (
            x.dtype.kind == "f"
            and x.dtype.itemsize >= 4
            and _numba_runs(backend, "logsumexp", x, axis)
        ):
            m, s = _numba_lse(x, axis)
        else:
            xf = x.astype(F8, copy=False)
            m = fold(np.maximum, xf, axis, None, None, True)
            s = fold(np.add, np.exp(xf - np.where(np.isfinite(m), m, 0.0)), axis, None, None, True)
        fin = np.isfinite(m)
        out["m"] = m
        out["s"] = np.where(fin, s, np.where(m == -np.inf, 0.0, 1.0))
    return out


def _numba_lse(x: Array, axes: tuple[int, ...]) -> tuple[Array, Array]:
    nb = _numba()
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


def power_sum(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, p: float, real: np.dtype[Any], backend: str
) -> Array:
    """The chunk's float64 ``sum |x|^p`` over ``axis`` (finite nonzero p), kept at size 1:
    the norms' partial (eps and the root are applied once, at the end). ``|x|`` is taken in
    the norm's real dtype ``real``, as in memory. One pass of the numba kernels where they
    run."""
    if x.dtype.kind in "fiu" and _numba_runs(backend, "norm", x, axis):
        nb = _numba()
        with serial_kernels():
            c, s = nb._sumpow(x, axis, p)
            return np.asarray(nb._finish(c, x, axis, True, F8, s))
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        ax: Array = np.abs(x).astype(real, copy=False)
        powered = ax if p == 1 else ax * ax if p == 2 else ax**p
        return np.asarray(fold(np.add, powered, axis, F8, None, True))


def arg_candidates(
    x: Array,
    *,
    axes: tuple[int, ...],
    flat: bool,
    op: str,
    backend: str,
    block_info: dict[Any, Any] | None = None,
) -> Array:
    """The chunk's best candidate for argmax/argmin (and the nan variants) per kept position:
    its value and its index in the whole array (the flat C-order index for ``flat``), -1
    where the chunk has no element; for nanargmax/nanargmin the value has NaNs filled as
    numpy fills them and ``r`` says whether the slice held a non-NaN."""
    assert block_info is not None
    info = block_info[0]
    offsets = [start for start, _ in info["array-location"]]
    total_shape = tuple(info["shape"])
    out = np.empty(_keep_shape(x.shape, axes), arg_dtype(x.dtype))
    if _reduced_count(x.shape, axes) == 0 or x.size == 0:
        out["v"], out["i"], out["r"] = 0, -1, False
        return out
    skip_nan = op.startswith("nan") and x.dtype.kind in "fc"
    if skip_nan:  # candidates carry the filled values: NaNs never win a merge
        x, local, none = _nan_local_arg(x, axes, flat, op[3:])
    else:
        with use_backend(backend), serial_kernels(backend):
            local = reduce_array(x, op, None if flat else axes[0], True, {})
        none = None
    if flat:
        at = np.unravel_index(int(local.reshape(())), x.shape)
        out["v"] = x[at]
        out["i"] = np.ravel_multi_index(
            tuple(o + j for o, j in zip(offsets, at, strict=True)), total_shape
        )
    else:
        ax = axes[0]
        out["v"] = np.take_along_axis(x, local, ax)
        out["i"] = local + offsets[ax]
    out["r"] = True if none is None else ~none
    return out


def _nan_local_arg(
    x: Array, axes: tuple[int, ...], flat: bool, op: str
) -> tuple[Array, Array, Array]:
    """(NaNs filled with -inf for argmax, +inf for argmin, local index kept at size 1, slices
    with only NaNs): numpy's nanargmax/nanargmin fill NaNs the same way, so a NaN before a
    real -inf wins the tie there too."""
    axis = None if flat else axes[0]
    nan = np.isnan(x)
    filled = np.where(nan, -np.inf if op == "argmax" else np.inf, x)
    local = (np.argmax if op == "argmax" else np.argmin)(filled, axis=axis, keepdims=True)
    return filled, local, np.all(nan, axis=axis, keepdims=True)
