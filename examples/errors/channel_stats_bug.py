"""channel_stats.py with a bug: the reduce-to target forgets a pixel dim.

``(1, 3, 1)`` aligns with the trailing dims ``(3, 32, 32)`` of the NCHW batch (a shorter target
drops leading dims), so the channel dim 3 sits under a pixel dim of 32: neither the source dim
nor 1.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")


def channel_mean(x: Tensor[tt.float32, N, L[3], L[32], L[32]]) -> tt.AnyTensor:
    return x.reduce_to((1, 3, 1), "mean")  # expect: typedtensor-shape "target dim 3 at position -2 is neither 1 nor the source dim 32"
