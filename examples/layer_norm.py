"""Layer normalization of a (batch, tokens, features) activation over the feature axis."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = L[64]


def layer_norm(
    x: Tensor[tt.float32, B, T, D],
    gamma: Tensor[tt.float32, D],
    beta: Tensor[tt.float32, D],
    eps: float = 1e-5,
) -> Tensor[tt.float32, B, T, D]:
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis; shape kept."""
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / tt.sqrt(var + eps) * gamma + beta


def main() -> None:
    x = tt.random((2, 5, 64), tt.float32, seed=4) * 3.0 + 1.0
    gamma = tt.ones((64,), tt.float32) * 2.0
    beta = tt.zeros((64,), tt.float32) + 0.5
    y = layer_norm(x, gamma, beta)

    a = x.numpy()
    ref = (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5) * 2 + 0.5
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-4, atol=1e-5)
    per_token_mean = y.mean(axis=-1)
    per_token_std = y.std(axis=-1)
    np.testing.assert_allclose(per_token_mean.numpy(), 0.5, atol=1e-4)
    np.testing.assert_allclose(per_token_std.numpy(), 2.0, rtol=1e-3)
    print("input", x.shape, "output", y.shape, y.dtype.__name__)
    print("per-token mean", per_token_mean.shape, "~ 0.5 (beta), std ~ 2.0 (gamma)")
    print("layer_norm: ok")


if __name__ == "__main__":
    main()
