"""A reduction's bits depend only on its input, its arguments and the dtype: never on the
machine's load, the thread count or the route (numpy's loops or numba's serial or parallel
kernels) that the thread policy picks.

The routed calls of ``test_fast_paths.test_every_threshold_is_crossed`` (each table entry
moved to the test array's size, so the numba backend runs it) are run with the parallel
route forced off, forced on (the parallel kernels split the arrays into segments here:
``PAR_MIN`` is 0), under a load average that says busy and one that says idle, and while
two CPU-bound processes compete for the cores; every run gives the forced-off run's bits.
The order-dependent reductions (sums, products, moments) never switch between numpy's
loops and the kernels with the load (``PARALLEL_ONLY`` holds order-free ops only)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _reduce_plan
from typedtensor._backend import _numba, _routing, _thread_policy
from typedtensor._backend._numba import _stages

from .test_fast_paths import _CALLS, _result_dtype, _same_bits

Array = np.ndarray[Any, Any]

#: (layout, shape, axes) of ~65536-element arrays whose rows the kernels split into segments
#: (full: 4, rows: 2, columns: 4 and 2) or, for short rows, whose rows run in parallel (the
#: rows of 100: the sums' fewer lanes below ``_lanes.SHORT_RUN``)
_CASES: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = [
    ("full", (65536,), (0,)),
    ("rows", (2, 32768), (1,)),
    ("rows", (655, 100), (1,)),
    ("short_rows", (16384, 4), (1,)),
    ("columns", (256, 256), (0,)),
    ("columns", (8, 512, 16), (1,)),
]


@pytest.fixture
def kernels_split_small_arrays(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Segments and parallel kernels from any size; the plan-bound serial kernels give way to
    the backend's parallel ones from any size too."""
    monkeypatch.setattr(_stages, "PAR_MIN", 0)
    monkeypatch.setattr(_stages, "_threads", lambda: 2)
    monkeypatch.setattr(_routing, "PARALLEL_FROM_ELEMENTS", 0)
    _reduce_plan.clear_plans()
    yield
    _reduce_plan.clear_plans()


def _routes(monkeypatch: pytest.MonkeyPatch) -> dict[str, Callable[[], None]]:
    """Ways to set the thread policy: each sets the environment and the load it reads."""

    def setting(value: str, load: float) -> Callable[[], None]:
        def apply() -> None:
            monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", value)
            monkeypatch.setattr(_thread_policy, "SAMPLE_S", 0.0)
            monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: load)
            _thread_policy.reset()

        return apply

    return {
        "forced on": setting("1", 0.0),
        "auto, idle": setting("auto", 0.0),
        "auto, busy": setting("auto", 99.0),
    }


def _routed(op: str, a: Array, axes: tuple[int, ...]) -> Array:
    """``op`` through its Tensor method with the numba backend, its table entry at ``a``'s size."""
    table = {w: dict(v) for w, v in _routing.NUMBA_FROM_BYTES.items()}
    where = _routing.layout(a.shape, a.strides, axes)
    table[op][where] = a.nbytes
    saved = _routing.NUMBA_FROM_BYTES
    _routing.NUMBA_FROM_BYTES = table
    try:
        _reduce_plan.clear_plans()
        with tt.use_backend("numba"), np.errstate(all="ignore"):
            got: Array = _CALLS[op](tt.asarray(a), axes).numpy()
    finally:
        _routing.NUMBA_FROM_BYTES = saved
        _reduce_plan.clear_plans()
    return got


def _array(shape: tuple[int, ...], dtype: str) -> Array:
    a = np.random.default_rng(7).standard_normal(shape) * 100 + 3
    return a.astype(dtype)


def _no_argmax_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """argmax/argmin through their plans (as test_every_threshold_is_crossed)."""
    monkeypatch.setattr(tt._tensor_index, "_INDEX_SMALL_BYTES", 0)
    monkeypatch.setattr(tt._tensor_index, "_index_of_rows", lambda *args: None)
    monkeypatch.setattr(tt._tensor_index, "_INDEX_FULL_PLANNED_BYTES", 0)
    monkeypatch.setattr(tt._tensor_index, "_INDEX_FULL_PLANNED", np.typecodes["All"])


@pytest.mark.usefixtures("kernels_split_small_arrays")
@pytest.mark.parametrize("dtype", ["float64"])  # float32 partials often round alike; and
@pytest.mark.parametrize("op", sorted(_routing.NUMBA_FROM_BYTES))  # each dtype compiles
def test_every_route_gives_the_same_bits(
    op: str, dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_argmax_shortcuts(monkeypatch)
    arrays = [(where, _array(shape, dtype), axes) for where, shape, axes in _CASES]
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "0")
    serial = [_routed(op, a, axes) for _, a, axes in arrays]
    for name, apply in _routes(monkeypatch).items():
        apply()
        for (where, a, axes), want in zip(arrays, serial, strict=True):
            got = _routed(op, a, axes)
            assert got.tobytes() == want.tobytes(), (name, where, a.shape)
    for (_, a, axes), got in zip(arrays, serial, strict=True):  # and within numpy's error
        with tt.use_backend("numpy"), np.errstate(all="ignore"):
            reference = _CALLS[op](tt.asarray(a), axes).numpy()
        np.testing.assert_allclose(got, reference, rtol=1e-12, atol=1e-10 * a.shape[0])


@pytest.fixture
def two_busy_processes() -> Iterator[None]:
    """Two CPU-bound processes competing for the cores while the test runs."""
    spin = "import time\nend = time.time() + 600\nwhile time.time() < end: pass"
    procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


@pytest.mark.usefixtures("kernels_split_small_arrays")
@pytest.mark.parametrize("op", ["sum", "mean", "var", "logsumexp", "norm", "l2_normalize"])
def test_same_bits_under_competing_processes(
    op: str, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """The load average as the machine has it, before and while two processes spin."""
    arrays = [(_array(shape, "float64"), axes) for _, shape, axes in _CASES]
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "0")
    serial = [_routed(op, a, axes) for a, axes in arrays]
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "auto")
    quiet = [_routed(op, a, axes) for a, axes in arrays]
    request.getfixturevalue("two_busy_processes")
    busy = [[_routed(op, a, axes) for a, axes in arrays] for _ in range(3)]
    for run in [quiet, *busy]:
        for got, want in zip(run, serial, strict=True):
            assert got.tobytes() == want.tobytes()


def test_parallel_only_entries_are_order_free() -> None:
    """Only reductions whose bits do not depend on the order of evaluation may switch between
    numpy's loops and the kernels with the load."""
    assert _routing.PARALLEL_ONLY
    assert {op for op, _ in _routing.PARALLEL_ONLY} <= _routing.ORDER_FREE_OPS


@pytest.mark.usefixtures("kernels_split_small_arrays")
@pytest.mark.parametrize("op", ["nansum", "nanmean", "nanvar", "nanmax", "nanargmax"])
def test_nan_reductions_same_bits_serial_and_parallel(
    op: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _, shape, axes in _CASES:
        a = _array(shape, "float64")  # float64: float32 partials often round alike
        a.reshape(-1)[::97] = np.nan
        single = axes[:1] if op == "nanargmax" else axes
        dtype = _result_dtype(op, a)
        params = {"correction": 1.0} if op == "nanvar" else {}
        results = []
        for setting in ("0", "1"):
            monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", setting)
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices
                got = _numba.reduce(op, a, single, False, dtype, **params)
            assert got is not None
            results.append(got)
        _same_bits(results[1], results[0])
