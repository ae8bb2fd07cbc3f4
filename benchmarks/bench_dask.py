"""typedtensor's dask reductions against dask.array's own, on a persisted array in a LocalCluster.

    python benchmarks/bench_dask.py                  # 384 MiB float32, 2 workers x 1 thread
    python benchmarks/bench_dask.py --mib 128 --repeat 3     # a quicker look
    python benchmarks/bench_dask.py --markdown       # the table for benchmarks/README.md
    python benchmarks/bench_dask.py --partials       # one chunk's partials: numba vs numpy
    python benchmarks/bench_dask.py --partials --partial-mib 0.25,1,4,32 --write
                                                     # ... and write the chunk step's table

The array (float32, ``(rows, 64)`` in chunks of 32 MiB along the rows, ``--chunk-mib``) is
generated on the workers and persisted there, so every timed call reads worker memory only.
Each op is timed as ``client.compute(expr).result()`` (graph submission, the tree, and
fetching the result included) for typedtensor (``tt.asarray(x).var(axis=0)``) and for
dask.array's spelling of the same answer (``x.var(axis=0)``; logsumexp as
``log(exp(x - m).sum()) + m`` with ``m = x.max(keepdims=True)``; the L2 norm as dask's own
``da.linalg.norm(x, 2, axis)`` and, in the row ``norm (L2) vs x*x``, as the faster spelling
``sqrt((x * x).sum())``), over the strided axis (``axis=0``: each chunk reduced over its rows)
and the contiguous one (``axis=1``: 64-element rows). Within a repeat the two run one after the
other (interleaved); each figure is the median of ``--repeat`` timed calls after one warm-up
(which compiles or loads the numba kernels in each worker). Ratio: dask's time over
typedtensor's (above 1: typedtensor faster). The machine may be shared: the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import typedtensor as tt
from typedtensor._backend import _routing, partials

COLS = 64


def _dask_logsumexp(x: Any, axis: int) -> Any:
    m = x.max(axis=axis, keepdims=True)
    return (da.log(da.exp(x - m).sum(axis=axis, keepdims=True)) + m).squeeze(axis=axis)


#: op -> (typedtensor expression, dask.array expression), each of (array, axis)
OPS: dict[str, tuple[Callable[[Any, int], Any], Callable[[Any, int], Any]]] = {
    "sum": (lambda t, ax: t.sum(axis=ax), lambda x, ax: x.sum(axis=ax)),
    "mean": (lambda t, ax: t.mean(axis=ax), lambda x, ax: x.mean(axis=ax)),
    "var": (lambda t, ax: t.var(axis=ax), lambda x, ax: x.var(axis=ax)),
    "std": (lambda t, ax: t.std(axis=ax), lambda x, ax: x.std(axis=ax)),
    "logsumexp": (lambda t, ax: t.logsumexp(axis=ax), _dask_logsumexp),
    "norm (L2)": (lambda t, ax: t.norm(2, axis=ax), lambda x, ax: da.linalg.norm(x, 2, axis=ax)),
    "norm (L2) vs x*x": (
        lambda t, ax: t.norm(2, axis=ax),
        lambda x, ax: da.sqrt((x * x).sum(axis=ax)),
    ),
    "nanmean": (lambda t, ax: tt.nanmean(t, axis=ax), lambda x, ax: da.nanmean(x, axis=ax)),
    "nanvar": (lambda t, ax: tt.nanvar(t, axis=ax), lambda x, ax: da.nanvar(x, axis=ax)),
    "nanargmax": (lambda t, ax: tt.nanargmax(t, axis=ax), lambda x, ax: da.nanargmax(x, axis=ax)),
}


#: partial -> call of typedtensor._backend.partials on (chunk, axes, path)
PARTIALS: dict[str, Callable[[Any, tuple[int, ...], str], Any]] = {
    "sums": lambda x, ax, path: partials.sums(x, ax, backend="numba", path=path),
    "pow_sums": lambda x, ax, path: partials.pow_sums(
        x, ax, 2.0, x.dtype, backend="numba", path=path
    ),
    "var": lambda x, ax, path: partials.var_partials(x, ax, backend="numba", path=path),
    "lse": lambda x, ax, path: partials.lse_partials(x, ax, backend="numba", path=path),
    "nan_sum_count": lambda x, ax, path: partials.nan_sum_count(x, ax, backend="numba", path=path),
    "nan_var": lambda x, ax, path: partials.nan_var_partials(x, ax, backend="numba", path=path),
    "nan_arg": lambda x, ax, path: partials.nan_arg_partials(
        x, ax, False, True, backend="numba", path=path
    ),
}


def bench_partials(repeat: int, names: list[str], mib: list[float]) -> list[dict[str, Any]]:
    """One chunk's partial in this process, one numba thread: numba's serial kernels against
    numpy's loops (interleaved medians), float32 and float64 chunks of (rows, 64) with 1% NaN,
    over axis 0 (layout "columns") and axis 1 ("rows"); returns the rows measured."""
    measured: list[dict[str, Any]] = []
    print(f"load average before: {os.getloadavg()}")
    print("| partial | dtype | MiB | axis | numba (ms) | numpy (ms) | numpy / numba |")
    print("|---|---|---:|---:|---:|---:|---:|")
    rng = np.random.default_rng(0)
    with partials.serial_kernels():
        for name in names:
            fn = PARTIALS[name]
            for dtype in (np.float32, np.float64):
                for size in mib:
                    rows = int(size * 2**20) // (np.dtype(dtype).itemsize * COLS)
                    x = rng.standard_normal((rows, COLS)).astype(dtype)
                    x[rng.random(x.shape) < 0.01] = np.nan
                    for axis in ((0,), (1,)):
                        fn(x, axis, "numba")  # compile / load the kernels
                        fn(x, axis, "numpy")
                        t_nb, t_np = [], []
                        for _ in range(repeat):
                            t_nb.append(_clock(fn, x, axis, "numba"))
                            t_np.append(_clock(fn, x, axis, "numpy"))
                        a, b = statistics.median(t_nb), statistics.median(t_np)
                        where = _routing.layout(x.shape, x.strides, axis)
                        measured.append(
                            dict(partial=name, dtype=x.dtype, bytes=x.nbytes, layout=where)
                        )
                        measured[-1]["numba_wins"] = a < b
                        print(
                            f"| {name} | {np.dtype(dtype).name} | {size:g} | {axis[0]} | "
                            f"{a * 1e3:.2f} | {b * 1e3:.2f} | {b / a:.2f}x |",
                            flush=True,
                        )
    print(f"load average after: {os.getloadavg()}")
    return measured


def write_serial_crossovers(measured: list[dict[str, Any]]) -> None:
    """Set each measured (partial, layout) entry of the chunk step's table
    (``crossovers.json``'s ``dask_serial_numba_from_bytes``) to the smallest measured chunk
    size from which numba's serial kernels won at every larger measured size, for every
    dtype the entry covers (``sums`` float32, ``sums64`` float64; the other partials both),
    or None where they did not win at the largest; entries not measured stay."""
    data = json.loads(_routing.CROSSOVERS_FILE.read_text())
    table = data["dask_serial_numba_from_bytes"]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in measured:
        name = (
            "sums64" if row["partial"] == "sums" and row["dtype"] == np.float64 else row["partial"]
        )
        groups.setdefault((name, row["layout"]), []).append(row)
    for (name, where), rows in groups.items():
        sizes = sorted({row["bytes"] for row in rows})
        start = None
        for size in reversed(sizes):  # from the largest down, while numba wins every dtype
            if not all(row["numba_wins"] for row in rows if row["bytes"] == size):
                break
            start = size
        table.setdefault(name, {})[where] = start
    _routing.CROSSOVERS_FILE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {_routing.CROSSOVERS_FILE}")


def _clock(fn: Callable[..., Any], *args: Any) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def _time(client: Client, expr: Any) -> float:
    start = time.perf_counter()
    client.compute(expr).result()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=384, help="array size in MiB (float32)")
    parser.add_argument(
        "--chunk-mib", type=int, default=32, help="chunk size in MiB (dask's own default: 128)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--partials", action="store_true", help="time one chunk's partials")
    parser.add_argument("--partial-mib", default="1,4,32", help="chunk sizes for --partials")
    parser.add_argument(
        "--write", action="store_true", help="with --partials: write the table to crossovers.json"
    )
    args = parser.parse_args()
    if args.partials:
        names = [n for n in PARTIALS if n in args.ops.split(",")] or list(PARTIALS)
        measured = bench_partials(
            args.repeat, names, [float(m) for m in args.partial_mib.split(",")]
        )
        if args.write:
            write_serial_crossovers(measured)
        return
    ops = [o for o in OPS if o in args.ops.split(",")]

    rows = args.mib * 2**20 // (4 * COLS)
    chunk_rows = args.chunk_mib * 2**20 // (4 * COLS)
    print(f"load average before: {os.getloadavg()}")
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        x = da.random.default_rng(0).standard_normal((rows, COLS), chunks=(chunk_rows, COLS))
        x = client.persist(x.astype(np.float32))
        client.wait_for_workers(2)
        distributed_wait(x)
        t = tt.asarray(x)
        print(
            f"array: float32 {x.shape}, {x.nbytes / 2**20:.0f} MiB persisted, "
            f"{x.numblocks[0]} chunks of {args.chunk_mib} MiB; "
            "LocalCluster: 2 worker processes x 1 thread"
        )
        rows_out: list[tuple[str, int, float, float]] = []
        for op in ops:
            ours, theirs = OPS[op]
            for axis in (0, 1):
                _time(client, ours(t, axis))  # warm-up: the workers compile / load kernels
                _time(client, theirs(x, axis))
                t_tt, t_da = [], []
                for _ in range(args.repeat):
                    t_tt.append(_time(client, ours(t, axis)))
                    t_da.append(_time(client, theirs(x, axis)))
                rows_out.append((op, axis, statistics.median(t_tt), statistics.median(t_da)))
                if not args.markdown:
                    op_, ax_, a_, b_ = rows_out[-1]
                    print(
                        f"{op_:>10} axis={ax_}: typedtensor {a_ * 1e3:7.1f} ms  "
                        f"dask {b_ * 1e3:7.1f} ms  ratio {b_ / a_:5.2f}x"
                    )
    print(f"load average after: {os.getloadavg()}")
    if args.markdown:
        print("| op | axis | typedtensor (ms) | dask.array (ms) | dask / typedtensor |")
        print("|---|---|---:|---:|---:|")
        for op, axis, a, b in rows_out:
            print(f"| {op} | {axis} | {a * 1e3:.1f} | {b * 1e3:.1f} | {b / a:.2f}x |")


def distributed_wait(x: Any) -> None:
    from distributed import wait

    wait(x)


if __name__ == "__main__":
    main()
