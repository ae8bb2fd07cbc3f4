"""transformer.py with a bug in ``split_heads``: the 4 heads are split off the token axis
instead of the model dim (``reshape(b, 4, -1, 32)``), so each "head" holds ``T // 4`` whole
tokens of 32 features. reshape solves the -1 as the exact division ``T // 4`` and the result
``(B, 4, T // 4, 32)`` is not the declared ``(B, 4, T, 8)``. The fix is
``x.reshape(b, t, 4, -1).transpose(0, 2, 1, 3)``."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
T = TypeVar("T", bound=int)


def split_heads(x: Tensor[tt.float32, B, T, L[32]]) -> Tensor[tt.float32, B, L[4], T, L[8]]:
    b, t, _ = x.shape
    return x.reshape(b, 4, -1, 32)  # expect: return-value "Tensor[float32, B, Literal[4], FloorDiv[T, Literal[4]], Literal[32]]"
