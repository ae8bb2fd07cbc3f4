"""Principal component analysis: center the samples, covariance of the features, ``eigh``,
project onto the top two components. Every intermediate keeps its shape and dtype in the type:
the samples are a symbolic dim ``N``, the features 5, the components 2."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")
F = L[5]  # features
K = L[2]  # principal components kept


def principal_components(x: Tensor[tt.float64, N, F]) -> Tensor[tt.float64, K, F]:
    """The top ``K`` eigenvectors of the feature covariance, one per row: (N, 5) -> (2, 5)."""
    centered = x - x.mean(axis=0)
    covariance = tt.cov(centered, rowvar=False)  # (5, 5) float64
    vectors = tt.linalg.eigh(covariance).eigenvectors  # (5, 5), the columns, ascending values
    top = tt.flip(vectors[:, 3:], axis=1)  # (5, 2): the two largest, largest first
    return top.T


def project(
    x: Tensor[tt.float64, N, F], components: Tensor[tt.float64, K, F]
) -> Tensor[tt.float64, N, K]:
    """The centered samples in the components' coordinates: (N, 5), (2, 5) -> (N, 2)."""
    centered = x - x.mean(axis=0)
    return centered @ components.T


def main() -> None:
    rng = np.random.default_rng(0)
    latent = rng.standard_normal((200, 2)) * np.array([3.0, 1.0])
    mixing = rng.standard_normal((2, 5))
    samples = latent @ mixing + 0.05 * rng.standard_normal((200, 5))
    x = tt.tensor(samples, shape=(200, 5), dtype=tt.float64)

    components = principal_components(x)
    projected = project(x, components)

    centered = samples - samples.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(centered, rowvar=False))
    reference = centered @ vectors[:, ::-1][:, :2]
    np.testing.assert_allclose(np.abs(projected.numpy()), np.abs(reference), atol=1e-9)
    explained = values[::-1][:2].sum() / values.sum()
    assert explained > 0.99, explained  # two latent factors: two components explain it
    print("samples", x.shape, "components", components.shape, "projected", projected.shape)
    print(f"variance explained by 2 of 5 components: {explained:.4f}")
    print("pca: ok")


if __name__ == "__main__":
    main()
