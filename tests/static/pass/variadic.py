"""Rank-generic code over ``*Rest`` type-checks without errors (no false axis errors)."""

from typing import TypeVar

from typing_extensions import TypeVarTuple, Unpack

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
DT = TypeVar("DT", bound=tt.DType)
Rest = TypeVarTuple("Rest")


def pool_batch(x: Tensor[tt.float32, B, Unpack[Rest]]) -> Tensor[tt.float32, Unpack[Rest]]:
    return x.mean(0)


def peak(x: Tensor[DT, B, Unpack[Rest]]) -> Tensor[DT, Unpack[Rest]]:
    return x.max(0)


def last_sum(x: Tensor[tt.int32, Unpack[Rest], N]) -> Tensor[tt.int64, Unpack[Rest]]:
    return x.sum(-1)


def inner(x: Tensor[tt.float64, B, Unpack[Rest], N]) -> tt.AnyTensor:
    x.sum(2)  # axis 2 may exist (rank >= 3): no error
    return x.var(1, correction=1)
