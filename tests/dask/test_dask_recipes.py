"""The dask recipes live in the registry: every reduction that does not keep the shape states
how a dask-backed Tensor reduces it (a ``DaskTree`` naming its steps, or ``"one_chunk"``),
and ``reduce_dask`` builds whatever tree the registry names."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

from typedtensor import _rules as rules  # noqa: E402
from typedtensor._backend import registry  # noqa: E402
from typedtensor._dask import _trees as tree  # noqa: E402
from typedtensor._dask import tree_steps  # noqa: E402
from typedtensor._dask.reductions import dask_tree, reduce_dask  # noqa: E402

_ORDER_STATISTICS = (
    "median",
    "quantile",
    "percentile",
    "nanmedian",
    "nanquantile",
    "nanpercentile",
)
#: every reduction's recipe: the ``module:builder`` a ``DaskTree`` names under
#: ``typedtensor._dask`` (``+candidates`` where it builds the whole graph) or ``"one_chunk"``
EXPECTED = {
    "sum": "tree_steps:ufunc_steps",
    "prod": "tree_steps:ufunc_steps",
    "mean": "mean_tree:mean_steps",
    "max": "tree_steps:ufunc_steps",
    "min": "tree_steps:ufunc_steps",
    "any": "tree_steps:ufunc_steps",
    "all": "tree_steps:ufunc_steps",
    "argmax": "arg_extremes_tree:arg_tree+candidates",
    "argmin": "arg_extremes_tree:arg_tree+candidates",
    "var": "moments_tree:moment_steps",
    "std": "moments_tree:moment_steps",
    "logsumexp": "logsumexp_tree:lse_steps",
    "norm": "norms_tree:norm_steps",
    "norm_lp_max": "norms_tree:norm_steps",
    "norm_lp_sum": "norms_tree:norm_steps",
    "norm_lp_power_p_max": "norms_tree:norm_steps",
    "norm_lp_power_p_sum": "norms_tree:norm_steps",
    "nansum": "tree_steps:ufunc_steps",
    "nanprod": "tree_steps:ufunc_steps",
    "nanmean": "mean_tree:mean_steps",
    "nanmax": "tree_steps:ufunc_steps",
    "nanmin": "tree_steps:ufunc_steps",
    "nanvar": "moments_tree:moment_steps",
    "nanstd": "moments_tree:moment_steps",
    "nanargmax": "arg_extremes_tree:arg_tree+candidates",
    "nanargmin": "arg_extremes_tree:arg_tree+candidates",
    "count_nonzero": "tree_steps:ufunc_steps",
    **dict.fromkeys(_ORDER_STATISTICS, "one_chunk"),
}


def _recipe_kind(name: str) -> str:
    op = registry.operation(name)
    if op is not None and op.dask == "one_chunk":
        return "one_chunk"
    recipe = dask_tree(name)
    return recipe.steps.removeprefix("typedtensor._dask.") + (
        "+candidates" if recipe.candidates else ""
    )


def test_every_reduction_has_the_expected_dask_recipe() -> None:
    """The rules' reductions that do not keep the shape, and every registered op (quantile
    and percentile are typed by their own rules table)."""
    registry.operation("sum")  # loads the families
    names = {name for name, spec in rules.REDUCTIONS.items() if not spec.keeps_shape}
    names |= {name for name in registry.OPERATIONS if name != "l2_normalize"}
    assert rules.REDUCTIONS["l2_normalize"].keeps_shape
    assert {name: _recipe_kind(name) for name in sorted(names)} == EXPECTED


def test_a_shape_keeping_op_has_no_tree() -> None:
    with pytest.raises(ValueError, match="no dask tree"):
        dask_tree("l2_normalize")


def doubled_sum_steps(*args: Any, **options: Any) -> tree_steps.Steps:
    """The sum's steps with an aggregate that doubles the answer (a toy recipe)."""
    chunk, combine, aggregate, partial = tree_steps.ufunc_steps(*args, **options)

    def doubled(x: Any, axis: Any, keepdims: bool) -> Any:
        return aggregate(x, axis, keepdims) * 2

    return chunk, combine, doubled, partial


def test_reduce_dask_builds_the_tree_the_registry_names(monkeypatch: pytest.MonkeyPatch) -> None:
    op = registry.operation("sum")
    assert op is not None
    toy = registry.DaskTree(f"{__name__}:doubled_sum_steps", (("ufunc", np.add), ("empty", "zero")))
    monkeypatch.setitem(registry.OPERATIONS, "sum", dataclasses.replace(op, dask=toy))
    x = np.arange(24.0).reshape(4, 6)
    got = reduce_dask(da.from_array(x, chunks=(2, 3)), "sum", (0,), False, {}).compute()
    np.testing.assert_array_equal(got, 2 * x.sum(axis=0))
    monkeypatch.undo()
    again = reduce_dask(da.from_array(x, chunks=(2, 3)), "sum", (0,), False, {}).compute()
    np.testing.assert_array_equal(again, x.sum(axis=0))


def test_combine_is_the_recipes_merge() -> None:
    """ufunc_steps merges with the ufunc the entry states (nanmax: fmax, skipping NaN)."""
    recipe = dask_tree("nanmax")
    build = registry.resolve(recipe.steps)
    f4 = np.dtype(np.float32)
    call = tree_steps.TreeCall("nanmax", f4, (0,), (4,), {}, f4, "numpy")
    _, combine, _, partial = build(call, **dict(recipe.options))
    assert partial == f4
    assert isinstance(combine, functools.partial) and combine.func is tree.ufunc_combine
    assert combine.keywords["ufunc"] is np.fmax
