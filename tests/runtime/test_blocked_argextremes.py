"""argmax/argmin over an outer axis in blocks (``_backend/blocked_argextremes.py``): numpy's
indices exactly, for the plans a program's first run serves while their kernels compile."""

from __future__ import annotations

import doctest
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from typedtensor._backend import _background_compile, _routing, blocked_argextremes
from typedtensor._backend.blocked_argextremes import BLOCK_ROWS, blocked_arg_runner

Array = npt.NDArray[Any]

_SHAPES = [((5000, 40), 0), ((3, 3000, 20), 1), ((2100, 17), 0), ((3000, 2, 9), 0)]
_KINDS = ["random", "ties", "nan", "signed zeros", "infinities"]


def _data(shape: tuple[int, ...], dtype: str, kind: str) -> Array:
    rng = np.random.default_rng(len(shape) * 100 + _KINDS.index(kind))
    if dtype == "bool":
        return rng.random(shape) > 0.7
    a = (rng.standard_normal(shape) * 3).astype(dtype)
    if kind == "ties":
        a = np.round(a / 3).astype(dtype)  # many equal maxima: the first one wins
    elif kind == "nan" and a.dtype.kind == "f":
        a.flat[rng.integers(0, a.size, 30)] = np.nan  # the first NaN wins
    elif kind == "signed zeros" and a.dtype.kind == "f":
        a[...] = 0.0
        a.flat[rng.integers(0, a.size, 300)] = -0.0
    elif kind == "infinities" and a.dtype.kind == "f":
        a.flat[rng.integers(0, a.size, 30)] = np.inf
        a.flat[rng.integers(0, a.size, 30)] = -np.inf
    return a


@pytest.mark.parametrize(("shape", "axis"), _SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool"])
@pytest.mark.parametrize("kind", _KINDS)
def test_numpys_indices(shape: tuple[int, ...], axis: int, dtype: str, kind: str) -> None:
    a = _data(shape, dtype, kind)
    for op in ("argmax", "argmin"):
        for keepdims in (False, True):
            run = blocked_arg_runner(op, (axis,), shape, keepdims, a.dtype)
            assert run is not None
            got, want = run(a, {}), getattr(a, op)(axis, keepdims=keepdims)
            assert got.dtype == np.int64
            assert got.shape == want.shape
            assert np.array_equal(got, want), (op, keepdims)


def test_a_maximum_in_a_later_block_and_a_tie_across_blocks() -> None:
    a = np.zeros((3 * BLOCK_ROWS, 16), np.float32)
    a[BLOCK_ROWS + 5, 0] = 2.0  # the second block's maximum
    a[[7, 2 * BLOCK_ROWS + 1], 1] = 1.0  # a tie: the first block's index stays
    a[2 * BLOCK_ROWS + 3, 2] = np.nan  # a NaN in the last block beats every number
    a[[9, BLOCK_ROWS + 9], 3] = np.nan  # the first NaN stays
    run = blocked_arg_runner("argmax", (0,), a.shape, False, a.dtype)
    assert run is not None
    assert run(a, {})[:4].tolist() == [BLOCK_ROWS + 5, 7, 2 * BLOCK_ROWS + 3, 9]
    assert np.array_equal(run(a, {}), a.argmax(0))


@pytest.mark.parametrize(
    ("op", "axes", "shape", "dtype"),
    [
        ("argmax", (1,), (5000, 40), "float32"),  # the last axis: numpy's loop reads rows
        ("argmax", (0, 1), (5000, 40), "float32"),  # every axis
        ("argmax", (0,), (BLOCK_ROWS, 40), "float32"),  # one block
        ("argmax", (0,), (5000, 8), "float32"),  # too narrow to pay
        ("argmax", (0,), (5000, 40), "complex64"),  # numpy orders complex lexicographically
        ("max", (0,), (5000, 40), "float32"),
    ],
)
def test_numpys_own_loop_elsewhere(
    op: str, axes: tuple[int, ...], shape: tuple[int, ...], dtype: str
) -> None:
    assert blocked_arg_runner(op, axes, shape, False, np.dtype(dtype)) is None


def test_a_first_run_serves_argmax_of_columns_in_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the helper compiles its kernels, the plan of an argmax over columns runs the
    blocked argmax (numpy's own loop transposes the whole input)."""
    for name in ("TYPEDTENSOR_NUMBA_PARALLEL", "TYPEDTENSOR_NUMBA_CACHE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_BACKGROUND", "1")
    stand_ins: list[Any] = []

    def capture(kernel_run: Any, numpy_run: Any, job: Any, *rest: Any) -> Any:
        stand_ins.append(numpy_run)
        return kernel_run

    monkeypatch.setattr(_background_compile, "serve_while_compiling", capture)
    dt = np.dtype(np.float32)
    for axis in (0, 1):
        shape, strides = (1 << 14, 256), (256 * dt.itemsize, dt.itemsize)
        _routing.runner("numba", "argmax", shape, strides, 4, (axis,), False, np.dtype("int64"), dt)
    assert len(stand_ins) == 2
    columns, rows = stand_ins
    assert columns.__module__ == blocked_argextremes.__name__
    assert rows.__module__ != blocked_argextremes.__name__
    a = np.random.default_rng(0).standard_normal((1 << 14, 256)).astype(np.float32)
    assert np.array_equal(columns(a, {}), a.argmax(0))


def test_the_docstring_example() -> None:
    assert doctest.testmod(blocked_argextremes, report=False).failed == 0
