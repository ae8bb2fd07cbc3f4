"""Multi-head self-attention over a (batch, tokens, 16) activation, 4 heads of 4 features.

One fused projection makes queries, keys and values (``x @ wqkv``, then ``tt.split`` into
three); ``reshape`` with the batch and token dims taken from ``x.shape`` and ``permute_dims``
split the model dim into heads; ``q @ k.mT`` scores tokens per head; ``swapaxes`` and
``reshape`` merge the heads back. mypy (with the plugin) follows every shape, the symbolic
batch and token dims included: ``(B, T, 16) -> (B, 4, T, 4) -> (B, 4, T, T) -> (B, T, 16)``.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")


def split_heads(x: Tensor[tt.float32, B, T, L[16]]) -> Tensor[tt.float32, B, L[4], T, L[4]]:
    """(B, T, 16) -> (B, 4 heads, T, 4 features)."""
    per_head = x.reshape((x.shape[0], x.shape[1], 4, -1))  # (B, T, 4, 4)
    return tt.permute_dims(per_head, (0, 2, 1, 3))


def merge_heads(h: Tensor[tt.float32, B, L[4], T, L[4]]) -> Tensor[tt.float32, B, T, L[16]]:
    """(B, 4, T, 4) -> (B, T, 16): the inverse of ``split_heads``."""
    return tt.swapaxes(h, 1, 2).reshape((h.shape[0], h.shape[2], -1))


def multihead_attention(
    x: Tensor[tt.float32, B, T, L[16]],
    wqkv: Tensor[tt.float32, L[16], L[48]],
    wo: Tensor[tt.float32, L[16], L[16]],
) -> Tensor[tt.float32, B, T, L[16]]:
    """Self-attention with 4 heads (no mask): (B, T, 16) -> (B, T, 16)."""
    q, k, v = (split_heads(part) for part in tt.split(x @ wqkv, 3, axis=-1))
    scores = (q @ k.mT) * 0.5  # (B, 4, T, T); 0.5 = 1 / sqrt(head size 4)
    weights = tt.exp(scores - scores.logsumexp(axis=-1, keepdims=True))
    return merge_heads(weights @ v) @ wo


def main() -> None:
    x: Tensor[tt.float32, L[2], L[5], L[16]] = tt.random((2, 5, 16), tt.float32, seed=0)
    wqkv = tt.random((16, 48), tt.float32, seed=1) * 0.25
    wo = tt.random((16, 16), tt.float32, seed=2) * 0.25
    out = multihead_attention(x, wqkv, wo)
    np.testing.assert_array_equal(merge_heads(split_heads(x)).numpy(), x.numpy())

    a = x.numpy()
    q, k, v = np.split(a @ wqkv.numpy(), 3, axis=-1)
    heads = [np.moveaxis(t.reshape(2, 5, 4, 4), 2, 1) for t in (q, k, v)]
    s = heads[0] @ np.swapaxes(heads[1], -1, -2) * 0.5
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    merged = np.moveaxis(p @ heads[2], 1, 2).reshape(2, 5, 16)
    np.testing.assert_allclose(out.numpy(), merged @ wo.numpy(), rtol=1e-4, atol=1e-5)
    print("x", x.shape, "-> out", out.shape, out.dtype.__name__)
    print("heads", split_heads(x).shape, "merged back", merge_heads(split_heads(x)).shape)
    print("multihead_attention: ok")


if __name__ == "__main__":
    main()
