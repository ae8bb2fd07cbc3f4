"""Dim expressions in annotations: pyright and mypy (without the plugin) accept them as opaque
dims; the plugin reads them exactly (tests/typecheck/test_dims.yml)."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
D = TypeVar("D", bound=int)


def heads(
    x: Tensor[tt.float32, B, D],
) -> Tensor[tt.float32, B, L[8], tt.FloorDiv[D, L[8]]]:
    return x.reshape(x.shape[0], 8, -1)


def doubled(x: Tensor[tt.float32, tt.Mul[L[2], B], tt.Add[B, tt.Sub[D, L[1]]]]) -> int:
    n: int = x.shape[0]
    return n + 1


def joined(a: Tensor[tt.float32, B, L[3]]) -> Tensor[tt.float32, tt.Add[B, B], L[3]]:
    return tt.concatenate([a, a])


def floor_quarters(x: Tensor[tt.float32, tt.IntDiv[D, L[4]], B]) -> int:
    n: int = x.shape[0]
    return n
