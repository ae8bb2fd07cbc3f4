"""logsumexp, the first routed family in the registry (``_backend/logsumexp_family.py``):
its code is found through ``registry.routes``, not the backends' op tables, and each path
gives what it gave (the bits themselves: test_reductions.py, test_fast_paths.py,
test_direct_kernels.py)."""

from __future__ import annotations

import numpy as np
import pytest

import typedtensor as tt
from typedtensor._backend import _numpy, _routing, registry
from typedtensor._backend._numba import direct


def test_logsumexp_is_found_through_the_registry() -> None:
    routes = registry.routes("logsumexp")
    assert routes is not None
    assert "logsumexp" not in _numpy._OPS  # the tables hold the other families only
    assert "logsumexp" not in direct._BUILDERS
    assert "logsumexp" in direct.DIRECT_OPS  # the plan-bound builder, through the registry
    assert registry.resolve(routes.direct) is registry.resolve(routes.direct)  # cached
    assert registry.routes("median") is None  # bound by bind, not routed
    assert registry.routes("sum") is None  # not registered


def test_bind_gives_the_reference_in_the_rules_dtype() -> None:
    a = np.log(np.array([[1.0, 2.0, 5.0], [3.0, 3.0, 2.0]], dtype=np.float32))
    run = registry.bind("numpy", "logsumexp", a.shape, a.strides, a.dtype, (1,), False)
    got = run(a, {})
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.log([8.0, 8.0]), rtol=1e-6)


@pytest.mark.parametrize("shape", [(4, 3), (64, 4096), (4096, 64)])
def test_every_route_agrees_with_the_reference(shape: tuple[int, int]) -> None:
    a = np.random.default_rng(1).standard_normal(shape)
    want = registry.bind("numpy", "logsumexp", shape, a.strides, a.dtype, (0,), False)(a, {})
    for backend in ("numpy", "numba"):
        run = _routing.runner(backend, "logsumexp", shape, a.strides, 8, (0,), False, a.dtype)
        np.testing.assert_allclose(run(a, {}), want, rtol=1e-12)
    with tt.use_backend("numba"):
        np.testing.assert_allclose(tt.asarray(a).logsumexp(axis=0).numpy(), want, rtol=1e-12)


def test_an_unknown_op_still_raises_in_the_numpy_backend() -> None:
    with pytest.raises(KeyError):
        _numpy.reduce("no_such_op", np.ones(3), (0,), False, np.dtype(np.float64))
