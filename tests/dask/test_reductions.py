"""dask tree reductions (``typedtensor._dask.reductions``) against numpy, the oracle, on the
synchronous scheduler: every op, ranks 0..4, uneven / 1-element / 0-size chunks, every set of
reduced axes, keepdims, ``split_every`` 2..8, float/int/bool, NaNs for the nan ops."""

from __future__ import annotations

import itertools
import math
import pickle
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

from typedtensor import _rules as rules  # noqa: E402
from typedtensor._backend import partials, use_backend  # noqa: E402
from typedtensor._dask.reductions import l2_normalize_dask, reduce_dask, result_dtype  # noqa: E402

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


def _data(shape: tuple[int, ...], dtype: str, seed: int, nans: bool) -> Array:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("int"):
        return rng.integers(-5, 6, size=shape).astype(dtype)
    a = np.asarray(rng.standard_normal(shape) * 0.5 + 1.0).astype(dtype)
    if nans and a.size:
        a[rng.random(shape) < 0.2] = np.nan
    return a


def _lse(a: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    x = a.astype(np.float64)
    if math.prod(a.shape[d] for d in axis) == 0:
        return np.log(np.sum(np.exp(x), axis, keepdims=keepdims))  # -inf, as numpy would
    m = np.max(x, axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    r = np.log(np.sum(np.exp(x - m), axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis)


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
    "logsumexp": ("logsumexp", {}, _lse, ("float64", "float32", "int32"), False),
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


def _check(got: Array, want: Array, dtype: np.dtype[Any], what: str) -> None:
    want = np.asarray(want).astype(dtype) if np.asarray(want).dtype != dtype else np.asarray(want)
    assert got.dtype == dtype, f"{what}: dtype {got.dtype} != {dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if dtype.kind in "fc":
        tol = 2e-4 if dtype in (np.float32, np.complex64) else 1e-9
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


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
        a = _data(shape, dtype, seed=len(shape), nans=nans and dtype.startswith("float"))
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
            _check(computed, want, result_dtype(name, a.dtype), what)


@pytest.mark.parametrize("case", sorted(ARG_CASES))
def test_arg_reduction_equals_numpy(case: str) -> None:
    fn = ARG_CASES[case]
    for dtype, (shape, chunks) in itertools.product(("float64", "int32", "bool"), LAYOUTS):
        if 0 in shape or not shape:
            continue
        a = _data(shape, dtype, seed=3, nans=dtype == "float64")
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
            _check(np.asarray(got), want, np.dtype(np.int64), f"{case} {dtype} {shape} {axes}")


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
        np.testing.assert_allclose(got, _lse(a, axes, False), equal_nan=True)
        for name, fn in (("var", np.var), ("max", np.max), ("sum", np.sum)):
            got = reduce_dask(x, name, axes, False, {"correction": 0.0}).compute()
            np.testing.assert_allclose(got, fn(a, axis=axes), equal_nan=True)


def test_dtype_argument_accumulates_and_returns_that_dtype() -> None:
    a = np.arange(1, 61, dtype=np.int8).reshape(6, 10)
    x = da.from_array(a, chunks=(2, 3))
    for name, fn in (("sum", np.sum), ("prod", np.prod), ("mean", np.mean)):
        for dt in (np.dtype(np.int16), np.dtype(np.float32)):
            got = reduce_dask(x, name, (0,), False, {}, dtype=dt).compute()
            _check(got, fn(a, axis=0, dtype=dt), dt, f"{name} dtype={dt}")


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
            _check(got, want, result_dtype(name, a.dtype), f"complex {name} {axes}")
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
    a = _data((6, 5, 4), "float32", seed=5, nans=False)
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
        _check(got, a / denom, np.dtype(np.float32), f"l2_normalize {variant} {axes}")


def test_numba_chunks_run_one_pass_kernels_and_agree_with_the_numpy_backend() -> None:
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((2048, 512)) + 1e3).astype(np.float32)  # 4 MB, 4 chunks of 1 MB
    x = da.from_array(a, chunks=(1024, 256))
    chunk = np.ascontiguousarray(a[:1024, :256])
    for op, axes in (("var", (0,)), ("lse", (0,)), ("pow_sums", (1,)), ("sums", (0,))):
        assert partials.numba_serial_runs(op, chunk, axes, "numba"), op  # the kernel path is taken
    cases = [
        ("var", {"correction": 0.0}),
        ("std", {"correction": 1.0}),
        ("logsumexp", {}),
        ("norm", {"p": 2.0, "eps": 0.0, "mode": "plain"}),
        ("norm", {"p": 3.0, "eps": 0.0, "mode": "plain"}),
        ("mean", {}),
    ]
    for (name, params), axes in itertools.product(cases, ((0,), (1,), (0, 1))):
        with use_backend("numba"):
            fast = reduce_dask(x, name, axes, False, params).compute()
        with use_backend("numpy"):
            ref = reduce_dask(x, name, axes, False, params).compute()
        assert fast.dtype == ref.dtype == np.float32
        np.testing.assert_allclose(fast, ref, rtol=2e-5, err_msg=f"{name} {params} {axes}")


def test_serial_kernels_mask_numbas_threads_in_this_thread_only() -> None:
    numba = pytest.importorskip("numba")
    before = numba.get_num_threads()
    with partials.serial_kernels():
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before


def test_kernels_release_the_gil() -> None:
    from typedtensor._backend._numba import _kernels as kern

    for kernel in (kern.acc_h, kern.var_v, kern.lse_h, kern.arg_v_par, kern.scale):
        assert kernel.targetoptions.get("nogil") is True, kernel


def test_graphs_pickle_without_closures() -> None:
    x = da.from_array(np.arange(40.0).reshape(8, 5), chunks=(3, 2))
    graphs = [
        reduce_dask(x, "var", (0,), False, {"correction": 1.0}),
        reduce_dask(x, "argmax", (0, 1), False, {}),
        reduce_dask(x, "logsumexp", (1,), True, {}),
        reduce_dask(x, "norm_lp_max", (0,), False, {"p": 2.0, "eps": 1.0}),
        l2_normalize_dask(x, (0,), {"eps": 1e-12, "variant": "pytorch"}),
    ]
    for g in graphs:
        restored = pickle.loads(pickle.dumps(dict(g.__dask_graph__())))
        assert len(restored) == len(g.__dask_graph__())


def test_importing_the_dask_reductions_does_not_import_numba() -> None:
    code = "import sys, typedtensor._dask.reductions; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("axis", [None, 0, -1, 1, (0, -1), (-3, 1), ()])
def test_public_api_axis_spellings_reach_the_trees(axis: Any) -> None:
    import typedtensor as tt

    a = _data((4, 5, 6), "float64", seed=9, nans=False)
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
    np.testing.assert_allclose(got, _lse(a, _normal(axis, 3), False), rtol=1e-12)
    if axis is None or isinstance(axis, int):
        got = t.argmax(axis=axis).compute().numpy()
        np.testing.assert_array_equal(got, np.argmax(a, axis=axis))


def _normal(axis: Any, ndim: int) -> tuple[int, ...]:
    return tuple(range(ndim)) if axis is None else rules.normalize_axes(axis, ndim)


# --------------------------------------------------------------------------- backend partials
#: chunk layouts each partial is checked on: C rows/columns, F order, a negative stride, a
#: strided slice (copied once by the kernels), rank 3 over two non-adjacent axes
def _partial_layouts(dtype: str) -> list[tuple[str, Array, tuple[int, ...]]]:
    a = _data((64, 48), dtype, 3, nans=True)
    b = _data((6, 40, 5), dtype, 4, nans=True)
    return [
        ("rows", a, (1,)),
        ("columns", a, (0,)),
        ("full", a, (0, 1)),
        ("F rows", np.asfortranarray(a), (1,)),
        ("negative", a[::-1], (0,)),
        ("strided", a[:, ::3], (1,)),
        ("rank 3", b, (0, 2)),
        ("short rows", _data((300, 4), dtype, 5, nans=True), (1,)),
    ]


PARTIAL_CASES = [
    (path, dtype, where)
    for path in ("numba", "numpy")
    for dtype in ("float32", "float64")
    for where in range(8)
]


def _close(got: Array, want: Array, dtype: str, what: str) -> None:
    tol = 3e-5 if dtype == "float32" else 1e-11
    assert got.shape == np.asarray(want).shape, what
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=what)


@pytest.mark.parametrize(("path", "dtype", "where"), PARTIAL_CASES)
def test_backend_partials_equal_numpy_on_both_paths(path: str, dtype: str, where: int) -> None:
    """Both sides of every chunk-routing choice of typedtensor._backend.partials, forced,
    against float64 numpy (float32: rtol 3e-5, the kernels' and numpy's own float32 sums)."""
    name, a, axes = _partial_layouts(dtype)[where]
    what = f"{path} {dtype} {name} {axes}"
    clean = np.nan_to_num(a, nan=0.5)
    f8 = clean.astype(np.float64)
    kw: dict[str, Any] = {"backend": "numba", "path": path}
    _close(partials.sums(clean, axes, **kw), f8.sum(axis=axes, keepdims=True), dtype, what)
    p3 = partials.pow_sums(clean, axes, 3.0, clean.dtype, **kw)
    _close(p3, (np.abs(f8) ** 3).sum(axis=axes, keepdims=True), dtype, what)
    n, mean, m2 = partials.var_partials(clean, axes, **kw)
    assert n == math.prod(a.shape[d] for d in axes)
    _close(mean, f8.mean(axis=axes, keepdims=True), dtype, what)
    _close(m2 / n, f8.var(axis=axes, keepdims=True), dtype, what)
    m, s = partials.lse_partials(clean, axes, **kw)
    _close(m + np.log(s), _lse(f8, axes, True), dtype, what)
    # NaN-aware partials read the NaNs
    keep = ~np.isnan(a)
    cnt, total = partials.nan_sum_count(a, axes, **kw)
    assert cnt.dtype == np.int64 and total.dtype == np.float64, what
    np.testing.assert_array_equal(cnt, keep.sum(axis=axes, keepdims=True), err_msg=what)
    _close(total, np.nansum(a.astype(np.float64), axis=axes, keepdims=True), dtype, what)
    n, mean, m2 = partials.nan_var_partials(a, axes, **kw)
    np.testing.assert_array_equal(n, keep.sum(axis=axes, keepdims=True), err_msg=what)
    _close(mean, np.nanmean(a.astype(np.float64), axis=axes, keepdims=True), dtype, what)
    _close(m2 / n, np.nanvar(a.astype(np.float64), axis=axes, keepdims=True), dtype, what)


@pytest.mark.parametrize("path", ["numba", "numpy"])
@pytest.mark.parametrize("ismax", [True, False])
def test_nan_arg_partials_equal_numpys_filled_argmax(path: str, ismax: bool) -> None:
    """The local index is numpy's nanargmax/nanargmin's (NaNs read as -inf/+inf, so a NaN
    before a real -inf wins that tie), 0 with the all-NaN flag for slices of NaNs only."""
    rng = np.random.default_rng(11)
    fill = -np.inf if ismax else np.inf
    for dtype in ("float32", "float64"):
        a = rng.standard_normal((40, 30)).astype(dtype)
        a[rng.random(a.shape) < 0.3] = np.nan
        a[3, :] = np.nan  # an all-NaN row
        a[:, 5] = np.nan  # an all-NaN column
        a[7, :4] = [np.nan, fill, fill, np.nan]
        a[7, 4:] = fill  # row 7: a NaN before the real infinities
        for x in (a, np.asfortranarray(a), a[::-1], a[:, ::2]):
            filled = np.where(np.isnan(x), fill, x)
            arg = np.argmax if ismax else np.argmin
            for axes, flat in (((0,), False), ((1,), False), ((0, 1), True)):
                axis = None if flat else axes[0]
                local, none = partials.nan_arg_partials(
                    x, axes, flat, ismax, backend="numba", path=path
                )
                what = f"{path} {dtype} {axes} {x.strides}"
                want = arg(filled, axis=axis, keepdims=True)
                all_nan = np.all(np.isnan(x), axis=axis, keepdims=True)
                np.testing.assert_array_equal(none, all_nan, err_msg=what)
                np.testing.assert_array_equal(np.where(all_nan, 0, local), want, err_msg=what)


def test_chunk_routing_picks_the_serial_winner() -> None:
    """The measured table: float32 columns on numba's kernels from 1 MiB, rows on numpy's
    pairwise loop; the in-memory sum over rows and over a strided axis on numpy serially."""
    rows = np.zeros((4096, 64), np.float32)  # 1 MiB
    assert partials.numba_serial_runs("sums", rows, (0,), "numba")
    assert not partials.numba_serial_runs("sums", rows, (1,), "numba")
    assert not partials.numba_serial_runs("sums64", rows.astype(np.float64), (0,), "numba")
    assert not partials.numba_serial_runs("sums", rows, (0,), "numpy")
    assert not partials.numba_serial_runs("sums", rows[:1024], (0,), "numba")  # 256 KiB
    for name in ("var", "lse", "nan_sum_count", "nan_var", "pow_sums"):
        assert partials.numba_serial_runs(name, rows, (1,), "numba"), name
    assert not partials.numba_serial_runs("nan_var", rows.astype(np.int32), (1,), "numba")
    assert partials.serial_backend("sum", rows, (1,), "numba") == "numpy"
    assert partials.serial_backend("mean", rows, (1,), "numba") == "numpy"
    assert partials.serial_backend("sum", rows, (0,), "numba") == "numpy"  # parallel only
    assert partials.serial_backend("var", rows, (0,), "numba") == "numba"
    assert partials.serial_backend("sum", rows, (1,), "numpy") == "numpy"


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin"])
def test_nan_reductions_on_kernel_sized_chunks_equal_numpy(name: str) -> None:
    """Chunks of 1 MiB with NaNs (an all-NaN row and column inside one chunk) take the one-pass
    NaN kernels with the numba backend and equal numpy's answers."""
    rng = np.random.default_rng(12)
    a = rng.standard_normal((2048, 512)).astype(np.float32)  # 4 MiB, chunks of 1 MiB
    a[rng.random(a.shape) < 0.05] = np.nan
    a[10, :256] = np.nan
    a[:1024, 17] = np.nan
    x = da.from_array(a, chunks=(1024, 256))
    chunk = np.ascontiguousarray(a[:1024, :256])
    assert partials.numba_serial_runs("nan_var", chunk, (0,), "numba")
    assert partials.numba_serial_runs("nan_arg", chunk, (1,), "numba")
    for axes in ((0,), (1,), (0, 1)):
        with use_backend("numba"):
            got = reduce_dask(x, name, axes, False, {"correction": 0.0}).compute()
        arg_axis = axes[0] if len(axes) == 1 else None
        want = getattr(np, name)(a, axis=arg_axis if "arg" in name else axes)
        _check(got, want, np.dtype(want.dtype), f"{name} {axes}")


def test_dask_modules_reach_the_backend_only_through_its_partials_interface() -> None:
    """The chunk code names no module of the numba package (H6 moves its private runners):
    typedtensor._backend.partials is the one interface."""
    import pathlib

    import typedtensor._dask as package

    for name in ("_partials.py", "_trees.py", "reductions.py"):
        path = pathlib.Path(package.__file__).parent / name
        source = path.read_text()
        assert "_backend._numba" not in source and "_backend import _numba" not in source, path
