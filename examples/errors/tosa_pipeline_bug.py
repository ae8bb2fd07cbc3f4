"""tosa_pipeline.py with a bug: TOSA habits in numpy land.

TOSA accumulates int8 sums in int32, but numpy (and typedtensor) widen to int64, so the
declared int32 result is wrong; and argmax takes one axis, not a tuple.
"""

from __future__ import annotations

from typing import Literal as L

import typedtensor as tt
from typedtensor import Tensor


def channel_sums(x: Tensor[tt.int8, L[4], L[16], L[8]]) -> Tensor[tt.int32, L[4], L[1], L[8]]:
    return x.sum(axis=1, keepdims=True)  # expect: return-value "Tensor[int64, Literal[4], Literal[1], Literal[8]]"


def hottest(x: Tensor[tt.int8, L[4], L[16], L[8]]) -> tt.AnyTensor:
    return x.argmax(axis=(1, 2))  # expect: typedtensor-axis "this reduction takes a single axis"
