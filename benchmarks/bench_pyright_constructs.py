"""Benchmark: pyright's cost of one overload declaration by spelling (synthetic stub modules).

Run from the repository root with the project's venv::

    .venv/bin/python benchmarks/bench_pyright_constructs.py [--repeat 3] [--only base,fixed]

Each variant is a stub module next to a copy of the package (the committed stubs) whose
overloads have the shape of a ``tt.sum`` single-axis form::

    def f(x: Tensor[_ReductionDTypes[_R, Any, Any], _D0, _D1, Unpack[_Rest]],
          axis: Literal[k] | tuple[Literal[k]], keepdims: Literal[False] = False,
          *, out: None = None) -> Tensor[_R, _D0, Unpack[_Rest]]: ...

with one thing changed (the receiver pattern, the axis type, the keepdims or out parameter,
``@deprecated``). Two costs are measured, CPU time (user+sys) of pyright, medians of the
interleaved rounds:

- declared: six lists of 65 overloads whose first overload matches, one call each, minus the
  file without calls (pyright evaluates every declaration of a list when a file first uses it);
- tried: 400 calls of a list of 30 failing overloads and the matching one last, minus one call
  (pyright validates the overloads in order up to the first match, all arguments of each).

This is a benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_pyright_stubs import _package, _pyright  # noqa: E402

HEADER = """from typing import Any, Literal, TypeAlias, overload
from typing_extensions import TypeVar, TypeVarTuple, Unpack, deprecated
from typedtensor._dtypes import DType, _ReductionDTypes
from typedtensor._tensor import AnyTensor, Tensor
_S = TypeVar("_S", bound=DType)
_R = TypeVar("_R", bound=DType)
_D0 = TypeVar("_D0")
_D1 = TypeVar("_D1")
_D2 = TypeVar("_D2")
_Rest = TypeVarTuple("_Rest")
"""
RECEIVERS = {  # (x's type, the result)
    "base": (
        "Tensor[_ReductionDTypes[_R, Any, Any], _D0, _D1, Unpack[_Rest]]",
        "Tensor[_R, _D0, Unpack[_Rest]]",
    ),
    "fixed": ("Tensor[_ReductionDTypes[_R, Any, Any], _D0, _D1, _D2]", "Tensor[_R, _D0, _D2]"),
    "plain_dtype": ("Tensor[_S, _D0, _D1, Unpack[_Rest]]", "Tensor[_S, _D0, Unpack[_Rest]]"),
    "plain_fixed": ("Tensor[_S, _D0, _D1, _D2]", "Tensor[_S, _D0, _D2]"),
    "any_tensor": ("AnyTensor", "AnyTensor"),
}
AXES = {
    "base": "Literal[{k}] | tuple[Literal[{k}]]",
    "literal": "Literal[{k}]",
    "two_literals": "Literal[{k}, {j}]",
    "one_tuple": "tuple[Literal[{k}]]",
    "two_tuple": "tuple[Literal[{k}, {j}], Literal[{j}, {k}]]",
    "alias": "_A{k}",
}
KEEPDIMS = {
    "base": ", keepdims: Literal[False] = False",
    "ellipsis": ", keepdims: Literal[False] = ...",
    "none": "",
}
VARIANTS = {  # name: (receiver, axis, keepdims, out, deprecated)
    "base": ("base", "base", "base", True, False),
    "receiver_fixed_rank": ("fixed", "base", "base", True, False),
    "receiver_plain_dtype": ("plain_dtype", "base", "base", True, False),
    "receiver_plain_fixed": ("plain_fixed", "base", "base", True, False),
    "receiver_AnyTensor": ("any_tensor", "base", "base", True, False),
    "axis_literal_only": ("base", "literal", "base", True, False),
    "axis_two_literals": ("base", "two_literals", "base", True, False),
    "axis_1tuple_only": ("base", "one_tuple", "base", True, False),
    "axis_2tuple": ("base", "two_tuple", "base", True, False),
    "axis_type_alias": ("base", "alias", "base", True, False),
    "keepdims_ellipsis": ("base", "base", "ellipsis", True, False),
    "no_keepdims": ("base", "base", "none", True, False),
    "no_out": ("base", "base", "base", False, False),
    "deprecated": ("base", "base", "base", True, True),
    "trivial": ("any_tensor", "literal", "none", False, False),
}


def _overload(variant: str, k: int, name: str = "f") -> str:
    receiver, axis, keepdims, out, deprecated = VARIANTS[variant]
    x, result = RECEIVERS[receiver]
    dec = '@deprecated("d")\n' if deprecated else ""
    ax = AXES[axis].format(k=k, j=k + 100)
    rest = KEEPDIMS[keepdims] + (", *, out: None = None" if out else "")
    return f"@overload\n{dec}def {name}(x: {x}, axis: {ax}{rest}) -> {result}: ...\n"


def _module(variant: str, lists: int, failing: int, match_first: bool) -> str:
    parts = [HEADER]
    if VARIANTS[variant][1] == "alias":
        parts += [
            f"_A{10 + i}: TypeAlias = Literal[{10 + i}] | tuple[Literal[{10 + i}]]\n"
            for i in range(failing)
        ]
    for n in range(lists):
        fail = [_overload(variant, 10 + i, f"f{n}") for i in range(failing)]
        match = _overload("base", 1, f"f{n}")
        parts += [match, *fail] if match_first else [*fail, match]
    return "".join(parts)


def _calls(module: str, functions: int, calls: int) -> str:
    head = (
        f"from typing import Literal as L\nimport typedtensor as tt\nimport {module}\n\n"
        "def g(x: tt.Tensor[tt.float32, L[2], L[3], L[4]]) -> None:\n"
    )
    body = [f"    r{f}_{i} = {module}.f{f}(x, 1)\n" for f in range(functions) for i in range(calls)]
    return head + ("".join(body) or "    pass\n")


def main() -> None:
    """Print ms per declared and per tried overload of each spelling."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="comma-separated variant names")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(VARIANTS)
    lists, declared, failing, calls = 6, 65, 30, 400
    files = {
        "empty": ("decl", 0, 0),
        "declared": ("decl", lists, 1),
        "call1": ("tried", 1, 1),
        "callN": ("tried", 1, calls),
    }
    runs: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "package"
        base.mkdir()
        _package(base, plain_only=False)
        for name in names:
            folder = Path(tmp) / name
            folder.mkdir()
            (folder / "typedtensor").symlink_to(base / "typedtensor")
            (folder / "decl.pyi").write_text(_module(name, lists, declared - 1, True))
            (folder / "tried.pyi").write_text(_module(name, 1, failing, False))
            for target, (module, functions, n) in files.items():
                (folder / f"{target}.py").write_text(_calls(module, functions, n))
        for _, target, name in itertools.product(range(args.repeat), files, names):
            cpu = _pyright(Path(tmp) / name, f"{target}.py")[1]
            runs.setdefault((name, target), []).append(cpu)
    med = {key: statistics.median(times) for key, times in runs.items()}
    print(f"{'spelling':22} {'ms/declared':>12} {'ms/tried':>9}")
    for name in names:
        decl = (med[name, "declared"] - med[name, "empty"]) / (lists * declared) * 1000
        tried = (med[name, "callN"] - med[name, "call1"]) / ((calls - 1) * (failing + 1)) * 1000
        print(f"{name:22} {decl:12.2f} {tried:9.3f}")


if __name__ == "__main__":
    main()
