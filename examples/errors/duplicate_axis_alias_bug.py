"""A variance over "the last two dims" spelled with an alias of the same dim.

``(1, -2)`` both mean dim 1 of a rank-3 ``(batch, seq, features)`` tensor; the author meant
``(1, 2)`` or ``(-2, -1)``. numpy raises at run time ("repeated axis"); the plugin names both
spellings and the dim they share.
"""

from __future__ import annotations

from typing import Final
from typing import Literal as L

import typedtensor as tt
from typedtensor import Tensor

SEQ_AND_FEATURES: Final = (1, -2)


def spread(x: Tensor[tt.float64, L[4], L[16], L[64]]) -> tt.AnyTensor:
    return x.var(axis=SEQ_AND_FEATURES, correction=1)  # expect: typedtensor-axis "axes 1 and -2 both refer to dim 1 of a rank-3 tensor"
