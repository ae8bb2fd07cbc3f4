"""A transformer block on a (batch, tokens, 16) activation: layer norm, 4-head attention, MLP."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")


def layer_norm(x: Tensor[tt.float32, B, T, L[16]]) -> Tensor[tt.float32, B, T, L[16]]:
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / tt.sqrt(var + 1e-5)


def attention(
    x: Tensor[tt.float32, B, T, L[16]],
    wqkv: Tensor[tt.float32, L[16], L[48]],
    wo: Tensor[tt.float32, L[16], L[16]],
) -> Tensor[tt.float32, B, T, L[16]]:
    qkv = x @ wqkv
    q, k, v = tt.split(qkv, 3, axis=-1)
    qh = tt.permute_dims(q.reshape((x.shape[0], x.shape[1], 4, 4)), (0, 2, 1, 3))
    kh = tt.permute_dims(k.reshape((x.shape[0], x.shape[1], 4, 4)), (0, 2, 1, 3))
    vh = tt.permute_dims(v.reshape((x.shape[0], x.shape[1], 4, 4)), (0, 2, 1, 3))
    scores = (qh @ kh.mT) * 0.5
    weights = tt.exp(scores - scores.logsumexp(axis=-1, keepdims=True))
    heads = weights @ vh
    merged = tt.swapaxes(heads, 1, 2).reshape((x.shape[0], x.shape[1], 16))
    return merged @ wo


def mlp(
    x: Tensor[tt.float32, B, T, L[16]],
    w1: Tensor[tt.float32, L[16], L[64]],
    w2: Tensor[tt.float32, L[64], L[16]],
) -> Tensor[tt.float32, B, T, L[16]]:
    hidden = tt.maximum(x @ w1, 0.0)
    out = hidden @ w2
    return out


def block(x: Tensor[tt.float32, B, T, L[16]]) -> Tensor[tt.float32, B, T, L[16]]:
    wqkv = tt.random((16, 48), tt.float32, seed=1)
    wo = tt.random((16, 16), tt.float32, seed=2)
    w1 = tt.random((16, 64), tt.float32, seed=3)
    w2 = tt.random((64, 16), tt.float32, seed=4)
    h = x + attention(layer_norm(x), wqkv, wo)
    y = h + mlp(layer_norm(h), w1, w2)
    return y


def main() -> None:
    x = tt.random((2, 5, 16), tt.float32, seed=0)
    y = block(x)
    pooled = y.mean(axis=1)
    logits = pooled @ tt.random((16, 10), tt.float32, seed=5)
    best = logits.argmax(axis=-1)
    print(best.shape)
