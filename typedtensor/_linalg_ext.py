"""numpy's ``linalg`` functions and products on Tensors (``tt.linalg.inv``, ``tt.linalg.eigh``,
``tt.dot``...), numpy's semantics: batches of matrices in the leading dims, bool and integer
input computed in float64, float16 rejected (numpy's linalg has no float16), a non-square
operand a ``numpy.linalg.LinAlgError`` naming the dims. Results are Tensors (tuples of them for
the decompositions, in numpy's order)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from ._dtypes import DType
from ._results import EighResult, EigResult, QRResult, SlogdetResult, SVDResult
from ._rules import linalg_ext as rules_linalg
from ._rules.errors import RuleError
from ._tensor import AnyTensor, Tensor, wrap

__all__ = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "dot",
    "eig",
    "eigh",
    "eigvalsh",
    "inv",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]

Batch = TypeVarTuple("Batch")
N = TypeVar("N")
#: the operand's dtype, only to be read (a ``Tensor[Any, ...]`` parameter made mypy infer an
#: inline ``tt.ones((3, 3), tt.float32)`` argument as ``Tensor[Any, ...]`` before any hook)
In = TypeVar("In", bound=DType)


def _square(name: str, x: object) -> Any:
    """The ndarray of a stack of square matrices in the dtype numpy's linalg computes in."""
    data = _matrices(name, x)
    try:
        rules_linalg.square_batch(name, data.shape, lambda d: d)
    except rules_linalg.SquareMatrixError as err:
        raise np.linalg.LinAlgError(str(err)) from None
    return data


def _matrices(name: str, x: object) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.linalg.{name} takes a Tensor, got {type(x).__name__}")
    data = x._data
    try:
        rules_linalg.linalg_dtype(name, data.dtype.name)
    except rules_linalg.LinalgDTypeError as err:
        raise TypeError(str(err)) from None
    return data


def inv(x: Tensor[In, Unpack[Batch], N, N]) -> Tensor[Any, Unpack[Batch], N, N]:
    """The inverse of each square matrix: (8, 3, 3) -> (8, 3, 3); ints give float64. A
    singular matrix raises ``LinAlgError`` (numpy's)."""
    return wrap(np.linalg.inv(_square("inv", x)))


def det(x: Tensor[In, Unpack[Batch], N, N]) -> Tensor[Any, Unpack[Batch]]:
    """The determinant of each square matrix: (8, 3, 3) -> (8,); ints give float64."""
    return wrap(np.linalg.det(_square("det", x)))


def cholesky(
    x: Tensor[In, Unpack[Batch], N, N], *, upper: bool = False
) -> Tensor[Any, Unpack[Batch], N, N]:
    """The Cholesky factor (lower; ``upper=True``: upper) of each Hermitian positive-definite
    matrix: (8, 3, 3) -> (8, 3, 3). Not positive-definite: ``LinAlgError``."""
    return wrap(np.linalg.cholesky(_square("cholesky", x), upper=upper))


def eigh(
    x: Tensor[In, Unpack[Batch], N, N],
    UPLO: Literal["L", "U"] = "L",  # noqa: N803
) -> EighResult[Tensor[Any, Unpack[Batch], N], Tensor[Any, Unpack[Batch], N, N]]:
    """Eigenvalues (ascending, real) and eigenvectors (the columns) of each Hermitian matrix:
    (8, 3, 3) -> ((8, 3), (8, 3, 3)); float32 stays float32, complex64 values are float32."""
    result = np.linalg.eigh(_square("eigh", x), UPLO=UPLO)
    return EighResult(wrap(result.eigenvalues), wrap(result.eigenvectors))


def eig(
    x: Tensor[In, Unpack[Batch], N, N],
) -> EigResult[Tensor[Any, Unpack[Batch], N], Tensor[Any, Unpack[Batch], N, N]]:
    """Eigenvalues and right eigenvectors (the columns) of each square matrix: (3, 3) ->
    ((3,), (3, 3)); the dtype is real when every eigenvalue is real, else complex (numpy's
    choice, from the values: typed unknown for real input, complex for complex input)."""
    result = np.linalg.eig(_square("eig", x))
    return EigResult(wrap(result.eigenvalues), wrap(result.eigenvectors))


def solve(a: Tensor[Any, Unpack[tuple[Any, ...]]], b: object) -> AnyTensor:
    """The solution ``x`` of ``a @ x = b``: a (3, 3), b (3,) -> (3,); b (3, 2) -> (3, 2);
    batches broadcast as numpy 2 (b is a vector only when it is 1-D)."""
    da = _square("solve", a)
    db = b._data if isinstance(b, Tensor) else np.asarray(b)
    try:  # the shapes by the rule (a singular matrix stays numpy's LinAlgError)
        rules_linalg.solve_shape(da.shape, db.shape)
    except RuleError as err:
        raise ValueError(str(err)) from None
    return wrap(np.linalg.solve(da, db))


def svd(
    x: Tensor[Any, Unpack[tuple[Any, ...]]], full_matrices: bool = True, compute_uv: bool = True
) -> Any:
    """``U, S, Vh`` of each matrix: (8, 4, 3) -> (8, 4, 4), (8, 3), (8, 3, 3); with
    ``full_matrices=False``: (8, 4, 3), (8, 3), (8, 3, 3); ``compute_uv=False``: ``S`` alone.
    Ints give float64."""
    data = _matrices("svd", x)
    if data.ndim < 2:
        raise np.linalg.LinAlgError(f"svd needs rank >= 2, got rank {data.ndim}")
    if not compute_uv:
        return wrap(np.linalg.svd(data, full_matrices=full_matrices, compute_uv=False))
    result = np.linalg.svd(data, full_matrices=full_matrices)
    return SVDResult(wrap(result.U), wrap(result.S), wrap(result.Vh))


def qr(
    x: Tensor[Any, Unpack[tuple[Any, ...]]],
    mode: Literal["reduced", "complete", "r"] = "reduced",
) -> Any:
    """``Q, R`` of each matrix: (8, 4, 3) -> (8, 4, 3), (8, 3, 3) (``"complete"``: (8, 4, 4),
    (8, 4, 3); ``"r"``: ``R`` alone, (8, 3, 3)). Ints give float64."""
    data = _matrices("qr", x)
    if data.ndim < 2:
        raise np.linalg.LinAlgError(f"qr needs rank >= 2, got rank {data.ndim}")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    if mode == "r":
        return wrap(np.linalg.qr(data, mode="r"))
    result = np.linalg.qr(data, mode=mode)
    return QRResult(wrap(result.Q), wrap(result.R))


def _plain(x: object, name: str) -> Any:
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, (bool, int, float, complex, np.generic, np.ndarray)):
        return x
    raise TypeError(f"tt.{name} takes Tensors, ndarrays or scalars, got {type(x).__name__}")


def dot(a: object, b: object) -> AnyTensor:
    """numpy's ``dot``: (3,) . (3,) -> (); (2, 3) . (3, 4) -> (2, 4); for N-D, the sum over the
    last dim of ``a`` and the second-to-last of ``b``: (2, 3, 4) . (5, 4, 6) -> (2, 3, 5, 6)."""
    da, db = _plain(a, "dot"), _plain(b, "dot")
    try:
        return wrap(np.dot(da, db))
    except ValueError as err:
        raise ValueError(
            f"dot: shapes {np.shape(da)} and {np.shape(db)} are not aligned ({err})"
        ) from None


def outer(a: object, b: object) -> AnyTensor:
    """numpy's ``outer`` of the flattened operands: (2, 2), (3,) -> (4, 3)."""
    return wrap(np.outer(_plain(a, "outer"), _plain(b, "outer")))


# ------------------------------------------------------- the standard's linalg extension
def eigvalsh(x: Tensor[In, Unpack[Batch], N, N]) -> Tensor[Any, Unpack[Batch], N]:
    """The eigenvalues (ascending, real) of each Hermitian matrix: (8, 3, 3) -> (8, 3)."""
    return wrap(np.linalg.eigvalsh(_square("eigvalsh", x)))


def svdvals(x: Tensor[Any, Unpack[tuple[Any, ...]]]) -> AnyTensor:
    """The singular values (descending) of each matrix: (8, 4, 3) -> (8, 3)."""
    data = _matrices("svdvals", x)
    if data.ndim < 2:
        raise np.linalg.LinAlgError(f"svdvals needs rank >= 2, got rank {data.ndim}")
    return wrap(np.linalg.svdvals(data))


def slogdet(
    x: Tensor[In, Unpack[Batch], N, N],
) -> SlogdetResult[Tensor[Any, Unpack[Batch]], Tensor[Any, Unpack[Batch]]]:
    """The sign and the log of the absolute determinant of each matrix: (8, 3, 3) -> (8,), (8,)."""
    result = np.linalg.slogdet(_square("slogdet", x))
    return SlogdetResult(wrap(result.sign), wrap(result.logabsdet))


def pinv(x: Tensor[Any, Unpack[tuple[Any, ...]]], /, *, rtol: float | None = None) -> AnyTensor:
    """The Moore-Penrose pseudo-inverse of each matrix: (8, 4, 3) -> (8, 3, 4)."""
    data = _matrices("pinv", x)
    if data.ndim < 2:
        raise np.linalg.LinAlgError(f"pinv needs rank >= 2, got rank {data.ndim}")
    if rtol is None:
        return wrap(np.linalg.pinv(data))
    return wrap(np.linalg.pinv(data, rtol=rtol))


def matrix_power(x: Tensor[In, Unpack[Batch], N, N], n: int, /) -> Tensor[Any, Unpack[Batch], N, N]:
    """Each square matrix to the integer power ``n`` (negative: of the inverse): shape kept."""
    data = x._data if isinstance(x, Tensor) else None
    if data is None or data.ndim < 2 or data.shape[-1] != data.shape[-2]:
        _square("matrix_power", x)
    return wrap(np.linalg.matrix_power(x._data, n))


def matrix_rank(
    x: Tensor[Any, Unpack[tuple[Any, ...]]], /, *, rtol: float | None = None
) -> AnyTensor:
    """The rank of each matrix (int64): (8, 4, 3) -> (8,)."""
    data = _matrices("matrix_rank", x)
    if data.ndim < 2:
        raise np.linalg.LinAlgError(f"matrix_rank needs rank >= 2, got rank {data.ndim}")
    return wrap(np.asarray(np.linalg.matrix_rank(data, rtol=rtol)))


def matrix_norm(
    x: Tensor[Any, Unpack[tuple[Any, ...]]],
    /,
    *,
    keepdims: bool = False,
    ord: Any = "fro",  # noqa: A002
) -> AnyTensor:
    """The norm of each matrix (``"fro"``, ``"nuc"``, 1, 2, inf...): (8, 4, 3) -> (8,)."""
    data = _matrices("matrix_norm", x)
    if data.ndim < 2:
        raise np.linalg.LinAlgError(f"matrix_norm needs rank >= 2, got rank {data.ndim}")
    return wrap(np.asarray(np.linalg.matrix_norm(data, keepdims=keepdims, ord=ord)))


def vector_norm(
    x: Tensor[Any, Unpack[tuple[Any, ...]]],
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: float = 2,  # noqa: A002
) -> AnyTensor:
    """The ``ord``-norm of the vectors along ``axis`` (all elements for ``None``): (8, 3),
    axis=-1 -> (8,). Ints give float64."""
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.linalg.vector_norm takes a Tensor, got {type(x).__name__}")
    norm: Any = np.linalg.vector_norm  # numpy's stub leaves axis=None out
    return wrap(np.asarray(norm(x._data, axis=axis, keepdims=keepdims, ord=ord)))


def trace(
    x: Tensor[Any, Unpack[tuple[Any, ...]]], /, *, offset: int = 0, dtype: Any = None
) -> AnyTensor:
    """The sum of diagonal ``offset`` of each matrix: (8, 3, 3) -> (8,); ints sum in int64."""
    data = _matrices_any("trace", x)
    np_dtype = None if dtype is None else np.dtype(dtype)
    return wrap(np.asarray(np.linalg.trace(data, offset=offset, dtype=np_dtype)))


def diagonal(x: Tensor[Any, Unpack[tuple[Any, ...]]], /, *, offset: int = 0) -> AnyTensor:
    """Diagonal ``offset`` of each matrix: (8, 3, 4) -> (8, 3)."""
    return wrap(np.linalg.diagonal(_matrices_any("diagonal", x), offset=offset).copy())


def cross(x1: AnyTensor, x2: AnyTensor, /, *, axis: int = -1) -> AnyTensor:
    """The cross product of 3-vectors along ``axis`` (broadcast): (8, 3), (3,) -> (8, 3)."""
    return wrap(np.linalg.cross(_plain(x1, "cross"), _plain(x2, "cross"), axis=axis))


def vecdot(x1: AnyTensor, x2: AnyTensor, /, *, axis: int = -1) -> AnyTensor:
    """The dot product of vectors along ``axis`` (conjugating ``x1``), the rest broadcast:
    (8, 3), (3,) -> (8,)."""
    vecdot_ufunc: Any = np.vecdot  # numpy's stub has no axis= (the gufunc takes it)
    return wrap(np.asarray(vecdot_ufunc(_plain(x1, "vecdot"), _plain(x2, "vecdot"), axis=axis)))


def tensordot(x1: AnyTensor, x2: AnyTensor, /, *, axes: Any = 2) -> AnyTensor:
    """Sum products over the last ``axes`` dims of ``x1`` and the first of ``x2`` (or the
    listed pairs): (2, 3, 4), (3, 4, 5), axes=2 -> (2, 5)."""
    return wrap(
        np.asarray(np.tensordot(_plain(x1, "tensordot"), _plain(x2, "tensordot"), axes=axes))
    )


def _matrices_any(name: str, x: object) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.linalg.{name} takes a Tensor, got {type(x).__name__}")
    if x._data.ndim < 2:
        raise ValueError(f"{name} needs rank >= 2, got rank {x._data.ndim}")
    return x._data
