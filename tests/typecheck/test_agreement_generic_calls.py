"""Calls of generic functions declared with expression dims agree with a brute-force oracle.

Each function below declares its parameters and result with ``tt.Add/Sub/Mul/FloorDiv`` over
TypeVars (some only inside a polynomial: ``tt.Mul[B, B]``). Each call passes literal-shaped
tensors; mypy (plugin on) checks all calls in one module. The oracle enumerates every binding
of the function's TypeVars to sizes ``0..SIZES`` and evaluates the annotations (a
``FloorDiv`` must divide exactly, a dim must be >= 0):
- no binding makes the parameters' shapes equal the arguments' shapes, or the one that does
  makes the declared result no shape (``D // 4`` for ``D = 1``): mypy must report an error at
  the call;
- otherwise mypy must report none, and the revealed result's dims must be the literal sizes of
  the annotated result under that binding, which the run-time call (the body, run with numpy)
  must produce too.
"""

from __future__ import annotations

import itertools
import operator
import re
import typing
from pathlib import Path
from typing import Literal, get_args, get_origin

import pytest

import typedtensor as tt

from .conftest import assert_no_crash, run_mypy

DEFINITIONS = """
import math
from typing import Literal as L, TypeVar
import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
N = TypeVar("N", bound=int)
D = TypeVar("D", bound=int)

def pair(x: Tensor[tt.float32, B, tt.Mul[L[2], B]]) -> Tensor[tt.float32, tt.Mul[L[2], B]]:
    return x.sum(axis=0)

def heads(x: Tensor[tt.float32, D]) -> Tensor[tt.float32, L[4], tt.FloorDiv[D, L[4]]]:
    return x.reshape(4, -1)

def exact(
    x: Tensor[tt.float32, D, tt.FloorDiv[D, L[4]]],
) -> Tensor[tt.float32, tt.Mul[L[4], tt.FloorDiv[D, L[4]]]]:
    return x.reshape(-1)[: x.shape[0]]

def odd(x: Tensor[tt.float32, tt.Add[tt.Mul[L[2], D], L[1]]]) -> Tensor[tt.float32, D]:
    return x[1:].reshape(-1, 2)[:, 0]

def shorter(x: Tensor[tt.float32, D, tt.Sub[D, L[1]]]) -> Tensor[tt.float32, tt.Sub[D, L[1]]]:
    return x[0]

def grow(x: Tensor[tt.float32, B, N]) -> Tensor[tt.float32, tt.Add[B, N], L[1]]:
    return tt.concatenate([x.sum(axis=1), x.sum(axis=0)]).reshape(-1, 1)

def mix(
    a: Tensor[tt.float32, B, L[3]], b: Tensor[tt.float32, tt.Mul[L[2], B], L[3]]
) -> Tensor[tt.float32, tt.Mul[L[3], B], L[3]]:
    return tt.concatenate([a, b])

def square(x: Tensor[tt.float32, tt.Mul[B, B]]) -> Tensor[tt.float32, B, B]:
    n = math.isqrt(x.shape[0])
    return x.reshape(n, n)

def pronic(x: Tensor[tt.float32, tt.Mul[B, tt.Add[B, L[1]]]]) -> Tensor[tt.float32, B]:
    return x[: (math.isqrt(4 * x.shape[0] + 1) - 1) // 2]
"""

#: each TypeVar's sizes the oracle tries
SIZES = range(0, 40)
ONE = [(n,) for n in (0, 1, 2, 4, 6, 7, 8, 9, 12, 16)]
TWO = [(m, n) for m in (0, 1, 2, 3, 4, 8, 9) for n in (0, 1, 2, 3, 4, 6, 7)]
CALLS: list[tuple[str, tuple[tuple[int, ...], ...]]] = [
    *(("pair", (s,)) for s in TWO),
    *(("heads", (s,)) for s in ONE),
    *(("exact", (s,)) for s in TWO),
    *(("odd", (s,)) for s in ONE),
    *(("shorter", (s,)) for s in TWO),
    *(("grow", (s,)) for s in TWO[:20]),
    *(("mix", ((m, 3), (n, c))) for m in (0, 1, 2, 3) for n in (0, 2, 4, 5, 6) for c in (3, 4)),
    *(("square", (s,)) for s in [*ONE, (25,), (1024,), (1023,)]),
    *(("pronic", (s,)) for s in [*ONE, (20,), (30,), (31,)]),
]
_OPS = {"Add": operator.add, "Sub": operator.sub, "Mul": operator.mul}


def _value(dim: object, binding: dict[object, int]) -> int | None:
    """The size an annotation dim denotes under ``binding``; ``None`` where a ``FloorDiv``
    does not divide exactly."""
    if get_origin(dim) is Literal:
        return int(get_args(dim)[0])
    if isinstance(dim, typing.TypeVar):
        return binding[dim]
    name = get_origin(dim).__name__  # type: ignore[union-attr]
    left, right = (_value(a, binding) for a in get_args(dim))
    if left is None or right is None:
        return None
    if name == "FloorDiv":
        return left // right if right and left % right == 0 else None
    return _OPS[name](left, right)


def _shape(annotation: object, binding: dict[object, int]) -> tuple[int | None, ...]:
    return tuple(_value(d, binding) for d in get_args(annotation)[1:])


def _oracle(fn: typing.Any, shapes: tuple[tuple[int, ...], ...]) -> tuple[int, ...] | None:
    """The annotated result shape for the one binding that fits ``shapes``; ``None`` if none
    fits (two bindings that fit with different results would be a bug in the table)."""
    hints = typing.get_type_hints(fn, include_extras=True)
    params = [hints[p] for p in fn.__code__.co_varnames[: fn.__code__.co_argcount]]
    tvars = sorted({v for p in params for v in _typevars(p)}, key=lambda v: v.__name__)
    results = set()
    for sizes in itertools.product(SIZES, repeat=len(tvars)):
        binding = dict(zip(tvars, sizes, strict=True))
        declared = [_shape(p, binding) for p in params]
        if all(all(d is not None and d >= 0 for d in s) for s in declared) and declared == [
            tuple(s) for s in shapes
        ]:
            results.add(_shape(hints["return"], binding))
    assert len(results) <= 1, (fn.__name__, shapes, results)
    found = next(iter(results), None)
    if found is None or any(d is None or d < 0 for d in found):
        return None  # no binding fits, or the declared result is not a shape for it
    return found  # type: ignore[return-value]


def _typevars(annotation: object) -> set[typing.TypeVar]:
    if isinstance(annotation, typing.TypeVar):
        return {annotation}
    return {v for a in get_args(annotation) for v in _typevars(a)}


def _call_text(name: str, shapes: tuple[tuple[int, ...], ...]) -> str:
    return f"{name}(" + ", ".join(f"tt.zeros({s!r}, tt.float32)" for s in shapes) + ")"


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[tuple[str, str, str]]]:
    tmp: Path = tmp_path_factory.mktemp("generic_calls")
    lines = DEFINITIONS.splitlines()
    first = len(lines) + 1
    lines += [f"reveal_type({_call_text(n, s)})" for n, s in CALLS]
    (tmp / "calls_mod.py").write_text("\n".join(lines) + "\n")
    result = run_mypy(["--no-error-summary", "calls_mod.py"], tmp)
    assert_no_crash(result)
    out: dict[int, list[tuple[str, str, str]]] = {}
    for line, severity, message, code in result.messages("calls_mod.py"):
        assert line >= first, (line, message)  # the definitions themselves check clean
        out.setdefault(line - first, []).append((severity, message, code or ""))
    return out


@pytest.fixture(scope="module")
def functions() -> dict[str, typing.Any]:
    namespace: dict[str, typing.Any] = {}
    exec(DEFINITIONS, namespace)
    return namespace


@pytest.mark.parametrize("index", range(len(CALLS)), ids=[_call_text(*c) for c in CALLS])
def test_call_agrees_with_the_oracle(
    checked: dict[int, list[tuple[str, str, str]]], functions: dict[str, typing.Any], index: int
) -> None:
    name, shapes = CALLS[index]
    msgs = checked.get(index, [])
    errors = [m for m in msgs if m[0] == "error"]
    expected = _oracle(functions[name], shapes)
    if expected is None:
        assert errors, (name, shapes, msgs)
        return
    assert not errors, (name, shapes, msgs)
    (note,) = [m for s, m, _ in msgs if s == "note"]
    dims = re.findall(r"Literal\[(-?\d+)\]", note.split("float32, ", 1)[1])
    assert tuple(int(d) for d in dims) == expected, (name, shapes, note)
    assert note.count("Literal[") == len(expected), note  # every dim a literal
    result = functions[name](*(tt.zeros(s, tt.float32) for s in shapes))
    assert tuple(result.shape) == expected
