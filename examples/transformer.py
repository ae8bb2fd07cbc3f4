"""A GPT-2-style transformer block and its logits, typed end to end with a symbolic batch ``B``
and sequence length ``T`` and a literal model dim 32 split into 4 heads.

Layer norm, a fused query/key/value projection split into three (``tt.split``), the model dim
split into heads (``reshape`` with ``-1``: the head size ``32 // 4`` is solved as 8) and merged
back, causal self-attention with a ``(T, T)`` mask built from ``tt.arange(x.shape[1])`` and a
``(B, T)`` padding mask, a GELU
MLP, residuals, and the logits over a 50-token vocabulary. mypy with the plugin follows every
shape: ``(B, T, 32) -> (B, 4, T, 8) -> (B, 4, T, T) -> (B, T, 32) -> (B, T, 50)``; numpy checks
the numbers in ``main``.
"""

from __future__ import annotations

from typing import Literal as L
from typing import NamedTuple, TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
T = TypeVar("T", bound=int)

F32 = tt.float32
Model = L[32]
Heads = L[4]
HeadSize = L[8]
Hidden = L[128]
Vocab = L[50]


class Block(NamedTuple):
    """The weights of one block."""

    ln1: Tensor[F32, Model]
    w_qkv: Tensor[F32, Model, L[96]]
    w_out: Tensor[F32, Model, Model]
    ln2: Tensor[F32, Model]
    w_up: Tensor[F32, Model, Hidden]
    w_down: Tensor[F32, Hidden, Model]


def layer_norm(x: Tensor[F32, B, T, Model], gain: Tensor[F32, Model]) -> Tensor[F32, B, T, Model]:
    """Normalise each token's features: (B, T, 32) -> (B, T, 32)."""
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / tt.sqrt(centred.var(axis=-1, keepdims=True) + 1e-5) * gain


def split_heads(x: Tensor[F32, B, T, Model]) -> Tensor[F32, B, Heads, T, HeadSize]:
    """(B, T, 32) -> (B, 4 heads, T, 8 features)."""
    b, t, _ = x.shape
    return x.reshape(b, t, 4, -1).transpose(0, 2, 1, 3)


def merge_heads(h: Tensor[F32, B, Heads, T, HeadSize]) -> Tensor[F32, B, T, Model]:
    """(B, 4, T, 8) -> (B, T, 32): the inverse of ``split_heads``."""
    b, _, t, _ = h.shape
    return h.transpose(0, 2, 1, 3).reshape(b, t, -1)


def causal_mask(x: Tensor[F32, B, T, Model]) -> Tensor[tt.bool_, T, T]:
    """``mask[i, j]``: token ``i`` may attend to token ``j`` (``j <= i``)."""
    position = tt.arange(x.shape[1])
    return position[:, None] >= position[None, :]


def softmax(s: Tensor[F32, B, Heads, T, T]) -> Tensor[F32, B, Heads, T, T]:
    """Softmax over the last dim (keys)."""
    e = tt.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(
    x: Tensor[F32, B, T, Model], keep: Tensor[tt.bool_, B, T], block: Block
) -> Tensor[F32, B, T, Model]:
    """Causal multi-head self-attention over the tokens ``keep`` marks (padding off):
    (B, T, 32) -> (B, T, 32)."""
    q, k, v = (split_heads(part) for part in tt.split(x @ block.w_qkv, 3, axis=-1))
    scores = (q @ k.mT) * 8**-0.5  # (B, 4, T, T), scaled by 1 / sqrt(head size)
    allowed = causal_mask(x) & keep[:, None, None, :]  # (B, 1, T, T): causal, keys kept
    masked = tt.where(allowed, scores, -1e9)
    return merge_heads(softmax(masked) @ v) @ block.w_out


def gelu(x: Tensor[F32, B, T, Hidden]) -> Tensor[F32, B, T, Hidden]:
    """The sigmoid approximation of GELU: ``x * sigmoid(1.702 x)``."""
    return x / (1.0 + tt.exp(x * -1.702))


def block_forward(
    x: Tensor[F32, B, T, Model], keep: Tensor[tt.bool_, B, T], block: Block
) -> Tensor[F32, B, T, Model]:
    """Pre-norm residual block: attention, then the MLP."""
    x = x + attention(layer_norm(x, block.ln1), keep, block)
    return x + gelu(layer_norm(x, block.ln2) @ block.w_up) @ block.w_down


def logits(
    x: Tensor[F32, B, T, Model],
    keep: Tensor[tt.bool_, B, T],
    block: Block,
    embedding: Tensor[F32, Vocab, Model],
) -> Tensor[F32, B, T, Vocab]:
    """One block, then scores over the vocabulary (tied embedding): (B, T, 32) -> (B, T, 50)."""
    return block_forward(x, keep, block) @ embedding.T


def _numpy_logits(x: np.ndarray, keep: np.ndarray, w: Block, emb: np.ndarray) -> np.ndarray:
    """The same computation in plain numpy (the oracle)."""

    def norm(a: np.ndarray, g: np.ndarray) -> np.ndarray:
        c = a - a.mean(-1, keepdims=True)
        normed: np.ndarray = c / np.sqrt(c.var(-1, keepdims=True) + 1e-5) * g
        return normed

    b, t, _ = x.shape
    h = norm(x, w.ln1.numpy())
    q, k, v = (
        p.reshape(b, t, 4, 8).transpose(0, 2, 1, 3) for p in np.split(h @ w.w_qkv.numpy(), 3, -1)
    )
    s = q @ k.swapaxes(-1, -2) / np.sqrt(8)
    s = np.where(np.tril(np.ones((t, t), bool)) & keep[:, None, None, :], s, -1e9)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    x = x + (p @ v).transpose(0, 2, 1, 3).reshape(b, t, 32) @ w.w_out.numpy()
    u = norm(x, w.ln2.numpy()) @ w.w_up.numpy()
    x = x + (u / (1 + np.exp(-1.702 * u))) @ w.w_down.numpy()
    out: np.ndarray = x @ emb.T
    return out


def main() -> None:
    def weights(shape: tuple[int, ...], seed: int) -> np.ndarray:
        return np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * 0.2

    block = Block(
        tt.ones((32,), F32),
        tt.tensor(weights((32, 96), 1), shape=(32, 96), dtype=F32),
        tt.tensor(weights((32, 32), 2), shape=(32, 32), dtype=F32),
        tt.ones((32,), F32),
        tt.tensor(weights((32, 128), 3), shape=(32, 128), dtype=F32),
        tt.tensor(weights((128, 32), 4), shape=(128, 32), dtype=F32),
    )
    embedding = tt.tensor(weights((50, 32), 5), shape=(50, 32), dtype=F32)
    x = tt.tensor(weights((2, 7, 32), 6), shape=(2, 7, 32), dtype=F32)
    keep = tt.tensor(np.arange(7) < np.array([[7], [5]]), shape=(2, 7), dtype=tt.bool_)
    out = logits(x, keep, block, embedding)
    expected = _numpy_logits(x.numpy(), keep.numpy(), block, embedding.numpy())
    np.testing.assert_allclose(out.numpy(), expected, rtol=2e-4, atol=2e-4)
    np.testing.assert_array_equal(merge_heads(split_heads(x)).numpy(), x.numpy())
    print("x", x.shape, "-> logits", out.shape, out.dtype.__name__)
    print("heads", split_heads(x).shape, "mask", causal_mask(x).shape)
    print("transformer: ok")


if __name__ == "__main__":
    main()
