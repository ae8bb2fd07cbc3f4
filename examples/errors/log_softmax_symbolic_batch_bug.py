"""softmax.py's log_softmax with a bug, in generic code: keepdims forgotten, batch symbolic.

``logits.logsumexp(axis=-1)`` has shape (B,); subtracting it from (B, K) lines B up with the K
classes, which fails at run time unless B is 1 or B == K. With a symbolic batch the plugin
cannot prove the broadcast, so it reports it (a symbolic dim broadcasts only with itself, 1
and Any) and suggests keepdims=True.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")


def log_softmax(logits: Tensor[tt.float64, B, L[10]]) -> tt.AnyTensor:
    log_probs: tt.AnyTensor = logits - logits.logsumexp(axis=-1)  # expect: typedtensor-symbolic "cannot broadcast dim 10 with dim B at position -1"
    return log_probs
