"""Which code a reduction's plan runs for layouts and dtypes the crossover tables were not
measured on: views with gaps (the numba backend copies them first) and any/all of bool and
1-byte inputs (numpy's loops stop at a slice's first True). benchmarks/README.md has the
measurements behind each rule."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from typedtensor._backend import _routing
from typedtensor._backend._numpy_runners import is_numpy_route

F4 = np.dtype(np.float32)
MB4 = 1 << 22  # bytes: past the parallel-only entries' start over a strided axis
MB16 = 1 << 24  # ... and over whole arrays


@pytest.fixture(autouse=True)
def parallel_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_routing, "parallel_kernels_expected", lambda: True)


def code_of(
    op: str, shape: tuple[int, ...], strides: tuple[int, ...], axes: tuple[int, ...], dtype: Any
) -> str:
    """``numpy``, ``direct`` (the plan-bound kernels) or ``backend`` (numba's ``reduce``)."""
    dtype = np.dtype(dtype)
    result = {"any": np.dtype(bool), "all": np.dtype(bool)}.get(op, dtype)
    if op in ("argmax", "argmin"):
        result = np.dtype(np.int64)
    run = _routing.runner("numba", op, shape, strides, dtype.itemsize, axes, False, result, dtype)
    if is_numpy_route(run):
        return "numpy"
    return "direct" if run.__module__ == "typedtensor._backend._numba.direct" else "backend"


def gapped(view: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(shape, strides) of 4 MB float32 views of a (2 * 4096, 256) C array."""
    rows, cols = 2 * (MB4 // 4 // 256), 256
    return {
        "x[::2]": ((rows // 2, cols), (2 * cols * 4, 4)),
        "x[:, ::2]": ((rows, cols // 2), (cols * 4, 8)),
        "broadcast": ((rows // 2, cols), (0, 4)),
    }[view]


@pytest.mark.parametrize("op", ["sum", "mean", "max", "any"])
@pytest.mark.parametrize(("view", "axis"), [("x[::2]", 0), ("x[::2]", 1), ("x[:, ::2]", 0),
                                            ("broadcast", 0), ("broadcast", 1)])  # fmt: skip
def test_streaming_reductions_of_gapped_views_run_numpys_loops(
    op: str, view: str, axis: int
) -> None:
    """numpy's loops read a gapped view in place; the numba backend would copy it first."""
    shape, strides = gapped(view)
    assert code_of(op, shape, strides, (axis,), F4) == "numpy"


def test_strided_rows_keep_the_kernels_for_extremes_not_for_sums() -> None:
    """Over rows whose elements are apart (``x[:, ::2]`` over axis 1) numpy's max loop is the
    slow one: the copy and the kernels win there (0.6-0.8x), the sums lose (1.6-1.9x)."""
    shape, strides = gapped("x[:, ::2]")
    assert code_of("max", shape, strides, (1,), F4) == "backend"
    assert code_of("sum", shape, strides, (1,), F4) == "numpy"


def test_composite_reductions_of_gapped_views_keep_the_kernels() -> None:
    """var/logsumexp/argmax make one pass where numpy makes several: the copy pays for itself
    (``_numba/_canonical.py`` copies in memory order)."""
    shape, strides = gapped("x[::2]")
    for op in ("var", "logsumexp", "argmax"):
        assert code_of(op, shape, strides, (0,), F4) == "backend"


@pytest.mark.parametrize("op", ["any", "all"])
def test_any_all_of_bytes_keep_numpys_loops(op: str) -> None:
    """bool input: numpy's loop stops at the first True (False); the kernels read it all."""
    whole = ((MB4,), (1,))
    assert code_of(op, *whole, (0,), np.bool_) == "numpy"
    assert code_of(op, *whole, (0,), np.int8) == "numpy"
    assert code_of(op, (MB16 // 4,), (4,), (0,), np.int32) == "backend"
    rows = ((1024, 256), (256, 1))  # 256 KB of bool
    assert code_of(op, *rows, (1,), np.bool_) == "numpy"
    assert code_of(op, *rows, (1,), np.int8) == "direct"
    columns = ((1024, 256), (256, 1))
    assert code_of(op, *columns, (0,), np.bool_) == "numpy"
    assert code_of(op, *columns, (0,), np.int8) == "numpy"
    assert code_of(op, (512, 256), (1024, 4), (0,), np.int32) == "direct"  # 512 KB


@pytest.mark.parametrize("op", ["max", "min", "argmax", "argmin"])
def test_whole_array_extremes_of_integers_and_bool_keep_numpys_loops(op: str) -> None:
    """The parallel kernels beat numpy over a whole float array from 16 MB (not at 4 MB), not
    over integer ones (numpy's integer loops are the faster code) nor bool ones (they stop
    early)."""
    assert code_of(op, (MB16 // 4,), (4,), (0,), np.float32) == "backend"
    assert code_of(op, (MB16 // 8,), (8,), (0,), np.float64) == "backend"
    assert code_of(op, (MB4 // 4,), (4,), (0,), np.float32) == "numpy"
    for dtype in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8):
        n = MB16 // np.dtype(dtype).itemsize
        assert code_of(op, (n,), (np.dtype(dtype).itemsize,), (0,), dtype) == "numpy"


def test_serial_entries_that_share_a_parallel_only_size_stay_serial() -> None:
    """Parallel-only is a property of an entry, not of its size: l2_normalize over a whole
    array and the norm over columns start at 4 MB with the serial kernels too."""
    assert ("l2_normalize", "full") not in _routing.PARALLEL_ONLY
    assert ("norm", "columns") not in _routing.PARALLEL_ONLY
    assert _routing.NUMBA_FROM_BYTES["norm"]["columns"] == MB4
    assert {("max", "columns"), ("max", "full"), ("argmax", "rows")} <= _routing.PARALLEL_ONLY
    # sums round: they may not follow the machine's load (tests/runtime/test_deterministic.py)
    assert ("sum", "columns") not in _routing.PARALLEL_ONLY


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float16", ">f4"])
@pytest.mark.parametrize(("op", "axes"), [("sum", (0,)), ("mean", (0,)), ("var", (1,))])
def test_dtypes_the_kernels_do_not_take_run_numpys_loops(
    op: str, axes: tuple[int, ...], dtype: str
) -> None:
    """The numba backend hands float16, complex and byte-swapped input to the numpy backend's
    functions: the plan runs numpy's runner instead, at every size (complex64 mean of 256 KB
    took 1.28-1.40x numpy's time through the backend)."""
    dt = np.dtype(dtype)
    result = np.dtype(np.float32 if dt.kind == "c" and op == "var" else dt.newbyteorder("="))
    shape = (MB16 // dt.itemsize // 256, 256)
    strides = (256 * dt.itemsize, dt.itemsize)
    run = _routing.runner("numba", op, shape, strides, dt.itemsize, axes, False, result, dt)
    assert is_numpy_route(run)


def test_a_dtype_argument_other_than_the_rules_runs_numpys_loops() -> None:
    """The kernels accumulate in the rules' dtype only: ``x.sum(dtype=tt.float64)`` of a
    float32 array plans numpy's loops, ``dtype=tt.float32`` (the rules' own) the kernels (over
    1 MB of columns: the direct kernels)."""
    from typedtensor import _reduce_plan

    a = np.ones((MB4 // 16 // 256, 256), np.float32)
    named = _reduce_plan._plan(a, "sum", 0, False, np.dtype(np.float64))
    assert is_numpy_route(named)
    own = _reduce_plan._plan(a, "sum", 0, False, np.dtype(np.float32))
    assert not is_numpy_route(own)
