"""Which code runs one reduction: numpy's own loops for small inputs, numba's kernels from the
size where they win.

``runner(backend, op, shape, strides, itemsize, axes, keepdims, dtype)`` is called once per
cached plan (``typedtensor/_reduce_plan.py``) and returns ``run(a, params) -> ndarray``. For the
numba backend an input smaller than ``NUMBA_FROM_BYTES[op][layout]`` runs numpy's loops (so a
program whose tensors are all small never imports numba nor compiles a kernel); from that size
on the numba backend runs it. The numpy runners call the ufunc a numpy-backend function calls,
without the Python wrappers around it (``np.sum`` costs ~1 us more than ``np.add.reduce``), so
they give the numpy backend's answers bit for bit (tests/runtime/test_fast_paths.py).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _numpy
from . import reduce_with as _reduce_with
from .norm_finish import l2_denominator

__all__ = ["NUMBA_FROM_BYTES", "Run", "layout", "min_numba_bytes", "numpy_runner", "runner"]

Array = npt.NDArray[Any]
#: a bound reduction: ``run(a, params)`` for an array of the plan's shape, strides and dtype
Run = Callable[[Array, dict[str, Any]], Array]

#: numba never won up to 16 MB with serial kernels (numpy's SIMD loops for vertical sums,
#: max/min and argmax over rows of 256); at 512 MB the parallel kernels win every layout
#: (benchmarks/README.md), so from 64 MB these run numba when its parallel kernels will run
#: (``parallel_kernels_expected``) and numpy otherwise. Serial kernels at 64 and 256 MB
#: (float32, load 6-7, 2026-11-24): sum 1.03-1.93x numpy, max/mean over columns 0.86-1.27x,
#: argmax over rows 0.81-0.86x, prod over rows 0.65-0.89x: only the parallel kernels pay there
_NEVER_UP_TO_16M = 1 << 26
#: The input size (bytes) from which the numba backend runs a reduction, per op and layout
#: (``layout``); below it numpy's loops run. Measured with benchmarks/measure_crossover.py
#: (TYPEDTENSOR_NUMBA_PARALLEL=0, 4 KB..16 MB by factors of 4, float32 and float64, medians of
#: interleaved calls): the smallest size from which the numba backend (dispatch included) was
#: 1.1x numpy or faster at every larger size, the larger of the two dtypes', and never below
#: 64 KB (so a program of small tensors never compiles a kernel; 256 KB over a strided axis:
#: there the crossover moves with the reduced length, (64, 256) over axis 0 ran 1.5x slower
#: in numba at 64 KB where (256, 64) ran 1.2x faster). First measured under load
#: 2-7 (2026-11-24); measured again the same day from load 1 rising to 8 as other jobs
#: started (so single sizes still swing by up to 2x): the second run confirmed every entry
#: but prod "full" (1 -> 16 MB: float32 1.05x at 4 MB), l2_normalize "full" (1 -> 4 MB),
#: "rows" (1 MB -> 256 KB: 1.4x from there), "short_rows" (64 -> 256 KB, float64) and any
#: "rows" (never -> 16 MB: 1.16-1.19x at 16 MB, 1.22x at 64 MB serially); all "rows" kept at
#: 16 MB (1.08-1.26x there, 1.32x at 64 MB). The numba backend's Python dispatch
#: (canonicalisation, stage set-up) costs ~13 us a call, numpy's loops ~0.5 us plus ~1 ns an
#: element. ``None``: never.
NUMBA_FROM_BYTES: dict[str, dict[str, int | None]] = {
    "sum": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": _NEVER_UP_TO_16M,
    },
    "prod": {
        "full": 1 << 24,
        "rows": _NEVER_UP_TO_16M,
        "short_rows": 1 << 16,
        "columns": _NEVER_UP_TO_16M,
    },
    "mean": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": _NEVER_UP_TO_16M,
    },
    "max": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 20,
        "short_rows": 1 << 16,
        "columns": _NEVER_UP_TO_16M,
    },
    "min": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 20,
        "short_rows": 1 << 16,
        "columns": _NEVER_UP_TO_16M,
    },
    "any": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": _NEVER_UP_TO_16M,
    },
    "all": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": _NEVER_UP_TO_16M,
    },
    "var": {
        "full": 1 << 18,
        "rows": 1 << 18,
        "short_rows": 1 << 16,
        "columns": 1 << 18,
    },
    "std": {
        "full": 1 << 18,
        "rows": 1 << 18,
        "short_rows": 1 << 16,
        "columns": 1 << 18,
    },
    "argmax": {
        "full": _NEVER_UP_TO_16M,
        "rows": None,  # numba 0.77x numpy at 64 MB even in parallel (load 1.4)
        "short_rows": 1 << 18,
        "columns": 1 << 18,
    },
    "argmin": {
        "full": _NEVER_UP_TO_16M,
        "rows": None,  # numba 0.77x numpy at 64 MB even in parallel (load 1.4)
        "short_rows": 1 << 18,
        "columns": 1 << 18,
    },
    "logsumexp": {
        "full": 1 << 20,
        "rows": 1 << 18,
        "short_rows": 1 << 16,
        "columns": 1 << 20,
    },
    "norm": {
        "full": 1 << 20,
        "rows": 1 << 20,
        "short_rows": 1 << 16,
        "columns": 1 << 22,
    },
    "l2_normalize": {
        "full": 1 << 22,
        "rows": 1 << 18,
        "short_rows": 1 << 18,
        "columns": _NEVER_UP_TO_16M,
    },
    # NaN-skipping extremes (serial, load 8-9, 2026-11-24): rows 1.1-1.5x numpy from 1 MB;
    # columns and the full reduction 0.4-0.95x up to 32 MB, 1.0-1.3x at 64 MB (numpy's fmax
    # loop and the kernel both stream at one core's bandwidth): only parallel kernels pay there
    "nanmax": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 20,
        "short_rows": 1 << 20,
        "columns": _NEVER_UP_TO_16M,
    },
    "nanmin": {
        "full": _NEVER_UP_TO_16M,
        "rows": 1 << 20,
        "short_rows": 1 << 20,
        "columns": _NEVER_UP_TO_16M,
    },
}
#: ops missing from the table (new reductions) run numba from this size
DEFAULT_NUMBA_FROM_BYTES = 1 << 20
#: a reduced run of at most this many elements is a short row (the numba backend's narrow
#: kernels, ``kern.NARROW``)
SHORT_ROW = 16


def layout(shape: Sequence[int], strides: Sequence[int], axes: Sequence[int]) -> str:
    """How a reduction walks memory, as the numba backend's canonical form sees it.

    ``full``: every dim of size > 1 is reduced; ``rows``: the innermost dim in memory is
    reduced (a contiguous run per result); ``short_rows``: the same with a run of at most
    ``SHORT_ROW`` elements; ``columns``: the innermost dim is kept (a strided reduced axis).

    >>> layout((64, 128), (512, 4), (1,)), layout((64, 128), (512, 4), (0,))
    ('rows', 'columns')
    """
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    red = set(axes)
    if all(d in red for d in dims):
        return "full"
    by_stride = sorted(dims, key=lambda d: abs(strides[d]))
    if by_stride[0] not in red:
        return "columns"
    run = 1
    for d in by_stride:
        if d not in red:
            break
        run *= shape[d]
    return "short_rows" if run <= SHORT_ROW else "rows"


def numba_from_bytes(op: str, where: str) -> int | None:
    """The size (bytes) from which numba runs ``op`` in layout ``where`` (None: never)."""
    return NUMBA_FROM_BYTES.get(op, {}).get(where, DEFAULT_NUMBA_FROM_BYTES)


def min_numba_bytes(ops: Sequence[str] | None = None) -> int:
    """The smallest size (bytes) from which the numba backend runs any of ``ops`` (default:
    every op, including those missing from the table) in any layout: below it every built-in
    backend runs numpy's loops, so a plan does not depend on the strides nor the backend.

    >>> min_numba_bytes(("argmax",)) >= min_numba_bytes()
    True
    """
    sizes = [DEFAULT_NUMBA_FROM_BYTES] if ops is None else []
    for op in NUMBA_FROM_BYTES if ops is None else ops:
        by_layout = NUMBA_FROM_BYTES.get(op, {"": DEFAULT_NUMBA_FROM_BYTES})
        sizes.extend(size for size in by_layout.values() if size is not None)
    return min(sizes, default=1 << 62)


def _supports_out_ellipsis() -> bool:
    try:
        return isinstance(np.add.reduce(np.zeros(1), out=...), np.ndarray)
    except TypeError:  # numpy < 2.3: ``out=...`` (a 0-d array, not a scalar) is unknown
        return False


_OUT_ELLIPSIS = _supports_out_ellipsis()
_FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
#: numpy's argmax gives intp; the fast runners need it to be the int64 the rules promise
_INTP_IS_INT64 = np.dtype(np.intp) == np.dtype(np.int64)

#: op -> (ufunc, the dtype= the numpy backend passes: "result" or None or a fixed dtype)
_UFUNC_REDUCTIONS: dict[str, tuple[np.ufunc, Any]] = {
    "sum": (np.add, "result"),
    "prod": (np.multiply, "result"),
    "max": (np.maximum, None),
    "min": (np.minimum, None),
    "any": (np.logical_or, np.dtype(bool)),
    "all": (np.logical_and, np.dtype(bool)),
}


def _ufunc_runner(
    ufunc: np.ufunc, axes: tuple[int, ...], dtype: Any, keepdims: bool, zero_d: bool
) -> Run:
    reduce: Any = ufunc.reduce
    if not zero_d:
        return lambda a, params: reduce(a, axes, dtype, None, keepdims)
    if _OUT_ELLIPSIS:  # a 0-d array rather than a numpy scalar, at no extra cost
        return lambda a, params: reduce(a, axes, dtype, keepdims=keepdims, out=...)
    return lambda a, params: np.asarray(reduce(a, axes, dtype, None, keepdims))


def _arg_runner(name: str, axes: tuple[int, ...], ndim: int, keepdims: bool) -> Run:
    method = getattr(np.ndarray, name)
    axis = axes[0] if len(axes) == 1 else None  # every axis: numpy's flat index (axis=None)
    if keepdims or (axis is not None and ndim > 1):
        return lambda a, params: method(a, axis, None, keepdims=keepdims)
    return lambda a, params: np.asarray(method(a, axis, None, keepdims=keepdims))


def _errstate_switch() -> Any:
    try:  # numpy 2 keeps the floating-point error state in a context variable
        from numpy._core.umath import _extobj_contextvar
    except ImportError:  # pragma: no cover - another numpy layout: np.errstate
        return None
    return _extobj_contextvar


_ERRSTATE = _errstate_switch()
#: (error state in force, errors to ignore) -> that state with those ignored: what the numpy
#: backend's np.errstate(...) blocks set (~1.4 us a call; setting the context variable ~0.2 us)
_QUIET_OF: dict[tuple[Any, tuple[str, ...]], Any] = {}
_INVALID_DIVIDE = ("invalid", "divide")
_OVER_INVALID_DIVIDE = ("over", "invalid", "divide")


def _quiet_state(ignored: tuple[str, ...] = _INVALID_DIVIDE) -> Any:
    key = (_ERRSTATE.get(), ignored)
    quiet = _QUIET_OF.get(key)
    if quiet is None:
        with np.errstate(**dict.fromkeys(ignored, "ignore")):  # type: ignore[arg-type]
            quiet = _ERRSTATE.get()
        if len(_QUIET_OF) >= 64:
            _QUIET_OF.clear()
        _QUIET_OF[key] = quiet
    return quiet


def _norm_runner(axes: tuple[int, ...], keepdims: bool, zero_d: bool, otherwise: Run) -> Run:
    """The plain L1/L2 norm of float32/float64: the numpy backend's answer (|x|, its square,
    the sum, the root; the square of x itself, which skips a pass over the input, is the
    same number) under its error state; other ``p`` and modes run ``otherwise``."""
    add_reduce: Any = np.add.reduce
    switch, quiet_state = _ERRSTATE, _quiet_state

    def norm(a: Array, params: dict[str, Any]) -> Array:
        p = params["p"]
        if params["mode"] != "plain" or (p != 2 and p != 1):
            return otherwise(a, params)
        token = switch.set(quiet_state(_OVER_INVALID_DIVIDE))
        try:
            if p == 2:  # |x|^2 == x*x; abs of the root restores the NaN sign |x| gives
                r = np.abs(np.sqrt(add_reduce(a * a, axes, None, None, keepdims)))
            else:
                r = add_reduce(np.abs(a), axes, None, None, keepdims)
        finally:
            switch.reset(token)
        return np.asarray(r) if zero_d else r

    return norm


def _l2_normalize_runner(axes: tuple[int, ...], dtype: np.dtype[Any]) -> Run:
    """l2_normalize of float32/float64 into the same dtype: the numpy backend's calls (sum of
    squares with keepdims, the variant's denominator, the division) under its error state."""
    add_reduce: Any = np.add.reduce
    switch, quiet_state = _ERRSTATE, _quiet_state
    scalar = dtype.type

    def l2_normalize(a: Array, params: dict[str, Any]) -> Array:
        e, variant = scalar(params["eps"]), params["variant"]
        token = switch.set(quiet_state(_OVER_INVALID_DIVIDE))
        try:
            ss = add_reduce(a * a, axes, None, None, True)
            return a / l2_denominator(ss, e, variant)  # type: ignore[no-any-return]
        finally:
            switch.reset(token)

    return l2_normalize


def _logsumexp_runner(
    axes: tuple[int, ...], shape: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]
) -> Run:
    """logsumexp of float32/float64 over a non-empty reduction: the numpy backend's calls
    (max, shift by the finite max, exp, sum, log) under its error state."""
    max_reduce: Any = np.maximum.reduce
    add_reduce: Any = np.add.reduce
    switch, quiet_state = _ERRSTATE, _quiet_state
    kept = tuple(d for i, d in enumerate(shape) if i not in axes)

    def logsumexp(a: Array, params: dict[str, Any]) -> Array:
        token = switch.set(quiet_state(_OVER_INVALID_DIVIDE))
        try:
            m = max_reduce(a, axes, None, None, True)
            m = np.where(np.isfinite(m), m, 0).astype(dtype)
            total = add_reduce(np.exp(a - m), axes, None, None, True)
            r = (np.log(total) + m).astype(dtype)
        finally:
            switch.reset(token)
        return r if keepdims else r.reshape(kept)  # type: ignore[no-any-return]

    return logsumexp


def _moments_runner(
    op: str, axes: tuple[int, ...], shape: tuple[int, ...], keepdims: bool, zero_d: bool
) -> Run:
    """mean/var/std of float32/float64 into the same dtype over a non-empty reduction: the
    calls the numpy backend makes (``np.mean``'s sum and in-place divide; ``ndarray.var``),
    under its error state."""
    count = 1
    for d in axes:
        count *= shape[d]
    add_reduce: Any = np.add.reduce
    divide: Any = np.true_divide
    switch, quiet_state = _ERRSTATE, _quiet_state

    def mean(a: Array, params: dict[str, Any]) -> Array:
        token = switch.set(quiet_state(_INVALID_DIVIDE))
        try:
            if zero_d:
                total = add_reduce(a, axes, a.dtype, keepdims=keepdims, out=...)
            else:
                total = add_reduce(a, axes, a.dtype, None, keepdims)  # a.dtype: the result's
            return divide(total, count, out=total, casting="unsafe")  # type: ignore[no-any-return]
        finally:
            switch.reset(token)

    def var(a: Array, params: dict[str, Any]) -> Array:
        correction = params["correction"]
        if correction == 0:  # numpy's var runs ~1.2 us longer with a float ddof; int 0 divides
            correction = 0  # by the same float64 count (an intp scalar either way): same bits
        token = switch.set(quiet_state(_INVALID_DIVIDE))
        try:
            v = a.var(axes, None, None, correction, keepdims=keepdims)
            if op == "std":
                v = np.sqrt(v)
        finally:
            switch.reset(token)
        return np.asarray(v) if zero_d else v

    return mean if op == "mean" else var


def numpy_runner(
    op: str,
    axes: tuple[int, ...],
    ndim: int,
    keepdims: bool,
    dtype: np.dtype[Any],
    input_dtype: np.dtype[Any] | None = None,
    shape: tuple[int, ...] | None = None,
) -> Run:
    """The numpy backend's ``op`` bound to one plan; the ufunc itself for the cheap ops.

    >>> numpy_runner("sum", (1,), 2, False, np.dtype("int64"))(np.ones((2, 3), "int8"), {})
    array([3, 3])
    """
    zero_d = not keepdims and len(axes) == ndim
    if ndim > 0:
        found = _UFUNC_REDUCTIONS.get(op)
        if found is not None:
            ufunc, dtype_arg = found
            return _ufunc_runner(
                ufunc, axes, dtype if dtype_arg == "result" else dtype_arg, keepdims, zero_d
            )
        if op in ("argmax", "argmin") and _INTP_IS_INT64 and dtype == np.dtype(np.int64):
            return _arg_runner(op, axes, ndim, keepdims)
        if (
            op in ("mean", "var", "std")
            and shape is not None
            and _ERRSTATE is not None
            and (_OUT_ELLIPSIS or op != "mean")
            and dtype in _FLOAT_DTYPES
            and input_dtype == dtype
            and all(shape[d] for d in axes)
        ):
            return _moments_runner(op, axes, shape, keepdims, zero_d)
        if (
            op in ("norm", "logsumexp", "l2_normalize")
            and shape is not None
            and _ERRSTATE is not None
            and dtype in _FLOAT_DTYPES
            and input_dtype == dtype
            and all(shape[d] for d in axes)
        ):
            if op == "logsumexp":
                return _logsumexp_runner(axes, shape, keepdims, dtype)
            if op == "l2_normalize":
                return _l2_normalize_runner(axes, dtype)
            return _norm_runner(
                axes, keepdims, zero_d, _generic_runner(op, axes, keepdims, dtype, zero_d)
            )
    return _generic_runner(op, axes, keepdims, dtype, zero_d)


def _generic_runner(
    op: str, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], zero_d: bool
) -> Run:
    """The numpy backend's own function for ``op``."""
    reduce = _numpy.reduce
    if zero_d:  # a backend function may give a numpy scalar (np.sqrt of a 0-d array does)
        return lambda a, params: np.asarray(reduce(op, a, axes, keepdims, dtype, **params))
    return lambda a, params: reduce(op, a, axes, keepdims, dtype, **params)


def runner(
    backend: str,
    op: str,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    itemsize: int,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    input_dtype: np.dtype[Any] | None = None,
) -> Run:
    """The code that runs ``op`` for one (shape, strides, dtype, axes, keepdims) on ``backend``.

    numpy: its runner. numba: numpy's runner below ``NUMBA_FROM_BYTES`` (and for empty or
    rank-0 inputs and ``axis=()``, which the numba backend hands to numpy anyway), else the
    numba backend (falling back to numpy where it does not cover the dtype).
    """
    ndim = len(shape)
    if backend == "numpy":
        return numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
    if backend == "numba":
        nbytes = itemsize
        for size in shape:
            nbytes *= size
        if nbytes == 0 or ndim == 0 or not axes:
            return numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
        threshold = numba_from_bytes(op, layout(shape, strides, axes))
        if threshold is None or nbytes < threshold:
            return numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
    run = functools.partial(_reduce_with, backend, op)
    if not keepdims and len(axes) == ndim:
        backend_run: Run = lambda a, params: np.asarray(run(a, axes, keepdims, dtype, **params))  # noqa: E731
    else:
        backend_run = lambda a, params: run(a, axes, keepdims, dtype, **params)  # noqa: E731
    if backend == "numba" and threshold == _NEVER_UP_TO_16M:
        # only the parallel kernels beat numpy here: numpy's loops while they would run serially
        fallback = numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
        return lambda a, params: (
            backend_run(a, params) if parallel_kernels_expected() else fallback(a, params)
        )
    return backend_run


def idle_cores() -> bool:
    """Does a second thread find a free core? (1-minute load average below cores - 0.5)."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover - no load average on this platform
        return True
    return load < (os.cpu_count() or 1) - 0.5


def parallel_kernels_expected() -> bool:
    """Would the numba backend run a large input's parallel kernels now?
    (``TYPEDTENSOR_NUMBA_PARALLEL``, else 2+ cores and one of them free.)"""
    forced = os.environ.get("TYPEDTENSOR_NUMBA_PARALLEL", "auto").strip().lower()
    if forced in ("0", "1", "false", "true", "no", "yes", "off", "on"):
        return forced in ("1", "true", "yes", "on")
    return (os.cpu_count() or 1) >= 2 and idle_cores()
