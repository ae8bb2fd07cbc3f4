"""Elementwise operators and functions: scalars, same shapes, masks, unary rules, astype."""

from typing import Any
from typing import Literal as L

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor

F = Tensor[tt.float32, L[2], L[3]]


def scalars(x: F, i: Tensor[tt.int8, L[2], L[3]], b: Tensor[tt.bool_, L[2]]) -> None:
    assert_type(x + 1, F)
    assert_type(x * 2.0, F)
    assert_type(2.0 * x, F)
    assert_type(x - True, F)
    assert_type(x + 1j, Tensor[tt.complex64, L[2], L[3]])
    assert_type(i + 1, Tensor[tt.int8, L[2], L[3]])
    assert_type(i * 0.5, Tensor[tt.float64, L[2], L[3]])
    assert_type(i / 2, Tensor[tt.float64, L[2], L[3]])
    assert_type(1 / i, Tensor[tt.float64, L[2], L[3]])
    assert_type(i**2, Tensor[tt.int8, L[2], L[3]])
    assert_type(b + 1, Tensor[tt.int64, L[2]])
    assert_type(b + True, Tensor[tt.bool_, L[2]])
    assert_type(x > 0, Tensor[tt.bool_, L[2], L[3]])
    assert_type(x == 0.5, Tensor[tt.bool_, L[2], L[3]])
    assert_type(i & 3, Tensor[tt.int8, L[2], L[3]])
    assert_type(b | True, Tensor[tt.bool_, L[2]])


def same_shape(
    x: F,
    i: Tensor[tt.int8, L[2], L[3]],
    m: Tensor[tt.bool_, L[2], L[3]],
    c: Tensor[tt.complex64, L[2]],
) -> None:
    assert_type(x + x, F)
    assert_type(x / x, F)
    assert_type(i / i, Tensor[tt.float64, L[2], L[3]])
    assert_type(x * m, F)
    assert_type(i - m, Tensor[tt.int8, L[2], L[3]])
    assert_type(m & m, Tensor[tt.bool_, L[2], L[3]])
    assert_type(m**m, Tensor[tt.int8, L[2], L[3]])
    assert_type(x <= x, Tensor[tt.bool_, L[2], L[3]])
    assert_type(-x, F)
    assert_type(abs(c), Tensor[tt.float32, L[2]])
    assert_type(abs(i), Tensor[tt.int8, L[2], L[3]])


def unary_functions(
    x: F, i: Tensor[tt.int8, L[2], L[3]], u: Tensor[tt.uint16, L[4]], c: Tensor[tt.complex128, L[2]]
) -> None:
    assert_type(tt.exp(x), F)
    assert_type(tt.exp(i), Tensor[tt.float16, L[2], L[3]])
    assert_type(tt.log(u), Tensor[tt.float32, L[4]])
    assert_type(tt.sqrt(c), Tensor[tt.complex128, L[2]])
    assert_type(tt.abs(c), Tensor[tt.float64, L[2]])
    assert_type(tt.negative(i), Tensor[tt.int8, L[2], L[3]])
    assert_type(tt.isnan(x), Tensor[tt.bool_, L[2], L[3]])


def binary_functions(x: F, i: Tensor[tt.int8, L[2], L[3]], m: Tensor[tt.bool_, L[2], L[3]]) -> None:
    assert_type(tt.maximum(x, x), F)
    assert_type(tt.minimum(i, 0.5), Tensor[tt.float64, L[2], L[3]])
    assert_type(tt.maximum(i, 7), Tensor[tt.int8, L[2], L[3]])
    assert_type(tt.where(m, x, x), F)
    assert_type(tt.where(m, x, 0.0), F)
    assert_type(tt.where(m, i, 0.0), Tensor[tt.float64, L[2], L[3]])


def astype(x: F) -> None:
    assert_type(x.astype(tt.bool_), Tensor[tt.bool_, L[2], L[3]])
    assert_type(x.astype(tt.int8), Tensor[tt.int8, L[2], L[3]])
    assert_type(x.astype(tt.uint64), Tensor[tt.uint64, L[2], L[3]])
    assert_type(x.astype(tt.float16), Tensor[tt.float16, L[2], L[3]])
    assert_type(x.astype(tt.complex128), Tensor[tt.complex128, L[2], L[3]])
    assert_type(tt.astype(x, tt.float64), Tensor[tt.float64, L[2], L[3]])


def unknown_answers(
    x: F,
    y: Tensor[tt.float16, L[2], L[3]],
    w: Tensor[tt.float32, L[4]],
    a: Tensor[Any, L[2], L[3]],
    m: Tensor[tt.bool_, L[2], L[3]],
    f: Tensor[tt.Floating, L[2], L[3]],
) -> None:
    # mixed dtypes: the promotion table is not in the stubs (the shape is kept, and a cast
    # makes the result exact again)
    assert_type(x + y, Tensor[Any, L[2], L[3]])
    assert_type((x + y).astype(tt.float32), F)
    assert_type(tt.maximum(x, y), tt.AnyTensor)
    # shapes that do not broadcast: the unknown type, no error (the plugin reports it)
    assert_type(x + w, tt.AnyTensor)
    # an Any dtype operand: never the receiver's dtype
    assert_type(x + a, tt.AnyTensor)
    assert_type(tt.where(m, x, a), tt.AnyTensor)
    # an Any receiver dtype keeps the shape
    assert_type(a + 1, Tensor[Any, L[2], L[3]])
    # numpy raises: bool - bool (reported: a poison overload), -bool, float & int
    assert_type(m - m, Tensor[Any, L[2], L[3]])  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    assert_type(-m, Tensor[Any, L[2], L[3]])
    assert_type(x & 1, Tensor[Any, L[2], L[3]])
    # an abstract dtype: int64 + uint64 is float64, so the shape only
    assert_type(f + f, Tensor[Any, L[2], L[3]])
