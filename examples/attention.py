"""Single-head causal self-attention over a (batch, tokens, features) activation.

``q @ k.mT`` scores every token against every other, a causal mask built with ``tt.where``
hides the future, a stable softmax turns the scores into weights. Every step is typed: mypy
(with the plugin) checks that the projections, the transposed keys and the mask line up.
"""

from __future__ import annotations

import math
from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def causal_mask(positions: Tensor[tt.int64, T]) -> Tensor[tt.bool_, T, T]:
    """``mask[i, j]`` is true where token ``i`` may attend to token ``j <= i``: (T,) -> (T, T)."""
    return positions[:, None] >= positions[None, :]


def softmax(scores: Tensor[tt.float32, B, T, T]) -> Tensor[tt.float32, B, T, T]:
    """Softmax over the last axis, stable for large scores: (B, T, T) -> (B, T, T)."""
    return tt.exp(scores - scores.logsumexp(axis=-1, keepdims=True))


def attention(
    x: Tensor[tt.float32, B, T, D],
    wq: Tensor[tt.float32, D, D],
    wk: Tensor[tt.float32, D, D],
    wv: Tensor[tt.float32, D, D],
    mask: Tensor[tt.bool_, T, T],
) -> tuple[Tensor[tt.float32, B, T, D], Tensor[tt.float32, B, T, T]]:
    """Causal self-attention: (B, T, D) -> (B, T, D), and the attention weights (B, T, T)."""
    q, k, v = x @ wq, x @ wk, x @ wv
    scores = (q @ k.mT) * (1.0 / math.sqrt(len(wq)))  # (B, T, T)
    weights = softmax(tt.where(mask, scores, -1e9))
    return weights @ v, weights


def main() -> None:
    x: Tensor[tt.float32, L[2], L[5], L[16]] = tt.random((2, 5, 16), tt.float32, seed=0)
    wq = tt.random((16, 16), tt.float32, seed=1) * 0.25
    wk = tt.random((16, 16), tt.float32, seed=2) * 0.25
    wv = tt.random((16, 16), tt.float32, seed=3) * 0.25
    mask = causal_mask(tt.arange(5))
    out, weights = attention(x, wq, wk, wv, mask)
    first_token = weights[:, 0]  # (2, 5): all its weight is on itself
    row_sums = weights.sum(axis=-1)

    a, q, k, v = x.numpy(), wq.numpy(), wk.numpy(), wv.numpy()
    s = (a @ q) @ (a @ k).transpose(0, 2, 1) / 4.0
    s = np.where(np.tril(np.ones((5, 5), bool)), s, -1e9)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), p @ (a @ v), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(row_sums.numpy(), np.ones((2, 5)), rtol=1e-5)
    np.testing.assert_allclose(first_token[:, 0].numpy(), np.ones(2), rtol=1e-6)
    print("x", x.shape, "-> out", out.shape, out.dtype.__name__)
    print("weights", weights.shape, "rows sum to 1; token 0 attends only to itself")
    print("attention: ok")


if __name__ == "__main__":
    main()
