"""A program's first run: order-free reductions are served by numpy's loops while a helper
process compiles their kernels (``typedtensor/_backend/_background_compile.py``); each case
runs in a fresh process with an empty kernel cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

_PROGRAM = """
import time, warnings
import numpy as np
import typedtensor as tt
from typedtensor._backend import _background_compile as bg

a = np.random.default_rng(3).standard_normal((512, 256)).astype(np.float32)  # 512 KB
a[7, 5] = np.nan
t = tt.asarray(a)
filters = list(warnings.filters)
first = t.max(axis=1)  # the direct kernels' range: numpy serves while the kernel compiles
print("served_at_once", bool(bg._done) is False and bool(bg._worker))
np.testing.assert_array_equal(np.asarray(first), a.max(axis=1))
deadline = time.monotonic() + 600
recorded = []
while not bg._done and time.monotonic() < deadline:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.nanmax(np.full(4, np.nan))
    recorded.append(sum("All-NaN" in str(w.message) for w in caught))
    np.testing.assert_array_equal(np.asarray(t.max(axis=1)), a.max(axis=1))
    time.sleep(0.01)
print("compiled", bool(bg._done))
print("warnings_each_round_one", set(recorded) <= {1})
print("filters_restored", warnings.filters == filters)
np.testing.assert_array_equal(np.asarray(t.max(axis=1)), a.max(axis=1))  # the kernel now
"""

_SECOND = """
import numpy as np
import typedtensor as tt
from typedtensor._backend import _background_compile as bg

a = np.random.default_rng(3).standard_normal((512, 256)).astype(np.float32)
np.testing.assert_array_equal(np.asarray(tt.asarray(a).max(axis=1)), a.max(axis=1))
print("kernels_from_first_call", bool(bg._done) and not bg._worker)
"""

_PROBE = """
import numpy as np
from typedtensor._backend._numba import _kernels as kern
from typedtensor._backend._numba._cache import NotCompiledError, cache_only

x = np.ones((4, 8), np.float64)
part = np.empty((4, 1), np.float64)
try:
    with cache_only():
        kern.acc_h(x, part, kern.SUM, 0.0, 0.0, 0.0, 1)
except NotCompiledError:
    print("raised")
kern.acc_h(x, part, kern.SUM, 0.0, 0.0, 0.0, 1)  # outside the block: compiles
print(part.ravel().tolist())
"""


def _run(code: str, cache: Path) -> list[str]:
    env = {**os.environ, "TYPEDTENSOR_NUMBA_CACHE_DIR": str(cache)}
    for name in (
        "TYPEDTENSOR_NUMBA_PARALLEL",
        "TYPEDTENSOR_NUMBA_BACKGROUND",
        "TYPEDTENSOR_BACKEND",
    ):
        env.pop(name, None)
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900
    )
    assert r.returncode == 0, r.stderr
    return r.stdout.split("\n")


def test_numpy_serves_while_the_helper_compiles_then_the_kernels_run(tmp_path: Path) -> None:
    """With an empty cache the first call is numpy's (a helper process started), results
    equal numpy's throughout, the foreground's warnings are untouched by the compile, and a
    second program with the now warm cache runs the kernels from its first call."""
    out = _run(_PROGRAM, tmp_path)
    assert "served_at_once True" in out
    assert "compiled True" in out
    assert "warnings_each_round_one True" in out
    assert "filters_restored True" in out
    assert "kernels_from_first_call True" in _run(_SECOND, tmp_path)


def test_cache_only_raises_instead_of_compiling(tmp_path: Path) -> None:
    out = _run(_PROBE, tmp_path)
    assert out[0] == "raised"
    assert out[1] == "[8.0, 8.0, 8.0, 8.0]"


_ARGMAX_ROWS = """
import time
import numpy as np
from numba.core import event
import typedtensor as tt
from typedtensor import _tensor_index
from typedtensor._backend import _background_compile as bg

compiled = []

class Count(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)

event.register("numba:compile", Count())
a = np.random.default_rng(4).standard_normal((4096, 64)).astype(np.float32)  # 1 MB of rows
a[9, 3] = np.nan
t = tt.asarray(a)
np.testing.assert_array_equal(np.asarray(t.argmax(1)), a.argmax(1))
print("foreground_compiled", compiled)
print("helper_started", bool(bg._worker))
deadline = time.monotonic() + 600
while "f" not in _tensor_index._ROWS_KERNEL_READY and time.monotonic() < deadline:
    np.testing.assert_array_equal(np.asarray(t.argmin(1)), a.argmin(1))
    time.sleep(0.02)
np.testing.assert_array_equal(np.asarray(t.argmax(1)), a.argmax(1))  # the kernel now
print("kernel_ready", "f" in _tensor_index._ROWS_KERNEL_READY, compiled)
"""


def test_the_argmax_of_rows_is_numpys_while_its_kernel_compiles(tmp_path: Path) -> None:
    """``t.argmax(1)`` of a medium array of rows (the serial kernel the Tensor method calls
    without a plan): numpy's answer at once, no compile in the foreground, the kernel once
    the helper has compiled it (the same answers, NaN first)."""
    out = _run(_ARGMAX_ROWS, tmp_path)
    assert "foreground_compiled []" in out
    assert "helper_started True" in out
    assert "kernel_ready True []" in out


def test_the_helper_takes_called_plans_before_ahead_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper's queue: the plans and kernels the program called, in arrival order, then
    the parallel variants of serial kernels it runs (``faster:`` keys), then the
    ahead-of-need steps (``ahead:`` keys), each kind in arrival order; ``skip`` lines are not
    jobs."""
    import io
    import queue

    from typedtensor._backend import _compile_worker as worker

    lines = ["ahead:a {}", "faster:f1 {}", "p1 {}", "skip p9", "ahead:b {}", "p2 {}"]
    lines += ["faster:f2 {}", "k3 {}"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    jobs: queue.PriorityQueue[tuple[int, int, str]] = queue.PriorityQueue()
    skipped: set[str] = set()
    worker._read_jobs(jobs, skipped)
    order = [jobs.get()[2] for _ in range(jobs.qsize())]
    assert order == [
        "p1 {}",
        "p2 {}",
        "k3 {}",
        "faster:f1 {}",
        "faster:f2 {}",
        "ahead:a {}",
        "ahead:b {}",
        "",
    ]
    assert skipped == {"p9"}


_PLAN_IN_THE_HELPER = """
import numpy as np
from typedtensor._backend import _compile_worker as worker
from typedtensor._backend._numba import sums

job = {"op": "sum", "shape": [1024, 512], "strides": [2048, 4], "itemsize": 4, "axes": [1],
       "keepdims": False, "dtype": "float32", "input_dtype": "float32", "params": {}}
worker._compile_plan(job)  # 512K elements: both routes
print("serial", [str(s[0]) for s in sums.sum_h.overloads])
print("parallel", len(sums.sum_h_par.overloads))
"""


def test_the_helper_compiles_a_plans_serial_kernels_not_its_parallel_ones(tmp_path: Path) -> None:
    """The helper's job for a plan of the parallel route's size runs it on both routes with
    the parallel kernels deferred (``parallel_deferred``): the serial kernels compile (the
    program leaves the twins after them), the parallel ones wait for their own job."""
    out = _run(_PLAN_IN_THE_HELPER, tmp_path)
    assert "serial ['array(float32, 2d, C)']" in out
    assert "parallel 0" in out


def test_a_deferrable_kernel_is_not_ready_inside_parallel_deferred(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inside ``parallel_deferred()`` a parallel variant is not ready and nothing is sent to
    a helper; a kernel that is not deferrable (the argmax of rows) is unaffected."""
    import numpy as np

    from typedtensor._backend import _background_compile as bg
    from typedtensor._backend._numba import sums

    monkeypatch.setenv("TYPEDTENSOR_NUMBA_BACKGROUND", "0")  # the helper process's setting
    monkeypatch.setattr(bg, "_parallel", {})
    sent: list[str] = []
    monkeypatch.setattr(bg, "_submit", lambda key, text: sent.append(key) or True)
    args = (np.zeros((4, 8), np.float32), np.zeros((4, 1)), np.float32(0), 0.0, 1)
    with bg.parallel_deferred():
        assert not bg.kernel_ready(sums.sum_h_par, args, deferrable=True)
        assert bg.kernel_ready(sums.sum_h, args)
    assert bg.kernel_ready(sums.sum_h_par, args, deferrable=True)
    assert sent == []
