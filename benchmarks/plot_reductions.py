"""Plot the JSON rows written by ``bench_reductions.py --json`` (needs matplotlib: the ``bench``
extra) and print them as a markdown table.

    python benchmarks/plot_reductions.py results.json benchmarks/reductions.png > table.md
"""

from __future__ import annotations

import json
import sys
from typing import Any


def table(rows: list[dict[str, Any]]) -> str:
    """Markdown table: op x layout x dtype with numpy GB/s, typedtensor GB/s and the ratio."""
    out = [
        "| op | layout | dtype | numpy GB/s | typedtensor GB/s | ratio |",
        "|---|---|---|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['op']} | {r['layout']} | {r['dtype']} | {r['numpy_gbs']:.2f} "
            f"| {r['tt_gbs']:.2f} | {r['ratio']:.2f}x |"
        )
    return "\n".join(out)


def plot(rows: list[dict[str, Any]], path: str) -> None:
    """One panel per dtype: ratio vs numpy per op, one bar per layout, log scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dtypes = sorted({r["dtype"] for r in rows})
    ops = list(dict.fromkeys(r["op"] for r in rows))
    layouts = list(dict.fromkeys(r["layout"] for r in rows))
    fig, axes = plt.subplots(len(dtypes), 1, figsize=(13, 4.2 * len(dtypes)), squeeze=False)
    width = 0.8 / len(layouts)
    for ax, dt in zip(axes[:, 0], dtypes, strict=True):
        for k, lay in enumerate(layouts):
            xs, ys = [], []
            for i, op in enumerate(ops):
                hit = [r for r in rows if r["dtype"] == dt and r["op"] == op and r["layout"] == lay]
                if hit:
                    xs.append(i + (k - len(layouts) / 2 + 0.5) * width)
                    ys.append(hit[0]["ratio"])
            ax.bar(xs, ys, width, label=lay)
        ax.axhline(1.0, color="black", lw=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(ops)), ops, rotation=20)
        ax.set_ylabel("speed vs numpy (x)")
        ax.set_title(f"typedtensor numba backend vs numpy, {dt} (higher is better)")
        ax.legend(ncol=len(layouts), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main(argv: list[str]) -> int:
    """Command line entry point."""
    if len(argv) < 1:
        print(__doc__)
        return 2
    with open(argv[0]) as f:
        rows = json.load(f)
    print(table(rows))
    if len(argv) > 1:
        plot(rows, argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
