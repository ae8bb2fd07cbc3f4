"""Rank-6 tensors: beyond the rank the generated stubs spell out, mypy's plugin still types them."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")


def volumes(x: Tensor[tt.float32, N, L[2], L[3], L[4], L[5], L[6]]) -> Tensor[tt.float32, N, L[6]]:
    summed = x.sum(axis=(1, 2, 3))
    moved = tt.permute_dims(summed, (0, 2, 1))
    flat = moved.reshape((x.shape[0], 6, 5))
    return flat.max(axis=-1)


def main() -> None:
    x = tt.ones((7, 2, 3, 4, 5, 6), tt.float32)
    y = x * 2.0 + 1.0
    z = tt.swapaxes(y, 0, 5)
    s = z.sum(axis=2, keepdims=True)
    v = volumes(x)
    w = tt.concatenate([x, y], axis=3)
    print(v.shape, s.shape, w.shape)
