"""Broadcasting (pyright only: mypy without the plugin gives the unknown type for the receiver
patterns through ``_DimsOf``; see mypy.ini): a lower-rank or size-1 operand takes the
receiver's shape, symbolic dims broadcast only with themselves and 1."""

from typing import Any, TypeVar
from typing import Literal as L

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
Rest = TypeVarTuple("Rest")
X = Tensor[tt.float32, L[8], L[4], L[10]]


def trailing(x: X, bias: Tensor[tt.float32, L[10]], row: Tensor[tt.float32, L[4], L[10]]) -> None:
    assert_type(x + bias, X)
    assert_type(bias + x, X)
    assert_type(x * row, X)
    # a rank-2 receiver against a larger operand: no form (rank 0 and 1 only)
    assert_type(row - x, tt.AnyTensor)
    assert_type(x > bias, Tensor[tt.bool_, L[8], L[4], L[10]])


def size_one(x: X, one: Tensor[tt.float32, L[1]], s: Tensor[tt.float32]) -> None:
    assert_type(x - x.max(axis=-1, keepdims=True), X)
    assert_type(x / x.sum(axis=0, keepdims=True), X)
    assert_type(x - x.mean(axis=1, keepdims=True), X)
    assert_type(x - x.max(keepdims=True), X)
    # a (1,) operand on a rank-3 receiver: no form (keepdims results have the receiver's rank)
    assert_type(x + one, tt.AnyTensor)
    assert_type(x * s, X)
    assert_type(s * x, X)


def rank4(x: Tensor[tt.float64, L[2], L[3], L[4], L[5]]) -> None:
    # keepdims of axis 2 of rank 4 (only -1, 0 and 1 have forms): the unknown type
    assert_type(x - x.max(axis=2, keepdims=True), tt.AnyTensor)
    assert_type(x - x.max(axis=-1, keepdims=True), Tensor[tt.float64, L[2], L[3], L[4], L[5]])
    assert_type(x + x.mean(axis=0, keepdims=True), Tensor[tt.float64, L[2], L[3], L[4], L[5]])


def symbolic(
    s: Tensor[tt.float32, B, L[3]],
    b: Tensor[tt.float32, L[3]],
    k: Tensor[tt.float32, B, L[1]],
    w: Tensor[tt.float32, Unpack[Rest], N],
    v: Tensor[tt.float32, N],
    other: Tensor[tt.float32, N, L[3]],
    g: Tensor[tt.float32, Any, L[3]],
) -> None:
    assert_type(s + b, Tensor[tt.float32, B, L[3]])
    assert_type(s - k, Tensor[tt.float32, B, L[3]])
    assert_type(w - v, Tensor[tt.float32, Unpack[Rest], N])
    assert_type(g * b, Tensor[tt.float32, Any, L[3]])
    # B against N: a different symbol, the unknown type (no false error)
    assert_type(s + other, tt.AnyTensor)


def unknown(
    x: X, o: Tensor[tt.float32, L[8], L[1], L[1]], u: Tensor[tt.float32, Unpack[tuple[Any, ...]]]
) -> None:
    # both sides broadcast ((8, 4, 10) with (4, 1) is fine, (8, 1, 1) with (1, 10) mixes)
    assert_type(o + x[0], tt.AnyTensor)
    # an operand of unknown rank: never the receiver's shape
    assert_type(x + u, tt.AnyTensor)
    assert_type(u + x, Tensor[tt.float32, Unpack[tuple[Any, ...]]])
