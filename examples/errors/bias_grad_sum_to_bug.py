"""A bias gradient reduced to the wrong target shape.

The bias of a dense layer has shape ``(32,)`` (one per output unit) and its gradient is the
upstream gradient ``(batch, 32)`` summed back to it. The target ``(64,)`` is the input width,
not the output width: it is neither the source dim 32 nor 1.
"""

from __future__ import annotations

from typing import Literal as L

import typedtensor as tt
from typedtensor import Tensor


def bias_grad(upstream: Tensor[tt.float32, L[8], L[32]]) -> tt.AnyTensor:
    return upstream.sum_to((64,))  # expect: typedtensor-shape "cannot reduce shape (8, 32) to (64,)"
