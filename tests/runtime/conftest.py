"""Runtime tests run once per registered backend: any test taking a ``backend`` argument is
parametrized over ``typedtensor._backend.BACKENDS`` (numpy reference, numba, ...). A test
taking ``fresh_plans`` starts and ends with an empty plan cache."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from typedtensor import _reduce_plan
from typedtensor._backend import BACKENDS


@pytest.fixture
def fresh_plans() -> Iterator[None]:
    _reduce_plan.clear_plans()
    yield
    _reduce_plan.clear_plans()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", sorted(BACKENDS))
