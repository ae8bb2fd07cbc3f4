"""How fast this machine streams a large array: the ceiling under the 512 MB reduction floors.

    python benchmarks/bench_bandwidth.py                 # 512 MB, float32 and float64
    python benchmarks/bench_bandwidth.py --mb 256 --repeat 9

For ``sum`` and ``max`` of a whole array, side by side in one run (calls interleaved, medians
of ``--repeat``):

- ``numpy 1 thread``: numpy's own loop (``np.add.reduce``/``np.maximum.reduce``), one thread;
- ``numpy N threads``: the same loop on ``N`` equal contiguous parts at once, one thread
  each (numpy releases the GIL inside the loop), the parts' results combined after: what
  ``N`` threads of numpy's loop read, the machine's streaming ceiling for this code;
- ``typedtensor``: the Tensor method on the numba backend (plans and thread policy included).

The ratio columns are each contender's time against numpy's one thread: ``ceiling`` is the
best any ``N``-thread reduction of this array could reach against numpy here, so a
typedtensor ratio near it is bandwidth-bound, not slow code.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

os.environ.setdefault("TYPEDTENSOR_NUMBA_BACKGROUND", "0")  # warm-up compiles in the foreground

import typedtensor as tt

_UFUNCS = {"sum": np.add, "max": np.maximum}


def _threaded(ufunc: np.ufunc, parts: list[Any], pool: ThreadPoolExecutor) -> Any:
    """``ufunc.reduce`` of each part on its own thread, then of the parts' results."""
    return ufunc.reduce(np.asarray(list(pool.map(ufunc.reduce, parts))))


def _median_times(calls: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    """Each call's median seconds, the calls interleaved round by round."""
    for call in calls.values():
        call()  # warm-up: kernel load, page faults of the result
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            t0 = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) for name, ts in times.items()}


def _print_rows(dtype: str, mb: int, threads: int, repeat: int, pool: ThreadPoolExecutor) -> None:
    """The table's rows for one dtype."""
    n = mb * (1 << 20) // np.dtype(dtype).itemsize
    a = np.random.default_rng(0).standard_normal(n).astype(dtype)
    parts = np.array_split(a, threads)
    t = tt.asarray(a)
    for op, ufunc in _UFUNCS.items():
        med = _median_times(
            {
                "one": lambda u=ufunc: u.reduce(a),
                "many": lambda u=ufunc: _threaded(u, parts, pool),
                "tt": getattr(t, op),
            },
            repeat,
        )
        gbs = {k: a.nbytes / v / 1e9 for k, v in med.items()}
        print(
            f"| {op} | {dtype} | {gbs['one']:.1f} GB/s | {gbs['many']:.1f} GB/s | "
            f"{gbs['tt']:.1f} GB/s | {med['one'] / med['many']:.2f}x | "
            f"{med['one'] / med['tt']:.2f}x |",
            flush=True,
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--mb", type=int, default=512)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = p.parse_args()
    print(
        f"{args.mb} MB whole arrays, {args.threads} threads, cores {os.cpu_count()}, "
        f"load {os.getloadavg()[0]:.2f}, median of {args.repeat}"
    )
    print("| op | dtype | numpy 1 thread | numpy N threads | typedtensor | ceiling | typedtensor |")
    print("|---|---|---|---|---|---|---|")
    with ThreadPoolExecutor(args.threads) as pool:
        for dtype in ("float32", "float64"):
            _print_rows(dtype, args.mb, args.threads, args.repeat, pool)


if __name__ == "__main__":
    main()
