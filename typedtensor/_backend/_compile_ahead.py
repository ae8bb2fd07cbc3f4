"""Order-dependent reductions on a program's first run: the helper process compiles the
common kernels ahead of need.

numpy's loops round sums differently from the kernels, so numpy cannot serve an
order-dependent reduction while its kernels compile, as it serves the order-free ones. The
sums, norms and moments have numpy twins of their kernels (``kernel_twins``: the same
additions in the same order), and so has float32 logsumexp (its exp's rounded steps in the
kernel's order): they serve their plans while the helper compiles (``_routing``). float64
logsumexp and the rest (prod, the NaN-aware forms...) have none: their plan compiles in the
foreground. What can run
elsewhere is the compile of the kernels the program will call next. So on the first
order-dependent plan of an input dtype (float32, float64) whose kernels are neither compiled
nor cached, the helper process is given ``precompile``'s steps for that dtype (``STEPS``:
one per serial kernel of logsumexp first, then sum, mean, var, std and the norm over rows,
columns and whole arrays), one job each, all but the one the foreground compiles now; it
takes them after the plans the program has called. A later plan without a twin whose
kernels are still missing:

- waits for its step if the helper has begun it (``start KEY``), then loads the kernels
  from the disk cache; while it waits, it takes the next step still queued back from the
  helper (``skip KEY``) and compiles it itself, so that both cores compile;
- else withdraws the step (``skip KEY``) and compiles in the foreground, as before.

Either way the kernels are the same code, so the bits are the same (the kernels' disk cache
gives the in-process compile's bits: ``tests/runtime/test_cache_determinism.py``). Off with
``TYPEDTENSOR_NUMBA_AHEAD=0`` (the helper then compiles the plans numpy or the twins serve
only), and with the
helper (``_background_compile.enabled``: ``TYPEDTENSOR_NUMBA_BACKGROUND=0``, the cache off, a
forced route).
"""

from __future__ import annotations

import functools
import json
import os
import time
from typing import Any

import numpy as np

from . import _background_compile as bg
from ._numpy_runners import Run

__all__ = ["STEPS", "compile_ahead", "enabled", "queue_steps", "step_key", "step_of"]

#: the helper's steps: one per serial kernel of the common order-dependent reductions, as
#: (op, ``precompile.LAYOUTS`` name), in the order the helper takes them
STEPS: dict[str, tuple[str, str]] = {
    # logsumexp first: float64 logsumexp has no numpy twin (``kernel_twins``), so a plan of
    # it waits for its kernels, where a sum's or a variance's plan is served meanwhile
    "logsumexp_rows": ("logsumexp", "all"),  # logsumexp.lse_h
    "logsumexp_columns": ("logsumexp", "columns"),  # logsumexp.lse_v
    "sums_rows": ("sum", "all"),  # sums.sum_h: sum and mean of rows and wholes
    "var_rows": ("var", "all"),  # variance.var_h: var, std
    "norm_rows": ("norm", "all"),  # sums.sumsq_h: the L2 norm of rows and wholes
    "sums_columns": ("sum", "columns"),  # sums.acc_v
    "var_columns": ("var", "columns"),  # variance.var_v
    "norm_columns": ("norm", "columns"),  # sums.nrm_v
}
_FAMILY = {"sum": "sums", "mean": "sums", "var": "var", "std": "var", "logsumexp": "logsumexp"}
_AHEAD_DTYPES = frozenset(("float32", "float64"))
#: the longest a plan waits for a step the helper has begun (it compiles in 0.5-6 s)
_WAIT_S = 120.0
_queued: set[str] = set()
#: the steps given to the helper, by key: (op, layout, dtype), in the order sent
_sent: dict[str, tuple[str, str, str]] = {}
#: steps the foreground took back from the helper's queue and compiled itself
_taken: set[str] = set()


def step_of(op: str, where: str) -> str | None:
    """The step whose kernels a plan of ``op`` over layout ``where`` (``_layouts.layout``)
    runs, or None (``step_of("std", "rows") == "var_rows"``; a whole array runs the rows'
    kernels)."""
    if where not in ("full", "rows", "columns"):
        return None
    rows = where != "columns"
    if op == "norm":
        return "norm_rows" if rows else "norm_columns"
    family = _FAMILY.get(op)
    return None if family is None else f"{family}_{'rows' if rows else 'columns'}"


def step_key(step: str, dtype: str) -> str:
    """The helper job of ``step`` for ``dtype``
    (``step_key("var_rows", "float32") == "ahead:var_rows:float32"``)."""
    return f"ahead:{step}:{dtype}"


def compile_ahead(kernel_run: Run, op: str, where: str, input_dtype: np.dtype[Any]) -> Run:
    """The run of an order-dependent plan (``kernel_run``: its kernels' run) that, on its
    first call with its kernels missing, queues the helper's steps for ``input_dtype`` and
    then waits for the helper or compiles (see the module docstring); ``kernel_run`` itself
    where the helper is off."""
    if not enabled():
        return kernel_run
    first: list[bool] = []

    @functools.wraps(kernel_run)  # it stands for the kernels' run (its name, its module)
    def run(a: Any, params: dict[str, Any]) -> Any:
        if first:
            return kernel_run(a, params)
        first.append(True)
        try:
            with bg.cache_only():
                return kernel_run(a, params)
        except bg.NotCompiledError:
            pass
        step = step_of(op, where)
        own = None if step is None else step_key(step, input_dtype.name)
        _queue_steps(input_dtype.name, own)
        if own is not None and _helper_compiled(own):
            try:
                with bg.cache_only():
                    return kernel_run(a, params)
            except bg.NotCompiledError:
                pass
        return kernel_run(a, params)  # compiles in the foreground

    return run


def enabled() -> bool:
    """Compile ahead of need? (the helper on, ``TYPEDTENSOR_NUMBA_AHEAD`` not ``0``)"""
    setting = os.environ.get("TYPEDTENSOR_NUMBA_AHEAD", "1").strip().lower()
    return setting not in ("0", "false", "no", "off") and bg.enabled()


def queue_steps(dtype: str) -> None:
    """Give the helper every step of ``dtype`` (once per process and dtype) where compiling
    ahead is on: the first plan of a reduction served by the kernels' numpy twins calls it
    as it sends its own plan (``_routing``); the helper takes the steps after the plans."""
    if enabled():
        _queue_steps(dtype, None)


def _queue_steps(dtype: str, own: str | None) -> None:
    """Give the helper every step of ``dtype`` (once per process and dtype) but ``own``, the
    one the foreground is about to compile."""
    if dtype not in _AHEAD_DTYPES or dtype in _queued:
        return
    _queued.add(dtype)
    for step, (op, layout) in STEPS.items():
        key = step_key(step, dtype)
        if key == own:
            continue
        if not bg.submit(key, json.dumps({"ahead": [op, layout, dtype]})):
            return
        _sent[key] = (op, layout, dtype)


def _helper_compiled(key: str) -> bool:
    """Has the helper compiled step ``key``? Waits while it is under way; a step not begun is
    withdrawn, and one never sent is not the helper's (False: the foreground compiles)."""
    if key in _taken:
        return True
    state = bg.job_state(key)
    if state == "queued":
        bg.skip(key)
    if state != "started":
        return state == "done"
    deadline = time.monotonic() + _WAIT_S
    while bg.job_state(key) != "done":
        if not bg.helper_alive() or time.monotonic() > deadline:
            return False
        if not _take_a_queued_step():
            time.sleep(0.002)
    return True


def _take_a_queued_step() -> bool:
    """While the foreground waits for the helper, compile the next step still in the helper's
    queue here (withdrawn from the helper first), so that both cores compile: True if it
    took one. A step the helper began meanwhile compiles twice, to the same kernels."""
    from .precompile import precompile

    for key, (op, layout, dtype) in _sent.items():
        if key not in _taken and bg.job_state(key) == "queued":
            bg.skip(key)
            _taken.add(key)
            precompile([op], [dtype], [layout], serial_only=True)
            return True
    return False
