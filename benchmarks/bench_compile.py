"""Compile cost of the numba backend, each case in a fresh process.

    python benchmarks/bench_compile.py

cold: an empty cache directory, so the first call compiles its kernel; warm: a second process
on the same directory loads it from disk. "first call" is the first reduction only; "with
import" adds ``import numba`` and the backend module (numba's own start-up).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

PROBE = """
import time
t0 = time.perf_counter()
import numpy as np
import typedtensor as tt
x = tt.asarray(np.ones((64, 128), dtype=np.{dtype}))
t1 = time.perf_counter()
import typedtensor._backend._numba
t2 = time.perf_counter()
x.{op}(axis={axis})
t3 = time.perf_counter()
x.{op}(axis={axis})
t4 = time.perf_counter()
print(f"{{t3 - t2:.3f}} {{t3 - t1:.3f}} {{(t4 - t3) * 1e6:.0f}}")
"""

CASES = [("sum", "float32", 0), ("sum", "float64", 1), ("var", "float32", 1), ("max", "int8", 0)]


def main() -> int:
    """Print cold and warm first-call times per case."""
    head = ("case", "cold 1st call", "warm 1st call", "warm w/ import", "next call")
    print(f"{head[0]:<22}{head[1]:>14}{head[2]:>14}{head[3]:>15}{head[4]:>11}")
    for op, dtype, axis in CASES:
        with tempfile.TemporaryDirectory() as d:
            env = {**os.environ, "TYPEDTENSOR_NUMBA_CACHE_DIR": d}
            code = PROBE.format(op=op, dtype=dtype, axis=axis)
            run = [sys.executable, "-c", code]
            cold = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
            warm = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
        c = cold.stdout.split()
        w = warm.stdout.split()
        name = f"{op} {dtype} axis={axis}"
        print(f"{name:<22}{c[0]:>13}s{w[0]:>13}s{w[1]:>14}s{w[2]:>9}us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
