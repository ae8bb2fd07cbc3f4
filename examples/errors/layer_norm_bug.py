"""layer_norm.py with a bug: the statistics are taken over axis 3 of a rank-3 activation
(written for an NCHW image, reused on (batch, tokens, features))."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")


def layer_norm(x: Tensor[tt.float32, B, T, L[64]]) -> tt.AnyTensor:
    mean = x.mean(axis=3, keepdims=True)  # expect: typedtensor-axis "axis 3 is out of range for a rank-3 tensor; valid axes are -3..2"
    var = x.var(axis=(-1, 2), keepdims=True)  # expect: typedtensor-axis "axes -1 and 2 both refer to dim 2 of a rank-3 tensor"
    return (x - mean) / tt.sqrt(var + 1e-5)
