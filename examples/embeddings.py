"""L2-normalized sentence embeddings and cosine similarity, in the three framework variants.

TensorFlow divides by ``max(sum x^2, eps)^0.5``, PyTorch by ``max((sum x^2)^0.5, eps)`` and
OpenVINO by ``(sum x^2 + eps)^0.5`` or ``max(sum x^2, eps)^0.5`` (oneDNN reduction RFC). They
agree on ordinary vectors and differ on vectors whose norm is near ``eps``.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import L2Variant, Tensor

B = TypeVar("B")
VARIANTS: tuple[L2Variant, ...] = ("tensorflow", "pytorch", "openvino-add", "openvino-max")


def cosine_similarity(
    a: Tensor[tt.float32, B, L[64]], b: Tensor[tt.float32, B, L[64]]
) -> Tensor[tt.float32, B]:
    """Row-wise cosine similarity of two batches of embeddings: (B, 64), (B, 64) -> (B,)."""
    an = a.l2_normalize(axis=-1)
    bn = b.l2_normalize(axis=-1)
    return (an * bn).sum(axis=-1)


def main() -> None:
    queries = tt.random((16, 64), tt.float32, seed=1)
    keys = queries * 0.5 + tt.random((16, 64), tt.float32, seed=2) * 0.1
    sims = cosine_similarity(queries, keys)
    q, k = queries.numpy(), keys.numpy()
    ref = (q * k).sum(-1) / (np.linalg.norm(q, axis=-1) * np.linalg.norm(k, axis=-1))
    np.testing.assert_allclose(sims.numpy(), ref, rtol=1e-5)
    assert sims.numpy().min() > 0.9  # keys are noisy copies of the queries
    print("cosine similarity", sims.shape, "min", round(float(sims.min()), 4))

    norms = queries.norm(2, axis=-1)
    unit = queries.l2_normalize(axis=-1, variant="pytorch")
    np.testing.assert_allclose(unit.norm(2, axis=-1).numpy(), np.ones(16), rtol=1e-5)
    print("norms", norms.shape, "unit norms ~ 1")

    tiny = tt.full((1, 64), 1e-8 / 8, dtype=tt.float64)  # ||tiny||_2 = 1e-8
    print("a vector of norm 1e-8, eps 1e-12, first component after normalizing:")
    for variant in VARIANTS:
        v = tiny.l2_normalize(axis=-1, eps=1e-12, variant=variant)
        print(f"  {variant:13s} {float(v.numpy()[0, 0]):.6g}")
    print("embeddings: ok")


if __name__ == "__main__":
    main()
