"""Benchmark: pyright on a whole program with the generated stubs vs plain signatures.

Run from the repository root with the project's venv::

    .venv/bin/python benchmarks/bench_pyright_program.py [--copies 20] [--repeat 3]

The program is ``benchmarks/programs/transformer_table.py`` (a transformer block, attention +
MLP + layer norm, and a table script: constructors, operators with scalars and broadcasting,
unary functions, ``where``/``maximum``, ``astype``, reductions, ``@``), repeated ``--copies``
times with renamed functions. The two package variants are those of
``bench_pyright_stubs.py`` (the committed stubs; ``render_all(plain_only=True)``: plain
signatures, and no ``_creation.pyi``/``elementwise.pyi``, so pyright reads the runtime
modules). Variants run interleaved; CPU time (user+sys) is the headline number. The plain
variant answers no ``assert_type``, so its errors are expected and not counted. This is a
benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_pyright_stubs import _package, _pyright  # noqa: E402

PROGRAM = ROOT / "benchmarks" / "programs" / "transformer_table.py"


def program(copies: int) -> str:
    """The program's imports and aliases once, its functions ``copies`` times (renamed)."""
    text = PROGRAM.read_text()
    head, _, body = text.partition("\n\ndef ")
    body = "def " + body
    names = re.findall(r"^def (\w+)", body, re.M)
    out = [head, ""]
    for i in range(copies):
        copy = body
        for name in names:
            copy = re.sub(rf"\b{name}\(", f"{name}_{i}(", copy)
        out.append(copy)
    return "\n\n".join(out)


def main() -> None:
    """Print best-of-N pyright CPU times for the stubs vs plain signatures and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for variant in ("overloads", "plain"):
            folder = Path(tmp) / variant
            folder.mkdir()
            _package(folder, plain_only=variant == "plain")
            (folder / "bench_program.py").write_text(program(args.copies))
            (folder / "bench_empty.py").write_text(program(0))
        for _, (target, variant) in itertools.product(
            range(args.repeat),
            itertools.product(("bench_program.py", "bench_empty.py"), ("overloads", "plain")),
        ):
            runs.setdefault((variant, target), []).append(_pyright(Path(tmp) / variant, target))
    best = {key: min(c for _, c in times) for key, times in runs.items()}
    for (variant, target), cpu in sorted(best.items()):
        print(f"{variant:>9} {target:<17} cpu {cpu:6.2f}s")
    per_round = [
        o[1] / p[1]
        for o, p in zip(
            runs[("overloads", "bench_program.py")],
            runs[("plain", "bench_program.py")],
            strict=True,
        )
    ]
    ov, pl = best[("overloads", "bench_program.py")], best[("plain", "bench_program.py")]
    print(
        f"program x{args.copies}, overloads/plain cpu ratio (best of {args.repeat}): {ov / pl:.2f}x"
    )
    print(
        f"  per round: median {statistics.median(per_round):.2f}x "
        f"({', '.join(f'{r:.2f}' for r in per_round)})"
    )


if __name__ == "__main__":
    main()
