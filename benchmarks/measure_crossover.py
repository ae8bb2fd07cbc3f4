"""Where the numba kernels start to beat numpy: the measurement behind the crossover file
``typedtensor/_backend/crossovers.json`` that ``_routing.py`` reads (``NUMBA_FROM_BYTES``,
``DIRECT_FROM_BYTES``).

    python benchmarks/measure_crossover.py                 # every op, 4 layouts, 2 dtypes
    python benchmarks/measure_crossover.py --ops sum,max --json crossover.json

For each op, layout and dtype it times numpy's runner (what typedtensor runs below the
threshold) and the numba backend's ``reduce`` (its Python dispatch included) on arrays from
4 KB to 16 MB, alternating the two, and prints the median ratio numpy/numba per size and the
smallest size from which numba was faster at every larger size ("-": never). Kernels are
compiled (or loaded from the disk cache) by a warm-up call that is not timed.

``--direct`` times the plan-bound serial kernels instead (``_numba/direct.py``: one kernel call
per reduction, what a plan runs from ``DIRECT_FROM_BYTES``), 16 KB to 16 MB, in the layouts they
cover (``full``, ``rows``, ``columns``):

    python benchmarks/measure_crossover.py --direct

``--write`` puts what was measured into the crossover file: for each op and layout measured,
the larger of the dtypes' sizes, never below ``FLOOR`` (64 KB: a program of small tensors
never compiles a kernel), ``null`` where numba never won (a ``parallel_only`` entry keeps its
flag; ``--direct`` sets the start of a ``DIRECT_FROM_BYTES`` range, keeping its end). Review
the diff: single sizes swing under load, so measure on a quiet machine and rerun.

``--write-dtypes`` changes only the dtype filters (``NUMBA_DTYPES``, with ``--direct``
``DIRECT_DTYPES``) of the entries measured: a dtype whose kernels won from the entry's size
on joins the filter, any other leaves it. The integer sums, for one, lose to numpy's own
loops in some layouts:

    python benchmarks/measure_crossover.py --direct --ops sum --layouts full,rows \
        --dtypes int64,uint64,int32,uint32,int16,uint16,int8,uint8,bool --write-dtypes
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import numpy as np

#: the warm-up calls compile the kernels they run in the foreground: with the helper process
#: on (``_background_compile``) and an empty kernel cache, the timed calls would otherwise
#: run the serial kernels, numpy or the kernels' twins until the helper is done
os.environ.setdefault("TYPEDTENSOR_NUMBA_BACKGROUND", "0")

from typedtensor import _rules as rules
from typedtensor._backend import _numba as nb
from typedtensor._backend._layouts import KERNEL_CHARS
from typedtensor._backend._numba.direct import direct_runner
from typedtensor._backend._numpy_runners import numpy_runner
from typedtensor._backend._routing import CROSSOVERS_FILE, layout

FLOOR = 1 << 16
SIZES = [1 << k for k in range(12, 25, 2)]  # 4 KB .. 16 MB
DIRECT_SIZES = [1 << k for k in range(14, 25)]  # 16 KB .. 16 MB, by factors of 2
#: label -> (op, params); the result dtype is the rules' for the input dtype
OPS: dict[str, tuple[str, dict[str, Any]]] = {
    "sum": ("sum", {}),
    "prod": ("prod", {}),
    "mean": ("mean", {}),
    "max": ("max", {}),
    "min": ("min", {}),
    "any": ("any", {}),
    "all": ("all", {}),
    "var": ("var", {"correction": 0.0}),
    "std": ("std", {"correction": 0.0}),
    "argmax": ("argmax", {}),
    "argmin": ("argmin", {}),
    "logsumexp": ("logsumexp", {}),
    "norm": ("norm", {"p": 2.0, "eps": 0.0, "mode": "plain"}),
    "l2_normalize": ("l2_normalize", {"eps": 1e-12, "variant": "tensorflow"}),
}


def array_for(where: str, n: int, dtype: str) -> tuple[np.ndarray[Any, Any], tuple[int, ...]]:
    """An array of ``n`` elements in layout ``where`` and the axes that give that layout."""
    rng = np.random.default_rng(0)
    if where == "full":
        shape, axes = (n,), (0,)
    elif where == "rows":
        shape, axes = (max(n // 256, 1), min(n, 256)), (1,)
    elif where == "short_rows":
        shape, axes = (n // 4, 4), (1,)
    else:  # columns
        shape, axes = (min(n, 256), max(n // 256, 1)), (0,)
    a = rng.standard_normal(shape).astype(dtype)
    return a, axes


def median_times(fns: list[Any], budget: float = 0.25) -> list[float]:
    for fn in fns:  # warm-up: compile or load kernels
        fn()
    t0 = time.perf_counter()
    fns[0]()
    once = max(time.perf_counter() - t0, 1e-7)
    inner = max(1, int(0.002 / once))
    reps = max(5, min(31, int(budget / (once * inner * len(fns)))))
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(reps):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            samples[i].append((time.perf_counter() - t0) / inner)
    return [statistics.median(s) for s in samples]


def time_both(
    op: str, a: np.ndarray[Any, Any], axes: tuple[int, ...], rdt: Any, params: dict[str, Any]
) -> list[float] | None:
    """Median seconds of numpy's runner and of the numba backend on the same call."""
    run = numpy_runner(op, axes, a.ndim, False, rdt, a.dtype, a.shape)
    return median_times(
        [lambda: run(a, params), lambda: nb.reduce(op, a, axes, False, rdt, **params)]
    )


def time_direct(
    op: str, a: np.ndarray[Any, Any], axes: tuple[int, ...], rdt: Any, params: dict[str, Any]
) -> list[float] | None:
    """Median seconds of numpy's runner and of the plan-bound serial kernel on the same call
    (None where no such kernel takes it)."""
    run = numpy_runner(op, axes, a.ndim, False, rdt, a.dtype, a.shape)
    direct = direct_runner(op, a.shape, a.strides, axes, False, rdt, a.dtype, run)
    if direct is None:
        return None
    return median_times([lambda: run(a, params), lambda: direct(a, params)])


def write_dtype_filters(rows: list[dict[str, Any]], direct: bool) -> None:
    """Update the dtype filters of ``CROSSOVERS_FILE`` (``direct_dtypes`` with ``--direct``,
    else ``numba_dtypes``) for each (op, layout) measured: a dtype joins the entry's filter
    where its kernels beat numpy's loops from the entry's own size on (the start of its
    direct range, or its ``numba_from_bytes``), and leaves it otherwise; dtypes not measured
    keep their place, and the sizes stay as they are (a filter of every kernel dtype is no
    filter)."""
    data = json.loads(CROSSOVERS_FILE.read_text())
    table = data["direct_dtypes" if direct else "numba_dtypes"]
    for row in rows:
        op, where = row["op"], row["layout"]
        if direct:
            start = data["direct_from_bytes"].get(op, {}).get(where, [None])[0]
        else:
            entry = data["numba_from_bytes"].get(op, {}).get(where)
            start = entry["bytes"] if isinstance(entry, dict) else entry
        if start is None:
            continue  # the entry runs no kernel: nothing to filter
        key = f"{op}/{where}"
        chars = set(table.get(key, KERNEL_CHARS))
        same = {c for c in KERNEL_CHARS if np.dtype(c) == np.dtype(row["dtype"])}  # l and q...
        wins_from = row["numba_from_bytes"]
        if wins_from is not None and wins_from <= start:
            chars |= same
        else:
            chars -= same
        if chars >= KERNEL_CHARS:
            table.pop(key, None)
        else:
            table[key] = "".join(sorted(chars))
    CROSSOVERS_FILE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {CROSSOVERS_FILE}")


def write_crossovers(rows: list[dict[str, Any]], direct: bool) -> None:
    """Update ``CROSSOVERS_FILE`` with the measured crossover of each (op, layout)."""
    data = json.loads(CROSSOVERS_FILE.read_text())
    found: dict[tuple[str, str], list[int | None]] = {}
    for row in rows:
        found.setdefault((row["op"], row["layout"]), []).append(row["numba_from_bytes"])
    for (op, where), sizes in found.items():
        size = None if None in sizes else max(FLOOR, *(s for s in sizes if s is not None))
        if direct:
            ranges = data["direct_from_bytes"].setdefault(op, {})
            if size is None:
                ranges.pop(where, None)
            else:
                ranges[where] = [size, ranges.get(where, [0, None])[1]]
            continue
        by_layout = data["numba_from_bytes"].setdefault(op, {})
        old = by_layout.get(where)
        if isinstance(old, dict) and size is not None:
            by_layout[where] = {**old, "bytes": size}
        else:
            by_layout[where] = size
    CROSSOVERS_FILE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {CROSSOVERS_FILE}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--dtypes", default="float32,float64")
    parser.add_argument("--layouts", default="full,rows,short_rows,columns")
    parser.add_argument("--json")
    parser.add_argument("--direct", action="store_true", help="the plan-bound serial kernels")
    parser.add_argument("--write", action="store_true", help="update the crossover file")
    parser.add_argument(
        "--write-dtypes",
        action="store_true",
        help="update the measured entries' dtype filters only (the sizes stay)",
    )
    parser.add_argument("--sizes", help="sizes in KB, comma-separated (a look; not with --write)")
    args = parser.parse_args()
    sizes, timer = (DIRECT_SIZES, time_direct) if args.direct else (SIZES, time_both)
    if args.sizes:
        if args.write:
            parser.error("--write measures every size: leave out --sizes")
        sizes = [int(kb) << 10 for kb in args.sizes.split(",")]
    if args.direct and args.layouts == parser.get_default("layouts"):
        args.layouts = "full,rows,columns"
    rows = []
    for label in args.ops.split(","):
        op, params = OPS[label]
        for where in args.layouts.split(","):
            for dtype in args.dtypes.split(","):
                ratios = []
                for nbytes in sizes:
                    a, axes = array_for(where, nbytes // np.dtype(dtype).itemsize, dtype)
                    assert layout(a.shape, a.strides, axes) == where, (a.shape, where)
                    spec = rules.REDUCTIONS[op]  # the result dtype of the rules, as a call's
                    rdt = np.dtype(rules.result_dtype(spec.dtype_rule, a.dtype.name))
                    times = timer(op, a, axes, rdt, params)
                    if times is None:  # no plan-bound kernel takes this dtype or layout
                        break
                    t_np, t_nb = times
                    ratios.append(t_np / t_nb)
                if len(ratios) < len(sizes):
                    print(f"{label:12} {where:10} {dtype:8} no plan-bound kernel", flush=True)
                    continue
                wins_from = None
                for i in range(len(sizes) - 1, -1, -1):
                    if ratios[i] <= 1.0:
                        break
                    wins_from = sizes[i]
                row = {"op": label, "layout": where, "dtype": dtype, "ratios": ratios}
                row["numba_from_bytes"] = wins_from
                rows.append(row)
                shown = " ".join(f"{r:5.2f}" for r in ratios)
                print(f"{label:12} {where:10} {dtype:8} {shown}  from {wins_from}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"sizes": sizes, "rows": rows}, f, indent=1)
    if args.write:
        write_crossovers(rows, args.direct)
    if args.write_dtypes:
        write_dtype_filters(rows, args.direct)


if __name__ == "__main__":
    main()
