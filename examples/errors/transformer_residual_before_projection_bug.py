"""transformer.py with a bug in the MLP: the residual is added to the hidden activation
before the down projection (``(x + gelu(h @ w_up)) @ w_down``), adding a ``(B, T, 32)``
stream to a ``(B, T, 128)`` hidden layer. The fix adds after projecting back to the model
dim: ``x + gelu(h @ w_up) @ w_down``."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
T = TypeVar("T", bound=int)


def mlp(
    x: Tensor[tt.float32, B, T, L[32]],
    w_up: Tensor[tt.float32, L[32], L[128]],
    w_down: Tensor[tt.float32, L[128], L[32]],
) -> None:
    hidden = x @ w_up
    out = (x + hidden / (1.0 + tt.exp(hidden * -1.702))) @ w_down  # expect: typedtensor-shape "cannot broadcast dim 32 with dim 128 at position -1"
    print(out.shape)
