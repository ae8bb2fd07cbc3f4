"""What a call costs at every size: typedtensor against numpy and against a bare wrapper.

    python benchmarks/bench_sizes.py                    # 16 elements .. 64 MB (~3 minutes)
    python benchmarks/bench_sizes.py --quick            # 16 elements .. 256 KB, fewer ops
    python benchmarks/bench_sizes.py --json sizes.json --plot benchmarks/sizes.png
    python benchmarks/bench_sizes.py --views            # views with gaps, 256 KB and 1 MB
    python benchmarks/bench_sizes.py --dtypes           # every dtype, 256 KB and 4 MB

Every reduction (over the last axis and over the first), ``x + y`` with a broadcast row,
``x * 2.0``, a layer norm (mean and var with keepdims, broadcasting back), a softmax and the
shape operations (reshape, transpose, ``x[:, 0]``, concatenate, ``x @ w``), on
float32 arrays of 16 elements to 64 MB, each run three ways in the same loop: plain numpy on
the ndarray, a bare wrapper (``Bare``: a class that holds the ndarray in ``__slots__``, calls
numpy and wraps the result, no checks: the physical limit of a Python wrapper) and typedtensor
(default backend, validation included). Calls alternate between the three; each figure is the
median of the samples. Printed: microseconds per call and the ratios typedtensor/bare and
typedtensor/numpy. These are benchmarks, not tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

#: the warm-up calls compile the kernels they run in the foreground: with the helper process
#: on (``_background_compile``) and an empty kernel cache, the timed calls would otherwise
#: run the serial kernels, numpy or the kernels' twins until the helper is done
os.environ.setdefault("TYPEDTENSOR_NUMBA_BACKGROUND", "0")

import typedtensor as tt

Array = np.ndarray[Any, Any]


class Bare:
    """The bare wrapper: an ndarray in a slot, numpy calls, results wrapped, nothing checked."""

    __slots__ = ("a",)

    def __init__(self, a: Any) -> None:
        self.a = a

    def __add__(self, o: Any) -> Bare:
        return Bare(self.a + (o.a if type(o) is Bare else o))

    def __sub__(self, o: Any) -> Bare:
        return Bare(self.a - (o.a if type(o) is Bare else o))

    def __mul__(self, o: Any) -> Bare:
        return Bare(self.a * (o.a if type(o) is Bare else o))

    def __truediv__(self, o: Any) -> Bare:
        return Bare(self.a / (o.a if type(o) is Bare else o))

    def reduce(self, name: str, axis: int | None, keepdims: bool = False) -> Bare:
        return Bare(getattr(self.a, name)(axis=axis, keepdims=keepdims))

    def argmax(self, axis: int | None) -> Bare:
        return Bare(self.a.argmax(axis=axis))

    def argmin(self, axis: int | None) -> Bare:
        return Bare(self.a.argmin(axis=axis))


def bare_exp(x: Bare) -> Bare:
    return Bare(np.exp(x.a))


def bare_sqrt(x: Bare) -> Bare:
    return Bare(np.sqrt(x.a))


# numpy formulas for the ops numpy has no function for (the numpy backend's own formulas);
# bool and integer input cast to float64 first and complex squares as (conj(x) * x).real, as
# np.linalg.norm and scipy.special.logsumexp do (x * x of int8 wraps, of complex is no norm)
def as_float(a: Array) -> Array:
    return a.astype(np.float64) if a.dtype.kind in "biu" else a


def squares(a: Array) -> Array:
    x = as_float(a)
    return (x.conj() * x).real if x.dtype.kind == "c" else x * x


def np_logsumexp(a: Array, axis: int | None) -> Array:
    x = as_float(a)
    m = np.max(x.real if x.dtype.kind == "c" else x, axis=axis, keepdims=True)
    return np.log(np.sum(np.exp(x - m), axis=axis)) + np.squeeze(m, axis)  # type: ignore[no-any-return]


def np_norm(a: Array, axis: int | None) -> Array:
    return np.sqrt(np.sum(squares(a), axis=axis))  # type: ignore[no-any-return]


def np_l2_normalize(a: Array, axis: int | None) -> Array:
    norm = np.sqrt(np.maximum(np.sum(squares(a), axis=axis, keepdims=True), 1e-12))
    return as_float(a) / norm  # type: ignore[no-any-return]


Trio = tuple[Callable[[], Any], Callable[[], Any], Callable[[], Any]]


def cases(a: Array, axis: int | None) -> dict[str, Trio]:
    """op -> (numpy call, bare call, typedtensor call) on ``a`` over ``axis``."""
    b, t = Bare(a), tt.asarray(a)
    out: dict[str, Trio] = {}
    for name in ("sum", "prod", "mean", "max", "min", "any", "all", "var", "std"):
        out[name] = (
            (lambda n=name: getattr(a, n)(axis=axis)),
            (lambda n=name: b.reduce(n, axis)),
            (lambda n=name: getattr(t, n)(axis=axis)),
        )
    out["argmax"] = (lambda: a.argmax(axis=axis), lambda: b.argmax(axis), lambda: t.argmax(axis))
    out["argmin"] = (lambda: a.argmin(axis=axis), lambda: b.argmin(axis), lambda: t.argmin(axis))
    out["logsumexp"] = (
        lambda: np_logsumexp(a, axis),
        lambda: Bare(np_logsumexp(b.a, axis)),
        lambda: t.logsumexp(axis),
    )
    out["norm"] = (
        lambda: np_norm(a, axis),
        lambda: Bare(np_norm(b.a, axis)),
        lambda: t.norm(2, axis),
    )
    out["l2_normalize"] = (
        lambda: np_l2_normalize(a, axis),
        lambda: Bare(np_l2_normalize(b.a, axis)),
        lambda: t.l2_normalize(axis),
    )
    return out


def elementwise_cases(a: Array) -> dict[str, Trio]:
    """x + y (a row broadcast), x * 2.0, a layer norm and a softmax over the last axis."""
    row = np.ascontiguousarray(a[0])
    b, t, br, tr = Bare(a), tt.asarray(a), Bare(row), tt.asarray(row)

    def np_layer_norm() -> Array:
        m = a.mean(axis=-1, keepdims=True)
        v = a.var(axis=-1, keepdims=True)
        return (a - m) / np.sqrt(v + 1e-5)  # type: ignore[no-any-return]

    def bare_layer_norm() -> Bare:
        m = b.reduce("mean", -1, True)
        v = b.reduce("var", -1, True)
        return (b - m) / bare_sqrt(v + 1e-5)

    def tt_layer_norm() -> Any:
        m = t.mean(axis=-1, keepdims=True)
        v = t.var(axis=-1, keepdims=True)
        return (t - m) / tt.sqrt(v + 1e-5)

    def np_softmax() -> Array:
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]

    def bare_softmax() -> Bare:
        e = bare_exp(b - b.reduce("max", -1, True))
        return e / e.reduce("sum", -1, True)

    def tt_softmax() -> Any:
        e = tt.exp(t - t.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    return {
        "x + y": (lambda: a + row, lambda: b + br, lambda: t + tr),
        "x * 2.0": (lambda: a * 2.0, lambda: b * 2.0, lambda: t * 2.0),
        "layer norm": (np_layer_norm, bare_layer_norm, tt_layer_norm),
        "softmax": (np_softmax, bare_softmax, tt_softmax),
    }


def shape_cases(a: Array) -> dict[str, Trio]:
    """reshape, transpose, ``x[:, 0]``, concatenate and ``x @ w`` (w: (cols, 16))."""
    w = np.random.default_rng(1).standard_normal((a.shape[1], 16)).astype(np.float32)
    b, t, bw, tw = Bare(a), tt.asarray(a), Bare(w), tt.asarray(w)
    flat = (a.size,)
    return {
        "reshape": (
            lambda: a.reshape(flat),
            lambda: Bare(b.a.reshape(flat)),
            lambda: t.reshape(flat),
        ),
        "transpose": (
            lambda: a.transpose(1, 0),
            lambda: Bare(b.a.transpose(1, 0)),
            lambda: t.transpose(1, 0),
        ),
        "x[:, 0]": (lambda: a[:, 0], lambda: Bare(b.a[:, 0]), lambda: t[:, 0]),
        "concatenate": (
            lambda: np.concatenate([a, a]),
            lambda: Bare(np.concatenate([b.a, b.a])),
            lambda: tt.concatenate([t, t]),
        ),
        "x @ w": (lambda: a @ w, lambda: Bare(b.a @ bw.a), lambda: t @ tw),
    }


def issue_cases() -> dict[str, Trio]:
    """The cases issue #18 measured (float32)."""
    rng = np.random.default_rng(0)
    x16 = rng.standard_normal(16).astype(np.float32)
    m = rng.standard_normal((64, 128)).astype(np.float32)
    row = rng.standard_normal(128).astype(np.float32)
    big = rng.standard_normal((512, 512)).astype(np.float32)
    huge = rng.standard_normal((2048, 2048)).astype(np.float32)
    out: dict[str, Trio] = {}
    b16, t16 = Bare(x16), tt.asarray(x16)
    out["x.sum(axis=-1), 16 elements"] = (
        lambda: x16.sum(axis=-1),
        lambda: b16.reduce("sum", -1),
        lambda: t16.sum(axis=-1),
    )
    bm, tm, br, tr = Bare(m), tt.asarray(m), Bare(row), tt.asarray(row)
    out["x.argmax(axis=-1), (64, 128)"] = (
        lambda: m.argmax(axis=-1),
        lambda: bm.argmax(-1),
        lambda: tm.argmax(axis=-1),
    )
    out["x + y, (64, 128) + (128,)"] = (lambda: m + row, lambda: bm + br, lambda: tm + tr)
    ln = elementwise_cases(m)["layer norm"]
    out["layer norm, (64, 128)"] = ln
    bb, tb = Bare(big), tt.asarray(big)
    out["x.max(), (512, 512)"] = (lambda: big.max(), lambda: Bare(bb.a.max()), lambda: tb.max())
    out["x.mean(axis=0), (512, 512)"] = (
        lambda: big.mean(axis=0),
        lambda: bb.reduce("mean", 0),
        lambda: tb.mean(axis=0),
    )
    bh, th = Bare(huge), tt.asarray(huge)
    out["x.argmax(axis=-1), (2048, 2048)"] = (
        lambda: huge.argmax(axis=-1),
        lambda: bh.argmax(-1),
        lambda: th.argmax(axis=-1),
    )
    return out


def shape_for(nbytes: int) -> tuple[int, ...]:
    """float32 of ``nbytes``: rows of up to 256 elements ((1, 16) .. (65536, 256))."""
    n = nbytes // 4
    cols = min(n, 256)
    return (n // cols, cols)


def time_trio(trio: Trio, budget: float) -> list[float]:
    for fn in trio:  # warm-up: plans, kernels (compiled or loaded from the disk cache)
        fn()
    t0 = time.perf_counter()
    trio[2]()
    once = max(time.perf_counter() - t0, 1e-7)
    inner = max(1, int(0.001 / once))
    reps = max(3 if once > 0.01 else 5, min(25, int(budget / (3 * once * inner))))
    samples: list[list[float]] = [[], [], []]
    for _ in range(reps):
        for i, fn in enumerate(trio):
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            samples[i].append((time.perf_counter() - t0) / inner)
    return [statistics.median(s) for s in samples]


def fmt_size(nbytes: int) -> str:
    for unit, size in (("MB", 1 << 20), ("KB", 1 << 10)):
        if nbytes >= size:
            return f"{nbytes // size} {unit}"
    return f"{nbytes} B"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="up to 256 KB, 6 ops, one axis")
    parser.add_argument("--sizes", help="comma-separated byte sizes (default 64 B .. 64 MB)")
    parser.add_argument("--ops", help="comma-separated op names")
    parser.add_argument("--json", help="write the rows as JSON")
    parser.add_argument("--plot", help="write a plot of the ratios (needs matplotlib)")
    parser.add_argument("--markdown", help="write the ratio table as markdown to this file")
    parser.add_argument("--issue", action="store_true", help="only the cases of issue #18")
    parser.add_argument(
        "--views", action="store_true", help="reductions of views with gaps (x[::2], x[:, ::2]...)"
    )
    parser.add_argument(
        "--dtypes", action="store_true", help="every reduction of every dtype, three layouts"
    )
    args = parser.parse_args()
    if args.dtypes:
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else [1 << 18, 1 << 22]
        time_dtypes(sizes, set(args.ops.split(",")) if args.ops else None)
        return
    if args.views:
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else [1 << 18, 1 << 20]
        time_views(sizes, set(args.ops.split(",")) if args.ops else None)
        return
    if args.issue:
        print(f"load average {os.getloadavg()}; us per call: numpy, bare, typedtensor")
        for label, trio in issue_cases().items():
            t_np, t_bare, t_tt = time_trio(trio, 0.3)
            print(f"| {label} | {t_np * 1e6:.2f} | {t_bare * 1e6:.2f} | {t_tt * 1e6:.2f} |")
        return
    sizes = [64, 1 << 10, 1 << 14, 1 << 16, 1 << 18, 1 << 22, 1 << 26]
    if args.quick:
        sizes = [64, 1 << 10, 1 << 14, 1 << 16, 1 << 18]
    if args.sizes:
        sizes = [int(s) for s in args.sizes.split(",")]
    wanted = set(args.ops.split(",")) if args.ops else None
    if args.quick and not wanted:
        wanted = {"sum", "max", "argmax", "mean", "x + y", "layer norm"}
    print(f"load average {os.getloadavg()}, backend {tt.get_backend()}, float32", flush=True)
    print(
        f"{'op':22} {'size':>7} {'numpy us':>10} {'bare us':>10} {'tt us':>10} "
        f"{'tt/bare':>8} {'tt/numpy':>8}"
    )
    rows = []
    for nbytes in sizes:
        a = np.random.default_rng(0).standard_normal(shape_for(nbytes)).astype(np.float32)
        budget = 0.12 if nbytes <= 1 << 18 else 0.6
        groups: list[tuple[str, dict[str, Trio]]] = [("axis -1", cases(a, -1))]
        if not args.quick and a.shape[0] > 1:
            groups.append(("axis 0", cases(a, 0)))
        groups.append(("", elementwise_cases(a)))
        groups.append(("", shape_cases(a)))
        for where, trios in groups:
            for op, trio in trios.items():
                if wanted and op not in wanted:
                    continue
                label = f"{op} ({where})" if where else op
                t_np, t_bare, t_tt = time_trio(trio, budget)
                row = {
                    "op": op,
                    "axis": where,
                    "bytes": nbytes,
                    "shape": list(a.shape),
                    "numpy_s": t_np,
                    "bare_s": t_bare,
                    "tt_s": t_tt,
                }
                rows.append(row)
                print(
                    f"{label:22} {fmt_size(nbytes):>7} {t_np * 1e6:10.2f} {t_bare * 1e6:10.2f} "
                    f"{t_tt * 1e6:10.2f} {t_tt / t_bare:8.2f} {t_tt / t_np:8.2f}",
                    flush=True,
                )
    print(f"load average {os.getloadavg()}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load": os.getloadavg(), "rows": rows}, f, indent=1)
    if args.plot:
        plot(rows, args.plot)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(rows))


#: views that are not one contiguous block (the numba backend copies them once)
VIEWS: dict[str, Callable[[Array], Array]] = {
    "x[::2]": lambda x: x[::2],
    "x[:, ::2]": lambda x: x[:, ::2],
    "x.T[::2]": lambda x: x.T[::2],
    "x[::-1, ::2]": lambda x: x[::-1, ::2],
}


def print_trio(label: str, nbytes: int, times: list[float]) -> None:
    """One row of ``--views`` and ``--dtypes``: us per call and typedtensor/numpy."""
    t_np, t_bare, t_tt = times
    print(
        f"{label:34} {fmt_size(nbytes):>7} {t_np * 1e6:10.2f} {t_bare * 1e6:10.2f} "
        f"{t_tt * 1e6:10.2f} {t_tt / t_np:8.2f}",
        flush=True,
    )


def time_views(sizes: list[int], wanted: set[str] | None) -> None:
    """Every reduction over axis 0 and axis -1 of each view of VIEWS, ``nbytes`` of the view's
    own elements (from a float32 array of twice that): numpy, bare wrapper, typedtensor."""
    print(f"load average {os.getloadavg()}, backend {tt.get_backend()}, float32", flush=True)
    print(f"{'op':34} {'size':>7} {'numpy us':>10} {'bare us':>10} {'tt us':>10} {'tt/numpy':>8}")
    for nbytes in sizes:
        base = np.random.default_rng(0).standard_normal(shape_for(2 * nbytes))
        base = base.astype(np.float32)
        for view_name, view in VIEWS.items():
            a = view(base)
            for axis in (0, -1):
                for op, trio in cases(a, axis).items():
                    if wanted and op not in wanted:
                        continue
                    print_trio(f"{op} {view_name} axis {axis}", nbytes, time_trio(trio, 0.3))
    print(f"load average {os.getloadavg()}")


#: the dtypes ``--dtypes`` sweeps (the routing tables were measured on float32 and float64)
SWEPT_DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"]
SWEPT_DTYPES += ["complex64", "complex128"]


def time_dtypes(sizes: list[int], wanted: set[str] | None) -> None:
    """Every reduction over axis -1, axis 0 and the whole array of ``(n / 256, 256)`` arrays
    of each dtype of SWEPT_DTYPES: numpy, bare wrapper, typedtensor. A call that typedtensor's
    rules or numpy reject for a dtype (``logsumexp`` of bool...) is left out."""
    print(f"load average {os.getloadavg()}, backend {tt.get_backend()}", flush=True)
    print(f"{'op':34} {'size':>7} {'numpy us':>10} {'bare us':>10} {'tt us':>10} {'tt/numpy':>8}")
    rng = np.random.default_rng(0)
    for nbytes in sizes:
        for name in SWEPT_DTYPES:
            dtype = np.dtype(name)
            n = nbytes // dtype.itemsize
            values = rng.standard_normal(n) * 100
            if dtype.kind == "c":
                values = values + 1j * rng.standard_normal(n)
            a = (values > 0 if dtype.kind == "b" else values.astype(dtype)).reshape(-1, 256)
            for axis in (-1, 0, None):
                for op, trio in cases(a, axis).items():
                    if wanted and op not in wanted:
                        continue
                    try:
                        with np.errstate(all="ignore"):
                            for fn in trio:
                                fn()
                    except (TypeError, ValueError):  # the rules (or numpy's formula) reject it
                        continue
                    with np.errstate(all="ignore"):
                        print_trio(f"{op} {name} axis {axis}", nbytes, time_trio(trio, 0.2))
    print(f"load average {os.getloadavg()}")


def markdown(rows: list[dict[str, Any]]) -> str:
    """One line per op: typedtensor/bare (typedtensor/numpy) at each size."""
    sizes = sorted({r["bytes"] for r in rows})
    table: dict[str, dict[int, dict[str, Any]]] = {}
    for r in rows:
        table.setdefault(f"{r['op']} {r['axis']}".strip(), {})[r["bytes"]] = r
    head = "| op | " + " | ".join(fmt_size(s) for s in sizes) + " |\n"
    head += "|---|" + "---:|" * len(sizes) + "\n"
    lines = []
    for name, by_size in table.items():
        cells = []
        for s in sizes:
            r = by_size.get(s)
            cells.append(
                ""
                if r is None
                else f"{r['tt_s'] / r['bare_s']:.2f} ({r['tt_s'] / r['numpy_s']:.2f})"
            )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return head + "\n".join(lines) + "\n"


def plot(rows: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 5), sharex=True)
    series: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        series.setdefault(f"{r['op']} {r['axis']}".strip(), []).append(r)
    ops = list(dict.fromkeys(r["op"] for r in rows))
    colors = plt.get_cmap("tab20")
    for name, rs in series.items():
        xs = [r["bytes"] for r in rs]
        style = {
            "marker": ".",
            "lw": 0.8,
            "color": colors(ops.index(rs[0]["op"]) % 20),
            "ls": "--" if rs[0]["axis"] == "axis 0" else "-",
        }
        axes[0].plot(xs, [r["tt_s"] / r["bare_s"] for r in rs], label=name, **style)
        axes[1].plot(xs, [r["tt_s"] / r["numpy_s"] for r in rs], **style)
    for ax, title, goal in (
        (axes[0], "typedtensor / bare wrapper", 1.5),
        (axes[1], "typedtensor / numpy", 1.0),
    ):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.axhline(goal, color="k", ls="--", lw=0.8)
        ax.set_title(title + " (time ratio; lower is faster)")
        ax.set_xlabel("input bytes (float32)")
    axes[0].legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
