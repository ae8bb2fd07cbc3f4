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
(tests/runtime/test_fast_paths.py): ``_numpy_runners.numpy_runner`` binds each op's, which
its family module registers.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import kernel_twins, registry
from . import reduce_with as _reduce_with
from ._layouts import KERNEL_CHARS, SHORT_ROW, kernel_dtype, layout, one_block, one_reduced_block
from ._numpy_runners import Run, numpy_runner
from ._thread_policy import PARALLEL_FROM_ELEMENTS as PARALLEL_FROM_ELEMENTS
from ._thread_policy import parallel_expected as parallel_kernels_expected

__all__ = [
    "DASK_SERIAL_NUMBA_FROM_BYTES",
    "DASK_SERIAL_NUMPY",
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


#: the crossover sizes, measured by benchmarks/measure_crossover.py, which writes this file
#: (how each entry was measured: benchmarks/README.md, "Crossovers")
CROSSOVERS_FILE = Path(__file__).with_name("crossovers.json")


def _by_op_layout(table: dict[str, str]) -> dict[tuple[str, str], frozenset[str]]:
    return {tuple(k.split("/")): frozenset(v) for k, v in table.items()}  # type: ignore[misc]


def _numba_size(entry: Any) -> int | None:
    if isinstance(entry, dict):
        size = entry["bytes"]
        return _ParallelOnly(size) if entry.get("parallel_only") else int(size)
    return None if entry is None else int(entry)


def _load_crossovers() -> dict[str, Any]:
    """The crossover tables, read from ``CROSSOVERS_FILE`` (the one place they are read)."""
    data = json.loads(CROSSOVERS_FILE.read_text())
    return {
        "default": int(data["default_numba_from_bytes"]),
        "numba": {
            op: {where: _numba_size(v) for where, v in by_layout.items()}
            for op, by_layout in data["numba_from_bytes"].items()
        },
        "direct": {
            op: {where: (int(v[0]), None if v[1] is None else int(v[1])) for where, v in d.items()}
            for op, d in data["direct_from_bytes"].items()
        },
        "direct_dtypes": _by_op_layout(data["direct_dtypes"]),
        "numba_dtypes": _by_op_layout(data["numba_dtypes"]),
        "direct_longest": {
            (k.split("/")[0], k.split("/")[1]): int(v) for k, v in data["direct_longest"].items()
        },
        "dask_serial_numba": {
            partial: {where: None if v is None else int(v) for where, v in by_layout.items()}
            for partial, by_layout in data["dask_serial_numba_from_bytes"].items()
        },
        "dask_serial_numpy": frozenset(
            tuple(entry.split("/")) for entry in data["dask_serial_numpy"]
        ),
    }


_CROSSOVERS = _load_crossovers()
#: The input size (bytes) from which the numba backend runs a reduction, per op and layout
#: (``layout``); below it numpy's loops run (so a program whose tensors are all small never
#: imports numba nor compiles a kernel). ``None``: never. A ``_ParallelOnly`` size holds only
#: while the parallel kernels will run (only the order-free ops have such entries: numpy's
#: loops give them the kernels' bits). The sums (sum, mean, prod, l2_normalize) have none:
#: their bits depend on the order of addition, so they run the same code busy or not.
NUMBA_FROM_BYTES: dict[str, dict[str, int | None]] = _CROSSOVERS["numba"]
#: The plan-bound serial kernels (``_numba/direct.py``: one kernel call, no per-call Python
#: dispatch), per op and layout: ``(from, below)`` bytes, ``below`` None for no upper bound.
#: They run in these ranges for the layouts they take (C-contiguous, the reduced dims one
#: block, not short rows); elsewhere ``NUMBA_FROM_BYTES`` decides. Where it says numba too,
#: they still run below ``PARALLEL_FROM_ELEMENTS`` and while the parallel kernels would not.
DIRECT_FROM_BYTES: dict[str, dict[str, tuple[int, int | None]]] = _CROSSOVERS["direct"]
#: ``DIRECT_FROM_BYTES`` ranges that hold for some input dtypes only (``dtype.char``); the
#: others keep ``NUMBA_FROM_BYTES``'s choice
DIRECT_DTYPES: dict[tuple[str, str], frozenset[str]] = _CROSSOVERS["direct_dtypes"]
#: the dtypes (``dtype.char``) the plan-bound kernels take at all: those of every kernel
DIRECT_KERNEL_CHARS = KERNEL_CHARS
#: ... and reduced lengths past which a layout keeps numpy's loops (numpy's SIMD argmax pays
#: a fixed cost per row: the kernels win on many short rows, lose on fewer long ones)
DIRECT_LONGEST: dict[tuple[str, str], int] = _CROSSOVERS["direct_longest"]
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
#: others run numpy's loops
NUMBA_DTYPES: dict[tuple[str, str], frozenset[str]] = _CROSSOVERS["numba_dtypes"]
#: ops missing from the table (new reductions) run numba from this size
DEFAULT_NUMBA_FROM_BYTES: int = _CROSSOVERS["default"]
#: The chunk step of a chunked engine (``partials.py``): the chunk size (bytes) from which
#: numba's serial kernels compute each partial, per layout (None: numpy's loops always)
DASK_SERIAL_NUMBA_FROM_BYTES: dict[str, dict[str, int | None]] = _CROSSOVERS["dask_serial_numba"]
#: ... and the (op, layout) of the routed reductions whose chunks run numpy's loops serially
#: (a chunk runs one thread: there the serial kernel lost to numpy's loop)
DASK_SERIAL_NUMPY: frozenset[tuple[str, str]] = _CROSSOVERS["dask_serial_numpy"]


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
    routes = registry.routes(op)
    in_place = None if routes is None else routes.numpy_for_copied_layouts
    if in_place is not None and not one_block(shape, strides, itemsize):
        steps = [abs(st) for n, st in zip(shape, strides, strict=True) if n != 1]
        strided_rows = where in ("rows", "short_rows") and min(steps) > itemsize
        if in_place == "always" or not strided_rows:
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
    if input_dtype is None:
        return kernel_run
    twinned = kernel_twins.serves(op, input_dtype, nbytes)
    if (routes is None or not routes.order_free) and not twinned:
        # its kernels compile in the foreground, the next plans' in a helper process
        from ._compile_ahead import compile_ahead

        return compile_ahead(kernel_run, op, where, input_dtype)
    # numpy's loops give an order-free op the kernels' bits, and the kernels' numpy twins
    # give a sum's or a variance's: they serve while the kernels compile in a helper process
    # (a program's first run; ``_background_compile``)
    from ._background_compile import serve_while_compiling

    job = dict(op=op, shape=shape, strides=strides, itemsize=itemsize, axes=axes)
    job.update(keepdims=keepdims, dtype=dtype.str, input_dtype=input_dtype.str)
    if not twinned:
        from .blocked_argextremes import blocked_arg_runner

        stand_in = blocked_arg_runner(op, axes, shape, keepdims, input_dtype) or numpy_run
        return serve_while_compiling(kernel_run, stand_in, job)
    from ._compile_ahead import queue_steps

    # the first such plan also queues the ahead-of-need steps of its dtype (the helper takes
    # them after the plans the program has called)
    queue = functools.partial(queue_steps, input_dtype.name)
    return serve_while_compiling(kernel_run, kernel_twins.served(backend_run), job, queue)


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


def __getattr__(name: str) -> frozenset[str]:
    """``ORDER_FREE_OPS``: the reductions whose result does not depend on the order the
    elements are visited in (``Routes.order_free``, stated by each family when it registers;
    computed on first use so that importing this module imports no family)."""
    if name == "ORDER_FREE_OPS":
        return registry.routed_names(lambda routes: routes.order_free)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
