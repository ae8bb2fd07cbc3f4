"""sensor_table.py with a bug: each row centred on its mean, but keepdims forgotten.

``table.mean(axis=1)`` has shape (Rows,); subtracting it from (Rows, 6) lines the rows up with
the six sensor columns, which fails at run time for every row count but 1 and 6 (and at 6
silently centres the wrong values). The row count is symbolic, so the plugin reports the
broadcast and suggests keepdims=True.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import typedtensor as tt
from typedtensor import Tensor

Rows = TypeVar("Rows")


def centre_rows(table: Tensor[tt.float64, Rows, L[6]]) -> tt.AnyTensor:
    centred: tt.AnyTensor = table - table.mean(axis=1)  # expect: typedtensor-symbolic "cannot broadcast dim 6 with dim Rows at position -1"
    return centred
