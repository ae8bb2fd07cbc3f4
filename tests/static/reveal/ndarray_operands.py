"""Operators with an ndarray on either side are Tensors (as at run time) under every checker,
and a numpy ufunc rejects a Tensor (as at run time); the checked cast in generic code."""

from typing import Any, Literal as L, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
Unknown = Tensor[Any, Unpack[tuple[Any, ...]]]


def mixed(x: Tensor[tt.float32, L[3], L[3]], a: npt.NDArray[np.float32]) -> None:
    assert_type(a + x, Unknown)
    assert_type(x - a, Unknown)
    assert_type(a * x, Unknown)
    assert_type(a < x, Unknown)
    assert_type(a @ x, Unknown)
    assert_type(x @ a, Unknown)


def ufunc(x: Tensor[tt.float32, L[3]]) -> None:
    np.exp(x)  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]


def generic_cast(x: Tensor[tt.float32, B, L[3]], raw: Any) -> Tensor[tt.float32, B, L[3]]:
    y = tt.tensor(raw, shape=(x.shape[0], 3), dtype=tt.float32)
    return x + y
