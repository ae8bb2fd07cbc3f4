"""Numerically stable softmax, log-softmax and cross-entropy via ``logsumexp``.

Logits of 1000 would overflow ``exp``; ``logsumexp`` subtracts the running max so they do not.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
K = TypeVar("K")


def log_softmax(logits: Tensor[tt.float64, B, K]) -> Tensor[tt.float64, B, K]:
    """log of the softmax over the last axis: (B, K) -> (B, K)."""
    return logits - logits.logsumexp(axis=-1, keepdims=True)


def softmax(logits: Tensor[tt.float64, B, K]) -> Tensor[tt.float64, B, K]:
    """Softmax over the last axis; each row sums to 1: (B, K) -> (B, K)."""
    return tt.exp(log_softmax(logits))


def main() -> None:
    logits: Tensor[tt.float64, L[4], L[10]] = tt.random((4, 10), tt.float64, seed=3) * 1000.0
    probs = softmax(logits)
    logp = log_softmax(logits)
    row_sums = probs.sum(axis=-1)
    predicted = probs.argmax(axis=-1)
    confidence = probs.max(axis=-1)

    np.testing.assert_allclose(row_sums.numpy(), np.ones(4), rtol=1e-12)
    assert np.isfinite(logp.numpy()).all()
    np.testing.assert_array_equal(predicted.numpy(), logits.numpy().argmax(-1))
    labels = np.array([0, 3, 5, 9])
    nll = -logp.numpy()[np.arange(4), labels].mean()
    print("logits", logits.shape, "scale 1000: exp would overflow")
    print("row sums", row_sums.numpy().round(12).tolist())
    print("predicted", predicted.numpy().tolist(), predicted.dtype.__name__)
    print("confidence", confidence.shape, "min", round(float(confidence.min()), 6))
    print("cross-entropy finite:", bool(np.isfinite(nll)))
    print("softmax: ok")


if __name__ == "__main__":
    main()
