"""Symbolic dims (TypeVars, ``tt.Dim`` markers) and variadic shapes (the polymorphic forms)."""

from typing import Literal as L, TypeVar

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")


class Batch(tt.Dim): ...


def fixed_rank(x: Tensor[tt.float32, B, L[3]], y: Tensor[tt.int8, Batch, N, L[4]]) -> None:
    assert_type(x.sum(1), Tensor[tt.float32, B])
    assert_type(x.mean(0, keepdims=True), Tensor[tt.float32, L[1], L[3]])
    assert_type(y.max((0, 2)), Tensor[tt.int8, N])
    assert_type(y.sum(-2), Tensor[tt.int64, Batch, L[4]])
