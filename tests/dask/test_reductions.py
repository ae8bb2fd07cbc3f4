"""dask tree reductions (``typedtensor._dask.reductions``) against numpy, the oracle, on the
synchronous scheduler: every op, ranks 0..4, uneven / 1-element / 0-size chunks, every set of
reduced axes, keepdims, ``split_every`` 2..8, float/int/bool, NaNs for the nan ops."""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

from typedtensor import _rules as rules  # noqa: E402
from typedtensor._dask.reductions import l2_normalize_dask, reduce_dask, result_dtype  # noqa: E402

from ._oracle import check, lse, sample  # noqa: E402

Array = Any

#: (shape, chunks): rank 0..4, uneven chunks, 0-size chunks, 1-element chunks, a zero dim
LAYOUTS: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = [
    ((), ()),
    ((11,), ((3, 0, 1, 7),)),
    ((9, 7), ((1, 4, 0, 4), (3, 4))),
    ((5, 4, 6), ((2, 3), (1, 1, 2), (4, 0, 2))),
    ((3, 2, 4, 5), ((1, 2), (2,), (1, 3), (2, 3))),
    ((6,), ((1,) * 6,)),
    ((0, 4), ((0,), (2, 2))),
]


@pytest.fixture(autouse=True)
def _synchronous() -> Iterator[None]:
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _norm(p: float, eps: float = 0.0, mode: str = "plain") -> Callable[..., Array]:
    def norm(a: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
        x = np.abs(a.astype(np.float64))
        if p == math.inf:
            return np.max(x, axis, keepdims=keepdims, initial=0.0)
        if p == -math.inf:
            return np.min(x, axis, keepdims=keepdims, initial=math.inf)
        if p == 0:
            return np.sum(x != 0, axis, keepdims=keepdims)
        s = np.sum(x**p, axis, keepdims=keepdims)
        if mode in ("lp_max", "power_p_max"):
            s = np.maximum(s, eps)
        elif mode in ("lp_sum", "power_p_sum"):
            s = s + eps
        return s if mode.startswith("power_p") else s ** (1.0 / p)

    return norm


def _np(fn: Callable[..., Array], **kw: Any) -> Callable[..., Array]:
    return lambda a, axis, keepdims: fn(a, axis=axis, keepdims=keepdims, **kw)


#: op -> (name, params, numpy oracle, dtypes, nans in the data)
CASES: dict[str, tuple[str, dict[str, Any], Callable[..., Array], tuple[str, ...], bool]] = {
    "sum": ("sum", {}, _np(np.sum), ("float64", "float32", "int32", "bool"), False),
    "prod": ("prod", {}, _np(np.prod), ("float64", "int16"), False),
    "mean": ("mean", {}, _np(np.mean), ("float64", "float32", "int32"), False),
    "max": ("max", {}, _np(np.max), ("float64", "int32", "bool"), True),
    "min": ("min", {}, _np(np.min), ("float32", "uint8"), True),
    "any": ("any", {}, _np(np.any), ("bool", "float64"), False),
    "all": ("all", {}, _np(np.all), ("bool", "int32"), False),
    "var": ("var", {"correction": 0.0}, _np(np.var), ("float64", "float32", "int32"), False),
    "var_ddof1": ("var", {"correction": 1.0}, _np(np.var, ddof=1), ("float64",), False),
    "std": ("std", {"correction": 0.0}, _np(np.std), ("float64", "bool"), False),
    "logsumexp": ("logsumexp", {}, lse, ("float64", "float32", "int32"), False),
    "norm2": (
        "norm",
        {"p": 2.0, "eps": 0.0, "mode": "plain"},
        _norm(2),
        ("float64", "float32"),
        False,
    ),
    "norm1": (
        "norm",
        {"p": 1.0, "eps": 0.0, "mode": "plain"},
        _norm(1),
        ("float64", "int32"),
        False,
    ),
    "norm3": ("norm", {"p": 3.0, "eps": 0.0, "mode": "plain"}, _norm(3), ("float64",), False),
    "norm_inf": (
        "norm",
        {"p": math.inf, "eps": 0.0, "mode": "plain"},
        _norm(math.inf),
        ("float64",),
        False,
    ),
    "norm_ninf": (
        "norm",
        {"p": -math.inf, "eps": 0.0, "mode": "plain"},
        _norm(-math.inf),
        ("float64",),
        False,
    ),
    "norm0": (
        "norm",
        {"p": 0.0, "eps": 0.0, "mode": "plain"},
        _norm(0),
        ("float64", "int32"),
        False,
    ),
    "lp_max": ("norm_lp_max", {"p": 2.0, "eps": 4.0}, _norm(2, 4.0, "lp_max"), ("float64",), False),
    "lp_sum": ("norm_lp_sum", {"p": 3.0, "eps": 0.5}, _norm(3, 0.5, "lp_sum"), ("float32",), False),
    "pp_max": (
        "norm",
        {"p": 2.0, "eps": 9.0, "mode": "power_p_max"},
        _norm(2, 9.0, "power_p_max"),
        ("float64",),
        False,
    ),
    "pp_sum": (
        "norm_lp_power_p_sum",
        {"p": 1.0, "eps": 0.25},
        _norm(1, 0.25, "power_p_sum"),
        ("float64",),
        False,
    ),
    "nansum": ("nansum", {}, _np(np.nansum), ("float64", "int32"), True),
    "nanprod": ("nanprod", {}, _np(np.nanprod), ("float64",), True),
    "nanmean": ("nanmean", {}, _np(np.nanmean), ("float64", "float32"), True),
    "nanmax": ("nanmax", {}, _np(np.nanmax), ("float64", "int32"), True),
    "nanmin": ("nanmin", {}, _np(np.nanmin), ("float32",), True),
    "nanvar": ("nanvar", {"correction": 1.0}, _np(np.nanvar, ddof=1), ("float64",), True),
    "nanstd": ("nanstd", {"correction": 0.0}, _np(np.nanstd), ("float64", "float32"), True),
    "count_nonzero": ("count_nonzero", {}, _np(np.count_nonzero), ("float64", "bool"), False),
}
ARG_CASES = {
    "argmax": np.argmax,
    "argmin": np.argmin,
    "nanargmax": np.nanargmax,
    "nanargmin": np.nanargmin,
}


def _axis_sets(ndim: int) -> Iterator[tuple[int, ...]]:
    for r in range(ndim + 1):
        yield from itertools.combinations(range(ndim), r)


def _no_identity_and_empty(
    name: str, params: dict[str, Any], shape: tuple[int, ...], axes: tuple[int, ...]
) -> bool:
    try:
        rules.check_nonempty(name, shape, axes, size_of=int, p=params.get("p"))
    except rules.RuleError:
        return True
    return False


@pytest.mark.parametrize("case", sorted(CASES))
def test_tree_reduction_equals_numpy(case: str) -> None:
    name, params, oracle, dtypes, nans = CASES[case]
    step = itertools.count()
    for dtype, (shape, chunks) in itertools.product(dtypes, LAYOUTS):
        a = sample(shape, dtype, seed=len(shape), nans=nans and dtype.startswith("float"))
        x = da.from_array(a, chunks=chunks) if shape else da.from_array(a)
        for axes in _axis_sets(len(shape)):
            if _no_identity_and_empty(name, params, shape, axes):
                continue
            k = next(step)
            keepdims, split_every = bool(k % 2), 2 + k % 7
            got = reduce_dask(x, name, axes, keepdims, params, split_every=split_every)
            assert got.dtype == result_dtype(name, a.dtype)
            computed = np.asarray(got.compute())
            want = oracle(a, axes, keepdims)
            what = f"{name}{params} {dtype} {shape} chunks={chunks} axes={axes} keepdims={keepdims}"
            check(computed, want, result_dtype(name, a.dtype), what)


@pytest.mark.parametrize("case", sorted(ARG_CASES))
def test_arg_reduction_equals_numpy(case: str) -> None:
    fn = ARG_CASES[case]
    for dtype, (shape, chunks) in itertools.product(("float64", "int32", "bool"), LAYOUTS):
        if 0 in shape or not shape:
            continue
        a = sample(shape, dtype, seed=3, nans=dtype == "float64")
        if dtype == "float64" and case.startswith("nan"):
            a = np.where(np.isnan(a), a, np.round(a))  # ties between chunks
        x = da.from_array(a, chunks=chunks)
        spellings = [(d,) for d in range(a.ndim)] + [tuple(range(a.ndim))]
        for i, axes in enumerate(spellings):
            keepdims = bool(i % 2)
            axis = axes[0] if len(axes) == 1 else None
            try:
                want = fn(a, axis=axis, keepdims=keepdims)
            except ValueError:  # nanarg of an all-NaN slice: raised when computed
                with pytest.raises(ValueError, match="All-NaN slice"):
                    reduce_dask(x, case, axes, keepdims, {}, split_every=2).compute()
                continue
            got = reduce_dask(x, case, axes, keepdims, {}, split_every=2 + i % 7).compute()
            check(np.asarray(got), want, np.dtype(np.int64), f"{case} {dtype} {shape} {axes}")


def test_argmax_over_every_axis_takes_the_first_flat_index_across_blocks() -> None:
    # ties in blocks (0, 1) and (1, 0): flat index 2 comes before 4 (dask's own argmax picks
    # the candidate of the earlier block, index 4)
    a = np.zeros((4, 4))
    a[1, 0] = a[0, 2] = 5.0
    x = da.from_array(a, chunks=2)
    assert int(reduce_dask(x, "argmax", (0, 1), False, {}).compute()) == np.argmax(a) == 2
    a[3, 3] = np.nan
    a[2, 1] = np.nan
    x = da.from_array(a, chunks=2)
    assert int(reduce_dask(x, "argmax", (0, 1), False, {}).compute()) == np.argmax(a) == 9


def test_nanargmax_fills_nans_as_numpy_does() -> None:
    # numpy fills NaNs with -inf (+inf for nanargmin): a NaN before a real -inf wins the tie
    a = np.array([[np.nan, -np.inf, np.nan], [np.nan, 2.0, -np.inf], [5.0, np.nan, 5.0]])
    for chunks in ((3, 3), (1, 1), (2, 2)):
        x = da.from_array(a, chunks=chunks)
        for axes, axis in (((1,), 1), ((0,), 0), ((0, 1), None)):
            for name, fn in (("nanargmax", np.nanargmax), ("nanargmin", np.nanargmin)):
                got = reduce_dask(x, name, axes, False, {}, split_every=2).compute()
                np.testing.assert_array_equal(got, fn(a, axis=axis), err_msg=f"{name} {axes}")


def test_all_nan_slices_give_numpys_values() -> None:
    a = np.arange(24.0).reshape(4, 6)
    a[:, 1] = np.nan
    a[2, :] = np.nan
    x = da.from_array(a, chunks=(1, 4))
    for name, fn in (
        ("nanmax", np.nanmax),
        ("nanmin", np.nanmin),
        ("nanmean", np.nanmean),
        ("nansum", np.nansum),
    ):
        for axes in ((0,), (1,)):
            got = reduce_dask(x, name, axes, False, {}, split_every=2).compute()
            np.testing.assert_allclose(got, fn(a, axis=axes), equal_nan=True)
    got = reduce_dask(x, "nanvar", (0,), False, {"correction": 1.0}).compute()
    np.testing.assert_allclose(got, np.nanvar(a, axis=0, ddof=1), equal_nan=True)
    with pytest.raises(ValueError, match="All-NaN slice"):
        reduce_dask(x, "nanargmax", (0,), False, {}).compute()


def test_special_values_propagate_as_in_numpy() -> None:
    a = np.array([[1.0, -np.inf, 2.0, np.inf], [np.nan, 1.0, -np.inf, -np.inf], [3.0] * 4])
    x = da.from_array(a, chunks=(1, 1))
    for axes in ((0,), (1,), (0, 1)):
        got = reduce_dask(x, "logsumexp", axes, False, {}, split_every=2).compute()
        np.testing.assert_allclose(got, lse(a, axes, False), equal_nan=True)
        for name, fn in (("var", np.var), ("max", np.max), ("sum", np.sum)):
            got = reduce_dask(x, name, axes, False, {"correction": 0.0}).compute()
            np.testing.assert_allclose(got, fn(a, axis=axes), equal_nan=True)


def test_dtype_argument_accumulates_and_returns_that_dtype() -> None:
    a = np.arange(1, 61, dtype=np.int8).reshape(6, 10)
    x = da.from_array(a, chunks=(2, 3))
    for name, fn in (("sum", np.sum), ("prod", np.prod), ("mean", np.mean)):
        for dt in (np.dtype(np.int16), np.dtype(np.float32)):
            got = reduce_dask(x, name, (0,), False, {}, dtype=dt).compute()
            check(got, fn(a, axis=0, dtype=dt), dt, f"{name} dtype={dt}")


def test_complex_inputs_equal_numpy() -> None:
    rng = np.random.default_rng(11)
    a = (rng.standard_normal((7, 6)) + 1j * rng.standard_normal((7, 6))).astype(np.complex64)
    a[1, 2] = np.nan
    x = da.from_array(a, chunks=(3, 4))
    b = np.where(np.isnan(a), 0, a)
    y = da.from_array(b, chunks=(3, 4))
    for axes in ((0,), (1,), (0, 1)):
        cases = [
            ("sum", y, {}, np.sum(b, axis=axes)),
            ("mean", y, {}, np.mean(b, axis=axes)),
            ("var", y, {"correction": 1.0}, np.var(b, axis=axes, ddof=1)),
            ("std", y, {"correction": 0.0}, np.std(b, axis=axes)),
            ("nanmean", x, {}, np.nanmean(a, axis=axes)),
            ("nanvar", x, {"correction": 0.0}, np.nanvar(a, axis=axes)),
            (
                "norm",
                y,
                {"p": 2.0, "eps": 0.0, "mode": "plain"},
                np.sqrt(np.sum(np.abs(b) ** 2, axis=axes)),
            ),
            ("logsumexp", y, {}, np.log(np.sum(np.exp(b.astype(np.complex128)), axis=axes))),
        ]
        for name, arr, params, want in cases:
            got = reduce_dask(arr, name, axes, False, params, split_every=2).compute()
            check(got, want, result_dtype(name, a.dtype), f"complex {name} {axes}")
    for axes, axis in (((0,), 0), ((1,), 1), ((0, 1), None)):
        got = reduce_dask(y, "argmax", axes, False, {}).compute()
        np.testing.assert_array_equal(got, np.argmax(b, axis=axis))


def test_unknown_chunk_sizes() -> None:
    a = np.arange(40.0).reshape(20, 2)
    x = da.from_array(a, chunks=(6, 2))
    picked = x[x[:, 0] % 3 != 0]  # rows kept: unknown until computed
    assert math.isnan(picked.shape[0])
    want = a[a[:, 0] % 3 != 0]
    for name, fn in (("mean", np.mean), ("var", np.var), ("sum", np.sum), ("max", np.max)):
        for axes in ((0,), (0, 1)):
            got = reduce_dask(
                picked, name, axes, False, {"correction": 0.0} if name == "var" else {}
            )
            np.testing.assert_allclose(got.compute(), fn(want, axis=axes), err_msg=name)
    with pytest.raises(ValueError, match="compute_chunk_sizes"):
        reduce_dask(picked, "argmax", (0,), False, {})


def test_mean_and_var_of_empty_reductions_are_nan() -> None:
    x = da.from_array(np.zeros((0, 3)), chunks=((0,), (2, 1)))
    for name, params in (("mean", {}), ("var", {"correction": 0.0}), ("nanmean", {})):
        got = reduce_dask(x, name, (0,), False, params).compute()
        assert got.shape == (3,) and np.isnan(got).all()
    assert reduce_dask(x, "logsumexp", (0,), False, {}).compute().tolist() == [-np.inf] * 3


@pytest.mark.parametrize("variant", rules.L2_VARIANTS)
def test_l2_normalize_equals_the_in_memory_formula(variant: str) -> None:
    a = sample((6, 5, 4), "float32", seed=5, nans=False)
    a[0, :, 0] = 0.0  # eps decides here
    eps = 1e-3
    for axes, chunks in (((1,), (2, 2, 4)), ((0, 2), (4, 5, 1)), ((2,), (6, 5, 4))):
        x = da.from_array(a, chunks=chunks)
        got = l2_normalize_dask(x, axes, {"eps": eps, "variant": variant}).compute()
        ss = np.sum(a.astype(np.float64) ** 2, axis=axes, keepdims=True)
        if variant in ("tensorflow", "openvino-max"):
            denom = np.sqrt(np.maximum(ss, eps))
        elif variant == "pytorch":
            denom = np.maximum(np.sqrt(ss), eps)
        else:
            denom = np.sqrt(ss + eps)
        check(got, a / denom, np.dtype(np.float32), f"l2_normalize {variant} {axes}")


@pytest.mark.parametrize("axis", [None, 0, -1, 1, (0, -1), (-3, 1), ()])
def test_public_api_axis_spellings_reach_the_trees(axis: Any) -> None:
    import typedtensor as tt

    a = sample((4, 5, 6), "float64", seed=9, nans=False)
    t = tt.asarray(da.from_array(a, chunks=(3, 2, 4)))
    for name, fn, kwargs in (
        ("var", np.var, {"ddof": 1}),
        ("std", np.std, {}),
        ("mean", np.mean, {}),
        ("sum", np.sum, {}),
        ("max", np.max, {}),
    ):
        for keepdims in (False, True):
            method = getattr(t, name)
            got = (method(axis=axis, keepdims=keepdims, **kwargs)).compute().numpy()
            want = fn(a, axis=axis, keepdims=keepdims, **kwargs)
            np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"{name} {axis}")
    got = t.logsumexp(axis=axis).compute().numpy()
    np.testing.assert_allclose(got, lse(a, _normal(axis, 3), False), rtol=1e-12)
    if axis is None or isinstance(axis, int):
        got = t.argmax(axis=axis).compute().numpy()
        np.testing.assert_array_equal(got, np.argmax(a, axis=axis))


def _normal(axis: Any, ndim: int) -> tuple[int, ...]:
    return tuple(range(ndim)) if axis is None else rules.normalize_axes(axis, ndim)
