"""What the deterministic lanes cost (issue #35): the row sums of the numba kernels in explicit
lanes without ``reassoc`` (``typedtensor/_backend/_numba/_lanes.py``, the order the code defines)
against the loop they replaced (one accumulator with ``fastmath={'reassoc', 'nsz', 'contract'}``:
LLVM's order, which differed between a kernel compiled in the process and the same kernel
loaded from the disk cache), and numpy, timed alternately in one process.

    python benchmarks/bench_exact_lanes.py            # float32 |x| row sums, 5 shapes

Printed: the median time of each and the ratios (lanes over reassoc: > 1 is a loss).
These are benchmarks, not tests.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np
from numba import njit

from typedtensor._backend._numba._primitives import CH, SUMABS
from typedtensor._backend._numba.sums import acc_h

FM = {"reassoc", "nsz", "contract"}


@njit(fastmath=FM)
def reassoc_rows(x: Any, out: Any) -> None:
    """The replaced loop: float32 chunks in one reassociated accumulator, totals in float64."""
    for r in range(x.shape[0]):
        row = x[r]
        n = row.shape[0]
        tot = 0.0
        for c0 in range(0, n, CH):
            seg = row[c0 : min(c0 + CH, n)]
            s = np.float32(0)
            for i in range(seg.shape[0]):
                s += abs(seg[i])
            tot += np.float64(s)
        out[r] = tot


def lane_rows(x: Any, out: Any) -> None:
    """The kernels' loop: the serial row kernel ``acc_h`` (``_lanes`` chunks, ``lanes_for``
    lanes, float64 totals, a pairwise fold), rows batched per task as the backend batches them."""
    part = out.reshape(-1, 1)
    acc_h(x, part, SUMABS, 1.0, np.float32(0), 0.0, max(1, (1 << 14) // x.shape[1]))


def main() -> None:
    rng = np.random.default_rng(0)
    print("shape             reassoc ms  lanes ms  numpy ms  lanes/reassoc  numpy/lanes")
    for shape in [(16384, 30), (4096, 100), (64, 2048), (512, 32768), (16, 1 << 20)]:
        a = rng.standard_normal(shape).astype(np.float32)
        o1 = np.empty(shape[0])
        o2 = np.empty(shape[0])
        reassoc_rows(a, o1)
        lane_rows(a, o2)
        ts: dict[str, list[float]] = {"reassoc": [], "lanes": [], "numpy": []}
        for _ in range(21):
            t0 = time.perf_counter()
            reassoc_rows(a, o1)
            t1 = time.perf_counter()
            lane_rows(a, o2)
            t2 = time.perf_counter()
            np.abs(a).sum(1)
            t3 = time.perf_counter()
            ts["reassoc"].append(t1 - t0)
            ts["lanes"].append(t2 - t1)
            ts["numpy"].append(t3 - t2)
        m = {k: statistics.median(v) * 1e3 for k, v in ts.items()}
        print(
            f"{shape!s:16} {m['reassoc']:10.3f} {m['lanes']:9.3f} {m['numpy']:9.3f}"
            f" {m['lanes'] / m['reassoc']:13.2f}x {m['numpy'] / m['lanes']:11.2f}x"
        )


if __name__ == "__main__":
    main()
