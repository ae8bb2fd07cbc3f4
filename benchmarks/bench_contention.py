"""typedtensor's reductions against numpy's while other processes compete for the cores.

    python benchmarks/bench_contention.py                       # quiet, 1 and 2 competitors
    python benchmarks/bench_contention.py --ops sum,max --sizes 4M --competitors 1
    python benchmarks/bench_contention.py --json out.json       # also write the rows

Each cell times the Tensor method (``tt.asarray(a).sum(axis)``, the numba backend, plans
and thread policy included) and the same numpy call, alternating them call by call, and
reports the median over rounds of numpy's time over typedtensor's (above 1: typedtensor is
faster), with both sides' median times. A scenario
starts ``N`` CPU-bound Python processes (a busy loop each, not pinned) and waits a moment for
the scheduler to spread them before timing; every scenario times every cell, after one
untimed warm-up call per cell (which also compiles or loads the kernels). The load average
and the instantaneous runnable-task count are printed with each scenario: on a shared machine
"quiet" means "no competitors of ours", not idle.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

#: the warm-up calls compile the kernels they run in the foreground: with the helper process
#: on (``_background_compile``) and an empty kernel cache, the timed calls would otherwise
#: run the serial kernels, numpy or the kernels' twins until the helper is done
os.environ.setdefault("TYPEDTENSOR_NUMBA_BACKGROUND", "0")

import typedtensor as tt

_SIZES = {"256K": 1 << 18, "1M": 1 << 20, "4M": 1 << 22, "16M": 1 << 24}
#: layout -> shape of n elements, axis
_LAYOUTS: dict[str, tuple[Callable[[int], tuple[int, ...]], int | None]] = {
    "full": (lambda n: (n,), None),
    "rows": (lambda n: (n // 256, 256), 1),
    "columns": (lambda n: (256, n // 256), 0),
}
_Call = Callable[[Any, int | None], Any]
#: op -> (typedtensor call, numpy call)
_OPS: dict[str, tuple[_Call, _Call]] = {
    "sum": (lambda t, ax: t.sum(ax), lambda a, ax: a.sum(ax)),
    "mean": (lambda t, ax: t.mean(ax), lambda a, ax: a.mean(ax)),
    "max": (lambda t, ax: t.max(ax), lambda a, ax: a.max(ax)),
    "min": (lambda t, ax: t.min(ax), lambda a, ax: a.min(ax)),
    "any": (lambda t, ax: t.any(ax), lambda a, ax: a.any(ax)),
    "argmax": (lambda t, ax: t.argmax(ax), lambda a, ax: a.argmax(ax)),
    "var": (lambda t, ax: t.var(ax), lambda a, ax: a.var(ax)),
    "std": (lambda t, ax: t.std(ax), lambda a, ax: a.std(ax)),
    "prod": (lambda t, ax: t.prod(ax), lambda a, ax: a.prod(ax)),
    "logsumexp": (
        lambda t, ax: t.logsumexp(ax),
        lambda a, ax: _np_logsumexp(a, ax),
    ),
    "norm": (lambda t, ax: t.norm(2, ax), lambda a, ax: np.sqrt((a * a).sum(ax))),
}


def _np_logsumexp(a: Any, ax: int | None) -> Any:
    m = a.max(ax, keepdims=True)
    return np.log(np.exp(a - m).sum(ax)) + np.squeeze(m, ax)


def _runnable() -> str:
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[3]
    except OSError:
        return "?"


def _spin() -> subprocess.Popen[bytes]:
    code = "import time\nend = time.time() + 3600\nwhile time.time() < end: pass"
    return subprocess.Popen([sys.executable, "-c", code])


def _cell(op: str, layout: str, n: int, repeat: int) -> tuple[float, float, float]:
    """(numpy's median seconds, typedtensor's, the median of the per-round ratios numpy /
    typedtensor) for one cell, calls alternating: a round whose two calls straddle a
    descheduling is one outlier among ``repeat``, where a ratio of medians can take it in."""
    make_shape, axis = _LAYOUTS[layout]
    a = np.random.default_rng(0).standard_normal(make_shape(n)).astype(np.float32)
    if op == "prod":
        a = (1.0 + a * 1e-3).astype(np.float32)
    t = tt.asarray(a)
    ours, theirs = _OPS[op]
    ax = None if axis is None else axis
    if op == "argmax" and ax is None:
        ax = 0
        a, t = a.reshape(-1), tt.asarray(a.reshape(-1))
    ours(t, ax)  # warm-up: plan, kernel compile or cache load
    theirs(a, ax)
    tn: list[float] = []
    tt_: list[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        theirs(a, ax)
        t1 = time.perf_counter()
        ours(t, ax)
        t2 = time.perf_counter()
        tn.append(t1 - t0)
        tt_.append(t2 - t1)
    ratios = [a_ / b_ for a_, b_ in zip(tn, tt_, strict=True)]
    return statistics.median(tn), statistics.median(tt_), statistics.median(ratios)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--ops", default=",".join(_OPS))
    p.add_argument("--layouts", default=",".join(_LAYOUTS))
    p.add_argument("--sizes", default=",".join(_SIZES))
    p.add_argument("--competitors", default="0,1,2")
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--json", default=None)
    args = p.parse_args()
    ops = args.ops.split(",")
    layouts = args.layouts.split(",")
    sizes = args.sizes.split(",")
    cells = [(op, lay, s) for op in ops for lay in layouts for s in sizes]
    rows: dict[tuple[str, str, str], dict[int, float]] = {c: {} for c in cells}
    setting = os.environ.get("TYPEDTENSOR_NUMBA_PARALLEL", "auto")
    print(f"float32, numba backend, TYPEDTENSOR_NUMBA_PARALLEL={setting}, cores {os.cpu_count()}")
    for c in cells:  # compile (or load) every kernel before any scenario
        _cell(c[0], c[1], _SIZES[c[2]], 1)
    for k in (int(x) for x in args.competitors.split(",")):
        procs = [_spin() for _ in range(k)]
        try:
            time.sleep(1.0 if k else 0.0)
            print(f"competitors {k}: load {os.getloadavg()[0]:.2f}, runnable {_runnable()}")
            for c in cells:
                tn, ttt, ratio = _cell(c[0], c[1], _SIZES[c[2]], args.repeat)
                rows[c][k] = ratio
                times = f"numpy {tn * 1e3:8.3f} ms, typedtensor {ttt * 1e3:8.3f} ms"
                print(f"  {c[0]:>10} {c[1]:>8} {c[2]:>5}: {times}, {ratio:5.2f}x", flush=True)
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()
    ks = [int(x) for x in args.competitors.split(",")]
    print("\n| op | layout | elements | " + " | ".join(f"{k} competing" for k in ks) + " |")
    print("|---|---|---|" + "---|" * len(ks))
    for c, by_k in rows.items():
        cols = " | ".join(f"{by_k[k]:.2f}x" for k in ks)
        print(f"| {c[0]} | {c[1]} | {c[2]} | {cols} |")
    worst = min((v for by_k in rows.values() for v in by_k.values()), default=float("nan"))
    print(f"\nlowest ratio: {worst:.2f}x")
    if args.json:
        out = [{"op": c[0], "layout": c[1], "size": c[2], "ratios": rows[c]} for c in cells]
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
