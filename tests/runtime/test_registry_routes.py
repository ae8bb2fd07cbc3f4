"""The routed families in the registry (``_backend/*_family.py``, logsumexp the first): every
reduction's code is found through its one ``registry.routes`` entry, no backend keeps an op
table of its own, and each path gives what it gave (the bits themselves: test_reductions.py,
test_fast_paths.py, test_direct_kernels.py)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _rules as rules
from typedtensor._backend import _numba, _numpy, _numpy_nan, _numpy_runners, _routing, registry
from typedtensor._backend._numba import direct

#: what the spies below were called with: (path, op)
CALLS: list[tuple[str, str]] = []


def _backend_name(name: str) -> str:
    """The name a reduction of the rules reaches the backends with (the norm's modes: norm)."""
    return "norm" if rules.REDUCTIONS[name].norm_mode else name


def _family_of(op: registry.Operation) -> str:
    """The module that registered ``op``: its numpy code's."""
    code = op.reference if op.routes is None else op.routes.backend
    return str(code.__module__)


def test_every_reduction_is_registered_in_exactly_one_family() -> None:
    by_family: dict[str, set[str]] = {}
    for name in rules.REDUCTIONS:
        op = registry.operation(_backend_name(name))
        assert op is not None, f"{name} is not registered"
        by_family.setdefault(_family_of(op), set()).add(op.name)
    assert set(by_family) <= set(registry.FAMILIES)
    assert by_family["typedtensor._backend.moments_family"] == {"var", "std"}
    assert by_family["typedtensor._backend.norms_family"] == {"norm", "l2_normalize"}
    assert by_family["typedtensor._backend.sums_family"] == {"sum", "prod", "mean"}
    assert by_family["typedtensor._backend.extremes_family"] == {
        "max", "min", "any", "all", "argmax", "argmin"
    }  # fmt: skip
    assert len(by_family["typedtensor._backend.nan_family"]) == 10
    names = [name for names in by_family.values() for name in names]
    assert len(names) == len(set(names))  # no name in two families
    with pytest.raises(ValueError, match="registered twice"):  # nor could one be
        registry.register(registry.routed("sum", registry.Routes(_numpy.reduce)))


@pytest.mark.parametrize("module", [_numpy, _numpy_nan, _numpy_runners, _numba])
def test_no_backend_keeps_an_op_table(module: Any) -> None:
    """No module-level collection of a backend names a reduction: they ask the registry.
    (``_numba/direct.py``'s ``DIRECT_OPS`` is computed from the registry's ``Routes.direct``;
    ``_numba/nan_reductions.py``'s tables are the NaN-aware family's own dispatch, behind its
    one ``Routes.numba``.)"""
    names = set(rules.REDUCTIONS)
    for attr, value in vars(module).items():
        if attr.startswith("__"):  # __builtins__ holds sum, max ...
            continue
        if isinstance(value, (dict, set, frozenset, tuple, list)):
            assert not names & {k for k in value if isinstance(k, str)}, attr


def _spy_numba(a: Any, axes: Any, keepdims: bool, dtype: Any, **params: Any) -> Any:
    CALLS.append(("numba", "?"))
    return np.zeros((), dtype)


def _spy_numba_entry(op: str, a: Any, axes: Any, keepdims: bool, dtype: Any, **params: Any) -> Any:
    CALLS.append(("numba entry", op))
    return np.zeros((), dtype)


@pytest.mark.parametrize("name", sorted({_backend_name(n) for n in rules.REDUCTIONS} - {
    "median", "nanmedian"}))  # fmt: skip
def test_each_backend_runs_what_the_registry_names(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replace an op's ``Routes`` by spies: the numpy backend, numpy's runner chooser and the
    numba backend (and the numba functions' view nan_reductions reads) call them."""
    op = registry.operation(name)
    assert op is not None and op.routes is not None
    calls: list[str] = []

    def backend(a: Any, axes: Any, keepdims: bool, dtype: Any, **params: Any) -> Any:
        calls.append("numpy backend")
        return np.zeros((), dtype)

    def runner(plan: _numpy_runners.RunnerPlan) -> None:
        calls.append(f"numpy runner of {plan.op}")

    entry = op.routes.numba_checks_itself
    spy = f"{__name__}:{'_spy_numba_entry' if entry else '_spy_numba'}"
    routes = registry.Routes(backend, runner, numba=spy, numba_checks_itself=entry)
    monkeypatch.setitem(registry.OPERATIONS, name, dataclasses.replace(op, routes=routes))
    a = np.ones((4, 3))
    dtype = np.dtype(rules.result_dtype(rules.REDUCTIONS[name].dtype_rule, "float64"))
    CALLS.clear()
    _numpy.reduce(name, a, (1,), False, dtype)
    _numpy_runners.numpy_runner(name, (1,), 2, False, dtype, a.dtype, a.shape)
    _numba.reduce(name, a, (1,), False, dtype)
    assert calls == ["numpy backend", f"numpy runner of {name}"]
    assert CALLS == [("numba entry", name) if entry else ("numba", "?")]
    if not entry:
        assert _numba._OPS[name] is _spy_numba


def test_logsumexp_is_found_through_the_registry() -> None:
    routes = registry.routes("logsumexp")
    assert routes is not None
    assert "logsumexp" in direct.DIRECT_OPS  # the plan-bound builder, through the registry
    assert registry.resolve(routes.direct) is registry.resolve(routes.direct)  # cached
    assert registry.routes("median") is None  # bound by bind, not routed
    assert registry.routes("no_such_op") is None  # not registered


def test_every_plan_bound_builder_is_named_by_its_ops_routes() -> None:
    """``direct_runner`` keeps no table of its own: each op's builder is its ``Routes.direct``."""
    expected = {"sum", "prod", "mean", "max", "min", "any", "all", "var", "std"}
    expected |= {"argmax", "argmin", "norm", "l2_normalize", "logsumexp"}
    assert direct.DIRECT_OPS == expected
    for name in expected:
        routes = registry.routes(name)
        assert routes is not None and routes.direct is not None
        assert callable(registry.resolve(routes.direct)), name


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
