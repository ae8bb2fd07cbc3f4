"""The helper process of ``_background_compile``: reads plans, kernel signatures and
ahead-of-need steps from stdin, one JSON job a line after its key, compiles them into the
disk cache and writes each key to stdout when done (``python -m
typedtensor._backend._compile_worker``; it ends at the end of its input).

The plans and kernels a program has called run first, in the order they arrive (numpy or
the kernels' twins serve them meanwhile, slower than the kernels), then the parallel
variants of serial kernels the program runs (``faster:`` keys: the serial kernel serves
meanwhile, with the same bits), then the ahead-of-need steps (``_compile_ahead``), each kind
in arrival order. A plan's job compiles the serial kernels it runs on either route (the
parallel route's parallel kernels deferred: the program asks for them when it runs them),
so the program leaves numpy or the twins after ~0.5 s of compiling a kernel, not after the
0.8-6 s of its parallel variant. A line ``skip KEY`` withdraws a job not begun yet (the
foreground compiles it itself); before a step the helper writes ``start KEY``, so that the
foreground waits for a step under way instead of compiling the same kernels twice.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
from typing import Any

import numpy as np


def _compile_plan(job: dict[str, Any]) -> None:
    """Run one plan on a zero array of its layout, once per route, its parallel kernels
    deferred (their serial variants run): its serial kernels compile into the disk cache."""
    from numpy.lib.stride_tricks import as_strided

    from ._background_compile import parallel_deferred
    from ._routing import runner
    from ._thread_policy import PARALLEL_FROM_ELEMENTS

    shape, strides, itemsize = tuple(job["shape"]), tuple(job["strides"]), job["itemsize"]
    in_dtype = np.dtype(job["input_dtype"])
    span = itemsize + sum((n - 1) * s for n, s in zip(shape, strides, strict=True))
    a = as_strided(np.zeros(span // in_dtype.itemsize + 1, in_dtype), shape, strides)
    routes = ["0", "1"] if int(np.prod(shape)) >= PARALLEL_FROM_ELEMENTS else ["0"]
    for route in routes:
        os.environ["TYPEDTENSOR_NUMBA_PARALLEL"] = route
        run = runner(
            "numba",
            job["op"],
            shape,
            strides,
            itemsize,
            tuple(job["axes"]),
            job["keepdims"],
            np.dtype(job["dtype"]),
            in_dtype,
        )
        with parallel_deferred():
            run(a, dict(job["params"]))


def _compile_kernel(job: dict[str, Any]) -> None:
    """Compile one kernel for one signature (pickled numba types) into the disk cache."""
    import base64
    import importlib
    import pickle

    module, _, name = job["kernel"].partition(":")
    kernel = getattr(importlib.import_module(module), name)
    kernel.compile(pickle.loads(base64.b64decode(job["sig"])))


def _compile_step(job: dict[str, Any]) -> None:
    """One ahead-of-need step: ``precompile``'s serial kernels of one op, layout and dtype."""
    from .precompile import precompile

    op, layout, dtype = job["ahead"]
    precompile([op], [dtype], [layout], serial_only=True)


#: a job's place in the queue: the plans and kernels a program has called (served by numpy
#: or the twins meanwhile), then the parallel variants of serial kernels it runs, then the
#: ahead-of-need steps, then the end of the input
_CALLED, _FASTER, _AHEAD, _END = 0, 1, 2, 3


def _priority(key: str) -> int:
    """The queue a job goes to, by its key's prefix (``faster:``, ``ahead:``, or none)."""
    if key.startswith("ahead:"):
        return _AHEAD
    return _FASTER if key.startswith("faster:") else _CALLED


def _read_jobs(jobs: queue.PriorityQueue[tuple[int, int, str]], skipped: set[str]) -> None:
    """Queue each job line of stdin by its priority (``_priority``), each kind in arrival
    order (an empty line at the end of the input); ``skip KEY`` lines fill ``skipped``."""
    order = 0
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "skip":
            skipped.add(rest)
        elif word:
            order += 1
            jobs.put((_priority(word), order, line.strip()))
    jobs.put((_END, order + 1, ""))


def main() -> None:
    """The helper process: compile each job read from stdin, write its key when done. It
    runs at a lower priority (``nice`` 10): on a busy machine the program it compiles for
    keeps the cores it had."""
    if hasattr(os, "nice"):
        os.nice(10)
    jobs: queue.PriorityQueue[tuple[int, int, str]] = queue.PriorityQueue()
    skipped: set[str] = set()
    threading.Thread(target=_read_jobs, args=(jobs, skipped), daemon=True).start()
    while (line := jobs.get()[2]) != "":
        key, _, text = line.partition(" ")
        if key in skipped:
            continue
        try:
            job = json.loads(text)
            if "ahead" in job:
                print("start", key, flush=True)
                try:
                    _compile_step(job)
                finally:  # done or failed: a foreground waiting for it probes the cache
                    print(key, flush=True)
                continue
            _compile_kernel(job) if "kernel" in job else _compile_plan(job)
        except Exception:  # the foreground keeps numpy's runner for this plan
            continue
        print(key, flush=True)


if __name__ == "__main__":
    main()
