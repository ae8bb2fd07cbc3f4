"""channel_stats.py with a bug: the reduce-to target drops one trailing dim.

``(1, 3, 1)`` was meant as ``(1, 3, 1, 1)``. Targets align with the source from the right (the
inverse of broadcasting), so against ``(N, 3, 32, 32)`` the channel dim 3 of the target sits
under the pixel dim 32: neither 1 nor the source dim.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")


def channel_mean(x: Tensor[tt.float32, N, L[3], L[32], L[32]]) -> tt.AnyTensor:
    return x.reduce_to((1, 3, 1), "mean")  # expect: typedtensor-shape
