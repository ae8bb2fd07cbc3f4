"""Operands whose dtype is ``Any`` never reach the poison overloads of ``fail/operators.py``
(an ``Any`` dtype may be anything at run time): no error under either checker."""

from typing import Any
from typing import Literal as L

from typing_extensions import Unpack

import typedtensor as tt
from typedtensor import Tensor


def any_dtype(
    a: Tensor[Any, L[3]],
    u: Tensor[Any, Any],
    ur: Tensor[Any, Unpack[tuple[Any, ...]]],
    b: Tensor[tt.bool_, L[3]],
    x: Tensor[tt.float32, L[3]],
    m: Tensor[tt.bool_, Any],
    a1: Tensor[Any, L[1], L[3]],
    mb: Tensor[tt.bool_, Any, L[3]],
) -> None:
    ur - m
    a1 - mb
    u - m
    a - True
    a - b
    b - a
    u - b
    ur - b
    b - ur
    x - b
    b - x
    b - 1
    b ^ b
    b & True
