"""Joining two feature blocks of a batch with the wrong axis: ``tt.concatenate`` joins along
axis 0 by default, which stacks the two blocks as more rows, but their feature dims (32 and 16)
differ. The fix is ``tt.concatenate([dense, embedded], axis=-1)``, a ``(B, 48)`` tensor."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")


def features(dense: Tensor[tt.float32, B, L[32]], embedded: Tensor[tt.float32, B, L[16]]) -> None:
    both = tt.concatenate([dense, embedded])  # expect: typedtensor-shape "cannot concatenate along axis 0: dim 1 is 32 in tensor 0 of shape (B, 32) but 16 in tensor 1 of shape (B, 16)"
    print(both.shape)
