"""The dask tier: skipped as a whole where dask is not installed (CI installs it with the test
extra); every test runs on dask's synchronous scheduler unless it picks another."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

if importlib.util.find_spec("dask") is None:  # pragma: no cover - the test extra installs dask
    collect_ignore_glob = ["test_*.py"]
else:

    @pytest.fixture(autouse=True)
    def _synchronous_scheduler() -> Iterator[None]:
        import dask

        with dask.config.set(scheduler="synchronous"):
            yield
