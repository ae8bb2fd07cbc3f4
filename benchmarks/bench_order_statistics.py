"""median, nanmedian, quantile and nanquantile: typedtensor (numba backend) against numpy's
np.median, np.nanmedian, np.quantile and np.nanquantile, same run, interleaved.

    python benchmarks/bench_order_statistics.py              # rows of 1M float64 elements
    python benchmarks/bench_order_statistics.py --rows 4 --n 1000000 --repeat 9

The input is ``(rows, n)`` float64 (standard normal; the nan forms get 10% NaNs) reduced over
the last axis. Within one repeat typedtensor and numpy run one after the other on the same
array; each figure is the median over ``--repeat`` timed calls after one warm-up call (which
compiles the kernels). Ratios are numpy's time over typedtensor's (above 1: faster than
numpy). The machine may be shared: the script prints the load (``os.getloadavg()``) before
and after; compare ratios only within one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

#: the warm-up calls compile the kernels they run in the foreground: with the helper process
#: on (``_background_compile``) and an empty kernel cache, the timed calls would otherwise
#: run the serial kernels, numpy or the kernels' twins until the helper is done
os.environ.setdefault("TYPEDTENSOR_NUMBA_BACKGROUND", "0")

import typedtensor as tt


def _time(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a = rng.standard_normal((args.rows, args.n))
    with_nans = a.copy()
    with_nans[rng.random(a.shape) < 0.1] = np.nan
    x, xn = tt.asarray(a), tt.asarray(with_nans)
    qs = [0.1, 0.5, 0.9]
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("median", lambda: tt.median(x, -1), lambda: np.median(a, -1)),
        ("nanmedian", lambda: tt.nanmedian(xn, -1), lambda: np.nanmedian(with_nans, -1)),
        ("quantile 0.9", lambda: tt.quantile(x, 0.9, -1), lambda: np.quantile(a, 0.9, -1)),
        ("quantile x3", lambda: tt.quantile(x, qs, -1), lambda: np.quantile(a, qs, -1)),
        (
            "pctile nearest",
            lambda: tt.percentile(x, 99, -1, method="nearest"),
            lambda: np.percentile(a, 99, -1, method="nearest"),
        ),
        (
            "nanquantile 0.9",
            lambda: tt.nanquantile(xn, 0.9, -1),
            lambda: np.nanquantile(with_nans, 0.9, -1),
        ),
        (
            "nanquantile x3",
            lambda: tt.nanquantile(xn, qs, -1),
            lambda: np.nanquantile(with_nans, qs, -1),
        ),
        (
            "nanpct nearest",
            lambda: tt.nanpercentile(xn, 99, -1, method="nearest"),
            lambda: np.nanpercentile(with_nans, 99, -1, method="nearest"),
        ),
    ]
    print(
        f"load before: {os.getloadavg()}  shape {a.shape} float64, axis -1, {os.cpu_count()} cpus"
    )
    print(f"{'op':15} {'typedtensor ms':>15} {'numpy ms':>10} {'ratio':>7}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name, ours, theirs in cases:
            ours()
            theirs()
            t_ours, t_np, ratios = [], [], []
            for _ in range(args.repeat):
                o = _time(ours)
                t = _time(theirs)
                t_ours.append(o)
                t_np.append(t)
                ratios.append(t / o)
            print(
                f"{name:15} {statistics.median(t_ours) * 1e3:15.2f} "
                f"{statistics.median(t_np) * 1e3:10.2f} {statistics.median(ratios):7.2f}x"
            )
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
