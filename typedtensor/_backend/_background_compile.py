"""Kernels compile in a helper process while numpy's loops serve (a program's first run).

An order-free reduction (``_routing.ORDER_FREE_OPS``: max, min, any, all, argmax, argmin,
nanmax, nanmin) gets the same bits from numpy's loops as from the numba kernels, and a sum,
mean, var, std, norm or float32 logsumexp gets them from its kernels' numpy twins
(``kernel_twins``). So while the kernels a plan needs are neither compiled nor in the disk
cache, numpy's runner (or the twins) serves the plan, and one helper process (``python -m
typedtensor._backend._compile_worker``, started on the first such plan, one per program)
runs the same plan on a zero array of the same layout, which compiles the serial kernels it
runs into the disk cache. When it reports the plan done, the next call runs the kernels,
loading them from the cache (5-13 ms each). A plan's first call tries its kernels without
compiling (``cache_only``, asked by ``_numba._cache`` on a disk-cache miss): a program
whose kernels are cached runs them from its first call. Likewise a parallel kernel not
compiled yet (``kernel_ready``): the serial one (the same bits) runs while the helper
compiles it, after the plans the program waits for.

A process, not a thread: numba's type inference enters ``warnings.catch_warnings`` for every
typing constraint, and ``catch_warnings`` swaps the process-wide ``warnings`` filters and
``showwarning``, so a compile in a background thread changes which of the foreground's
warnings are shown or recorded (``benchmarks/warnings_thread_race.py`` shows it). A process
shares no warnings state, no GIL, and runs on another core.

Off when the disk cache is off (``TYPEDTENSOR_NUMBA_CACHE=0``: nothing to share), when a
route is forced (``TYPEDTENSOR_NUMBA_PARALLEL=0``/``1``: the kernels run as asked), or with
``TYPEDTENSOR_NUMBA_BACKGROUND=0``. The helper is ended when the program exits.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import IO, Any

import numpy as np

from ._numpy_runners import Run
from ._thread_policy import forced_setting

__all__ = [
    "NotCompiledError",
    "cache_enabled",
    "cache_only",
    "enabled",
    "helper_alive",
    "job_state",
    "kernel_ready",
    "parallel_deferred",
    "probing",
    "serve_while_compiling",
    "skip",
    "submit",
]

_done: set[str] = set()
#: keys of the jobs the helper has begun (``start KEY``; ``_compile_ahead`` waits for these)
_started: set[str] = set()
#: (kernel, argument types) -> True once compiled, else the key of its pending job
_parallel: dict[tuple[Any, ...], bool | str] = {}
_submitted: set[str] = set()
_lock = threading.Lock()
_worker: list[subprocess.Popen[str]] = []


class NotCompiledError(RuntimeError):
    """Inside ``cache_only()``: a kernel would have to compile (neither loaded nor cached)."""


_probe = threading.local()


@contextlib.contextmanager
def cache_only() -> Iterator[None]:
    """Within this block (this thread only) a kernel call that would compile raises
    ``NotCompiledError`` instead (``_numba._cache`` asks ``probing()`` on a cache miss)."""
    _probe.active = True
    try:
        yield
    finally:
        _probe.active = False


def probing() -> bool:
    """Is this thread inside ``cache_only()``?"""
    return bool(getattr(_probe, "active", False))


def cache_enabled() -> bool:
    """``TYPEDTENSOR_NUMBA_CACHE``: the kernels' disk cache is on unless it says ``0``."""
    value = os.environ.get("TYPEDTENSOR_NUMBA_CACHE", "1").strip().lower()
    return value not in ("0", "false", "no", "off")


def enabled() -> bool:
    """Serve order-free plans from numpy while their kernels compile elsewhere? (the disk
    cache on, the route not forced, ``TYPEDTENSOR_NUMBA_BACKGROUND`` not ``0``)."""
    setting = os.environ.get("TYPEDTENSOR_NUMBA_BACKGROUND", "1").strip().lower()
    if setting in ("0", "false", "no", "off") or forced_setting() is not None:
        return False
    return cache_enabled()


def serve_while_compiling(
    kernel_run: Run,
    numpy_run: Run,
    job: dict[str, Any],
    before_submit: Callable[[], None] | None = None,
) -> Run:
    """A run for the plan ``job`` describes that calls ``kernel_run`` if its kernels are
    compiled or in the disk cache (tried once, on the plan's first call, with
    ``cache_only``), else ``numpy_run`` until the helper process has compiled
    them, ``kernel_run`` from then on. Both must give the same bits. ``kernel_run`` itself
    where the background compile is off.

    ``job``: ``op, shape, strides, itemsize, axes, keepdims, dtype, input_dtype`` (``dtype``
    strings); e.g. ``{"op": "max", "shape": [512, 256], ...}`` for ``t.max(axis=0)`` of a
    ``(512, 256)`` float32 tensor. The helper runs the plan with the parameters of its first
    call (``ord``, ``correction``...), which pick the kernels it compiles; ``before_submit``,
    if given, runs just before the plan is sent (to queue other jobs ahead of it)."""
    if not enabled() or any(s < 0 for s in job["strides"]):
        return kernel_run
    key = hashlib.sha256(json.dumps(job, sort_keys=True).encode()).hexdigest()[:24]
    probed: list[bool] = []

    @functools.wraps(kernel_run)  # it stands for the kernels' run (its name, its module)
    def run(a: Any, params: dict[str, Any]) -> Any:
        if key in _done:
            return kernel_run(a, params)
        if not probed:
            probed.append(True)
            try:
                with cache_only():
                    result = kernel_run(a, params)
            except NotCompiledError:
                try:
                    text = json.dumps({**job, "params": params}, sort_keys=True)
                except TypeError:  # a parameter that is not plain data
                    text = ""
                if text and before_submit is not None:
                    before_submit()
                if not text or not _submit(key, text):
                    _done.add(key)  # no helper: the kernels compile in the foreground
                    return kernel_run(a, params)
            else:
                _done.add(key)
                return result
        return numpy_run(a, params)

    return run


@contextlib.contextmanager
def parallel_deferred() -> Iterator[None]:
    """Within this block (this thread only; the helper process compiling a plan) a
    ``kernel_ready(..., deferrable=True)`` kernel is not ready and nothing is submitted: the
    serial kernels run, and compile, in its place."""
    _probe.defer_parallel = True
    try:
        yield
    finally:
        _probe.defer_parallel = False


def kernel_ready(kernel: Any, args: tuple[Any, ...], deferrable: bool = False) -> bool:
    """May ``kernel`` run on ``args`` now? True where it is compiled or in the disk cache (or
    the background compile is off: it then compiles in the foreground); else the helper
    process compiles it and False until it is done, while code giving the same bits runs:
    the serial kernel for a parallel one (which costs 0.8-6 s to compile on a quiet core, a
    serial one ~0.5 s), numpy's argmax for the argmax of rows. ``deferrable``: a parallel
    variant, which the helper compiles after the plans and kernels a program waits for (and
    not at all inside ``parallel_deferred()``)."""
    if deferrable and getattr(_probe, "defer_parallel", False):
        return False
    tkey = (kernel, _type_key(args))
    known = _parallel.get(tkey)
    if known is True or (known is not None and known in _done):
        _parallel[tkey] = True
        return True
    if known is not None:
        return False
    if not enabled():
        _parallel[tkey] = True
        return True
    import base64
    import pickle

    import numba

    signature = tuple(numba.typeof(a) for a in args)  # type: ignore[no-untyped-call]
    try:
        ready = signature in kernel.overloads or (
            kernel._cache.load_overload(signature, kernel.targetctx) is not None
        )
    except NotCompiledError:  # a plan's probe (``cache_only``): its serial kernel may be cached
        ready = False
    name = f"{kernel.py_func.__module__}:{kernel.py_func.__name__}"
    text = json.dumps({"kernel": name, "sig": base64.b64encode(pickle.dumps(signature)).decode()})
    key = ("faster:" if deferrable else "") + hashlib.sha256(text.encode()).hexdigest()[:24]
    if ready or not _submit(key, text):
        _parallel[tkey] = True
        return True
    _parallel[tkey] = key
    return False


def _type_key(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """What numba's dispatch keys on, cheaply: dtype, rank and layout of arrays, the type of
    the rest."""
    return tuple(
        (a.dtype.char, a.ndim, a.flags.c_contiguous, a.flags.f_contiguous)
        if isinstance(a, np.ndarray)
        else type(a)
        for a in args
    )


def _submit(key: str, text: str) -> bool:
    """Send one plan to the helper process (started on the first call); False if it could
    not be started."""
    with _lock:
        if key in _submitted:
            return True
        if not _worker:
            try:
                _worker.append(_start())
            except OSError:
                return False
        if not _send_locked(f"{key} {text}"):
            return False
        _submitted.add(key)
        return True


def submit(key: str, text: str) -> bool:
    """Send the job ``text`` (JSON) under ``key`` to the helper process (started on the first
    call; once per key); False if it could not be started or has ended."""
    return _submit(key, text)


def job_state(key: str) -> str | None:
    """Where the helper is with job ``key``: ``"done"``, ``"started"`` (an ahead-of-need step
    it has begun), ``"queued"`` (sent, not begun or not reported), or None (never sent)."""
    if key in _done:
        return "done"
    if key in _started:
        return "started"
    return "queued" if key in _submitted else None


def skip(key: str) -> None:
    """Tell the helper to leave the submitted job ``key`` alone if it has not begun it (the
    foreground compiles its kernels itself)."""
    with _lock:
        _send_locked(f"skip {key}")


def helper_alive() -> bool:
    """Is the helper process running (started and not ended)?"""
    return bool(_worker) and _worker[0].poll() is None


def _send_locked(line: str) -> bool:
    """Write one line to the helper (``_lock`` held); False if it has ended."""
    proc = _worker[0] if _worker else None
    if proc is None or proc.poll() is not None or proc.stdin is None:
        return False
    try:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    except OSError:
        return False
    return True


def _start() -> subprocess.Popen[str]:
    env = {**os.environ, "TYPEDTENSOR_NUMBA_BACKGROUND": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "typedtensor._backend._compile_worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    threading.Thread(
        target=_read_done, args=(proc.stdout,), name="typedtensor-compiled", daemon=True
    ).start()
    atexit.register(_stop, proc)
    return proc


def _read_done(stream: IO[str]) -> None:
    """Record the keys the helper reports compiled, and (``start KEY``) the jobs it has
    begun (a plain pipe reader: no numpy, no numba)."""
    for line in stream:
        word, _, key = line.strip().partition(" ")
        if word == "start" and key:
            _started.add(key)
        else:
            _done.add(line.strip())


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()
