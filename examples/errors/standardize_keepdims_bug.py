"""Feature standardisation without ``keepdims``: the statistics no longer broadcast back.

``x.mean(axis=0)`` of a ``(128, 16)`` batch has shape ``(16,)`` and broadcasts fine, but the
per-sample version ``x.mean(axis=1)`` has shape ``(128,)``, which lines up with the 16
features, not the 128 samples. ``keepdims=True`` keeps it ``(128, 1)``.
"""

from __future__ import annotations

from typing import Literal as L

import typedtensor as tt
from typedtensor import Tensor


def standardize_rows(x: Tensor[tt.float32, L[128], L[16]]) -> tt.AnyTensor:
    centered: tt.AnyTensor = x - x.mean(axis=1)  # expect: typedtensor-shape "cannot broadcast dim 16 with dim 128 at position -1"
    return centered / x.std(axis=1, keepdims=True)
