"""Reduction throughput of the numba backend against numpy, measured side by side in one run.

    python benchmarks/bench_reductions.py                  # the full table (several minutes)
    python benchmarks/bench_reductions.py --ops sum,var --dtypes float32 --layouts 2d-ax0
    python benchmarks/bench_reductions.py --scale 0.25     # smaller arrays, quicker look
    python benchmarks/bench_reductions.py --json out.json  # also write the rows as JSON

Both sides run through the backend entry point ``reduce(op, a, axes, keepdims, dtype, ...)``:
"numpy" is typedtensor's reference backend (plain numpy calls: ``np.sum``, ``np.var``, the
max/exp/sum/log logsumexp, ``sqrt(sum(x*x))`` ...), "numba" the default backend. GB/s counts the
input bytes read once. Each figure is the median of ``--repeat`` timed calls after one warm-up
call (which also compiles the kernel); numpy's and numba's calls alternate. The machine is
shared: rerun the cases that matter.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from typing import Any

import numpy as np

#: the warm-up calls compile the kernels they run in the foreground: with the helper process
#: on (``_background_compile``) and an empty kernel cache, the timed calls would otherwise
#: run the serial kernels, numpy or the kernels' twins until the helper is done
os.environ.setdefault("TYPEDTENSOR_NUMBA_BACKGROUND", "0")

from typedtensor._backend import _numba as nb_backend
from typedtensor._backend import _numpy as np_backend

MB = 1 << 20

# name -> (shape for ~512 MB of float32, axes (None = every axis))
LAYOUTS: dict[str, tuple[tuple[int, ...], tuple[int, ...] | None]] = {
    "1d": ((1 << 27,), None),
    "2d-ax0": ((4096, 32768), (0,)),
    "2d-ax1": ((4096, 32768), (1,)),
    "2d-all": ((4096, 32768), None),
    "3d-ax1": ((256, 512, 512), (1,)),
    "3d-ax02": ((256, 512, 512), (0, 2)),
    "tall-ax1": ((1 << 25, 4), (1,)),
}

# op label -> (backend op, params, result dtype rule: "same"/"int64")
OPS: dict[str, tuple[str, dict[str, Any], str]] = {
    "sum": ("sum", {}, "same"),
    "mean": ("mean", {}, "same"),
    "max": ("max", {}, "same"),
    "min": ("min", {}, "same"),
    "var": ("var", {"correction": 0.0}, "same"),
    "std": ("std", {"correction": 0.0}, "same"),
    "logsumexp": ("logsumexp", {}, "same"),
    "norm_l1": ("norm", {"p": 1.0, "eps": 0.0, "mode": "plain"}, "same"),
    "norm_l2": ("norm", {"p": 2.0, "eps": 0.0, "mode": "plain"}, "same"),
    "l2_normalize": ("l2_normalize", {"eps": 1e-12, "variant": "tensorflow"}, "same"),
    "argmax": ("argmax", {}, "int64"),
}


def _shape(base: tuple[int, ...], dtype: np.dtype[Any], scale: float) -> tuple[int, ...]:
    """Shrink the leading dim so the array holds about 512 MB * scale."""
    factor = scale * 4 / dtype.itemsize
    lead = max(1, int(base[0] * factor))
    return (lead, *base[1:])


def _time_pair(f_np: Any, f_nb: Any, repeat: int) -> tuple[float, float]:
    """Median times of numpy and numba, timed alternately (np, nb, np, nb, ...) so that the
    machine's bandwidth, which drifts from one minute to the next, weighs on both alike."""
    f_np()  # warm-up
    f_nb()  # warm-up (compiles on the first call of a signature)
    t_np, t_nb = [], []
    for _ in range(repeat):
        for fn, times in ((f_np, t_np), (f_nb, t_nb)):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    return statistics.median(t_np), statistics.median(t_nb)


def run(
    ops: list[str], dtypes: list[str], layouts: list[str], repeat: int, scale: float
) -> list[dict[str, Any]]:
    """Measure every (op, layout, dtype) case; print one row per case as it completes."""
    rows = []
    rng = np.random.default_rng(0)
    print(f"{'op':<13}{'layout':<10}{'dtype':<9}{'numpy GB/s':>11}{'tt GB/s':>10}{'ratio':>8}")
    for dname in dtypes:
        dtype = np.dtype(dname)
        for lname in layouts:
            base, axes_spec = LAYOUTS[lname]
            shape = _shape(base, dtype, scale)
            a = rng.standard_normal(shape, dtype=np.float64).astype(dtype)
            nbytes = a.nbytes
            all_axes = tuple(range(a.ndim))
            for oname in ops:
                op, params, rule = OPS[oname]
                axes = all_axes if axes_spec is None else axes_spec
                if op == "argmax" and len(axes) not in (1, a.ndim):
                    continue
                if op == "l2_normalize" and axes_spec is None and a.ndim > 1:
                    continue
                out_dtype = np.dtype(np.int64) if rule == "int64" else dtype

                def call(
                    backend: Any,
                    a: Any = a,
                    op: str = op,
                    axes: tuple[int, ...] = axes,
                    out_dtype: Any = out_dtype,
                    params: Any = params,
                ) -> Any:
                    return backend.reduce(op, a, axes, False, out_dtype, **params)

                t_np, t_nb = _time_pair(lambda: call(np_backend), lambda: call(nb_backend), repeat)
                row = {
                    "op": oname,
                    "layout": lname,
                    "shape": list(shape),
                    "axes": list(axes),
                    "dtype": dname,
                    "mb": nbytes / MB,
                    "numpy_gbs": nbytes / t_np / 1e9,
                    "tt_gbs": nbytes / t_nb / 1e9,
                    "ratio": t_np / t_nb,
                }
                rows.append(row)
                print(
                    f"{oname:<13}{lname:<10}{dname:<9}{row['numpy_gbs']:>11.2f}"
                    f"{row['tt_gbs']:>10.2f}{row['ratio']:>7.2f}x",
                    flush=True,
                )
            del a
    return rows


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--layouts", default=",".join(LAYOUTS))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0, help="array size relative to 512 MB")
    ap.add_argument("--json", default=None, help="write the rows to this file")
    args = ap.parse_args(argv)
    for name, values, table in (("op", args.ops, OPS), ("layout", args.layouts, LAYOUTS)):
        bad = [v for v in values.split(",") if v not in table]
        if bad:
            ap.error(f"unknown {name} {', '.join(bad)}; choose from {', '.join(table)}")
    import numba

    print(
        f"numpy {np.__version__}, numba {numba.__version__}, threads {numba.get_num_threads()},"
        f" TYPEDTENSOR_NUMBA_PARALLEL={os.environ.get('TYPEDTENSOR_NUMBA_PARALLEL', 'auto')},"
        f" repeat {args.repeat} (median), scale {args.scale}, load average {os.getloadavg()[0]:.2f}"
    )
    rows = run(
        args.ops.split(","),
        args.dtypes.split(","),
        args.layouts.split(","),
        args.repeat,
        args.scale,
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if rows:
        geo = math.exp(statistics.fmean(math.log(r["ratio"]) for r in rows))
        print(f"geometric mean ratio {geo:.2f}x over {len(rows)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
