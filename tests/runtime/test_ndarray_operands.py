"""Operators with an ndarray on either side give a Tensor (as both type checkers say), and numpy
ufuncs other than the operators' reject a Tensor (as both type checkers do), naming the
typedtensor function to call: no mix type-checks and then fails or changes type at run time."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import typedtensor as tt

OPERATORS: list[Callable[[Any, Any], Any]] = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.pow,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.eq,
    operator.ne,
]


@pytest.mark.parametrize("op", OPERATORS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("ndarray_left", [True, False])
def test_operator_with_an_ndarray_is_a_tensor(
    op: Callable[[Any, Any], Any], ndarray_left: bool
) -> None:
    a = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    b = np.array([1.5, 2.0, 3.0], dtype=np.float64)
    t = tt.asarray(b)
    before = (a.copy(), b.copy())
    got = op(a, t) if ndarray_left else op(t, a)
    expected = op(a, b) if ndarray_left else op(b, a)
    assert isinstance(got, tt.Tensor)
    assert got.shape == expected.shape and got.numpy().dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)
    np.testing.assert_array_equal(a, before[0])
    np.testing.assert_array_equal(b, before[1])


def test_ndarray_operands_are_broadcast_checked() -> None:
    t = tt.zeros((10, 20), tt.float32)
    with pytest.raises(tt.ShapeError, match="cannot broadcast dim 20 with dim 30"):
        t + np.zeros(30)
    with pytest.raises(tt.ShapeError, match="cannot broadcast dim 30 with dim 20"):
        np.zeros(30) - t


@pytest.mark.parametrize("ufunc", [np.exp, np.sqrt, np.negative])
def test_numpy_ufuncs_reject_a_tensor(ufunc: np.ufunc) -> None:
    t = tt.ones((2, 3), tt.float32)
    with pytest.raises(TypeError, match=rf"np.{ufunc.__name__} .* call tt.{ufunc.__name__}\(x\)"):
        ufunc(t)
    added = np.add(np.ones(3), tt.ones((3,)))  # the ufunc of ndarray + Tensor: the operator
    assert isinstance(added, tt.Tensor) and added.dtype is tt.float64
    np.testing.assert_array_equal(ufunc(t.numpy()), ufunc(np.ones((2, 3), np.float32)))


def test_np_asarray_still_reads_a_tensor() -> None:
    t = tt.arange(4)
    assert np.asarray(t) is t.numpy()
    np.testing.assert_array_equal(np.asarray(t, dtype=np.float64), np.arange(4.0))
