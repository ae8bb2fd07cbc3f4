"""transformer.py with a bug in ``attention``: the ``(B, T)`` padding mask is transposed
before it is spread over heads and queries (``keep.T[:, None, None, :]`` is ``(T, 1, 1, B)``),
so its last dim, the batch, meets the key dim ``T`` of the ``(T, T)`` causal mask: the
symbolic rule rejects ``B`` against ``T``. The fix is ``keep[:, None, None, :]``."""

from __future__ import annotations

from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
T = TypeVar("T", bound=int)


def allowed(causal: Tensor[tt.bool_, T, T], keep: Tensor[tt.bool_, B, T]) -> None:
    mask = causal & keep.T[:, None, None, :]  # expect: typedtensor-symbolic "cannot broadcast dim T with dim B at position -1"
    print(mask.shape)
