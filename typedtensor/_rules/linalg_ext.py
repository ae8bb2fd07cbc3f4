"""Shapes and dtypes of numpy's ``linalg`` functions and of the matrix helpers (numpy 2):
``inv det eigh eig cholesky solve svd qr dot``, ``tril triu diag``, ``cov corrcoef``. Generic
over the dim item as every rule (``size_of`` gives a dim's size, ``None`` when not known; the
shape rules of ``svd qr solve dot`` take ``DimItems``' keyword arguments)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .broadcast import broadcast_shapes
from .dimitems import DimItems
from .dtypes import promote
from .errors import BroadcastError, RuleError, ShapeMismatchError, SymbolicBroadcastError

__all__ = [
    "EIG_DTYPE",
    "LinalgDTypeError",
    "SquareMatrixError",
    "dot_shape",
    "linalg_dtype",
    "qr_shapes",
    "solve_dtype",
    "solve_shape",
    "svd_shapes",
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


# -------------------------------------------------------------- svd qr solve dot: shapes
#: the static dtype of ``eig``'s results: numpy picks real or complex from the eigenvalues
#: (data-dependent), so no exact dtype is right for every input: the unknown dtype
EIG_DTYPE = None


def _matrix_dims(name: str, dims: Sequence[D]) -> tuple[D, D]:
    if len(dims) < 2:
        raise SquareMatrixError(
            f"{name} needs a stack of matrices (rank >= 2), got rank {len(dims)}; numpy raises "
            "LinAlgError (add a dim with x[None] or reshape)"
        )
    return dims[-2], dims[-1]


def svd_shapes(
    dims: Sequence[D], full_matrices: bool = True, compute_uv: bool = True, **items: object
) -> tuple[tuple[D, ...], ...]:
    """The shapes of ``svd(x, full_matrices, compute_uv)`` for ``x`` of ``(..., M, N)``, K =
    ``min(M, N)`` (``DimItems.minimum``: unknown where not provable): ``(U, S, Vh)`` =
    ``(..., M, M), (..., K), (..., N, N)``, or ``(..., M, K), (..., K), (..., K, N)`` without
    full matrices; ``(S,)`` alone without ``compute_uv``.

    >>> svd_shapes((8, 4, 3)), svd_shapes((4, 3), False), svd_shapes((4, 3), compute_uv=False)
    (((8, 4, 4), (8, 3), (8, 3, 3)), ((4, 3), (3,), (3, 3)), ((3,),))
    """
    m, n = _matrix_dims("svd", dims)
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    batch, k = tuple(dims[:-2]), it.minimum(m, n)
    s = (*batch, k)
    if not compute_uv:
        return (s,)
    if full_matrices:
        return (*batch, m, m), s, (*batch, n, n)
    return (*batch, m, k), s, (*batch, k, n)


QR_MODES = ("reduced", "complete", "r")


def qr_shapes(
    dims: Sequence[D], mode: str = "reduced", **items: object
) -> tuple[tuple[D, ...], ...]:
    """The shapes of ``qr(x, mode)`` for ``x`` of ``(..., M, N)``, K = ``min(M, N)``:
    ``"reduced"``: Q ``(..., M, K)``, R ``(..., K, N)``; ``"complete"``: ``(..., M, M)``,
    ``(..., M, N)``; ``"r"``: R ``(..., K, N)`` alone.

    >>> qr_shapes((4, 3)), qr_shapes((4, 3), "complete"), qr_shapes((4, 3), "r")
    (((4, 3), (3, 3)), ((4, 4), (4, 3)), ((3, 3),))
    """
    if mode not in QR_MODES:
        raise ShapeMismatchError(
            f"qr mode must be one of {', '.join(map(repr, QR_MODES))}, got {mode!r}"
        )
    m, n = _matrix_dims("qr", dims)
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    batch, k = tuple(dims[:-2]), it.minimum(m, n)
    if mode == "complete":
        return (*batch, m, m), (*batch, m, n)
    r = (*batch, k, n)
    return (r,) if mode == "r" else ((*batch, m, k), r)


def solve_shape(a: Sequence[D], b: Sequence[D], **items: object) -> tuple[D, ...]:
    """The shape of ``solve(a, b)`` (numpy 2): ``a`` is ``(..., M, M)``; ``b`` of rank 1 is one
    vector ``(M,)`` (result ``(..., M)``), else ``(..., M, K)`` with the batch dims broadcast
    (result ``(..., M, K)``). A non-square ``a`` raises ``SquareMatrixError``; ``b``'s ``M``
    differing from ``a``'s, or batch dims that do not broadcast, ``ShapeMismatchError``.

    >>> solve_shape((8, 3, 3), (3,)), solve_shape((3, 3), (8, 3, 2))
    ((8, 3), (8, 3, 2))
    """
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    batch_a = square_batch("solve", a, it.size_of)
    m = it.equal(a[-2], a[-1], lambda x, y: _not_square(x, y))
    if len(b) == 0:
        raise ShapeMismatchError(
            f"solve needs b of rank >= 1 (a vector (M,) or matrices (..., M, K)), got rank 0 "
            f"with a of shape {it.render(a)}"
        )
    where = f"solve: a of shape {it.render(a)} does not fit b of shape {it.render(b)}"
    row = b[0] if len(b) == 1 else b[-2]
    m = it.equal(
        m,
        row,
        lambda x, y: (
            f"{where}: a's matrices are {x} x {x} but b's rows are {y}; b must be "
            "(M,) or (..., M, K) with M = a's last dim"
        ),
    )
    if len(b) == 1:
        return (*batch_a, m)
    try:
        batch = broadcast_shapes(
            batch_a,
            tuple(b[:-2]),
            size_of=it.size_of,
            unknown=it.unknown,
            is_symbolic=it.is_symbolic,
            render=it.render,
            render_dim=it.render_dim,
        )
    except BroadcastError as err:
        raise ShapeMismatchError(
            f"{where}: the batch dims (all but the last two) do not broadcast ({err})",
            symbolic=isinstance(err, SymbolicBroadcastError),
        ) from None
    return (*batch, m, b[-1])


def _not_square(x: str, y: str) -> str:
    return (
        f"solve needs square matrices a: the last two dims are {x} and {y}; numpy raises "
        "LinAlgError (least squares: tt.linalg.pinv(a) @ b)"
    )


def solve_dtype(a: str, b: str) -> str:
    """``solve``'s result dtype: both operands in their linalg dtype, promoted (float32 with
    an int gives float64, as numpy's ``_commonType``).

    >>> solve_dtype("float32", "float32"), solve_dtype("float32", "int8")
    ('float32', 'float64')
    """
    return promote(linalg_dtype("solve", a), linalg_dtype("solve", b))


def dot_shape(a: Sequence[D], b: Sequence[D], **items: object) -> tuple[D, ...]:
    """The shape of numpy's ``dot(a, b)``: a rank-0 operand multiplies (the other's shape);
    ``(K,) . (K,)`` is ``()``; otherwise the sum over ``a``'s last dim and ``b``'s
    second-to-last (its only, for rank 1): ``a[:-1] + b[:-2] + b[-1:]``.

    >>> dot_shape((2, 3), (3, 4)), dot_shape((2, 3, 4), (5, 4, 6)), dot_shape((), (2, 3))
    ((2, 4), (2, 3, 5, 6), (2, 3))
    """
    if len(a) == 0 or len(b) == 0:
        return tuple(b if len(a) == 0 else a)
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    inner_b = b[0] if len(b) == 1 else b[-2]
    which = "only" if len(b) == 1 else "second-to-last"
    it.equal(
        a[-1],
        inner_b,
        lambda x, y: (
            f"dot: shapes {it.render(a)} and {it.render(b)} are not aligned: a's last dim is {x} "
            f"but b's {which} dim is {y}; they must be equal (transpose an operand?)"
        ),
    )
    return (*a[:-1], *b[:-2], *b[-1:]) if len(b) >= 2 else tuple(a[:-1])
