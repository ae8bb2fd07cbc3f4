"""mean/var of a dask array with and without ``dtype=``: the default one-pass float64 tree
against numpy's algorithm in the named dtype (``typedtensor/_dask/_in_dtype.py``).

    python benchmarks/bench_dask_dtype.py              # 64 MiB float32, 8 MiB chunks
    python benchmarks/bench_dask_dtype.py --mib 256 --repeat 9

The array (float32, ``(rows, 1024)`` in chunks of ``--chunk-mib`` along the rows) is an
in-memory ndarray wrapped by ``da.from_array``; every call runs on dask's threaded scheduler
(``compute()``). Cases alternate within each repeat (interleaved); each figure is the median
of ``--repeat`` calls after one warm-up (numba compile / cache load). Run it against two
checkouts (``PYTHONPATH=...``) to compare the default path before and after a change.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np

import typedtensor as tt

COLS = 1024

#: case -> the timed call: ``mean/f4`` is ``t.mean(axis=0, dtype=tt.float32)``
CASES: dict[str, Callable[[Any], Any]] = {
    "mean": lambda t: t.mean(axis=0),
    "mean/f8": lambda t: t.mean(axis=0, dtype=tt.float64),
    "mean/f4": lambda t: t.mean(axis=0, dtype=tt.float32),
    "var": lambda t: t.var(axis=0),
    "var/f4": lambda t: t.var(axis=0, dtype=tt.float32),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=64)
    parser.add_argument("--chunk-mib", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args()
    rows = args.mib * 2**20 // (4 * COLS)
    chunk_rows = args.chunk_mib * 2**20 // (4 * COLS)
    a = np.random.default_rng(0).standard_normal((rows, COLS), dtype=np.float32)
    t = tt.asarray(da.from_array(a, chunks=(chunk_rows, COLS)))
    names = args.cases.split(",")
    times: dict[str, list[float]] = {n: [] for n in names}
    for n in names:  # warm-up
        CASES[n](t).numpy()
    for _ in range(args.repeat):
        for n in names:
            start = time.perf_counter()
            CASES[n](t).numpy()
            times[n].append(time.perf_counter() - start)
    print(f"typedtensor from {os.path.dirname(tt.__file__)}; {args.mib} MiB float32 {a.shape}, ")
    print(f"chunks of {chunk_rows} rows; load {os.getloadavg()[0]:.1f}")
    for n in names:
        ms = [1e3 * s for s in times[n]]
        print(f"{n:8s} median {statistics.median(ms):7.1f} ms  (min {min(ms):.1f})")


if __name__ == "__main__":
    main()
