"""A 2-layer MLP classifier: ReLU hidden layer, log-softmax cross-entropy, accuracy by argmax.

Typed end to end: the weights' shapes, the one-hot targets built by broadcasting a comparison,
and the per-class scores picked by indexing are all checked by mypy with the plugin.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
IN = L[20]
HIDDEN = L[32]
K = L[10]


def mlp(
    x: Tensor[tt.float32, B, IN],
    w1: Tensor[tt.float32, IN, HIDDEN],
    b1: Tensor[tt.float32, HIDDEN],
    w2: Tensor[tt.float32, HIDDEN, K],
    b2: Tensor[tt.float32, K],
) -> Tensor[tt.float32, B, K]:
    """Logits of a 2-layer MLP: (B, 20) -> (B, 32) -> (B, 10)."""
    hidden = tt.maximum(x @ w1 + b1, 0.0)
    return hidden @ w2 + b2


def cross_entropy(logits: Tensor[tt.float32, B, K], labels: Tensor[tt.int64, B]) -> float:
    """Mean negative log-likelihood of the labels under softmax(logits)."""
    log_probs = logits - logits.logsumexp(axis=-1, keepdims=True)
    one_hot = (tt.arange(10)[None, :] == labels[:, None]).astype(tt.float32)  # (B, 10)
    return -float((log_probs * one_hot).sum(axis=-1).mean())


def accuracy(logits: Tensor[tt.float32, B, K], labels: Tensor[tt.int64, B]) -> float:
    """Fraction of rows whose highest logit is the label."""
    return float((logits.argmax(axis=-1) == labels).astype(tt.float64).mean())


def main() -> None:
    x = tt.random((64, 20), tt.float32, seed=0)
    w1 = tt.random((20, 32), tt.float32, seed=1) * 0.3
    b1 = tt.zeros((32,), tt.float32)
    w2 = tt.random((32, 10), tt.float32, seed=2) * 0.3
    b2 = tt.zeros((10,), tt.float32)
    labels = x[:, :10].argmax(axis=-1)  # (64,) int64: the class is the largest of 10 features
    logits = mlp(x, w1, b1, w2, b2)
    loss = cross_entropy(logits, labels)
    acc = accuracy(logits, labels)
    first_scores = logits[0]  # (10,)
    last_class = logits[:, -1]  # (64,)

    a = x.numpy()
    h = np.maximum(a @ w1.numpy(), 0)
    ref = h @ w2.numpy()
    np.testing.assert_allclose(logits.numpy(), ref, rtol=1e-4, atol=1e-5)
    logp = ref - np.log(np.exp(ref - ref.max(-1, keepdims=True)).sum(-1, keepdims=True))
    logp -= ref.max(-1, keepdims=True)
    ref_loss = -logp[np.arange(64), labels.numpy()].mean()
    np.testing.assert_allclose(loss, ref_loss, rtol=1e-4)
    assert acc == (ref.argmax(-1) == labels.numpy()).mean()
    print("logits", logits.shape, logits.dtype.__name__, "first row", first_scores.shape)
    print("last class scores", last_class.shape)
    print(f"cross-entropy {loss:.4f}, accuracy {acc:.3f}")
    print("mlp: ok")


if __name__ == "__main__":
    main()
