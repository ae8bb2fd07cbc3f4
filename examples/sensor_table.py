"""A table script: hourly readings of six sensors, with gaps, cleaned and summarised.

The number of rows is symbolic (``Rows``: it depends on the file read); the six sensor columns
are literal. Every step keeps its static type: NaN-aware column means fill the gaps through
``tt.where``, z-scores broadcast ``(1, 6)`` statistics back over the rows, a total column is
concatenated (6 + 1 = 7 columns), and the correlation matrix comes out of ``z.T @ z``.
"""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Tensor

Rows = TypeVar("Rows")


def fill_gaps(table: Tensor[tt.float64, Rows, L[6]]) -> Tensor[tt.float64, Rows, L[6]]:
    """Replace each missing reading by its column's mean over the readings present."""
    column_means = tt.nanmean(table, axis=0, keepdims=True)  # (1, 6)
    return tt.where(tt.isnan(table), column_means, table)


def zscores(table: Tensor[tt.float64, Rows, L[6]]) -> Tensor[tt.float64, Rows, L[6]]:
    """Each column centred and scaled to unit (population) std."""
    mean = table.mean(axis=0, keepdims=True)
    std = table.std(axis=0, keepdims=True)
    return (table - mean) / std


def with_total(table: Tensor[tt.float64, Rows, L[6]]) -> Tensor[tt.float64, Rows, L[7]]:
    """The table with a seventh column: the row totals."""
    totals = table.sum(axis=1, keepdims=True)  # (Rows, 1)
    return tt.concatenate([table, totals], axis=1)


def correlation(z: Tensor[tt.float64, Rows, L[6]]) -> Tensor[tt.float64, L[6], L[6]]:
    """Pearson correlation of the columns, from their z-scores."""
    return (z.T @ z) / len(z)


def main() -> None:
    rng = np.random.default_rng(0)
    readings = rng.normal(20.0, 3.0, size=(240, 6))
    readings[rng.random(readings.shape) < 0.05] = np.nan  # 5% of the readings are missing
    raw = tt.tensor(readings, (240, 6), tt.float64)

    missing = tt.count_nonzero(tt.isnan(raw), axis=0)  # Tensor[int64, 6]
    filled = fill_gaps(raw)
    z = zscores(filled)
    corr = correlation(z)
    peak_hour = filled.argmax(axis=0)  # Tensor[int64, 6]: the row of each column's maximum
    running = tt.cumsum(filled[:, 0])  # Tensor[float64, 240]: the first sensor's running total
    summary = with_total(filled)

    ref = np.where(np.isnan(readings), np.nanmean(readings, axis=0), readings)
    np.testing.assert_array_equal(missing.numpy(), np.isnan(readings).sum(axis=0))
    np.testing.assert_allclose(filled.numpy(), ref)
    np.testing.assert_allclose(corr.numpy(), np.corrcoef(ref, rowvar=False), atol=1e-12)
    np.testing.assert_array_equal(peak_hour.numpy(), ref.argmax(axis=0))
    np.testing.assert_allclose(running.numpy(), np.cumsum(ref[:, 0]))
    np.testing.assert_allclose(summary.numpy()[:, 6], ref.sum(axis=1))
    assert summary.shape == (240, 7) and corr.shape == (6, 6)
    print("missing per sensor:", missing.numpy().tolist())
    print("correlation of sensors 0 and 1:", round(float(corr[0, 1]), 4))
    print("sensor_table: ok")


if __name__ == "__main__":
    main()
