"""channel_stats.py with a bug: the reduce-to target forgets the batch dim.

``(3, 1, 1)`` aligns with the trailing dims ``(3, 32, 32)`` of the NCHW batch, so the channel
dim 3 sits under a pixel dim of 32: not the source dim and not 1.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")


def channel_mean(x: Tensor[tt.float32, N, L[3], L[32], L[32]]) -> tt.AnyTensor:
    return x.reduce_to((3, 1, 1), "mean")  # expect: typedtensor-shape
