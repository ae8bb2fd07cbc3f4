"""transformer.py with a bug in ``merge_heads``: after moving the heads back next to their
features, the merge reshape lists the token dim before the batch dim (``reshape(t, b, -1)``),
giving ``(T, B, 32)``, not the declared ``(B, T, 32)`` (numpy would run it whenever the sizes
allow, scrambling the batch). The fix is ``reshape(b, t, -1)``."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
T = TypeVar("T", bound=int)


def merge_heads(h: Tensor[tt.float32, B, L[4], T, L[8]]) -> Tensor[tt.float32, B, T, L[32]]:
    b, _, t, _ = h.shape
    return h.transpose(0, 2, 1, 3).reshape(t, b, -1)  # expect: return-value "Tensor[float32, T, B, Literal[32]]"
