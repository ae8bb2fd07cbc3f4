"""Which code runs one reduction: numpy's own loops for small inputs, numba's kernels from the
size where they win.

``runner(backend, op, shape, strides, itemsize, axes, keepdims, dtype)`` is called once per
cached plan (``typedtensor/_reduce_plan.py``) and returns ``run(a, params) -> ndarray``. For the
numba backend an input smaller than ``NUMBA_FROM_BYTES[op][layout]`` runs numpy's loops (so a
program whose tensors are all small never imports numba nor compiles a kernel), except in the
ranges of ``DIRECT_FROM_BYTES``, where one serial kernel bound to the plan runs
(``_numba/direct.py``: the backend's kernels without its per-call Python dispatch); from
``NUMBA_FROM_BYTES`` on the numba backend's ``reduce`` runs it. The numpy runners call the
ufunc a numpy-backend function calls, without the Python wrappers around it (``np.sum`` costs
~1 us more than ``np.add.reduce``), so they give the numpy backend's answers bit for bit
(tests/runtime/test_fast_paths.py); they are in ``_numpy_runners``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import reduce_with as _reduce_with
from ._layouts import KERNEL_CHARS, SHORT_ROW, kernel_dtype, layout, one_block, one_reduced_block
from ._numpy_runners import Run, numpy_runner
from ._thread_policy import PARALLEL_FROM_ELEMENTS as PARALLEL_FROM_ELEMENTS
from ._thread_policy import parallel_expected as parallel_kernels_expected

__all__ = [
    "DIRECT_DTYPES",
    "DIRECT_FROM_BYTES",
    "DIRECT_KERNEL_CHARS",
    "DIRECT_LONGEST",
    "NUMBA_DTYPES",
    "NUMBA_FROM_BYTES",
    "PARALLEL_ONLY",
    "SHORT_ROW",
    "Run",
    "layout",
    "min_numba_bytes",
    "numpy_runner",
    "one_block",
    "one_reduced_block",
    "runner",
]


class _ParallelOnly(int):
    """A ``NUMBA_FROM_BYTES`` size that holds only while the parallel kernels will run (the
    entry is in ``PARALLEL_ONLY``); any other size holds for the serial kernels too."""


#: numba never won up to 16 MB with serial kernels (numpy's SIMD loops for vertical sums,
#: max/min and argmax over rows of 256); at 512 MB the parallel kernels win every layout
#: (benchmarks/README.md), so from 64 MB these run numba when its parallel kernels will run
#: (``parallel_kernels_expected``) and numpy otherwise (the ones measured in parallel below
#: do so from 4 MB). Serial kernels at 64 and 256 MB
#: (float32, load 6-7, 2026-11-24): sum 1.03-1.93x numpy, max/mean over columns 0.86-1.27x,
#: argmax over rows 0.81-0.86x, prod over rows 0.65-0.89x: only the parallel kernels pay there
_NEVER_UP_TO_16M = _ParallelOnly(1 << 26)
#: The sums (sum, mean, l2_normalize's sums of squares) whose bits depend on the order of
#: addition may not follow the machine's load between numpy's loops and the kernels (the
#: same call would give other last bits on a busy machine): from 64 MB (whole arrays) they
#: run numba's kernels, parallel or serial (the same bits), busy or not. The serial kernels
#: at 64-256 MB ran 1.03-1.93x numpy's speed (above). Over a strided axis from 4 MB (past the
#: direct kernels' range) the serial sum ran at 0.65-0.75x numpy's speed ((256, 16384) float32
#: over axis 0, 2026-11-27, load 10, medians of 41) and the parallel one stalls under load:
#: numpy's loops there (``None``), as for a product over rows or columns (0.65-0.89x serially)
_SERIAL_FROM_64M = 1 << 26
#: measured with the parallel kernels (``TYPEDTENSOR_NUMBA_PARALLEL=1``, 2026-11-25 03:42 UTC,
#: load 0.9-1.1, float32 and float64, 1-32 MB, the backend's ``reduce`` against numpy's
#: runner, medians of 9 interleaved rounds, two runs): over a strided axis sum, mean, max,
#: min, any, all 1.11-1.48x numpy at 4 MB and 1.12-1.63x up to 32 MB (0.73-1.20x at 2 MB);
#: the whole-array max, min, any, all, argmax, argmin 1.18-1.63x from 4 MB (0.80-1.50x at
#: 2 MB). So these run numba from 4 MB while its parallel kernels will run
_PARALLEL_FROM_4M = _ParallelOnly(1 << 22)
#: ... but over whole arrays (max, min, any, all, argmax, argmin) measured again on
#: 2026-11-27 (load 0.7-0.8, float32 and float64, 4-64 MB, medians of 9 interleaved calls):
#: 1.03-1.54x numpy's time at 4 MB, 0.55-0.81x from 16 MB (float32 max 1.00-1.14x at 16 MB,
#: 0.75-0.97x at 64 MB); this machine's bandwidth drifts from day to day, so from 16 MB, where
#: both days' runs agree, again only while the parallel kernels will run
_WHOLE_PARALLEL_FROM_16M = _ParallelOnly(1 << 24)
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
        "full": _SERIAL_FROM_64M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": None,  # from 4 MB: see _SERIAL_FROM_64M
    },
    "prod": {
        "full": 1 << 24,
        "rows": None,
        "short_rows": 1 << 16,
        "columns": None,
    },
    "mean": {
        "full": _SERIAL_FROM_64M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": None,  # from 4 MB: see _SERIAL_FROM_64M
    },
    "max": {
        "full": _WHOLE_PARALLEL_FROM_16M,
        "rows": 1 << 20,
        "short_rows": 1 << 16,
        "columns": _PARALLEL_FROM_4M,
    },
    "min": {
        "full": _WHOLE_PARALLEL_FROM_16M,
        "rows": 1 << 20,
        "short_rows": 1 << 16,
        "columns": _PARALLEL_FROM_4M,
    },
    "any": {
        "full": _WHOLE_PARALLEL_FROM_16M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": _PARALLEL_FROM_4M,
    },
    "all": {
        "full": _WHOLE_PARALLEL_FROM_16M,
        "rows": 1 << 24,
        "short_rows": 1 << 16,
        "columns": _PARALLEL_FROM_4M,
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
        "full": _WHOLE_PARALLEL_FROM_16M,
        "rows": _PARALLEL_FROM_4M,  # float32 and float64 only (NUMBA_DTYPES)
        "short_rows": 1 << 18,
        "columns": 1 << 18,
    },
    "argmin": {
        "full": _WHOLE_PARALLEL_FROM_16M,
        "rows": _PARALLEL_FROM_4M,  # float32 and float64 only (NUMBA_DTYPES)
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
        "columns": _SERIAL_FROM_64M,
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
_KB = 1 << 10
_MB = 1 << 20
#: The plan-bound serial kernels (``_numba/direct.py``: one kernel call, no per-call Python
#: dispatch), per op and layout: ``(from, below)`` bytes, ``below`` None for no upper bound.
#: They run in these ranges for the layouts they take (C-contiguous, the reduced dims one
#: block, not short rows); elsewhere ``NUMBA_FROM_BYTES`` decides as before. Where it says
#: numba too, they still run below ``PARALLEL_FROM_ELEMENTS`` (the backend would run the same
#: serial kernels) and while its parallel kernels would not run. Measured with
#: ``benchmarks/measure_crossover.py --direct`` (2026-11-25 03:00-03:40 UTC, load 0.6-0.9,
#: serial, float32 and float64, 16 KB..16 MB by factors of 2, numpy's time over the
#: kernel's): each range is where both dtypes were faster at every size in it, from 64 KB at
#: the least (a program of small tensors never compiles a kernel). Over a strided axis
#: (``columns``) the sums, max/min, any/all and the norm start at 256 KB (``bench_sizes.py``: a
#: (64, 256) array over axis 0, 64 KB, ran 1.26-1.44x numpy's time in them, where the
#: crossover's (256, 64) was faster: the crossover moves with the reduced length), and the
#: sums, max/min and any/all end where numpy's loops reach the same memory speed (1-4 MB;
#: 0.93-1.05x from there). Left to ``NUMBA_FROM_BYTES``: a whole-array max/min/any/all/argmax
#: (numpy's SIMD loops run 1.3-4x faster than the serial kernels), and for the dtypes that
#: ``DIRECT_DTYPES`` leaves out a product over rows and argmax/argmin over rows. Added
#: 2026-11-25 05:50-06:15 UTC: a product over rows (float64) and columns (256 KB-4 MB),
#: argmax/argmin over rows (float32), l2_normalize over columns (0.55-0.87x numpy's time from
#: 64 KB since its division vectorises).
DIRECT_FROM_BYTES: dict[str, dict[str, tuple[int, int | None]]] = {
    "sum": {"full": (64 * _KB, None), "rows": (64 * _KB, None), "columns": (256 * _KB, 4 * _MB)},
    "prod": {"full": (64 * _KB, None), "rows": (64 * _KB, None), "columns": (256 * _KB, 4 * _MB)},
    "mean": {"full": (64 * _KB, None), "rows": (64 * _KB, None), "columns": (256 * _KB, 4 * _MB)},
    "max": {"rows": (64 * _KB, None), "columns": (256 * _KB, 1 * _MB)},
    "min": {"rows": (64 * _KB, None), "columns": (256 * _KB, 1 * _MB)},
    "any": {"rows": (64 * _KB, None), "columns": (256 * _KB, 1 * _MB)},
    "all": {"rows": (64 * _KB, None), "columns": (256 * _KB, 1 * _MB)},
    "argmax": {"rows": (128 * _KB, None), "columns": (64 * _KB, None)},  # rows: see below
    "argmin": {"rows": (128 * _KB, None), "columns": (64 * _KB, None)},
    **{
        op: {where: (64 * _KB, None) for where in ("full", "rows", "columns")}
        for op in ("var", "std", "logsumexp")
    },
    "norm": {"full": (64 * _KB, None), "rows": (64 * _KB, None), "columns": (256 * _KB, None)},
    "l2_normalize": {
        "full": (64 * _KB, None),
        "rows": (64 * _KB, None),
        "columns": (64 * _KB, None),
    },
}
#: ``DIRECT_FROM_BYTES`` ranges that hold for some input dtypes only (``dtype.char``); the
#: others keep ``NUMBA_FROM_BYTES``'s choice. Measured (2026-11-25 05:50-06:15 UTC, medians of
#: 7-9 interleaved rounds): argmax/argmin over rows through ``Tensor.argmax(axis=-1)`` against
#: numpy, float32 at 256 KB (512, 128) 0.65x, (256, 256) 0.89x, at 1-4 MB rows of 128-256
#: 0.36-0.67x; float64 0.91x at best ((512, 128)) and 1.2-1.37x for rows of 128 elements or
#: more at 256 KB (numpy's float64 argmax pays less per row). A product over rows with
#: ``measure_crossover.py --direct``: float64 1.5-3.1x numpy's speed from 16 KB, float32
#: 0.91-0.95x (numpy's loop, as slow in the subnormal products of N(0, 1) data). Over columns
#: (every dtype) 256 KB-4 MB: float64 1.2-1.65x, float32 1.01-1.05x ((16384, 256) at 4 MB
#: 0.83x numpy's time).
#: the dtypes (``dtype.char``) the plan-bound kernels take at all: those of every kernel
DIRECT_KERNEL_CHARS = KERNEL_CHARS
#: any/all of bool input: numpy's loops stop at a slice's first True (False), which the
#: kernels do not; of 1-byte ints numpy's loops are as fast over columns (measured 64 KB-16 MB,
#: 2026-11-27: the direct kernels took 1.2-2.1x numpy's time for bool rows and columns and
#: 1.0-1.2x for int8 columns; int8 and int32 rows 0.55-1.03x)
_NOT_BOOL = DIRECT_KERNEL_CHARS - frozenset("?")
_NOT_BYTES = DIRECT_KERNEL_CHARS - frozenset("?bB")
DIRECT_DTYPES: dict[tuple[str, str], frozenset[str]] = {
    ("argmax", "rows"): frozenset("f"),
    ("argmin", "rows"): frozenset("f"),
    ("prod", "rows"): frozenset("d"),
    **{(op, "rows"): _NOT_BOOL for op in ("any", "all")},
    **{(op, "columns"): _NOT_BYTES for op in ("any", "all")},
}
#: ... and reduced lengths past which a layout keeps numpy's loops: numpy's SIMD argmax pays a
#: fixed cost per row, so the kernels win on many short rows and lose on fewer long ones
#: (float32 at 256 KB: (128, 512) 1.19x, (64, 1024) 1.23x; both loops run at the L2 cache's
#: speed there, and numpy's call costs ~1 us less)
DIRECT_LONGEST: dict[tuple[str, str], int] = {("argmax", "rows"): 256, ("argmin", "rows"): 256}
#: Reductions whose result does not depend on the order the elements are visited in (no
#: rounding: comparisons, logical tests): only these may switch between numpy's loops and the
#: numba kernels with the machine's load (``PARALLEL_ONLY``); numpy's loops and the kernels
#: give them the same bits (tests/runtime/test_deterministic.py)
ORDER_FREE_OPS = frozenset(("max", "min", "any", "all", "argmax", "argmin", "nanmax", "nanmin"))
#: The entries of ``NUMBA_FROM_BYTES`` that hold only while the backend's parallel kernels
#: will run (``parallel_kernels_expected``, checked per call); serially numpy's loops (or the
#: direct kernels, where ``DIRECT_FROM_BYTES`` says so) run there
PARALLEL_ONLY: frozenset[tuple[str, str]] = frozenset(
    (op, where)
    for op, by_layout in NUMBA_FROM_BYTES.items()
    for where, size in by_layout.items()
    if isinstance(size, _ParallelOnly)
)
#: ``NUMBA_FROM_BYTES`` entries that hold for some input dtypes only (``dtype.char``); the
#: others run numpy's loops. argmax/argmin over rows in the parallel kernels (the explicit
#: vectors of ``_numba/simd_argextremes.py``, the backend's ``reduce`` with its dispatch,
#: ``TYPEDTENSOR_NUMBA_PARALLEL=1``, 2026-11-25 06:25 UTC, medians of 5): float32 0.35-0.69x
#: numpy's time from 4 MB (rows of 256 and 2048), 0.50-0.98x at 2 MB; float64 0.51-0.67x from
#: 4 MB; int32 and int8 rows of 2048 0.93-1.11x (numpy's integer argmax is the faster code)
NUMBA_DTYPES: dict[tuple[str, str], frozenset[str]] = {
    ("argmax", "rows"): frozenset("fd"),
    ("argmin", "rows"): frozenset("fd"),
    # any/all of bool and 1-byte ints, whole arrays from 4 MB: a bool array's numpy loop
    # stopped at its first True (1.3 us against the parallel kernel's 316 us at 4 MB); int8
    # 2.3-2.5x numpy's time at 4 MB, 1.3-1.5x at 16 MB; over columns bool 1.34-1.38x at 4 MB
    **{(op, where): _NOT_BYTES for op in ("any", "all") for where in ("full", "columns")},
    # whole-array extremes, measured for floats (see _WHOLE_PARALLEL_FROM_16M): of integers the
    # parallel kernels took 1.07-1.27x numpy's time at 4 MB (2026-11-27, load 0.6), of bool
    # 100-330x (numpy's loops stop at the first True)
    **{(op, "full"): frozenset("fd") for op in ("max", "min", "argmax", "argmin")},
}
#: Reductions that read each element once with little arithmetic. In a layout the numba
#: backend must copy first (not ``one_block``: ``x[::2]``, ``x[:, ::2]``, broadcast views)
#: numpy's loops, which read it in place, are faster: the sums always, max/min/any/all but
#: over rows whose elements are themselves apart in memory (numpy's slow loop). Measured
#: (float32, 256 KB-16 MB, load 0.4-0.7, 2026-11-27), numba with its copy against numpy: sums
#: and max over a kept dim 1.18-2.0x numpy's time at 4 MB, up to 4x over broadcast views;
#: max over the rows of ``x[::2]`` 1.22-1.41x; sums over the strided rows of ``x[:, ::2]``
#: 1.64-1.84x at 16 MB, max/any over them 0.63-0.78x
_STREAMING = frozenset(("sum", "prod", "mean", "max", "min", "any", "all"))
_SUMS = frozenset(("sum", "prod", "mean"))
#: ops missing from the table (new reductions) run numba from this size
DEFAULT_NUMBA_FROM_BYTES = 1 << 20


def numba_from_bytes(op: str, where: str) -> int | None:
    """The size (bytes) from which numba runs ``op`` in layout ``where`` (None: never)."""
    return NUMBA_FROM_BYTES.get(op, {}).get(where, DEFAULT_NUMBA_FROM_BYTES)


def min_numba_bytes(ops: Sequence[str] | None = None) -> int:
    """The smallest size (bytes) from which the numba backend runs any of ``ops`` (default:
    every op, including those missing from the table) in any layout, its direct kernels
    (``DIRECT_FROM_BYTES``) included: below it every built-in backend runs numpy's loops, so
    a plan does not depend on the strides nor the backend.

    >>> min_numba_bytes(("argmax",)) >= min_numba_bytes()
    True
    """
    sizes = [DEFAULT_NUMBA_FROM_BYTES] if ops is None else []
    for op in NUMBA_FROM_BYTES if ops is None else ops:
        by_layout = NUMBA_FROM_BYTES.get(op, {"": DEFAULT_NUMBA_FROM_BYTES})
        sizes.extend(size for size in by_layout.values() if size is not None)
    for op in DIRECT_FROM_BYTES if ops is None else ops:
        sizes.extend(start for start, _ in DIRECT_FROM_BYTES.get(op, {}).values())
    return min(sizes, default=1 << 62)


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

    numpy: its runner. numba: within a ``DIRECT_FROM_BYTES`` range and in a layout they take,
    the plan-bound serial kernels (or, from ``PARALLEL_FROM_ELEMENTS`` elements and past
    ``NUMBA_FROM_BYTES``, the backend's ``reduce`` whenever its parallel kernels will run,
    checked per call); else numpy's runner below ``NUMBA_FROM_BYTES`` (and for empty or
    rank-0 inputs and ``axis=()``, which the numba backend hands to numpy anyway), and the
    numba backend from it (falling back to numpy where it does not cover the dtype).
    """
    ndim = len(shape)
    if backend == "numpy":
        return numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
    backend_run = _backend_runner(backend, op, axes, ndim, keepdims, dtype)
    if backend != "numba":
        return backend_run
    nbytes = itemsize * math.prod(shape)
    takes = input_dtype is None or kernel_dtype(input_dtype)  # None: the backend decides
    if nbytes == 0 or ndim == 0 or not axes or not takes:
        # float16, complex and non-native byte orders: the numba backend would hand them to
        # the numpy backend's functions, slower than numpy's runner (complex64 mean of 256 KB
        # 1.28-1.40x numpy's time, var 1.13-1.39x)
        return numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
    where = layout(shape, strides, axes)
    if op in _STREAMING and not one_block(shape, strides, itemsize):
        steps = [abs(st) for n, st in zip(shape, strides, strict=True) if n != 1]
        strided_rows = where in ("rows", "short_rows") and min(steps) > itemsize
        if op in _SUMS or not strided_rows:
            return numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
    threshold = numba_from_bytes(op, where)
    backend_runs = threshold is not None and nbytes >= threshold
    if input_dtype is not None and not _dtype_listed(NUMBA_DTYPES, op, where, input_dtype):
        backend_runs = False
    direct_run = _direct_runner(
        op, where, shape, strides, itemsize, axes, keepdims, dtype, input_dtype, backend_run
    )
    numpy_run = numpy_runner(op, axes, ndim, keepdims, dtype, input_dtype, shape)
    parallel_size = nbytes >= itemsize * PARALLEL_FROM_ELEMENTS
    kernel_run = _kernel_run(
        (op, where), backend_runs, backend_run, direct_run, numpy_run, parallel_size
    )
    if kernel_run is None:
        return numpy_run
    if op not in ORDER_FREE_OPS or input_dtype is None:
        return kernel_run
    # numpy's loops give an order-free op the kernels' bits: they serve while the kernels
    # compile in a helper process (a program's first run; ``_background_compile``)
    from ._background_compile import serve_while_compiling

    job = dict(op=op, shape=shape, strides=strides, itemsize=itemsize, axes=axes)
    job.update(keepdims=keepdims, dtype=dtype.str, input_dtype=input_dtype.str, params={})
    return serve_while_compiling(kernel_run, numpy_run, job)


def _kernel_run(
    op_where: tuple[str, str],
    backend_runs: bool,
    backend_run: Run,
    direct_run: Run | None,
    numpy_run: Run,
    parallel_size: bool,
) -> Run | None:
    """The numba kernels' run for a plan (the direct kernels, the backend's ``reduce``, or
    either per call with the thread policy), None where numpy's loops run."""
    if direct_run is not None:
        if not backend_runs or not parallel_size:
            return direct_run  # the backend would run the same serial kernels
        return lambda a, params: (
            backend_run(a, params) if parallel_kernels_expected() else direct_run(a, params)
        )
    if not backend_runs:
        return None
    if op_where in PARALLEL_ONLY:
        # only the parallel kernels beat numpy here: numpy's loops while they would run serially
        return lambda a, params: (
            backend_run(a, params) if parallel_kernels_expected() else numpy_run(a, params)
        )
    return backend_run


def _direct_runner(
    op: str,
    where: str,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    itemsize: int,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    input_dtype: np.dtype[Any] | None,
    backend_run: Run,
) -> Run | None:
    """The plan-bound serial kernels' run where ``DIRECT_FROM_BYTES`` (with ``DIRECT_DTYPES``
    and ``DIRECT_LONGEST``) and the layout allow them and ``_numba.direct`` takes the op and
    dtype, else None; numba is imported only past the checks of size and layout."""
    if input_dtype is None:
        return None
    if not _direct_kernels_apply(op, where, shape, strides, itemsize, axes, input_dtype):
        return None
    from ._numba.direct import direct_runner

    return direct_runner(op, shape, strides, axes, keepdims, dtype, input_dtype, backend_run)


def _direct_kernels_apply(
    op: str,
    where: str,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    itemsize: int,
    axes: tuple[int, ...],
    input_dtype: np.dtype[Any],
) -> bool:
    """Do ``DIRECT_FROM_BYTES`` (with ``DIRECT_DTYPES`` and ``DIRECT_LONGEST``) and the layout
    send this call to the plan-bound serial kernels (if ``_numba.direct`` takes the op)?"""
    start, below = DIRECT_FROM_BYTES.get(op, {}).get(where, (None, None))
    nbytes = itemsize * math.prod(shape)
    if start is None or nbytes < start or (below is not None and nbytes >= below):
        return False
    if not _dtype_listed(DIRECT_DTYPES, op, where, input_dtype):
        return False
    if math.prod(shape[d] for d in axes) > DIRECT_LONGEST.get((op, where), nbytes):
        return False
    return one_reduced_block(shape, strides, itemsize, axes) is not None


def _dtype_listed(
    table: dict[tuple[str, str], frozenset[str]], op: str, where: str, dtype: np.dtype[Any]
) -> bool:
    """Does ``table`` (``DIRECT_DTYPES``, ``NUMBA_DTYPES``) let ``dtype`` take its entry?"""
    chars = table.get((op, where))
    return chars is None or dtype.char in chars


def _backend_runner(
    backend: str, op: str, axes: tuple[int, ...], ndim: int, keepdims: bool, dtype: np.dtype[Any]
) -> Run:
    """The backend's own ``reduce`` for one plan."""
    run = functools.partial(_reduce_with, backend, op)
    if not keepdims and len(axes) == ndim:
        return lambda a, params: np.asarray(run(a, axes, keepdims, dtype, **params))
    return lambda a, params: run(a, axes, keepdims, dtype, **params)
