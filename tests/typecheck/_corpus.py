"""A deterministic corpus of typedtensor calls for the plugin/runtime agreement test.

Each case is one expression; the same expression is written into a generated module for mypy
(``reveal_type(<expr>)``) and evaluated at run time. Nothing here computes an expected result:
the runtime is the oracle.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from typedtensor import _rules as rules

DTYPES = [("bool_" if n == "bool" else n) for n in rules.DTYPE_NAMES]
SIZES = (2, 3, 4, 5, 6)  # distinct sizes, so a dropped dim cannot be mistaken for another
MAX_RANK = 5


@dataclass(frozen=True)
class Case:
    expr: str  # a Python expression over the names declared by ``prelude``
    kind: str  # "reduce", "reduce_to", "binary"


def tensor_name(rank: int, dtype: str) -> str:
    return f"x{rank}_{dtype}"


def shape(rank: int) -> tuple[int, ...]:
    return SIZES[:rank]


def axis_spellings(rank: int, single: bool) -> list[object]:
    """Valid and invalid axis values for a rank (``...`` = omitted)."""
    out: list[object] = [..., None]
    out += list(range(-rank - 1, rank + 1))  # includes one out-of-range value on each side
    if not single:
        out.append(())
        for a, b in itertools.permutations(range(rank), 2):
            out.append((a, b - rank))  # mixed signs, any order
        if rank >= 1:
            out.append(tuple(range(rank)))
            out.append((0, -rank))  # an alias: the same dim twice
        if rank >= 3:
            out.append((2, 0, -2))
    return out


def _names_for(value: object) -> str:
    text = repr(value)
    return "".join(c if c.isalnum() else "_" for c in text).replace("-", "m")


def constant_name(value: object, final: bool) -> str:
    return ("F_" if final else "L_") + _names_for(value).replace("_", "u")


def spell(value: object, index: int, constants: dict[str, tuple[object, bool]]) -> str:
    """Spell an axis value directly, through a Final name or a Literal-typed variable."""
    style = index % 4
    if value is None or style in (0, 1) or (isinstance(value, tuple) and style == 3):
        return repr(value)
    final = style == 2 or isinstance(value, tuple)
    name = constant_name(value, final)
    constants[name] = (value, final)
    return name


def reduction_cases(constants: dict[str, tuple[object, bool]]) -> list[Case]:
    cases: list[Case] = []
    counter = itertools.count()
    for op, spec in rules.REDUCTIONS.items():
        for rank in range(MAX_RANK + 1):
            for axis in axis_spellings(rank, spec.single_axis):
                kd_options: list[object] = [..., False, True] if spec.keepdims else [...]
                for keepdims in kd_options:
                    i = next(counter)
                    dtype = DTYPES[i % len(DTYPES)]
                    cases.append(_call(op, rank, dtype, axis, keepdims, i, constants, spec.method))
    # every op with every dtype on a fixed rank/axis
    for op, spec in rules.REDUCTIONS.items():
        for dtype in DTYPES:
            i = next(counter)
            kd: object = True if spec.keepdims and i % 2 else ...
            cases.append(_call(op, 3, dtype, -1, kd, i, constants, spec.method))
    return cases


def _call(
    op: str,
    rank: int,
    dtype: str,
    axis: object,
    keepdims: object,
    i: int,
    constants: dict[str, tuple[object, bool]],
    method: bool = True,
) -> Case:
    x = tensor_name(rank, dtype)
    args = []
    if axis is not ...:
        args.append(f"axis={spell(axis, i, constants)}")
    if keepdims is not ...:
        args.append(f"keepdims={keepdims}")
    if i % 3 == 0 or not method:  # functional form (the only one of the nan* reductions)
        return Case(f"tt.{op}({', '.join([x, *args])})", "reduce")
    return Case(f"{x}.{op}({', '.join(args)})", "reduce")


def reduce_to_cases() -> list[Case]:
    cases = []
    for rank in range(MAX_RANK + 1):
        src = shape(rank)
        for mask in range(2**rank):
            target = tuple(1 if mask >> k & 1 else d for k, d in enumerate(src))
            for drop in sorted({0, min(1, rank), rank}):
                dtype = DTYPES[(mask + drop + rank) % len(DTYPES)]
                x = tensor_name(rank, dtype)
                op = ("sum", "mean", "max", "any", "prod")[mask % 5]
                cases.append(Case(f"{x}.reduce_to({target[drop:]!r}, {op!r})", "reduce_to"))
        for bad_op in ("argmax", "norm", "l2_normalize", "median"):
            cases.append(
                Case(f"{tensor_name(rank, 'int32')}.reduce_to({src!r}, {bad_op!r})", "reduce_to")
            )
        bad = tuple(d + 1 for d in src)
        if rank:
            cases.append(Case(f"{tensor_name(rank, 'float32')}.sum_to({bad!r})", "reduce_to"))
    return cases


def binary_cases() -> list[Case]:
    cases = []
    ops = ["+", "-", "*", "/", "**", "<"]
    for i, (a, b) in enumerate(itertools.product(DTYPES, DTYPES)):
        op = ops[i % len(ops)]
        cases.append(Case(f"{tensor_name(2, a)} {op} {tensor_name(2, b)}.max(0)", "binary"))
        if a == b:  # (2, 3) against (2,): cannot broadcast
            cases.append(Case(f"{tensor_name(2, a)} {op} {tensor_name(1, b)}", "binary"))
        cases.append(
            Case(f"{tensor_name(2, a)} {op} {tensor_name(2, b)}.max(-1, keepdims=True)", "binary")
        )
    for dtype in DTYPES:
        for scalar in ("2", "2.5", "True", "1.5j"):
            for op in ops:
                cases.append(Case(f"{tensor_name(2, dtype)} {op} {scalar}", "binary"))
                cases.append(Case(f"{scalar} {op} {tensor_name(1, dtype)}", "binary"))
    return cases


def scan_cases(constants: dict[str, tuple[object, bool]]) -> list[Case]:
    """cumsum/cumprod (methods and functions), nancumsum/nancumprod (functions only) and
    cumulative_sum/prod with include_initial and dtype=, over every axis spelling (one out of
    range on each side) up to rank 4."""
    cases = []
    counter = itertools.count()
    for op in rules.SCANS:
        cumulative = op.startswith("cumulative_")
        method = op in ("cumsum", "cumprod")  # numpy's ndarray has no nancumsum method
        for rank in range(5):
            axes: list[object] = [..., None, *range(-rank - 1, rank + 1)]
            for axis in axes:
                for extra in ("", ", dtype=tt.float32", ", include_initial=True"):
                    if extra.startswith(", include") and not cumulative:
                        continue
                    i = next(counter)
                    x = tensor_name(rank, DTYPES[i % len(DTYPES)])
                    args = "" if axis is ... else f"axis={spell(axis, i, constants)}"
                    args = (args + extra).lstrip(", ")
                    if i % 2 and method:
                        cases.append(Case(f"{x}.{op}({args})", "scan"))
                    else:
                        cases.append(Case(f"tt.{op}({', '.join(filter(None, [x, args]))})", "scan"))
    return cases


#: reductions taking ``dtype=`` and the classes the corpus names (accumulate in that dtype)
DTYPE_ARG_OPS = ("sum", "prod", "mean", "var", "std")
DTYPE_ARG_CLASSES = ("float64", "float32", "float16", "int64", "uint16", "complex128")


def dtype_argument_cases() -> list[Case]:
    """``dtype=tt.<class>`` on sum/prod/mean/var/std (methods and functions), every source
    dtype, ranks 0..3, axis None / 0 / -1 / out of range, keepdims both ways. Their own kind:
    the stubs answer them with the named class and an unknown shape (by design, see
    ``stubs/_render_reductions.dtype_overload``), so pyright's coverage of ``reduce`` leaves
    them out."""
    cases = []
    counter = itertools.count()
    for op in DTYPE_ARG_OPS:
        for src in DTYPES:
            for rank in range(4):
                for axis in (None, 0, -1, rank):
                    i = next(counter)
                    # an integer class for var/std: an error in the plugin and at run time
                    target = DTYPE_ARG_CLASSES[i % len(DTYPE_ARG_CLASSES)]
                    args = f"{axis}, {bool(i % 3 == 0)}, dtype=tt.{target}"
                    x = tensor_name(rank, src)
                    expr = f"{x}.{op}({args})" if i % 2 else f"tt.{op}({x}, {args})"
                    cases.append(Case(expr, "dtype_arg"))
    return cases


def corpus() -> tuple[list[Case], dict[str, tuple[object, bool]]]:
    constants: dict[str, tuple[object, bool]] = {}
    cases = reduction_cases(constants) + reduce_to_cases() + binary_cases()
    cases += dtype_argument_cases()
    cases += scan_cases(constants)
    return cases, constants


def prelude(constants: dict[str, tuple[object, bool]]) -> list[str]:
    lines = [
        "from typing import Final, Literal as L",
        "import typedtensor as tt",
        "from typedtensor import Tensor",
        "",
    ]
    for name, (value, final) in sorted(constants.items()):
        if final:
            lines.append(f"{name}: Final = {value!r}")
        else:
            lines.append(f"{name}: L[{value!r}] = {value!r}")
    for rank in range(MAX_RANK + 1):
        for dtype in DTYPES:
            dims = "".join(f", L[{d}]" for d in shape(rank))
            lines.append(
                f"{tensor_name(rank, dtype)}: Tensor[tt.{dtype}{dims}] = "
                f"tt.ones({shape(rank)!r}, tt.{dtype})"
            )
    return lines
