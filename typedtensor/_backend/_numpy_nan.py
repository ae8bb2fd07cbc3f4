"""numpy's error for a NaN-aware arg-extreme of an all-NaN slice, shared by the NaN-aware
family's backends (``nan_family.py``, ``_numba/nan_reductions.py``) and dask's merges."""

from __future__ import annotations

__all__ = ["all_nan_error"]


def all_nan_error() -> ValueError:
    """numpy's error for ``nanargmax``/``nanargmin`` of a slice holding only NaNs."""
    return ValueError("All-NaN slice encountered")
