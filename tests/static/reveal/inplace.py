"""In-place operators keep the left operand's type (the runtime writes into its buffer)."""

from typing import Literal as L

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor


def kept(
    x: Tensor[tt.float32, L[2], L[3]],
    i: Tensor[tt.int32, L[4]],
    m: Tensor[tt.float64, L[3], L[3]],
    row: Tensor[tt.float32, L[3]],
) -> None:
    x += 1.0
    assert_type(x, Tensor[tt.float32, L[2], L[3]])
    x -= row
    assert_type(x, Tensor[tt.float32, L[2], L[3]])
    x *= x
    x /= 2
    x **= 2
    assert_type(x, Tensor[tt.float32, L[2], L[3]])
    i //= 2
    i %= 3
    i <<= 1
    i >>= 1
    i &= 3
    i |= 4
    i ^= 1
    assert_type(i, Tensor[tt.int32, L[4]])
    m @= m
    assert_type(m, Tensor[tt.float64, L[3], L[3]])
