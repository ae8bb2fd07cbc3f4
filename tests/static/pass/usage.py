"""Ordinary code type-checks without errors under the stubs (strict settings)."""

from typing import Any, Literal as L

from typing_extensions import Unpack

import typedtensor as tt
from typedtensor import Tensor


def normalize(x: Tensor[tt.float32, L[8], L[10]]) -> Tensor[tt.float32, L[8], L[10]]:
    return x.l2_normalize(-1)


def row_means(x: Tensor[tt.float32, L[8], L[10]]) -> Tensor[tt.float32, L[8]]:
    return x.mean(axis=1)


def column_counts(x: Tensor[tt.bool_, L[8], L[10]]) -> Tensor[tt.int64, L[10]]:
    return x.sum(0)


def keep(x: Tensor[tt.float64, L[8], L[10]]) -> Tensor[tt.float64, L[8], L[1]]:
    return x.max(-1, keepdims=True)


def main() -> None:
    x = tt.tensor(tt.random((8, 10), tt.float32, seed=0), shape=(8, 10), dtype=tt.float32)
    print(x.shape, x.sum().item(), tt.sum(x, axis=0).shape)
    print(row_means(tt.tensor(x.numpy(), (8, 10), tt.float32)).shape)


def unknown_shapes(x: tt.AnyTensor, y: Tensor[tt.float32, Unpack[tuple[Any, ...]]]) -> None:
    """Unknown-shape receivers never trigger the axis checks (the rank is not known)."""
    print(x.sum(0).shape, x.mean((0, 1)).shape, tt.sum(x, 0).shape, tt.max(x, 3).shape)
    print(y.sum(0).shape, y.argmax(5).shape, tt.mean(y, (0, 0)).shape)


def unknown_shapes_out(
    x: tt.AnyTensor, y: Tensor[tt.float32, Unpack[tuple[Any, ...]]], o: Tensor[tt.float32]
) -> None:
    """Nor with an ``out=`` buffer (mypy without the plugin binds the poison overloads of every
    rank to an unknown-shape receiver unless a guard answers first)."""
    print(x.sum(3, out=o).shape, y.sum(3, out=o).shape, y.var((0, 0), out=o).shape)
    print(tt.sum(x, 5, out=o).shape, tt.mean(y, -7, out=o).shape)


def unknown_shapes_functions(x: tt.AnyTensor) -> None:
    """The same for the functional API."""
    print(tt.sum(x, 3).shape, tt.prod(x, (0, 0)).shape, tt.argmin(x, -5).shape)
    print(tt.l2_normalize(x, 4).shape, tt.norm(x, 2, 3).shape)


def unbound_methods(x: Tensor[tt.float32, L[8], L[10]]) -> None:
    """A reduction called through the class type-checks (pyright reported the descriptor as not
    callable); pyright answers the unknown shape, mypy the exact one (with the plugin too)."""
    print(Tensor.sum(x, 1).shape, Tensor.argmax(x, axis=0).shape, Tensor.norm(x, 2, 1).shape)
    print(Tensor.var(x, 0, ddof=1).shape, Tensor.l2_normalize(x).shape)


class Rows(tt.Dim):
    """A named dim for the shape-entry arithmetic below."""


def shape_entries_are_numbers(x: Tensor[tt.float32, Rows, L[6]]) -> None:
    """``x.shape[0]`` of a marker dim is an int at run time; both checkers accept it as an
    operand (mypy with the plugin keeps the shape; see tests/typecheck/test_symbolic.yml)."""
    print((x / x.shape[0]).shape, (x.shape[0] * x).shape, (x.sum(axis=0) / len(x)).shape)
