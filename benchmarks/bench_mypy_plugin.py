"""mypy wall time with vs without the typedtensor plugin on a generated file of 2,000 reductions.

Not a test: prints the median of several runs and the ratio (target <= 1.10x), for wall
time and for the CPU time of the mypy process (user + system: less disturbed by other load on
the machine). Three mypy
configurations: ``plain`` (no plugin, the stubs' plain runtime signatures selected with
``always_true = TYPEDTENSOR_MYPY_PLUGIN``: the plugin's own overhead is ``with`` / ``plain``),
``without`` (no plugin: the generated overloads, what a user without the plugin gets) and
``with`` (the plugin). Two settings:
- ``warm``: each configuration's cache already holds typedtensor/numpy; only the generated
  module is re-checked (its text changes every run) -- what an edit-check loop costs;
- ``cold``: an empty cache each run (the whole program, numpy's stubs included).

Usage: ``python benchmarks/bench_mypy_plugin.py [--reductions 2000] [--runs 5] [--warm-only]
[--scope module|function] [--bytecode as-is|compiled] [--skip-overloads]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DTYPES = ["float32", "float64", "int32", "int8", "uint16", "bool_"]
OPS = ["sum", "mean", "max", "min", "prod", "any", "all", "var", "std", "logsumexp", "argmax"]


def generate(n: int, salt: int, scope: str = "module") -> str:
    """``n`` reductions over literal-shaped tensors, every axis spelling and keepdims.

    ``scope="module"``: each result is a module-level variable (``r0 = x.sum()``), which
    mypy also records in the module's cache; ``"function"``: the same lines as locals of
    functions of 50 reductions each (typical user code).
    """
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
        indent = ""
        if scope == "function":
            if i % 50 == 0:
                lines.append(f"def reductions_{i // 50}() -> None:")
            indent = "    "
        lines.append(f"{indent}r{i} = x_{d}_{rank}.{op}({args})")
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> None:
    """Write and move the mtime on by whole seconds: mypy trusts a cached file whose size
    and (integer) mtime are unchanged, so a quick rewrite could be skipped, not re-checked."""
    path.write_text(text)
    stamp = max(time.time(), path.stat().st_mtime) + next(_TICKS)
    os.utime(path, (stamp, stamp))


_TICKS = itertools.count(10)


def run_mypy(
    workdir: Path,
    config: Path,
    cache: Path,
    env: dict[str, str] | None = None,
    errors_ok: bool = False,
) -> tuple[float, float]:
    """One mypy run: (wall seconds, CPU seconds of the child: user + system). With
    ``errors_ok`` reported errors are expected (exit status 1); a crash never is."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
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
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    crashed = "INTERNAL ERROR" in proc.stdout + proc.stderr
    if proc.returncode not in ((0, 1) if errors_ok else (0,)) or crashed:
        raise SystemExit(f"mypy failed:\n{proc.stdout}\n{proc.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reductions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warm-only", action="store_true", help="skip the cold-cache runs")
    parser.add_argument(
        "--scope",
        choices=("module", "function"),
        default="module",
        help="reductions as module-level variables (default) or inside functions",
    )
    parser.add_argument(
        "--bytecode",
        choices=("as-is", "compiled"),
        default="as-is",
        help="as-is (default): Python's own setting (PYTHONDONTWRITEBYTECODE=1 and an "
        "editable install mean the plugin is compiled from source every run); compiled: "
        "bytecode written once under a private PYTHONPYCACHEPREFIX and reused, as after a "
        "regular pip install",
    )
    parser.add_argument(
        "--skip-overloads",
        action="store_true",
        help="skip the (slow) no-plugin overloads configuration",
    )
    args = parser.parse_args()
    salt = itertools.count()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        configs = {
            "plain": work / "plain.ini",
            "without": work / "without.ini",
            "with": work / "with.ini",
        }
        configs["plain"].write_text("[mypy]\nalways_true = TYPEDTENSOR_MYPY_PLUGIN\n")
        configs["without"].write_text("[mypy]\n")
        configs["with"].write_text("[mypy]\nplugins = typedtensor_mypy\n")
        if args.skip_overloads:
            del configs["without"]
        env = None
        if args.bytecode == "compiled":
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        results: dict[tuple[str, str], list[tuple[float, float]]] = {
            (setting, name): [] for setting in ("warm", "cold") for name in configs
        }
        for name, config in configs.items():  # fill each warm cache once (dependencies)
            write(work / "bench_reductions.py", generate(args.reductions, next(salt), args.scope))
            run_mypy(work, config, work / f"cache-{name}", env)
        # interleave the configurations so that load on the machine hits both alike
        settings = ("warm",) if args.warm_only else ("warm", "cold")
        for run in range(args.runs):
            for setting in settings:
                for name, config in configs.items():
                    text = generate(args.reductions, next(salt), args.scope)
                    write(work / "bench_reductions.py", text)
                    cache = work / (f"cache-{name}" if setting == "warm" else f"cold-{name}-{run}")
                    results[(setting, name)].append(run_mypy(work, config, cache, env))
        print(
            f"mypy on {args.reductions} reductions ({args.scope} scope, bytecode "
            f"{args.bytecode}), median of {args.runs} runs"
        )
        for setting in settings:
            for i, measure in enumerate(("wall", "cpu")):
                med = {n: statistics.median(r[i] for r in results[(setting, n)]) for n in configs}
                line = f"  {setting:>4} {measure:>4}: plain signatures {med['plain']:6.2f} s, "
                if "without" in configs:
                    line += f"overloads (no plugin) {med['without']:6.2f} s, "
                line += f"plugin {med['with']:6.2f} s; plugin overhead "
                line += f"{med['with'] / med['plain']:.2f}x"
                if "without" in configs:
                    line += f", plugin vs overloads {med['with'] / med['without']:.2f}x"
                print(line)
            for name in configs:
                runs = " ".join(f"{w:.2f}/{c:.2f}" for w, c in results[(setting, name)])
                print(f"        {name:>7} runs (wall/cpu s): {runs}")


if __name__ == "__main__":
    main()
