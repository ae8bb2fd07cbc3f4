"""Global average pooling with an out-of-range axis.

The author pooled an NHWC batch over ``(1, 2)`` and then, porting to NCHW, shifted the axes
to ``(2, 3)`` but forgot that the ``mean`` here runs on a single CHW image (rank 3): axis 3
does not exist. The runtime raises ``AxisError``; the plugin reports it before running.
"""

from __future__ import annotations

from typing import Literal as L

import typedtensor as tt
from typedtensor import Tensor


def pooled(image: Tensor[tt.float32, L[3], L[32], L[32]]) -> tt.AnyTensor:
    return image.mean(axis=(2, 3))  # expect: typedtensor-axis "axis 3 is out of range for a rank-3 tensor; valid axes are -3..2"


print(pooled(tt.random((3, 32, 32), tt.float32, seed=0)))
