"""The numba backend as a process sees it: import cost, the on-disk cache setting, threads."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor._backend import _thread_policy
from typedtensor._backend._numba import _stages as stages


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=300
    )


def test_import_typedtensor_does_not_import_numba() -> None:
    r = _run(
        "import sys, typedtensor as tt\n"
        "x = tt.asarray([[1.0, 2.0], [3.0, 4.0]])\n"
        "assert x.shape == (2, 2)\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('numba.')))"
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", r.stdout


def test_env_var_selects_the_numpy_backend() -> None:
    r = _run(
        "import sys, numpy as np, typedtensor as tt\n"
        "from typedtensor import _backend\n"
        "print(_backend.get_backend(), float(tt.asarray(np.ones(3)).sum()))\n"
        "print('numba' in sys.modules)",
        TYPEDTENSOR_BACKEND="numpy",
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["numpy", "3.0", "False"]


_CACHE_PROBE = (
    "import numpy as np\n"
    "from typedtensor._backend import _numba as nb\n"
    "r = nb.reduce('max', np.arange(7, dtype=np.int16), (0,), False, np.dtype(np.int16))\n"
    "assert r == 6\n"
    "print(nb.CACHE, nb.CACHE_DIR)"
)


def test_cache_dir_is_relocated_and_version_stamped(tmp_path: Path) -> None:
    r = _run(_CACHE_PROBE, TYPEDTENSOR_NUMBA_CACHE_DIR=str(tmp_path))
    assert r.returncode == 0, r.stderr
    enabled, where = r.stdout.split()
    assert enabled == "True"
    assert Path(where).parent == tmp_path and Path(where).name.startswith("numba")
    files = [p.name for p in Path(where).iterdir()]
    assert any(f.startswith("extremes.ext_h") and f.endswith(".nbi") for f in files), files
    # a second process loads the kernel from there instead of compiling it
    again = _run(
        _CACHE_PROBE + "\nfrom typedtensor._backend._numba import _kernels as K\n"
        "print(K.ext_h.stats.cache_hits)",
        TYPEDTENSOR_NUMBA_CACHE_DIR=str(tmp_path),
    )
    assert again.returncode == 0, again.stderr
    hits = again.stdout.split("\n")[1]
    assert "(Array(int16, 2, 'C'" in hits and ": 1" in hits, again.stdout


def test_parallel_policy_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parallel from PAR_MIN elements with 2+ threads and idle cores; never with one thread;
    serial while the other cores are busy; the setting forces it."""
    monkeypatch.setattr(stages, "_threads", lambda: 2)
    monkeypatch.setattr(stages, "_idle_cores", lambda: True)
    big = stages.PAR_MIN
    assert not stages._parallel(big - 1)
    assert stages._parallel(big)
    monkeypatch.setattr(stages, "_idle_cores", lambda: False)
    assert not stages._parallel(big)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "0")
    assert not stages._parallel(big)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "1")
    assert stages._parallel(big)  # forced, busy or not
    assert not stages._parallel(big - 1)  # forcing never compiles parallel kernels for tiny inputs
    monkeypatch.setattr(stages, "_threads", lambda: 1)
    assert not stages._parallel(big)


def test_the_setting_is_read_on_every_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """``forced_setting`` follows ``TYPEDTENSOR_NUMBA_PARALLEL`` as it is set, changed, set
    again to the same text and removed (it remembers the last value it parsed)."""
    monkeypatch.delenv("TYPEDTENSOR_NUMBA_PARALLEL", raising=False)
    assert _thread_policy.forced_setting() is None
    for text, meaning in [("0", False), ("1", True), ("1", True), (" Off ", False), ("auto", None),
                          ("yes", True), ("bogus", None), ("0", False)]:  # fmt: skip
        monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", text)
        assert _thread_policy.forced_setting() is meaning, text
        assert _thread_policy.forced_setting() is meaning, text  # the remembered parse
    monkeypatch.delenv("TYPEDTENSOR_NUMBA_PARALLEL")
    assert _thread_policy.forced_setting() is None


def test_idle_cores_reads_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_thread_policy, "SAMPLE_S", 0.0)
    _thread_policy.reset()
    monkeypatch.setattr(_thread_policy, "CORES", 2)
    monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: 1.2)
    assert stages._idle_cores()  # this process and a little more: the second core is free
    monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: 1.6)
    assert not stages._idle_cores()


def test_cache_can_be_disabled(tmp_path: Path) -> None:
    r = _run(_CACHE_PROBE, TYPEDTENSOR_NUMBA_CACHE_DIR=str(tmp_path), TYPEDTENSOR_NUMBA_CACHE="0")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "False"
    assert list(tmp_path.rglob("*.nbi")) == []


def test_reductions_from_a_thread_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parallel kernels launched from many user threads at once: no crash, right answers."""
    monkeypatch.setattr(stages, "PAR_MIN", 0)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "1")
    rng = np.random.default_rng(4)
    arrays = [rng.standard_normal((64, 300)) for _ in range(16)]

    def work(a: np.ndarray[Any, Any]) -> tuple[float, float]:
        with tt.use_backend("numba"):
            t = tt.asarray(a)
            return float(t.sum()), float(t.max(axis=0).sum())

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, arrays))
    for a, (s, m) in zip(arrays, results, strict=True):
        assert s == pytest.approx(float(a.sum()), rel=1e-12)
        assert m == pytest.approx(float(a.max(axis=0).sum()), rel=1e-12)


_LOAD_PROBE = """
import sys
import threading
import time
import numpy as np
from typedtensor._backend import _numba as nb
from typedtensor._backend._numba import _kernels as K
rng = np.random.default_rng(5)
a = rng.standard_normal((70, 100)).astype(np.float32)   # vertical: scratch rows (_full, _copy)
n = rng.standard_normal((2048, 3))                       # short rows: blocks transposed (_empty)
p = rng.standard_normal((600, 512))                      # parallel (forced)
f32 = np.dtype(np.float32)
f64 = np.dtype(np.float64)
got = [
    nb.reduce("logsumexp", a, (0,), False, f32),
    nb.reduce("sum", a, (0,), False, f32),
    nb.reduce("var", n, (1,), False, f64, correction=0),
    nb.reduce("sum", p, (0,), False, f64),
]
want = [
    np.log(np.exp(a.astype(np.float64)).sum(axis=0)),
    a.sum(axis=0, dtype=np.float64),
    n.var(axis=1),
    p.sum(axis=0),
]
for g, w in zip(got, want):
    assert g.shape == w.shape, (g.shape, w.shape)
    assert np.allclose(g, w, rtol=1e-5), (g, w)
print(sum(sum(d.stats.cache_hits.values()) for d in (K.lse_v, K.acc_v, K.var_n, K.acc_v_par)))
print(sum(sum(d.stats.cache_misses.values()) for d in (K.lse_v, K.acc_v, K.var_n, K.acc_v_par)))
print("numba.np.arrayobj" in sys.modules)
"""


def test_cached_kernels_load_without_numba_registry_setup(tmp_path: Path) -> None:
    """A new process loads cached kernels (scratch allocations and a parallel one included) and
    gets numpy's answers without numba's typing/lowering set-up (``numba.np.arrayobj`` is one of
    the modules that set-up imports): the warm first call stays a fraction of that set-up."""
    env = {"TYPEDTENSOR_NUMBA_CACHE_DIR": str(tmp_path), "TYPEDTENSOR_NUMBA_PARALLEL": "1"}
    cold = _run(_LOAD_PROBE, **env)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.split() == ["0", "4", "True"], cold.stdout  # compiled: set-up done
    warm = _run(_LOAD_PROBE, **env)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.split() == ["4", "0", "False"], warm.stdout


_SERIAL_KERNELS_IN_THREADS = """
import threading, time
from typedtensor._backend.partials import serial_kernels

errors, start = [], threading.Barrier(12)

def chunk(delay):
    start.wait()
    time.sleep(delay)  # arrivals spread over numba's import (~0.1-0.5 s)
    try:
        with serial_kernels("numba"):
            pass
    except Exception as err:
        errors.append(repr(err))

threads = [threading.Thread(target=chunk, args=(0.02 * i,)) for i in range(12)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(errors)
"""


def test_dask_workers_that_start_together_wait_for_numba_s_import() -> None:
    """Chunks of a dask graph enter ``serial_kernels`` in several worker threads at once, the
    first call of a process importing numba: a thread that read the half-imported module
    from ``sys.modules`` failed ('partially initialized module numba has no attribute
    get_num_threads')."""
    r = _run(_SERIAL_KERNELS_IN_THREADS)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


@pytest.fixture
def policy_clock(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """The thread policy on a 2-core machine that reads idle by the runnable count, with the
    test's clocks: advance ``clock["wall"]`` and ``clock["cpu"]`` to stand for a launch."""
    clock = {"wall": 100.0, "cpu": 5.0}
    fake_time = SimpleNamespace(
        perf_counter=lambda: clock["wall"],
        monotonic=lambda: clock["wall"],
        process_time=lambda: clock["cpu"],
    )
    monkeypatch.setattr(_thread_policy, "time", fake_time)
    monkeypatch.setattr(_thread_policy, "SAMPLE_S", 0.0)
    monkeypatch.setattr(_thread_policy, "CORES", 2)
    monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: 0.0)  # idle by the count
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "auto")
    _thread_policy.reset()
    return clock


def test_a_stalled_parallel_launch_sends_the_next_kernels_serial(
    monkeypatch: pytest.MonkeyPatch, policy_clock: dict[str, float]
) -> None:
    """A parallel launch whose threads got little CPU keeps the kernels serial for BACKOFF_S;
    a launch that keeps its threads busy does not; a forced setting is never second-guessed.
    The clocks are the test's: kernels that advance wall and CPU time as told."""
    clock = policy_clock

    def kernel(wall: float, cpu: float) -> None:
        clock["wall"] += wall
        clock["cpu"] += cpu

    assert _thread_policy.idle_cores()
    _thread_policy.timed_launch(kernel, 2, 0.01, 0.019)  # two threads busy: no stall
    assert _thread_policy.idle_cores()
    _thread_policy.timed_launch(kernel, 2, 0.01, 0.011)  # one thread waited for the other
    assert not _thread_policy.idle_cores()
    assert not _thread_policy.parallel_expected()
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "1")
    assert _thread_policy.parallel_expected()  # forced, stalled or not
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "auto")
    clock["wall"] += _thread_policy.BACKOFF_S
    assert _thread_policy.idle_cores()  # the back-off is over: the next launch probes again
    _thread_policy.timed_launch(kernel, 2, 1e-5, 0.0)  # too short to judge
    assert _thread_policy.idle_cores()
    _thread_policy.reset()


def test_the_kernels_spinning_workers_are_not_competitors(
    monkeypatch: pytest.MonkeyPatch, policy_clock: dict[str, float]
) -> None:
    """Within ``POOL_SPIN_S`` of a parallel launch this process's running threads, up to the
    pool's ``CORES - 1`` workers, are taken off the runnable count; outside it, and beyond the
    workers, they count. The clocks and counts are the test's."""
    clock = policy_clock
    counts = {"machine": 2.0, "own": 1}
    monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: counts["machine"])
    monkeypatch.setattr(_thread_policy, "_own_other_runnable_threads", lambda: counts["own"])

    def kernel() -> None:
        clock["wall"] += 0.01
        clock["cpu"] += 0.02

    assert not _thread_policy.idle_cores()  # no launch yet: another task of ours competes
    _thread_policy.timed_launch(kernel, 2)
    assert _thread_policy.idle_cores()  # just after a launch: that task is our spinning worker
    counts["machine"], counts["own"] = 3.0, 2  # the worker and another thread of the program
    clock["wall"] += 0.001
    assert not _thread_policy.idle_cores()
    counts["machine"], counts["own"] = 2.0, 1
    clock["wall"] += _thread_policy.POOL_SPIN_S
    assert not _thread_policy.idle_cores()  # past the spin: a running thread is a competitor
    _thread_policy.reset()


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux's /proc")
def test_a_running_thread_is_counted_and_a_sleeping_one_not() -> None:
    """This thread, reading, is running; a thread hashing without the GIL is running and
    counted among the process's other running threads; one waiting on an event is not."""
    assert _thread_policy._thread_running(str(threading.get_native_id()))
    event = threading.Event()
    sleeper = threading.Thread(target=event.wait)
    sleeper.start()
    try:
        time.sleep(0.05)
        assert not _thread_policy._thread_running(str(sleeper.native_id))
    finally:
        event.set()
        sleeper.join()
    assert not _thread_policy._thread_running("0")  # no such thread
    done = threading.Event()

    def hash_until_done() -> None:
        data = bytes(1 << 24)
        while not done.is_set():
            hashlib.sha256(data).digest()  # releases the GIL for the whole buffer

    worker = threading.Thread(target=hash_until_done)
    worker.start()
    try:
        seen, counted = False, 0
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and not seen:
            seen = _thread_policy._thread_running(str(worker.native_id))
            counted = _thread_policy._own_other_runnable_threads() if seen else 0
    finally:
        done.set()
        worker.join()
    assert seen
    assert counted >= 1


def test_a_launch_that_loads_its_kernel_is_not_judged(policy_clock: dict[str, float]) -> None:
    """A launch in which the dispatcher added a variant (loaded from the disk cache or
    compiled, on one thread) keeps the parallel route; the same slow launch of a kernel
    already loaded backs off. The clocks are the test's."""
    clock = policy_clock

    class Kernel:
        """A dispatcher whose first call on a signature adds its variant."""

        def __init__(self) -> None:
            self.overloads: dict[str, object] = {}

        def __call__(self, signature: str, wall: float, cpu: float) -> None:
            self.overloads.setdefault(signature, object())
            clock["wall"] += wall
            clock["cpu"] += cpu

    kernel = Kernel()
    _thread_policy.timed_launch(kernel, 2, "float32[:, :]", 0.06, 0.07)  # loads: not judged
    assert _thread_policy.idle_cores()
    _thread_policy.timed_launch(kernel, 2, "float64[:, :]", 0.06, 0.07)  # another variant
    assert _thread_policy.idle_cores()
    _thread_policy.timed_launch(kernel, 2, "float32[:, :]", 0.06, 0.07)  # loaded: a stall
    assert not _thread_policy.idle_cores()
    _thread_policy.reset()
