"""The chunk steps of the dask reductions: the backend's partials interface
(``typedtensor._backend.partials``) on both paths (numba's serial kernels, numpy's loops) over
chunk layouts, its routing, numba's threads and the GIL inside a worker, graphs that pickle,
and imports that stay lazy."""

from __future__ import annotations

import itertools
import math
import pickle
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

from typedtensor._backend import partials, use_backend  # noqa: E402
from typedtensor._dask.reductions import l2_normalize_dask, reduce_dask  # noqa: E402

from ._oracle import check, lse, sample  # noqa: E402

Array = Any


@pytest.fixture(autouse=True)
def _quiet_runtime_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


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


# --------------------------------------------------------------------------- backend partials
#: chunk layouts each partial is checked on: C rows/columns, F order, a negative stride, a
#: strided slice (copied once by the kernels), rank 3 over two non-adjacent axes
def _partial_layouts(dtype: str) -> list[tuple[str, Array, tuple[int, ...]]]:
    a = sample((64, 48), dtype, 3, nans=True)
    b = sample((6, 40, 5), dtype, 4, nans=True)
    return [
        ("rows", a, (1,)),
        ("columns", a, (0,)),
        ("full", a, (0, 1)),
        ("F rows", np.asfortranarray(a), (1,)),
        ("negative", a[::-1], (0,)),
        ("strided", a[:, ::3], (1,)),
        ("rank 3", b, (0, 2)),
        ("short rows", sample((300, 4), dtype, 5, nans=True), (1,)),
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
    _close(m + np.log(s), lse(f8, axes, True), dtype, what)
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
        check(got, want, np.dtype(want.dtype), f"{name} {axes}")


def test_dask_modules_reach_the_backend_only_through_its_partials_interface() -> None:
    """The chunk code names no module of the numba package (its private runners may move):
    typedtensor._backend.partials is the one interface."""
    import pathlib

    import typedtensor._dask as package

    for name in ("_partials.py", "_trees.py", "reductions.py"):
        path = pathlib.Path(package.__file__).parent / name
        source = path.read_text()
        assert "_backend._numba" not in source and "_backend import _numba" not in source, path
