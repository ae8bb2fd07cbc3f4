"""Per-channel mean and std of an NCHW image batch: the oneDNN ``{1, C, 1, 1}`` pattern.

Reduce to the destination shape ``(1, C, 1, 1)`` and broadcast the statistics back over the
batch to normalize it. The batch size is symbolic (``N``); channels and pixels are literal.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

N = TypeVar("N")
Stat = Tensor[tt.float32, L[1], L[3], L[1], L[1]]


def channel_mean_std(x: Tensor[tt.float32, N, L[3], L[32], L[32]]) -> tuple[Stat, Stat]:
    """Mean and (population) std of each channel: (N, 3, 32, 32) -> two (1, 3, 1, 1)."""
    mean = x.reduce_to((1, 3, 1, 1), "mean")
    centered = x - mean
    var = (centered * centered).reduce_to((1, 3, 1, 1), "mean")
    return mean, tt.sqrt(var)


def normalize(
    x: Tensor[tt.float32, N, L[3], L[32], L[32]],
) -> Tensor[tt.float32, N, L[3], L[32], L[32]]:
    """Zero mean, unit std per channel; the shape is unchanged."""
    mean, std = channel_mean_std(x)
    return (x - mean) / (std + 1e-5)


def main() -> None:
    batch = tt.random((8, 3, 32, 32), tt.float32, seed=0) * 2.0 + 5.0
    mean, std = channel_mean_std(batch)
    normalized = normalize(batch)
    totals = batch.sum_to((1, 3, 1, 1))

    ref = batch.numpy()
    np.testing.assert_allclose(mean.numpy(), ref.mean(axis=(0, 2, 3), keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(std.numpy(), ref.std(axis=(0, 2, 3), keepdims=True), rtol=1e-4)
    np.testing.assert_allclose(totals.numpy(), ref.sum(axis=(0, 2, 3), keepdims=True), rtol=1e-5)
    after_mean = normalized.mean(axis=(0, 2, 3))
    after_std = normalized.std(axis=(0, 2, 3))
    assert np.abs(after_mean.numpy()).max() < 1e-4
    assert np.abs(after_std.numpy() - 1).max() < 1e-3

    print("batch", batch.shape, batch.dtype.__name__)
    print("channel mean", np.round(mean.numpy().ravel().astype(float), 3).tolist(), mean.shape)
    print("channel std ", np.round(std.numpy().ravel().astype(float), 3).tolist(), std.shape)
    print("normalized  ", normalized.shape, "max |mean| < 1e-4, std ~ 1")
    print("channel_stats: ok")


if __name__ == "__main__":
    main()
