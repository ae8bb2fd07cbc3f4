"""Runtime tests run once per registered backend: any test taking a ``backend`` argument is
parametrized over ``typedtensor._backend.BACKENDS`` (numpy reference, numba, ...)."""

from __future__ import annotations

import pytest

from typedtensor._backend import BACKENDS


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", sorted(BACKENDS))
