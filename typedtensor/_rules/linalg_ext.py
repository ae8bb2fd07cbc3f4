"""Shapes and dtypes of numpy's ``linalg`` functions and of the matrix helpers (numpy 2):
``inv det eigh eig cholesky solve svd qr``, ``tril triu diag``, ``cov corrcoef``. Generic over
the dim item as every rule (``size_of`` gives a dim's size, ``None`` when not known)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .errors import RuleError

__all__ = [
    "LinalgDTypeError",
    "SquareMatrixError",
    "linalg_dtype",
    "square_batch",
    "stat_dtype",
    "tri_operand_check",
]

D = TypeVar("D")
SizeOf = Callable[[D], "int | None"]
_INEXACT = ("float32", "float64", "complex64", "complex128")


class LinalgDTypeError(RuleError):
    """A dtype numpy's linalg rejects (float16)."""


class SquareMatrixError(RuleError):
    """An operand that is not a (stack of) square matrices, or of too low a rank."""


def linalg_dtype(name: str, dtype: str) -> str:
    """The dtype numpy's linalg computes ``dtype`` in (and returns): float32/64 and complex
    kept, bool and ints float64, float16 an error (numpy: "array type float16 is unsupported").

    >>> linalg_dtype("inv", "int8"), linalg_dtype("inv", "float32")
    ('float64', 'float32')
    """
    if dtype == "float16":
        raise LinalgDTypeError(
            f"{name} does not take float16 (numpy's linalg has no float16 loops); "
            "convert with astype(tt.float32)"
        )
    return dtype if dtype in _INEXACT else "float64"


def real_of(dtype: str) -> str:
    """The real dtype of ``dtype`` (eigenvalues of ``eigh``, singular values)."""
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def stat_dtype(dtype: str) -> str:
    """``cov``/``corrcoef``: numpy computes in at least float64 (float32 gives float64),
    complex128 for complex."""
    return "complex128" if dtype.startswith("complex") else "float64"


def square_batch(name: str, dims: Sequence[D], size_of: SizeOf[D]) -> tuple[D, ...]:
    """The batch dims of a stack of square matrices ``(*batch, n, n)``; raises where the rank
    is below 2 or the last two sizes are known and differ.

    >>> square_batch("inv", (8, 3, 3), lambda d: d)
    (8,)
    """
    if len(dims) < 2:
        raise SquareMatrixError(
            f"{name} needs a stack of square matrices (rank >= 2), got rank {len(dims)}"
        )
    m, n = size_of(dims[-2]), size_of(dims[-1])
    if m is not None and n is not None and m != n:
        raise SquareMatrixError(
            f"{name} needs square matrices: the last two dims are {m} and {n}; numpy raises "
            "LinAlgError (use tt.linalg.pinv-style least squares or slice a square block)"
        )
    return tuple(dims[:-2])


def tri_operand_check(name: str, ndim: int) -> None:
    """``tril``/``triu``: numpy takes rank >= 1 (a rank-1 operand is broadcast to a square
    matrix); a rank-0 operand is an error."""
    if ndim < 1:
        raise SquareMatrixError(f"{name} needs a tensor of rank >= 1, got rank 0")
