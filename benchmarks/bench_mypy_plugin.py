"""mypy wall time with vs without the typedtensor plugin on a generated file of 2,000 reductions.

Not a test: prints the median of several runs and the ratio (target <= 1.10x). Two settings:
- ``warm``: each configuration's cache already holds typedtensor/numpy; only the generated
  module is re-checked (its text changes every run) -- what an edit-check loop costs;
- ``cold``: an empty cache each run (the whole program, numpy's stubs included).

Usage: ``python benchmarks/bench_mypy_plugin.py [--reductions 2000] [--runs 5]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DTYPES = ["float32", "float64", "int32", "int8", "uint16", "bool_"]
OPS = ["sum", "mean", "max", "min", "prod", "any", "all", "var", "std", "logsumexp", "argmax"]


def generate(n: int, salt: int) -> str:
    """``n`` reductions over literal-shaped tensors, every axis spelling and keepdims."""
    lines = [
        f"# run {salt}",
        "from typing import Final, Literal as L",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        "AX: Final = -1",
    ]
    shapes = [(2, 3), (2, 3, 4), (5, 6, 7, 8), (3,)]
    for d, shape in itertools.product(DTYPES, shapes):
        dims = ", ".join(f"L[{s}]" for s in shape)
        lines.append(f"x_{d}_{len(shape)}: Tensor[tt.{d}, {dims}]")
    combos = itertools.cycle(itertools.product(OPS, DTYPES, shapes, (False, True)))
    for i in range(n):
        op, d, shape, kd = next(combos)
        rank = len(shape)
        spellings = ["", "axis=0", "axis=-1", "axis=AX", "axis=None"]
        if op != "argmax" and rank >= 2:
            spellings += ["axis=(0, -1)", "axis=(-1, 0)"]
        axis = spellings[i % len(spellings)]
        args = ", ".join(a for a in (axis, f"keepdims={kd}") if a)
        lines.append(f"r{i} = x_{d}_{rank}.{op}({args})")
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> None:
    """Write and move the mtime on by whole seconds: mypy trusts a cached file whose size
    and (integer) mtime are unchanged, so a quick rewrite could be skipped, not re-checked."""
    path.write_text(text)
    stamp = max(time.time(), path.stat().st_mtime) + next(_TICKS)
    os.utime(path, (stamp, stamp))


_TICKS = itertools.count(10)


def run_mypy(workdir: Path, config: Path, cache: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--cache-dir",
            str(cache),
            "bench_reductions.py",
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"mypy failed:\n{proc.stdout}\n{proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reductions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warm-only", action="store_true", help="skip the cold-cache runs")
    args = parser.parse_args()
    salt = itertools.count()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        configs = {
            "without": work / "without.ini",
            "with": work / "with.ini",
        }
        configs["without"].write_text("[mypy]\n")
        configs["with"].write_text("[mypy]\nplugins = typedtensor_mypy\n")
        results: dict[tuple[str, str], list[float]] = {
            (setting, name): [] for setting in ("warm", "cold") for name in configs
        }
        for name, config in configs.items():  # fill each warm cache once (dependencies)
            write(work / "bench_reductions.py", generate(args.reductions, next(salt)))
            run_mypy(work, config, work / f"cache-{name}")
        # interleave the configurations so that load on the machine hits both alike
        settings = ("warm",) if args.warm_only else ("warm", "cold")
        for run in range(args.runs):
            for setting in settings:
                for name, config in configs.items():
                    write(work / "bench_reductions.py", generate(args.reductions, next(salt)))
                    cache = work / (f"cache-{name}" if setting == "warm" else f"cold-{name}-{run}")
                    results[(setting, name)].append(run_mypy(work, config, cache))
        print(f"mypy on {args.reductions} reductions, median of {args.runs} runs")
        for setting in settings:
            without = statistics.median(results[(setting, "without")])
            with_ = statistics.median(results[(setting, "with")])
            print(
                f"  {setting:>4}: without plugin {without:6.2f} s, with plugin {with_:6.2f} s, "
                f"ratio {with_ / without:.2f}x"
            )


if __name__ == "__main__":
    main()
