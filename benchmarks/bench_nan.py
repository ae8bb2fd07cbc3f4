"""NaN-aware reductions and scans: typedtensor (numba) against numpy, bottleneck and numbagg.

    python benchmarks/bench_nan.py                      # every op, both dtypes (~3 minutes)
    python benchmarks/bench_nan.py --ops nansum,nanvar --dtypes float32 --repeat 5
    python benchmarks/bench_nan.py --scale 0.25         # 16 MB arrays, a quicker look
    python benchmarks/bench_nan.py --markdown           # the table for benchmarks/README.md

Each array holds about 64 MB (float32 (4096, 4096), float64 (2048, 4096)) with 10% NaNs, in
three layouts: ``rows`` (reduce the contiguous last axis), ``strided`` (reduce axis 0 of the
C-ordered array: a strided axis) and ``full`` (every axis). The scans (``cumsum``,
``nancumsum``, ``nancumprod``) run along the same axes (``full``: the flattening). typedtensor
is called as a user calls it, so its size routing (``typedtensor/_backend/_routing.py``)
applies: nanmax/nanmin over a strided axis or every axis run numba's kernels only where its
parallel kernels will run (an idle core, see ``TYPEDTENSOR_NUMBA_PARALLEL``) and numpy's loop
otherwise. Every library is called through its public function on the same array; within
one repeat the libraries run one after the other (interleaved), and each figure is the median
of ``--repeat`` timed calls after one warm-up call (which compiles numba's kernels);
``kernels`` calls the numba backend directly, whatever the routing picks. Ratios are numpy's
time over the library's (above 1: faster than numpy). bottleneck and numbagg are optional
(``pip install -e .[bench]``); a library that lacks an op or layout shows ``n/a``. The
machine may be shared: the script prints ``os.getloadavg()``.
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

LAYOUTS: dict[str, int | None] = {"rows": -1, "strided": 0, "full": None}
OPS = [
    "nansum",
    "nanprod",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanvar",
    "nanstd",
    "nanargmax",
    "cumsum",
    "nancumsum",
    "nancumprod",
]
#: scan name -> the numba scan module's op
SCANS = {"cumsum": "sum", "nancumsum": "nansum", "nancumprod": "nanprod"}
Fn = Callable[[], Any]


def _optional(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        return None


def _callers(op: str, a: np.ndarray[Any, Any], axis: int | None) -> dict[str, Fn | None]:
    """library -> a zero-argument call of ``op`` on ``a`` (None where the library lacks it)."""
    x = tt.asarray(a)  # no copy
    bn, nbg = _optional("bottleneck"), _optional("numbagg")
    calls: dict[str, Fn | None] = {
        "numpy": lambda: getattr(np, op)(a, axis=axis),
        "typedtensor": lambda: getattr(tt, op)(x, axis),
        "kernels": _kernels(op, a, axis),
        "bottleneck": None,
        "numbagg": None,
    }
    if op in SCANS:  # bottleneck and numbagg 0.9.6 have no cumsum/nancumsum/nancumprod
        return calls
    if bn is not None and hasattr(bn, op) and not (op == "nanargmax" and axis is None):
        calls["bottleneck"] = lambda: getattr(bn, op)(a, axis=axis)
    fn = getattr(nbg, op, None) if nbg is not None else None
    if fn is not None:
        calls["numbagg"] = lambda: fn(a, axis=axis if axis is not None else tuple(range(a.ndim)))
    return calls


def _kernels(op: str, a: np.ndarray[Any, Any], axis: int | None) -> Fn:
    """The numba backend's kernels called directly, whatever the size routing would pick."""
    from typedtensor import _rules as rules
    from typedtensor._backend import _numba
    from typedtensor._backend._numba import scans

    if op in SCANS:
        flat = a.reshape(-1) if axis is None else a
        ax = 0 if axis is None else axis % a.ndim
        return lambda: scans.scan(SCANS[op], flat, ax, a.dtype, False)
    axes = tuple(range(a.ndim)) if axis is None else (axis % a.ndim,)
    spec = rules.REDUCTIONS[op]
    dtype = np.dtype(rules.result_dtype(spec.dtype_rule, a.dtype.name))
    params = {"correction": 0.0} if "correction" in spec.params else {}  # numpy's ddof=0
    return lambda: _numba.reduce(op, a, axes, False, dtype, **params)


def _measure(calls: dict[str, Fn | None], repeat: int) -> dict[str, float | None]:
    usable: dict[str, Fn] = {}
    for name, fn in calls.items():
        if fn is None:
            continue
        try:
            fn()  # warm-up: compiles numba kernels, faults pages in
        except Exception:  # the library does not cover this case
            continue
        usable[name] = fn
    times: dict[str, list[float]] = {name: [] for name in usable}
    for _ in range(repeat):
        for name, fn in usable.items():  # interleaved: drift weighs on every library alike
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(times[name]) if name in times else None for name in calls}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--dtypes", default="float32,float64")
    parser.add_argument("--layouts", default=",".join(LAYOUTS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="array size / 64 MB")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices are not the point here
    rng = np.random.default_rng(0)
    print(f"load average before: {os.getloadavg()}")
    rows = []
    for dtype in args.dtypes.split(","):
        n_rows = max(1, int(4096 * args.scale * 4 / np.dtype(dtype).itemsize))
        a = rng.standard_normal((n_rows, 4096)).astype(dtype)
        a[rng.random(a.shape) < 0.1] = np.nan
        for op in args.ops.split(","):
            for layout in args.layouts.split(","):
                axis = LAYOUTS[layout]
                t = _measure(_callers(op, a, axis), args.repeat)
                rows.append((op, dtype, layout, t))
                base = t["numpy"]
                assert base is not None
                parts = [f"{op:10s} {dtype:8s} {layout:8s} numpy {base * 1e3:8.1f} ms"]
                for name in ("typedtensor", "kernels", "bottleneck", "numbagg"):
                    v = t[name]
                    parts.append(f"{name} " + ("n/a" if v is None else f"{base / v:5.2f}x"))
                print("  ".join(parts), flush=True)
    print(f"load average after: {os.getloadavg()}")
    if args.markdown:
        print("\n| op | dtype | layout | numpy ms | typedtensor | kernels | bottleneck | numbagg |")
        print("|---|---|---|---|---|---|---|---|")
        for op, dtype, layout, t in rows:
            base = t["numpy"]
            assert base is not None
            cells = [
                "n/a" if t[n] is None else f"{base / t[n]:.2f}x"  # type: ignore[operator]
                for n in ("typedtensor", "kernels", "bottleneck", "numbagg")
            ]
            print(f"| {op} | {dtype} | {layout} | {base * 1e3:.1f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
