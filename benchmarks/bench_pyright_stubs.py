"""Benchmark: pyright on 2,000 reductions with the generated overload stubs vs plain signatures.

Run from the repository root with the project's venv::

    .venv/bin/python benchmarks/bench_pyright_stubs.py [--calls 2000] [--repeat 3]

Builds two copies of the ``typedtensor`` package in a temporary folder: one with the committed
generated stubs (overloads) and one whose stubs hold only the runtime signatures (what
``python -m stubs.generate`` renders with ``plain_only``). The same generated file of
reductions (seeded: receivers of rank 1..4 and dtypes of every rule family; single, negative,
tuple and ``None`` axes; both keepdims; methods and functions) is checked with each, and the
best-of-N wall and CPU times are printed with their ratios, and the median and worst of the
per-round CPU ratios (the variants run interleaved, one run each per round). A file with
the same imports and no reductions gives the fixed cost (startup, numpy stubs), subtracted in
the "net" ratio. CPU time (user+sys of the pyright processes) is the headline number because
wall time swings with other load on a shared machine. This is a benchmark, not a test: it
asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stubs.generate import render_all  # noqa: E402

DTYPES = ("float32", "float64", "int8", "int32", "int64", "uint8", "bool_")
SIZES = (2, 3, 4, 5)
OPS = ("sum", "prod", "mean", "max", "min", "any", "all", "var", "std", "logsumexp")


def _axis_choices(rng: random.Random, ndim: int) -> str:
    kind = rng.random()
    if kind < 0.15:
        return "None"
    if kind < 0.75:
        return str(rng.randrange(-ndim, ndim))
    n = rng.randint(1, ndim)
    axes = sorted(rng.sample(range(ndim), n))
    spelled = [a - ndim if rng.random() < 0.3 else a for a in axes]
    return "(" + ", ".join(map(str, spelled)) + ("," if n == 1 else "") + ")"


def corpus(calls: int, seed: int = 0, api: str = "mixed", any_dim: bool = False) -> str:
    """A module with ``calls`` reductions on literal-shaped tensors.

    ``api``: ``mixed`` (65% methods, 10% argmax, 10% norm, 15% ``tt.`` functions), or all
    ``methods`` / all ``functions`` (the same calls rewritten). ``any_dim``: each receiver's
    first dim is ``Any`` (an unknown size, as for a batch dim) instead of a literal.
    """
    rng = random.Random(seed)
    lines = [
        "from typing import Any, Literal as L",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        "",
    ]
    per_fn = 50
    for f in range(calls // per_fn):
        params = []
        ranks = []
        for i in range(4):
            ndim = i + 1
            sizes = [f"L[{rng.choice(SIZES)}]" for _ in range(ndim)]
            dims = ", ".join(["Any", *sizes[1:]] if any_dim else sizes)
            params.append(f"x{i}: Tensor[tt.{rng.choice(DTYPES)}, {dims}]")
            ranks.append(ndim)
        lines.append(f"def f{f}({', '.join(params)}) -> None:")
        for j in range(per_fn):
            i = rng.randrange(4)
            ndim = ranks[i]
            axis = _axis_choices(rng, ndim)
            kd = rng.random() < 0.3
            kw = ", keepdims=True" if kd else ""
            r = rng.random()
            if r < 0.1:
                call = f"x{i}.argmax({rng.randrange(-ndim, ndim)}{kw})"
            elif r < 0.2:
                call = f"x{i}.norm(2, {axis}{kw})"
            elif r < 0.35:
                call = f"tt.{rng.choice(OPS)}(x{i}, {axis}{kw})"
            else:
                call = f"x{i}.{rng.choice(OPS)}({axis}{kw})"
            if api == "methods":
                call = re.sub(r"^tt\.(\w+)\((x\d), ", r"\2.\1(", call)
            elif api == "functions":
                call = re.sub(r"^(x\d)\.(\w+)\(", r"tt.\2(\1, ", call)
            lines.append(f"    r{j} = {call}")
        lines.append("")
    return "\n".join(lines) + "\n"


def _package(dest: Path, plain_only: bool) -> None:
    pkg = dest / "typedtensor"
    shutil.copytree(
        ROOT / "typedtensor", pkg, ignore=shutil.ignore_patterns("*.pyi", "__pycache__")
    )
    for path, text in render_all(plain_only=plain_only).items():
        (pkg / path.name).write_text(text)


def _pyright(folder: Path, target: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the pyright process tree) for one run."""
    pyright = Path(sys.executable).parent / "pyright"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [str(pyright), "--pythonpath", sys.executable, target],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(proc.stdout + proc.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Print best-of-N pyright times for overload stubs vs plain stubs and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--api", choices=("mixed", "methods", "functions"), default="mixed")
    parser.add_argument(
        "--any-dim", action="store_true", help="receivers' first dim is Any (unknown size)"
    )
    args = parser.parse_args()
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for variant in ("overloads", "plain"):
            folder = Path(tmp) / variant
            folder.mkdir()
            _package(folder, plain_only=variant == "plain")
            (folder / "bench_calls.py").write_text(
                corpus(args.calls, api=args.api, any_dim=args.any_dim)
            )
            (folder / "bench_empty.py").write_text(corpus(0))
        # interleaved rounds (one run of each variant per round): load that comes and goes on a
        # shared machine falls on both sides alike, and each round gives a ratio of its own
        for _, (target, variant) in itertools.product(
            range(args.repeat),
            itertools.product(("bench_calls.py", "bench_empty.py"), ("overloads", "plain")),
        ):
            runs.setdefault((variant, target), []).append(_pyright(Path(tmp) / variant, target))
    results = {
        key: (min(w for w, _ in times), min(c for _, c in times)) for key, times in runs.items()
    }
    for key, (wall, cpu) in sorted(results.items()):
        print(f"{key[0]:>9} {key[1]:<15} wall {wall:6.2f}s  cpu {cpu:6.2f}s")
    ov = results[("overloads", "bench_calls.py")]
    pl = results[("plain", "bench_calls.py")]
    fixed = min(results[(v, "bench_empty.py")][1] for v in ("overloads", "plain"))
    per_round = [
        o[1] / p[1]
        for o, p in zip(
            runs[("overloads", "bench_calls.py")], runs[("plain", "bench_calls.py")], strict=True
        )
    ]
    kind = f"{args.api}, first dim Any" if args.any_dim else args.api
    print(f"{args.calls} reductions ({kind}), overloads/plain (best of {args.repeat}):")
    print(f"  wall ratio {ov[0] / pl[0]:.2f}x, cpu ratio {ov[1] / pl[1]:.2f}x")
    print(
        f"  cpu ratio per round: median {statistics.median(per_round):.2f}x, "
        f"max {max(per_round):.2f}x ({', '.join(f'{r:.2f}' for r in per_round)})"
    )
    print(
        f"  cpu ratio net of the fixed cost ({fixed:.2f}s): "
        f"{(ov[1] - fixed) / max(pl[1] - fixed, 1e-9):.2f}x"
    )


if __name__ == "__main__":
    main()
