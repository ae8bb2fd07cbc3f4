"""Symbolic dims (TypeVars, ``tt.Dim`` markers) and variadic shapes (the polymorphic forms)."""

from typing import Literal as L, TypeVar

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
Rest = TypeVarTuple("Rest")


class Batch(tt.Dim): ...


def fixed_rank(x: Tensor[tt.float32, B, L[3]], y: Tensor[tt.int8, Batch, N, L[4]]) -> None:
    assert_type(x.sum(1), Tensor[tt.float32, B])
    assert_type(x.mean(0, keepdims=True), Tensor[tt.float32, L[1], L[3]])
    assert_type(y.max((0, 2)), Tensor[tt.int8, N])
    assert_type(y.sum(-2), Tensor[tt.int64, Batch, L[4]])


def variadic_functions(
    x: Tensor[tt.float32, B, Unpack[Rest]], y: Tensor[tt.int16, Unpack[Rest], N]
) -> Tensor[tt.float32, Unpack[Rest]]:
    """Variadic receivers through the function form: the rank-polymorphic overloads."""
    assert_type(tt.sum(x, 0, keepdims=True), Tensor[tt.float32, L[1], Unpack[Rest]])
    assert_type(tt.max(y, -1), Tensor[tt.int16, Unpack[Rest]])
    assert_type(tt.sum(y, -1, keepdims=True), Tensor[tt.int64, Unpack[Rest], L[1]])
    return tt.mean(x, 0)
