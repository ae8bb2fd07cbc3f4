"""multihead_attention.py with a bug: the model dim 16 is split into 4 heads of 5 features
(the head size was computed for a model dim of 20), so ``reshape`` cannot keep the element
count: ``(B, T, 16)`` holds ``16 * B * T`` elements, ``(B, T, 4, 5)`` would need
``20 * B * T``. The batch and token dims are symbolic; they cancel on both sides. The fix is
heads of 4 features (``16 // 4``)."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")


def split_heads(x: Tensor[tt.float32, B, T, L[16]]) -> None:
    heads = x.reshape((x.shape[0], x.shape[1], 4, 5))  # expect: typedtensor-shape "cannot reshape (B, T, 16) to (B, T, 4, 5): 16 * B * T elements do not fit in 20 * B * T elements"
    print(heads.shape)
