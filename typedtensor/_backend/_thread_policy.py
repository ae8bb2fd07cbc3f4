"""The numba backend's thread policy: whether a reduction runs its serial or its parallel
kernels, decided here and nowhere else (the ``TYPEDTENSOR_NUMBA_PARALLEL`` setting, the core
count and the machine's load are read in this module only).

Both routes give the same bits (the kernels split rows into segments by shape alone,
``_numba/_stages.py``), so the policy is free to follow the load from call to call. It runs
the parallel kernels while a second core is free and serially otherwise, because a parallel
kernel whose work is split statically over threads waits for its slowest thread: with another
CPU-bound process on a 2-core machine a 4M-element ``max`` took 16x numpy's time in parallel.
Whether a core is free is read from the kernel's own last run, not guessed from the
1-minute load average (which lags a starting competitor by tens of seconds):

- the instantaneous count of runnable tasks (``/proc/loadavg``'s fourth field, read at most
  every ``SAMPLE_S`` seconds; where there is none, the 1-minute load average), less the
  kernels' own worker threads while they spin after a launch (``POOL_SPIN_S``);
- each parallel launch measures its CPU time over its wall time: a launch whose threads got
  less than ``MIN_EFFICIENCY`` of their cores (a thread was descheduled) sends the next
  ``BACKOFF_S`` seconds' kernels to the serial route (a launch that loaded or compiled its
  kernel is not judged).

``TYPEDTENSOR_NUMBA_PARALLEL=0``/``1`` forces either route (``auto``, the default, follows the
machine). ``parallel_now(threads)`` answers for one kernel launch, ``parallel_expected()`` for a
plan that must choose before any kernel runs (``_routing``), ``timed_launch`` runs a
parallel kernel and records its efficiency.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

__all__ = [
    "BACKOFF_S",
    "CORES",
    "MIN_EFFICIENCY",
    "PARALLEL_FROM_ELEMENTS",
    "POOL_SPIN_S",
    "forced_setting",
    "idle_cores",
    "parallel_expected",
    "parallel_now",
    "reset",
    "runnable_tasks",
    "timed_launch",
]

#: the machine's cores, read once: ``os.cpu_count()`` costs ~2 us a call
CORES = os.cpu_count() or 1
#: the numba kernels split their work over threads from this many elements; below it they
#: run serially (and their parallel variants never compile). At 256K elements (1 MB of
#: float32, in the caches) waking a second thread cost more than it saved on most ops
#: (``benchmarks/README.md``, "Serial or parallel at 256K-16M elements")
PARALLEL_FROM_ELEMENTS = 1 << 20
#: the runnable-task count is read at most this often (a read costs ~5 us)
SAMPLE_S = 0.02
#: a parallel launch whose threads ran less than this share of its wall time ...
MIN_EFFICIENCY = 0.7
#: ... keeps the kernels serial for this long (then one parallel launch probes again)
BACKOFF_S = 1.0
#: parallel launches shorter than this tell nothing (thread wake-up dominates)
_MIN_TIMED_S = 200e-6

_TRUE = ("1", "true", "yes", "on")
_SETTINGS = ("0", "1", "false", "true", "no", "yes", "off", "on")

#: after a parallel launch the kernels' worker threads spin this long before they sleep
#: (libgomp's: ``R`` 1 ms after a launch, ``S`` from 10 ms); a sample taken meanwhile does not
#: count them as competitors (``_pool_threads_running``)
POOL_SPIN_S = 0.02

_state = {"sampled_at": -1.0, "busy": 0.0, "serial_until": 0.0, "pool_spin_until": 0.0}

_SETTING = "TYPEDTENSOR_NUMBA_PARALLEL"
#: ``os.environ``'s own mapping and the setting's key in it: the per-call check is one dict
#: lookup and an identity test (``os.environ.get`` runs three Python functions, whose cache
#: misses after a large reduction cost more than the lookup; ``bench_contention.py``)
_ENVIRON: Any = getattr(os.environ, "_data", None)
_KEY: Any = os.environ.encodekey(_SETTING) if _ENVIRON is not None else None
#: (the raw value last parsed, its meaning), replaced as one; holding the raw object keeps
#: its identity unique
_parsed: list[tuple[Any, bool | None]] = [(object(), None)]


def forced_setting() -> bool | None:
    """``TYPEDTENSOR_NUMBA_PARALLEL``: True/False where it forces a route, None for ``auto``
    (read on every call: a change of the variable takes effect at once)."""
    if _ENVIRON is not None:
        raw = _ENVIRON.get(_KEY)
        last, meaning = _parsed[0]
        if raw is last:
            return meaning
    forced = os.environ.get(_SETTING, "auto").strip().lower()
    value = forced in _TRUE if forced in _SETTINGS else None
    if _ENVIRON is not None:
        _parsed[0] = (raw, value)
    return value


def runnable_tasks() -> float:
    """The machine's runnable tasks now, this thread included (``/proc/loadavg``'s fourth
    field, running/total), or the 1-minute load average where the platform has no such
    count."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return float(f.read().split()[3].split(b"/")[0])
    except (OSError, IndexError, ValueError):
        pass
    try:
        return os.getloadavg()[0]
    except OSError:  # pragma: no cover - no load average on this platform
        return 0.0


def _pool_threads_running() -> int:
    """How many of the runnable tasks, sampled within ``POOL_SPIN_S`` of a parallel launch,
    are the kernels' own worker threads still spinning: this process's other running threads,
    at most ``CORES - 1`` (the pool's workers; a thread of the program's own beyond them still
    counts). Counted as competitors they made the next kernel's check read a busy machine
    (``benchmarks/README.md``, "A kernel's first launch")."""
    return min(_own_other_runnable_threads(), CORES - 1)


def _own_other_runnable_threads() -> int:
    """This process's threads other than the caller that are running or runnable now (state
    ``R`` in ``/proc/self/task/*/stat``), 0 where unreadable."""
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return 0
    running = sum(_thread_running(tid) for tid in tids)
    return max(0, running - 1)  # the caller reads its own stat while running


def _thread_running(tid: str) -> bool:
    """Is this process's thread ``tid`` running or runnable (state ``R``)? False for a thread
    that has ended."""
    try:
        with open(f"/proc/self/task/{tid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    end = stat.rfind(b")")  # the state follows the command name, which may hold spaces
    return stat[end + 2 : end + 3] == b"R"


def idle_cores() -> bool:
    """Does a second thread find a free core? (runnable tasks below cores - 0.5, sampled at
    most every ``SAMPLE_S``, the kernels' own spinning workers left out for ``POOL_SPIN_S``
    after a parallel launch; ``False`` for ``BACKOFF_S`` after a stalled parallel launch)."""
    now = time.monotonic()
    if now < _state["serial_until"]:
        return False
    if now - _state["sampled_at"] >= SAMPLE_S:
        busy = runnable_tasks()
        if busy >= 2 and now < _state["pool_spin_until"]:
            busy -= _pool_threads_running()
        _state["busy"] = busy
        _state["sampled_at"] = now
    return _state["busy"] < CORES - 0.5


def parallel_expected() -> bool:
    """Would a large input's parallel kernels run now? (the setting, else 2+ cores and one of
    them free)."""
    forced = forced_setting()
    if forced is not None:
        return forced
    return CORES >= 2 and idle_cores()


def parallel_now(threads: int, idle: Callable[[], bool] = idle_cores) -> bool:
    """Run one large kernel launch on ``threads`` numba threads in parallel? (the setting,
    else 2+ threads and ``idle()``). Inputs below ``PARALLEL_FROM_ELEMENTS`` never ask."""
    if threads < 2:
        return False
    forced = forced_setting()
    if forced is not None:
        return forced
    return idle()


def reset() -> None:
    """Forget the sampled load and any back-off (tests; a forked child)."""
    _state.update(sampled_at=-1.0, busy=0.0, serial_until=0.0, pool_spin_until=0.0)


def timed_launch(kernel: Any, threads: int, *args: Any) -> None:
    """Run a parallel ``kernel(*args)`` and keep the next kernels serial for ``BACKOFF_S``
    if its threads were descheduled (CPU time below ``MIN_EFFICIENCY`` of wall time times
    ``threads``).

    A launch in which numba's dispatcher added a compiled variant (``kernel.overloads`` grew:
    it loaded the kernel from the disk cache or compiled it, on one thread, and a process's
    first parallel launch also starts the thread pool) is not judged: its time is not the
    threads'. Judged, the first launch of every parallel kernel read as a stall and sent a
    program's next second of kernels to the serial route (``benchmarks/README.md``, "A
    kernel's first launch")."""
    overloads = getattr(kernel, "overloads", None)
    variants = -1 if overloads is None else len(overloads)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    kernel(*args)
    wall = time.perf_counter() - wall0
    _state["pool_spin_until"] = time.monotonic() + POOL_SPIN_S
    if wall < _MIN_TIMED_S or forced_setting() is not None:
        return
    if overloads is not None and len(overloads) != variants:
        return
    if time.process_time() - cpu0 < MIN_EFFICIENCY * wall * threads:
        _state["serial_until"] = time.monotonic() + BACKOFF_S
