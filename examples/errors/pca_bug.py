"""pca.py with a bug: the projection multiplies the centered samples by the components as
``eigh`` and the slicing left them, one per row, instead of transposed: ``(N, 5) @ (2, 5)``
has inner dims 5 and 2. The samples are a symbolic dim; the features and components are
known. The fix is ``centered @ components.T``."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")


def principal_components(x: Tensor[tt.float64, N, L[5]]) -> Tensor[tt.float64, L[2], L[5]]:
    centered = x - x.mean(axis=0)
    _values, vectors = tt.linalg.eigh(tt.cov(centered, rowvar=False))
    return tt.flip(vectors[:, 3:], axis=1).T


def project(x: Tensor[tt.float64, N, L[5]]) -> None:
    components = principal_components(x)
    centered = x - x.mean(axis=0)
    projected = centered @ components  # expect: typedtensor-shape "matmul inner dims differ"
    print(projected.shape)
