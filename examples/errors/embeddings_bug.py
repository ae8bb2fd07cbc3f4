"""embeddings.py with a bug: the similarity keeps the reduced dim.

``sum(axis=-1, keepdims=True)`` is ``Tensor[float32, B, 1]``, not the ``Tensor[float32, B]``
the function promises; only the plugin knows the result shape, so only it can catch this.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")


def cosine_similarity(
    a: Tensor[tt.float32, B, L[64]], b: Tensor[tt.float32, B, L[64]]
) -> Tensor[tt.float32, B]:
    an = a.l2_normalize(axis=-1)
    bn = b.l2_normalize(axis=-1)
    return (an * bn).sum(axis=-1, keepdims=True)  # expect: return-value "Tensor[float32, B, Literal[1]]"
