"""mlp.py with a bug: the score of "the last class" is read with an off-by-one index, ``K``
instead of ``K - 1`` (or ``-1``), on logits of 10 classes."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")


def last_class_score(logits: Tensor[tt.float32, B, L[10]]) -> tt.AnyTensor:
    return logits[:, 10]  # expect: typedtensor-index "index 10 is out of range for dim 1 of size 10; valid indices are -10..9"
