"""Receivers with an unpacked part (``*Rest``, ``*tuple[Any, ...]``) and rank 0, both checkers.

Each call gets the rank-polymorphic answer (axis=0 drops the first dim, axis=-1 the last) or
the unknown type ``Tensor[..., *tuple[Any, ...]]``; never a fixed-rank answer and never an axis
error. Pyright used to fit ``*Rest`` into one dim of a fixed-rank pattern (``x.sum(0)`` on
``Tensor[DT, B, *Rest]`` gave ``Tensor[DT, Union[*Rest]]``, ``x.sum(2)`` a false axis error):
these assertions fail if that comes back.
"""

from typing import Any, Literal as L, TypeVar

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
DT = TypeVar("DT", bound=tt.DType)
Rest = TypeVarTuple("Rest")
Unknown = Tensor[Any, Unpack[tuple[Any, ...]]]


def head_known(x: Tensor[tt.float32, B, Unpack[Rest]]) -> Tensor[tt.float32, Unpack[Rest]]:
    """``Tensor[DT, B, *Rest]``: axis 0 is B, every other axis is unknown."""
    assert_type(x.sum(0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.sum(0, keepdims=True), Tensor[tt.float32, L[1], Unpack[Rest]])
    assert_type(x.max(0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.var(0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.argmax(0), Tensor[tt.int64, Unpack[Rest]])
    assert_type(x.any(0), Tensor[tt.bool_, Unpack[Rest]])
    assert_type(x.norm(2, 0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.sum(()), Tensor[tt.float32, B, Unpack[Rest]])
    assert_type(x.sum(), Tensor[tt.float32])
    # axis 1 or 2 is in *Rest: unknown, and no axis error (x may have rank 3)
    assert_type(x.sum(1), Unknown)
    assert_type(x.sum(2), Unknown)
    assert_type(x.max(1), Unknown)
    assert_type(x.mean((0, 1)), Unknown)
    assert_type(tt.sum(x, 0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(tt.sum(x, 2), Unknown)
    assert_type(tt.sum(x, -1), Unknown)
    return x.mean(0)


def generic_dtype(x: Tensor[DT, B, Unpack[Rest]]) -> Tensor[DT, Unpack[Rest]]:
    """A dtype TypeVar is kept by ``max``/``min``."""
    assert_type(x.min(0), Tensor[DT, Unpack[Rest]])
    assert_type(x.max(2), Unknown)
    return x.max(0)


def tail_known(x: Tensor[tt.int16, Unpack[Rest], N]) -> Tensor[tt.float64, Unpack[Rest]]:
    """``Tensor[DT, *Rest, N]``: axis -1 is N."""
    assert_type(x.max(-1), Tensor[tt.int16, Unpack[Rest]])
    assert_type(x.sum(-1), Tensor[tt.int64, Unpack[Rest]])
    assert_type(x.sum(-1, keepdims=True), Tensor[tt.int64, Unpack[Rest], L[1]])
    assert_type(x.sum(-2), Unknown)
    assert_type(x.sum(1), Unknown)
    assert_type(tt.sum(x, -1), Tensor[tt.int64, Unpack[Rest]])
    assert_type(tt.sum(x, 0), Unknown)
    return x.mean(-1)


def both_known(x: Tensor[tt.float32, B, Unpack[Rest], N]) -> None:
    assert_type(x.sum(0), Tensor[tt.float32, Unpack[Rest], N])
    assert_type(x.sum(-1), Tensor[tt.float32, B, Unpack[Rest]])
    assert_type(x.max(-1, keepdims=True), Tensor[tt.float32, B, Unpack[Rest], L[1]])
    assert_type(x.sum(1), Unknown)
    assert_type(x.sum(-2), Unknown)
    assert_type(tt.sum(x, 1), Unknown)


def only_variadic(x: Tensor[tt.float32, Unpack[Rest]]) -> None:
    """``Tensor[DT, *Rest]``: any rank, even 0; only axis=None and () are known."""
    assert_type(x.sum(), Tensor[tt.float32])
    assert_type(x.sum(()), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.sum(0), Unknown)
    assert_type(x.sum(1), Unknown)
    assert_type(x.max(-1), Unknown)
    assert_type(tt.max(x, 1), Unknown)


def unknown_rank(x: Tensor[tt.float32, Unpack[tuple[Any, ...]]], a: tt.AnyTensor) -> None:
    """``Tensor[DT, *tuple[Any, ...]]``: the dtype is known, the shape is not."""
    assert_type(x.sum(), Tensor[tt.float32])
    assert_type(x.sum(0), Tensor[tt.float32, Unpack[tuple[Any, ...]]])
    assert_type(x.mean(-1), Tensor[tt.float32, Unpack[tuple[Any, ...]]])
    assert_type(a.sum(0), Unknown)
    assert_type(a.max(), Tensor[Any])


def rank0(x0: Tensor[tt.float32]) -> None:
    assert_type(x0.sum(keepdims=True), Tensor[tt.float32])
    assert_type(x0.sum(()), Tensor[tt.float32])
