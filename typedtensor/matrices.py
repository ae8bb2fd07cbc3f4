"""Matrix helpers (numpy's names and semantics): ``tril``, ``triu``, ``tri``, ``diag``, and the
statistics of rows of observations ``cov`` and ``corrcoef``."""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from ._creation import _np_dtype
from ._dtypes import DType, float64
from ._rules import linalg_ext as rules_linalg
from ._tensor import AnyTensor, Tensor, wrap

__all__ = ["corrcoef", "cov", "diag", "tri", "tril", "triu"]

DT = TypeVar("DT", bound=DType)
Shape = TypeVarTuple("Shape")
N = TypeVar("N")
M = TypeVar("M")


def _matrix_stack(x: object, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.{name} takes a Tensor, got {type(x).__name__}")
    data = x._data
    try:
        rules_linalg.tri_operand_check(name, data.ndim)
    except rules_linalg.SquareMatrixError as err:
        raise ValueError(str(err)) from None
    return data


def _k(k: object) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be an int, got {type(k).__name__} {k!r}")
    return int(k)


@overload
def tril(x: Tensor[DT, N], k: int = 0) -> Tensor[DT, N, N]: ...
@overload
def tril(x: Tensor[DT, Unpack[Shape], M, N], k: int = 0) -> Tensor[DT, Unpack[Shape], M, N]: ...
@overload
def tril(
    x: Tensor[DT, Unpack[tuple[Any, ...]]], k: int = 0
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
def tril(x: Any, k: int = 0) -> Any:
    """The lower triangle of each matrix (the last two dims), zeros above diagonal ``k``:
    (8, 3, 4) -> (8, 3, 4). A 1-D (n,) is numpy's broadcast to an (n, n) matrix first."""
    return wrap(np.tril(_matrix_stack(x, "tril"), _k(k)))


@overload
def triu(x: Tensor[DT, N], k: int = 0) -> Tensor[DT, N, N]: ...
@overload
def triu(x: Tensor[DT, Unpack[Shape], M, N], k: int = 0) -> Tensor[DT, Unpack[Shape], M, N]: ...
@overload
def triu(
    x: Tensor[DT, Unpack[tuple[Any, ...]]], k: int = 0
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
def triu(x: Any, k: int = 0) -> Any:
    """The upper triangle of each matrix (the last two dims), zeros below diagonal ``k``:
    (8, 3, 4) -> (8, 3, 4). A 1-D (n,) is numpy's broadcast to an (n, n) matrix first."""
    return wrap(np.triu(_matrix_stack(x, "triu"), _k(k)))


@overload
def tri(
    n: int, m: int | None = None, k: int = 0, dtype: None = None
) -> Tensor[float64, Any, Any]: ...
@overload
def tri(n: int, m: int | None = None, k: int = 0, *, dtype: type[DT]) -> Tensor[DT, Any, Any]: ...
def tri(n: int, m: int | None = None, k: int = 0, dtype: Any = None) -> Tensor[Any, Any, Any]:
    """Ones at and below diagonal ``k``, zeros above: ``tri(3)`` -> (3, 3) float64,
    ``tri(3, 4, dtype=tt.int8)`` -> (3, 4) int8."""
    for name, value in (("n", n), ("m", m if m is not None else 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"tri {name} must be an int >= 0, got {value!r}")
    return wrap(np.tri(n, m, _k(k), dtype=_np_dtype(dtype, float64)))


def diag(x: Tensor[DT, Unpack[tuple[Any, ...]]], k: int = 0) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
    """numpy's ``diag``: a 1-D (n,) gives the (n + |k|, n + |k|) matrix with it on diagonal
    ``k``; a 2-D (m, n) gives its diagonal ``k`` as 1-D. Other ranks raise a ValueError."""
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.diag takes a Tensor, got {type(x).__name__}")
    data = x._data
    if data.ndim not in (1, 2):
        raise ValueError(f"diag needs a 1-D or 2-D tensor, got rank {data.ndim}")
    return wrap(np.diag(data, _k(k)).copy())


def _observations(x: object, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.{name} takes a Tensor, got {type(x).__name__}")
    data = x._data
    if data.ndim not in (1, 2):
        raise ValueError(
            f"{name} needs a 1-D or 2-D tensor (variables x observations), got rank {data.ndim}"
        )
    return data


@overload
def cov(
    x: Tensor[Any, N, M], *, rowvar: Literal[True] = True, ddof: int | None = None
) -> Tensor[Any, N, N]: ...
@overload
def cov(
    x: Tensor[Any, N, M], *, rowvar: Literal[False], ddof: int | None = None
) -> Tensor[Any, M, M]: ...
@overload
def cov(
    x: Tensor[Any, Unpack[tuple[Any, ...]]], *, rowvar: bool = True, ddof: int | None = None
) -> AnyTensor: ...
def cov(x: Any, *, rowvar: bool = True, ddof: int | None = None) -> AnyTensor:
    """The covariance matrix of the variables: (n variables, m observations) -> (n, n) with
    ``rowvar=True`` (numpy's default), (m, n) -> (n, n) with ``rowvar=False``; float64 (complex128
    for complex input); a 1-D tensor is one variable: () result."""
    data = _observations(x, "cov")
    return wrap(np.asarray(np.cov(data, rowvar=rowvar, ddof=ddof)))


@overload
def corrcoef(x: Tensor[Any, N, M], *, rowvar: Literal[True] = True) -> Tensor[Any, N, N]: ...
@overload
def corrcoef(x: Tensor[Any, N, M], *, rowvar: Literal[False]) -> Tensor[Any, M, M]: ...
@overload
def corrcoef(x: Tensor[Any, Unpack[tuple[Any, ...]]], *, rowvar: bool = True) -> AnyTensor: ...
def corrcoef(x: Any, *, rowvar: bool = True) -> AnyTensor:
    """The correlation coefficients of the variables: (n, m) -> (n, n) (``rowvar=False``: (m,
    n) -> (n, n)); float64. A variable of zero variance gives NaN and numpy's RuntimeWarning."""
    data = _observations(x, "corrcoef")
    return wrap(np.asarray(np.corrcoef(data, rowvar=rowvar)))
