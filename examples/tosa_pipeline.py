"""A TOSA-style integer pipeline: int8 activations, wide accumulation, bool masks.

TOSA's REDUCE_SUM accumulates int8 in int32; numpy (and typedtensor) widen to int64, so no
overflow where numpy would not overflow. REDUCE_MAX/MIN keep int8; REDUCE_ANY/ALL work on bool.
"""

from __future__ import annotations

from typing import Literal as L

import numpy as np

import typedtensor as tt
from typedtensor import Tensor


def channel_sums(x: Tensor[tt.int8, L[4], L[16], L[8]]) -> Tensor[tt.int64, L[4], L[1], L[8]]:
    """Sum over the spatial axis, kept as size 1 (TOSA keep_dims): (4, 16, 8) -> (4, 1, 8)."""
    return x.sum(axis=1, keepdims=True)


def main() -> None:
    noise = tt.random((4, 16, 8), tt.int8, seed=5)  # uniform in [-100, 100)
    acts = tt.maximum(noise + 27, 90)  # int8 in [90, 127)
    sums = channel_sums(acts)
    peak = acts.max(axis=(1, 2))
    floor = acts.min(axis=-1)
    high = acts > 110
    all_high = high.all(axis=(1, 2))
    any_high = high.any(axis=-1)
    any_saturated = (acts == 127).any()
    a = acts.numpy()
    np.testing.assert_array_equal(sums.numpy(), a.sum(axis=1, keepdims=True))
    assert sums.dtype is tt.int64 and peak.dtype is tt.int8
    assert int(sums.max()) > 127 * 8  # would overflow an int8 accumulator
    np.testing.assert_array_equal(peak.numpy(), a.max(axis=(1, 2)))
    np.testing.assert_array_equal(all_high.numpy(), (a > 110).all(axis=(1, 2)))
    np.testing.assert_array_equal(any_high.numpy(), (a > 110).any(axis=-1))
    print("int8 activations", acts.shape, "sum ->", sums.dtype.__name__, sums.shape)
    print("max over (1, 2)", peak.numpy().tolist(), peak.dtype.__name__)
    print("min over -1", floor.shape, floor.dtype.__name__)
    print("all > 110 per image", all_high.numpy().tolist(), "any saturated", bool(any_saturated))
    print("any > 110 per row", any_high.shape, any_high.dtype.__name__)
    print("tosa_pipeline: ok")


if __name__ == "__main__":
    main()
