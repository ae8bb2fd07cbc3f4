"""mypy wall/CPU time on a program of calls of the program's own functions, with the plugin
against without it: the cost of the plugin's signature hook for user functions and methods
(``typedtensor_mypy._generic_calls``), which runs on every such call.

Not a test: prints the median of several warm runs (the cache holds typedtensor and numpy; the
generated module changes every run) and the ratios. Configurations, interleaved run by run:
``plain`` (no plugin, the stubs' plain signatures), ``with`` (the plugin of this checkout) and,
with ``--other-plugin DIR``, ``other`` (the plugin found on ``PYTHONPATH=DIR``: an older
checkout's ``mypy_plugin`` folder, for a same-run before/after).

The program: ``--calls`` calls, a quarter each of a generic function with expression dims
(``(B, 2 * B) -> 2 * B``), a generic function without them, a plain ``int`` function, and a
method of a generic class.

Usage: ``python benchmarks/bench_mypy_generic_calls.py [--calls 2000] [--runs 5]
[--other-plugin DIR]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_mypy_plugin import run_mypy, write

HEADER = """\
from typing import Generic, Literal as L, TypeVar
import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
D = TypeVar("D", bound=int)

def pair(x: Tensor[tt.float32, B, tt.Mul[L[2], B]]) -> Tensor[tt.float32, tt.Mul[L[2], B]]:
    return x.sum(axis=0)

def same(x: Tensor[tt.float32, B, D]) -> Tensor[tt.float32, D, B]:
    return x.T

def scale(n: int, k: int) -> int:
    return n * k

class Layer(Generic[D]):
    def __init__(self, w: Tensor[tt.float32, D, tt.Mul[L[4], D]]) -> None:
        self.w = w

    def up(self, x: Tensor[tt.float32, B, D]) -> Tensor[tt.float32, B, tt.Mul[L[4], D]]:
        return x @ self.w

a = tt.zeros((3, 6), tt.float32)
layer = Layer(tt.zeros((8, 32), tt.float32))
h = tt.zeros((2, 8), tt.float32)
"""


def generate(calls: int, salt: int) -> str:
    """The header and ``calls`` module-level calls, the four kinds in turn."""
    kinds = itertools.cycle(["pair(a)", "same(a)", "scale({i}, 2)", "layer.up(h)"])
    lines = [f"# run {salt}", HEADER]
    lines += [f"r{i} = " + next(kinds).format(i=i) for i in range(calls)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--other-plugin", type=Path, default=None)
    args = parser.parse_args()
    salt = itertools.count()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        configs = {"plain": work / "plain.ini", "with": work / "with.ini"}
        configs["plain"].write_text("[mypy]\nalways_true = TYPEDTENSOR_MYPY_PLUGIN\n")
        configs["with"].write_text("[mypy]\nplugins = typedtensor_mypy\n")
        envs: dict[str, dict[str, str] | None] = {"plain": None, "with": None}
        if args.other_plugin is not None:
            configs["other"] = configs["with"]
            envs["other"] = {**os.environ, "PYTHONPATH": str(args.other_plugin.resolve())}
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in configs}
        for name, config in configs.items():  # fill each warm cache once (dependencies)
            write(work / "bench_reductions.py", generate(args.calls, next(salt)))
            run_mypy(work, config, work / f"cache-{name}", envs[name], errors_ok=True)
        for _ in range(args.runs):  # interleaved: load on the machine hits all alike
            for name, config in configs.items():
                write(work / "bench_reductions.py", generate(args.calls, next(salt)))
                cache = work / f"cache-{name}"
                # without the plugin (or with an older one) the expression-dim calls are errors
                results[name].append(run_mypy(work, config, cache, envs[name], errors_ok=True))
        print(f"mypy on {args.calls} calls of user functions, warm cache, median of {args.runs}")
        for i, measure in enumerate(("wall", "cpu")):
            med = {n: statistics.median(r[i] for r in results[n]) for n in configs}
            line = f"  {measure:>4}: " + ", ".join(f"{n} {v:.2f} s" for n, v in med.items())
            line += f"; with / plain {med['with'] / med['plain']:.2f}x"
            if "other" in med:
                line += f", with / other {med['with'] / med['other']:.2f}x"
            print(line)
        for name in configs:
            runs = " ".join(f"{w:.2f}/{c:.2f}" for w, c in results[name])
            print(f"  {name:>6} runs (wall/cpu s): {runs}")


if __name__ == "__main__":
    main()
