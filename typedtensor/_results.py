"""The standard's named results (namedtuples of Tensors, as numpy's): ``eigh`` gives an
``EighResult`` whose ``eigenvalues`` and ``eigenvectors`` are also its items 0 and 1, so
``values, vectors = tt.linalg.eigh(x)`` and ``tt.linalg.eigh(x).eigenvalues`` both work.

Type checkers read ``_results.pyi`` (rendered from these classes by ``python -m
stubs.generate``): the same classes generic over their fields' types, so that the fields of
``tt.linalg.eigh(x)`` have the exact types of its items."""

from __future__ import annotations

from typing import NamedTuple

from ._tensor import AnyTensor

__all__ = [
    "EigResult",
    "EighResult",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "UniqueAllResult",
    "UniqueCountsResult",
    "UniqueInverseResult",
]


class EigResult(NamedTuple):
    """``eig`` of (..., n, n): eigenvalues (..., n), eigenvectors (..., n, n)."""

    eigenvalues: AnyTensor
    eigenvectors: AnyTensor


class EighResult(NamedTuple):
    """``eigh`` of (..., n, n): eigenvalues (..., n), eigenvectors (..., n, n)."""

    eigenvalues: AnyTensor
    eigenvectors: AnyTensor


class QRResult(NamedTuple):
    """``qr`` of (..., m, n): Q (..., m, k), R (..., k, n), k = min(m, n) (reduced)."""

    Q: AnyTensor
    R: AnyTensor


class SlogdetResult(NamedTuple):
    """``slogdet`` of (..., n, n): sign (...), logabsdet (...)."""

    sign: AnyTensor
    logabsdet: AnyTensor


class SVDResult(NamedTuple):
    """``svd`` of (..., m, n): U (..., m, k), S (..., k), Vh (..., k, n) (reduced)."""

    U: AnyTensor
    S: AnyTensor
    Vh: AnyTensor


class UniqueAllResult(NamedTuple):
    """``unique_all``: values, indices, counts (k,) and inverse_indices (x's shape)."""

    values: AnyTensor
    indices: AnyTensor
    inverse_indices: AnyTensor
    counts: AnyTensor


class UniqueCountsResult(NamedTuple):
    """``unique_counts``: values and counts, both (k,)."""

    values: AnyTensor
    counts: AnyTensor


class UniqueInverseResult(NamedTuple):
    """``unique_inverse``: values (k,) and inverse_indices (x's shape)."""

    values: AnyTensor
    inverse_indices: AnyTensor
