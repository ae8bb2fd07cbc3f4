"""Constructors: literal shapes of rank 0..4 give exact types; other shapes the dtype only."""

from typing import Any
from typing import Literal as L

from typing_extensions import Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor


def literal_shapes(n: int) -> None:
    assert_type(tt.zeros((2, 3), tt.float32), Tensor[tt.float32, L[2], L[3]])
    assert_type(tt.zeros((2, 3)), Tensor[tt.float64, L[2], L[3]])
    assert_type(tt.ones(5, dtype=tt.int8), Tensor[tt.int8, L[5]])
    assert_type(tt.ones((), tt.bool_), Tensor[tt.bool_])
    assert_type(tt.empty((4,), tt.uint8), Tensor[tt.uint8, L[4]])
    assert_type(
        tt.random((2, 3, 4, 5), tt.float32, seed=0),
        Tensor[tt.float32, L[2], L[3], L[4], L[5]],
    )
    assert_type(tt.random((8, 10)), Tensor[tt.float64, L[8], L[10]])
    assert_type(tt.full((2, 3), 7, dtype=tt.int16), Tensor[tt.int16, L[2], L[3]])
    assert_type(tt.arange(5), Tensor[tt.int64, L[5]])
    assert_type(tt.arange(5, tt.float32), Tensor[tt.float32, L[5]])
    assert_type(tt.arange(5, dtype=tt.float32, device="cpu"), Tensor[tt.float32, L[5]])
    assert_type(tt.arange(1, 7, 2), Tensor[tt.int64, Any])
    assert_type(tt.zeros((2, 3), tt.float32, device="cpu"), Tensor[tt.float32, L[2], L[3]])
    assert_type(tt.zeros((64, 128), tt.float16), Tensor[tt.float16, L[64], L[128]])


def unknown_dims(n: int, shape: tuple[int, ...]) -> None:
    # a fill value's dtype is numpy's choice (int64, float64, bool): the dims only
    assert_type(tt.full((2,), 1.0), Tensor[Any, L[2]])
    assert_type(tt.zeros((n, 3), tt.float32), Tensor[tt.float32, Unpack[tuple[Any, ...]]])
    assert_type(tt.zeros(shape), Tensor[tt.float64, Unpack[tuple[Any, ...]]])
    assert_type(tt.ones((2, 3, 4, 5, 6), tt.int8), Tensor[tt.int8, Unpack[tuple[Any, ...]]])
    # sizes above 128 (the literal bound's cost, see stubs/_elementwise_modules.py)
    assert_type(tt.zeros((129,), tt.int8), Tensor[tt.int8, Unpack[tuple[Any, ...]]])
    assert_type(tt.zeros((768, 3072), tt.float16), Tensor[tt.float16, Unpack[tuple[Any, ...]]])
    assert_type(tt.arange(n), Tensor[tt.int64, Any])
    assert_type(tt.asarray([1.0], dtype=tt.float32), Tensor[tt.float32, Unpack[tuple[Any, ...]]])
