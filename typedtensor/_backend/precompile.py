"""Fill the numba kernels' disk cache ahead of need: ``typedtensor precompile``.

A program's first run with an empty cache compiles every kernel it calls (0.4-1 s each for a
serial kernel, more for a parallel one; ``benchmarks/README.md``). The order-dependent
reductions (sum, mean, var, std, logsumexp, norm) compile in the foreground, since numpy's
loops round differently and may not serve them. ``precompile`` runs each chosen reduction
once per layout, dtype and route on a zero array, which compiles its kernels into the cache
directory (``TYPEDTENSOR_NUMBA_CACHE_DIR``, default ``~/.cache/typedtensor/numba``); a later
program loads them (5-13 ms each). Run it in CI or a Docker build step::

    typedtensor precompile                              # float32 and float64, all/rows/columns
    typedtensor precompile --dtypes float32 --serial-only

Each step runs the plan-bound serial kernels (``direct_runner``, where they bind), the
backend's serial kernels and, unless ``serial_only``, its parallel kernels (what the routes
run from ``PARALLEL_FROM_ELEMENTS`` elements while numba has two threads or more).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["COMMON_OPS", "LAYOUTS", "Step", "command", "precompile"]

#: the reductions compiled by default (the order-free ones too: then no helper process starts)
COMMON_OPS = ("sum", "mean", "var", "std", "logsumexp", "norm", "max", "min", "argmax", "argmin")
#: layout name -> (shape, reduced axes) of a C-contiguous input of 2^18 elements (the
#: smallest size the parallel kernels run at)
LAYOUTS: dict[str, tuple[tuple[int, int], tuple[int, ...]]] = {
    "all": ((1024, 256), (0, 1)),
    "rows": ((1024, 256), (1,)),
    "columns": ((1024, 256), (0,)),
    "short-rows": ((32768, 8), (1,)),
}
#: a value of each reduction parameter (the rules' ``params``) to run the kernels with
_PARAM_VALUES: dict[str, Any] = {
    "correction": 0.0,
    "p": 2.0,
    "eps": 1e-12,  # the norm's plain mode reads no eps
    "mode": "plain",
    "variant": "pytorch",
}


@dataclass(frozen=True)
class Step:
    """One precompile step: ``op`` over ``layout`` of ``dtype`` on ``route``, the kernels it
    compiled (0: all were in the cache) and its wall time in seconds."""

    op: str
    layout: str
    dtype: str
    route: str
    compiled: int
    seconds: float


@contextmanager
def _environment(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _counting_compiles() -> tuple[Callable[[], int], Callable[[], None]]:
    """(count, stop): ``count()`` is the number of kernels numba compiled (not loaded from
    the cache) since the call, helpers compiled inside a kernel not counted."""
    from numba.core import event

    depth = [0]
    top = [0]

    class _Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            depth[0] += 1

        def on_end(self, ev: Any) -> None:
            depth[0] -= 1
            top[0] += depth[0] == 0

    listener = _Listener()
    event.register("numba:compile", listener)  # type: ignore[no-untyped-call]

    def stop() -> None:
        event.unregister("numba:compile", listener)  # type: ignore[no-untyped-call]

    return (lambda: top[0]), stop


def _run_routes(
    op: str, a: np.ndarray[Any, Any], axes: tuple[int, ...], serial_only: bool
) -> Iterator[str]:
    """Run ``op`` on ``a`` in each route, yielding the route's name after it ran."""
    from .. import _rules as rules
    from . import _numba as nb
    from ._numba.direct import direct_runner

    spec = rules.REDUCTIONS[op]
    dtype = np.dtype(rules.result_dtype(spec.dtype_rule, a.dtype.name))
    params = {name: _PARAM_VALUES[name] for name in spec.params}
    with _environment(TYPEDTENSOR_NUMBA_PARALLEL="0"):

        def full(x: Any, p: dict[str, Any]) -> Any:
            return nb.reduce(op, x, axes, False, dtype, **p)

        run = direct_runner(op, a.shape, a.strides, axes, False, dtype, a.dtype, full)
        if run is not None:
            run(a, dict(params))
        full(a, params)
    yield "serial"
    if not serial_only:
        with _environment(TYPEDTENSOR_NUMBA_PARALLEL="1"):
            nb.reduce(op, a, axes, False, dtype, **params)
        yield "parallel"


def precompile(
    ops: Sequence[str] = COMMON_OPS,
    dtypes: Sequence[str] = ("float32", "float64"),
    layouts: Sequence[str] = ("all", "rows", "columns"),
    serial_only: bool = False,
    report: Callable[[Step], None] | None = None,
) -> list[Step]:
    """Compile the kernels of ``ops`` over ``layouts`` (``LAYOUTS``' names) of ``dtypes`` into
    the disk cache; each step as a ``Step`` (also passed to ``report`` as it ends), e.g.
    ``precompile(["sum"], ["float32"], ["rows"], serial_only=True)`` compiles the serial
    kernels a ``(1024, 256)`` float32 ``t.sum(axis=1)`` runs."""
    from .. import _rules as rules

    unknown = [op for op in ops if op not in rules.REDUCTIONS]
    bad_layouts = [name for name in layouts if name not in LAYOUTS]
    if unknown or bad_layouts:
        raise ValueError(
            f"precompile: unknown reductions {unknown} or layouts {bad_layouts}; "
            f"layouts are {sorted(LAYOUTS)}"
        )
    count, stop = _counting_compiles()
    steps: list[Step] = []
    try:
        with _environment(TYPEDTENSOR_NUMBA_BACKGROUND="0"):
            for dtype in dtypes:
                for layout in layouts:
                    shape, axes = LAYOUTS[layout]
                    a = np.zeros(shape, np.dtype(dtype))
                    for op in ops:
                        start, before = time.perf_counter(), count()
                        for route in _run_routes(op, a, axes, serial_only):
                            step = Step(op, layout, dtype, route, count() - before,
                                        time.perf_counter() - start)  # fmt: skip
                            steps.append(step)
                            if report is not None:
                                report(step)
                            start, before = time.perf_counter(), count()
    finally:
        stop()
    return steps


def command(ops: str | None, dtypes: str, layouts: str, *, serial_only: bool) -> int:
    """``typedtensor precompile`` (comma-separated names, ``ops=None``: ``COMMON_OPS``): one
    line per step, then the total; the exit status (2 when the cache is off or a name is
    unknown)."""
    from ._numba._cache import CACHE, CACHE_DIR

    if not CACHE:
        print("typedtensor precompile: the kernel cache is off (TYPEDTENSOR_NUMBA_CACHE=0)")
        return 2
    start = time.perf_counter()

    def report(s: Step) -> None:
        what = f"{s.compiled} kernels compiled" if s.compiled else "nothing new"
        print(f"{s.op:>10} {s.layout:<10} {s.dtype:<8} {s.route:<8} {what}, {s.seconds:.2f} s")

    def split(text: str) -> list[str]:
        return [x.strip() for x in text.split(",") if x.strip()]

    try:
        steps = precompile(
            split(ops) if ops else COMMON_OPS,
            split(dtypes),
            split(layouts),
            serial_only=serial_only,
            report=report,
        )
    except (ValueError, TypeError) as e:
        print(f"typedtensor precompile: {e}", file=sys.stderr)
        return 2
    total = sum(s.compiled for s in steps)
    print(f"{total} kernels compiled in {time.perf_counter() - start:.1f} s into {CACHE_DIR}")
    return 0
