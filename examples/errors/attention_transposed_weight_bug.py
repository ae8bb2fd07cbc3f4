"""attention.py with a bug: the query weight is stored (out, in) as a PyTorch ``Linear`` keeps
it, (8, 16), and multiplied as if it were (in, out): ``x @ wq`` meets the model dim 16 with the
weight's 8 rows. The fix is ``x @ wq.mT``."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
T = TypeVar("T")


def project(x: Tensor[tt.float32, B, T, L[16]], wq: Tensor[tt.float32, L[8], L[16]]) -> None:
    q = x @ wq  # expect: typedtensor-shape "matmul inner dims differ: the left operand's last dim is 16 but the right operand's second-to-last dim is 8"
    print(q.shape)
