"""What a program's first run costs: an empty kernel cache against a warm one and numpy.

    python benchmarks/bench_cold.py                  # 4 MB tensors, 2 cold runs, 3 warm
    python benchmarks/bench_cold.py --mb 1,16 --cold 1 --warm 3
    python benchmarks/bench_cold.py --order-free --background 0,1   # max/min/argmax/any only
    python benchmarks/bench_cold.py --ahead 0,1 --cold 2 --warm 1   # compile ahead of need

The program (``PROGRAM`` below) imports typedtensor, makes float32 tensors of ``--mb`` MB and
runs a typical mix of reductions over them (sum, mean, max, var, std, logsumexp, argmax,
norm, over rows, columns and the whole array: 24 calls). Each run is a fresh Python process,
timed from outside (interpreter start and imports included):

- cold: ``TYPEDTENSOR_NUMBA_CACHE_DIR`` an empty directory (every kernel compiles, in the
  foreground or in the helper process while numpy or the kernels' numpy twins serve);
- warm: the same directory again, after two untimed runs with the helper off, one on each
  route (``TYPEDTENSOR_NUMBA_PARALLEL=0`` and ``=1``), have compiled every kernel the
  program may call (kernels load from the disk cache; with one run on the route the load
  chose, a timed warm run on the other route compiled the missing variants in the helper);
- numpy: the same calls on numpy arrays (``--numpy``), typedtensor not imported.

``--order-free`` runs only the order-free reductions (max, min, argmax, any over the same
axes: 12 calls), which numpy serves while their kernels compile in a helper process;
``--background 0,1`` runs each size with ``TYPEDTENSOR_NUMBA_BACKGROUND=0`` (the kernels
compile in the foreground) and ``=1`` (the default); ``--ahead 0,1`` with
``TYPEDTENSOR_NUMBA_AHEAD=0`` (the helper compiles nothing ahead of need) and ``=1`` (the
default). The machine is shared with other jobs: medians, and the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAM = """
import sys
import numpy as np
mb = float(sys.argv[1])
use_numpy = sys.argv[2] == "numpy"
order_free = sys.argv[3] == "order-free"
if not use_numpy:
    import typedtensor as tt
n = int(mb * (1 << 20) / 4)
rng = np.random.default_rng(0)
arrays = [rng.standard_normal((n // 256, 256)).astype(np.float32)]
def lse(a, ax):
    m = a.max(ax, keepdims=True)
    return np.log(np.exp(a - m).sum(ax)) + np.squeeze(m, ax)
for a in arrays:
    t = a if use_numpy else tt.asarray(a)
    for ax in (None, 0, 1):
        if order_free:
            t.max(ax); t.min(ax); t.argmax(1 if ax is None else ax); (t > 0).any(ax)
            continue
        t.sum(ax); t.mean(ax); t.max(ax); t.var(ax); t.std(ax)
        if use_numpy:
            lse(a, ax); np.sqrt((a * a).sum(ax))
        else:
            t.logsumexp(ax); t.norm(2, ax)
        t.argmax(1 if ax is None else ax)
"""


def _run(
    mb: float, side: str, cache_dir: str, mix: str, background: str, ahead: str, route: str = ""
) -> float:
    env = {**os.environ, "TYPEDTENSOR_NUMBA_CACHE_DIR": cache_dir}
    env["TYPEDTENSOR_NUMBA_BACKGROUND"] = background
    env["TYPEDTENSOR_NUMBA_AHEAD"] = ahead
    if route:
        env["TYPEDTENSOR_NUMBA_PARALLEL"] = route
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", PROGRAM, str(mb), side, mix], env=env, check=True)
    return time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--mb", default="4")
    p.add_argument("--cold", type=int, default=2)
    p.add_argument("--warm", type=int, default=3)
    p.add_argument("--order-free", action="store_true", help="max/min/argmax/any only")
    p.add_argument("--background", default="1", help="TYPEDTENSOR_NUMBA_BACKGROUND values")
    p.add_argument("--ahead", default="1", help="TYPEDTENSOR_NUMBA_AHEAD values")
    args = p.parse_args()
    mix = "order-free" if args.order_free else "mix"
    print(f"load average {os.getloadavg()[0]:.2f}, cores {os.cpu_count()}, program {mix}")
    print("| tensor | background | ahead | cold (empty cache) | warm | numpy | cold - warm |")
    print("|---|---|---|---|---|---|---|")
    settings = [(b, a) for b in args.background.split(",") for a in args.ahead.split(",")]
    for mb in (float(x) for x in args.mb.split(",")):
        for bg, ahead in settings:
            colds, warms, numpys = [], [], []
            for _ in range(args.cold):
                with tempfile.TemporaryDirectory() as d:
                    colds.append(_run(mb, "typedtensor", d, mix, bg, ahead))
                    for route in ("0", "1"):  # the rest compiles, serial and parallel: warm
                        _run(mb, "typedtensor", d, mix, "0", ahead, route)
                    for _ in range(args.warm):
                        warms.append(_run(mb, "typedtensor", d, mix, bg, ahead))
                        numpys.append(_run(mb, "numpy", d, mix, bg, ahead))
            c, w, n = (statistics.median(x) for x in (colds, warms, numpys))
            times = f"{c:.2f} s | {w:.2f} s | {n:.2f} s | {c - w:+.2f} s"
            row = f"| {mb:g} MB | {bg} | {ahead} | {times} |"
            print(row, flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
