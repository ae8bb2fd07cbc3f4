# ruff: noqa: B023  (each lambda is called inside the loop iteration that makes it)
"""median/nanmedian/quantile/percentile and their nan forms against numpy, bit for bit, on
every backend (``backend`` parametrizes numpy and numba), every layout, dtype and rank, with
numpy's warnings and errors; the input is never modified."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor._backend import use_backend

DTYPES = ["float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8", "uint64"]
# (shape, axis) pairs over ranks 0..4, 0-size dims and rows long enough for the sampled band
CASES: list[tuple[tuple[int, ...], Any]] = [
    ((), None),
    ((7,), None),
    ((7,), 0),
    ((6000,), -1),
    ((3, 5001), 1),
    ((5001, 3), 0),
    ((4, 700), 1),
    ((4, 8), 1),
    ((3, 4), (0, 1)),
    ((2, 3, 4), (0, 2)),
    ((2, 3, 4, 5), (1, 3)),
    ((2, 3, 4, 5), None),
    ((3, 0), 0),
    ((0, 3), 0),
    ((2, 0, 3), (0, 2)),
]
#: every dtype C-contiguous, the other layouts on a float and an integer dtype
DTYPE_LAYOUTS = [(d, "C") for d in DTYPES] + [
    (d, lay) for d in ("float32", "int32") for lay in ("F", "strided")
]


def _make(shape: tuple[int, ...], dtype: str, layout: str, nans: bool) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(abs(hash((shape, dtype, layout))) % 2**32)
    big = tuple(2 * s if layout == "strided" else s for s in shape)
    a = np.asarray(rng.standard_normal(big) * 50).astype(dtype)
    if nans and a.dtype.kind == "f" and a.size:
        a.reshape(-1)[::5] = np.nan
        if a.ndim >= 2:
            a[0] = np.nan  # all-NaN slices
    if layout == "strided" and a.ndim:
        a = a[tuple(slice(None, None, 2) for _ in shape)]
    elif layout == "F":
        a = np.asfortranarray(a)
    a.flags.writeable = False  # the input is never modified (writing would raise)
    return a


def _same(got: np.ndarray[Any, Any], want: Any) -> None:
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got, want)


def _both(fn: Any, ref: Any) -> None:
    """Same values, dtype, shape, exception class and RuntimeWarning messages as numpy."""
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        try:
            want = ref()
        except Exception as err:  # numpy's error: typedtensor raises the same class
            with pytest.raises(type(err)):
                fn()
            return
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = fn()
    _same(got.numpy(), want)
    runtime = [str(w.message) for w in got_w if issubclass(w.category, RuntimeWarning)]
    assert runtime == [str(w.message) for w in want_w if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize(("dtype", "layout"), DTYPE_LAYOUTS)
@pytest.mark.parametrize(("shape", "axis"), CASES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_median_and_nanmedian_equal_numpy(
    backend: str, dtype: str, layout: str, shape: tuple[int, ...], axis: Any, keepdims: bool
) -> None:
    for nans in (False, True):
        a = _make(shape, dtype, layout, nans)
        before = a.copy()
        x = tt.asarray(a)
        with use_backend(backend):
            _both(lambda: x.median(axis, keepdims), lambda: np.median(a, axis, keepdims=keepdims))
            _both(
                lambda: tt.nanmedian(x, axis, keepdims),
                lambda: np.nanmedian(a, axis, keepdims=keepdims),
            )
        assert a.tobytes() == before.tobytes()


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint", "hazen"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8"])
@pytest.mark.parametrize(("shape", "axis"), [((7,), None), ((3, 41), 1), ((2, 3, 4), (0, 2))])
@pytest.mark.parametrize("q", [0.3, [0.0, 0.25, 1.0], 0])
def test_quantile_forms_equal_numpy(
    backend: str, method: str, dtype: str, shape: tuple[int, ...], axis: Any, q: Any
) -> None:
    a = _make(shape, dtype, "C", nans=True)
    x = tt.asarray(a)
    pct = np.asarray(q) * 100
    forms = [
        (tt.quantile, np.quantile, q),
        (tt.nanquantile, np.nanquantile, q),
        (tt.percentile, np.percentile, pct),
        (tt.nanpercentile, np.nanpercentile, pct),
    ]
    with use_backend(backend):
        for keep in (False, True):
            for ours, numpys, qs in forms:
                _both(
                    lambda: ours(x, qs, axis, keep, method=method),
                    lambda: numpys(a, qs, axis, keepdims=keep, method=method),
                )


def test_quantile_of_a_1d_q_tensor_adds_a_leading_dim() -> None:
    x = tt.asarray(np.arange(24.0).reshape(4, 6))
    got = tt.quantile(x, tt.asarray(np.array([0.1, 0.5, 0.9])), axis=1)
    assert got.shape == (3, 4)
    _same(got.numpy(), np.quantile(x.numpy(), [0.1, 0.5, 0.9], axis=1))


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda x: tt.quantile(x, 1.5), ValueError),
        (lambda x: tt.percentile(x, -1), ValueError),
        (lambda x: tt.quantile(x, 0.5, method="median"), ValueError),
        (lambda x: tt.quantile(tt.asarray(np.ones(3, np.complex64)), 0.5), TypeError),
        (lambda x: x.median(axis=2), IndexError),
        (lambda x: tt.quantile(x, 0.5, axis=5), IndexError),
        (lambda x: x.median(axis=0, keepdims=1), TypeError),
    ],
)
def test_errors_are_numpys_classes(call: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        call(tt.asarray(np.ones((2, 3))))


def test_dask_median_rechunks_and_equals_numpy() -> None:
    da = pytest.importorskip("dask.array")
    import dask

    a = np.random.default_rng(1).standard_normal((6, 5000))
    a[0, 3] = np.nan
    a[1] = np.nan
    with dask.config.set(scheduler="synchronous"):
        x = tt.asarray(da.from_array(a, chunks=(2, 700)))
        for axis in (None, 0, 1, (0, 1)):
            for keep in (False, True):
                _both(
                    lambda: x.median(axis, keep).compute(),
                    lambda: np.median(a, axis, keepdims=keep),
                )
                _both(
                    lambda: tt.nanmedian(x, axis, keep).compute(),
                    lambda: np.nanmedian(a, axis, keepdims=keep),
                )


def test_unknown_method_error_names_numpys_methods() -> None:
    with pytest.raises(ValueError, match=r"method='cubic' is not a quantile method; use one of"):
        tt.nanpercentile(tt.asarray(np.ones((2, 3))), 50, method="cubic")


KERNEL_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
#: q spellings: Python scalars (numpy's weak promotion), a list, numpy scalars/arrays
Q_FORMS: list[Any] = [0.3, 1, [0.0, 0.5, 0.77, 1.0], np.float32(0.25), np.array([0.9, 0.1])]


@pytest.mark.parametrize(("dtype", "layout"), DTYPE_LAYOUTS)
@pytest.mark.parametrize(("shape", "axis"), CASES)
def test_quantile_kernel_forms_equal_numpy(
    backend: str, dtype: str, layout: str, shape: tuple[int, ...], axis: Any
) -> None:
    """Every kernel method, q spelling, keepdims, with and without NaNs: numpy's values,
    dtype, shape, errors and warnings (read-only inputs: a write would raise)."""
    for nans in (False, True):
        a = _make(shape, dtype, layout, nans)
        before = a.copy()
        x = tt.asarray(a)
        with use_backend(backend):
            for i, method in enumerate(KERNEL_METHODS):
                for q in (Q_FORMS[i], Q_FORMS[(i + 2 + nans) % len(Q_FORMS)]):
                    keep = bool((i + nans) % 2)
                    pct = [100 * v for v in q] if isinstance(q, list) else q * 100
                    _both(
                        lambda: tt.quantile(x, q, axis, keep, method=method),
                        lambda: np.quantile(a, q, axis, keepdims=keep, method=method),
                    )
                    _both(
                        lambda: tt.percentile(x, pct, axis, keep, method=method),
                        lambda: np.percentile(a, pct, axis, keepdims=keep, method=method),
                    )
        assert a.tobytes() == before.tobytes()


@pytest.mark.parametrize(
    ("runner", "ours", "numpys", "pct"),
    [
        ("quantile_of_rows", tt.quantile, np.quantile, tt.percentile),
        ("nanquantile_of_rows", tt.nanquantile, np.nanquantile, tt.nanpercentile),
    ],
)
def test_numba_quantile_runs_the_selection_kernel(
    monkeypatch: pytest.MonkeyPatch, runner: str, ours: Any, numpys: Any, pct: Any
) -> None:
    """The numba backend binds quantile/percentile and their nan forms to the kernel (not
    numpy's reference) for the kernel's methods, and numpy's reference for the others."""
    from typedtensor._backend import _quantile_steps

    calls: list[str] = []
    real = getattr(_quantile_steps, runner)

    def counting(*args: Any) -> Any:
        calls.append(args[2])
        return real(*args)

    monkeypatch.setattr(_quantile_steps, runner, counting)
    a = np.arange(40.0).reshape(5, 8)
    a[1, ::3] = np.nan
    x = tt.asarray(a)
    with use_backend("numba"):
        for method in (*KERNEL_METHODS, "hazen"):
            _same(ours(x, 0.4, 1, method=method).numpy(), numpys(a, 0.4, 1, method=method))
            pct(x, [10, 90], 0, method=method)
    assert calls == [m for m in KERNEL_METHODS for _ in range(2)]


def test_dask_quantile_rechunks_and_equals_numpy() -> None:
    """Lazy (a DaskTensor until computed), one chunk per reduced slice, numpy's answer."""
    da = pytest.importorskip("dask.array")
    import dask

    from typedtensor._dask.tensor import DaskTensor

    a = np.random.default_rng(2).standard_normal((6, 5000))
    a[1, 7] = np.nan
    forms = [(tt.quantile, np.quantile, 1), (tt.nanpercentile, np.nanpercentile, 100)]
    with dask.config.set(scheduler="synchronous"):
        x = tt.asarray(da.from_array(a, chunks=(2, 700)))
        for axis in (None, 0, 1, (0, 1)):
            for q in (0.3, [0.1, 0.5, 0.9]):
                for keep in (False, True):
                    for ours, numpys, scale in forms:
                        qs = np.multiply(q, scale) if scale != 1 else q
                        lazy = ours(x, qs, axis, keep, method="nearest")
                        assert isinstance(lazy, DaskTensor)
                        _both(
                            lambda: lazy.compute(),
                            lambda: numpys(a, qs, axis, keepdims=keep, method="nearest"),
                        )


def _nan_pattern(shape: tuple[int, int], dtype: str, pattern: str) -> np.ndarray[Any, Any]:
    """(rows, n) values with NaNs: ``none``; ``some`` (about 10%, scattered); ``all-nan
    rows`` (the first, so numpy's result takes the input dtype, and the last); ``ends`` (NaN runs at
    both ends of every row, of lengths that vary by row)."""
    rng = np.random.default_rng(len(pattern) * 1000 + shape[1])
    a = np.asarray(rng.standard_normal(shape) * 50).astype(dtype)
    if dtype.startswith("float"):
        if pattern == "some":
            a[rng.random(shape) < 0.1] = np.nan
        elif pattern == "all-nan rows":
            a[rng.random(shape) < 0.3] = np.nan
            a[:: max(shape[0] - 1, 1)] = np.nan
        elif pattern == "ends":
            for r in range(shape[0]):
                a[r, : 3 * r + 1] = np.nan
                a[r, shape[1] - 2 * r - 1 :] = np.nan
    a.flags.writeable = False
    return a


NAN_PATTERNS = ["none", "some", "all-nan rows", "ends"]
#: q spellings for the nan forms: 0 and 1 (Python ints), a Python float, numpy scalars, 1-D
NAN_Q_FORMS: list[Any] = [
    0,
    1,
    0.3,
    np.float32(0.99),
    [0.0, 0.01, 0.5, 0.999, 1.0],
    np.array([0.7]),
]


@pytest.mark.filterwarnings("ignore:All-NaN slice:RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("pattern", NAN_PATTERNS)
@pytest.mark.parametrize(("shape", "axis"), [((5, 9), 1), ((4, 6000), 1), ((6000,), None)])
def test_nanquantile_kernel_forms_equal_numpy(
    backend: str, dtype: str, pattern: str, shape: tuple[int, ...], axis: Any
) -> None:
    """nanquantile/nanpercentile, every kernel method and q spelling, keepdims, short rows
    and rows long enough for the sampled band: numpy's values bit for bit, its dtype, shape
    and All-NaN warnings; the input is never modified (read-only)."""
    a = _nan_pattern((1, *shape) if len(shape) == 1 else shape, dtype, pattern)  # type: ignore[arg-type]
    a = a.reshape(shape)
    x = tt.asarray(a)
    with use_backend(backend):
        for i, method in enumerate(KERNEL_METHODS):
            for j, q in enumerate(NAN_Q_FORMS):
                keep = bool((i + j) % 2)
                pct = [100 * v for v in q] if isinstance(q, list) else q * 100
                _both(
                    lambda: tt.nanquantile(x, q, axis, keep, method=method),
                    lambda: np.nanquantile(a, q, axis, keepdims=keep, method=method),
                )
                np.testing.assert_array_equal(
                    tt.nanpercentile(x, pct, axis, keep, method=method).numpy(),
                    np.nanpercentile(a, pct, axis, keepdims=keep, method=method),
                    strict=True,
                )


@pytest.mark.filterwarnings("ignore:All-NaN slice:RuntimeWarning")
def test_long_rows_with_ties_and_extreme_q_equal_numpy() -> None:
    """Rows of 3M values (the band is narrowed again), one mostly ties (a band that keeps
    every value), one with NaNs; q at the ends (open bands) and the middle: numpy's bits."""
    rng = np.random.default_rng(3)
    a = np.zeros((3, 3_000_000))
    a[0] = rng.standard_normal(a.shape[1])
    tied = rng.random(a.shape[1]) < 0.1
    a[1, tied] = rng.standard_normal(int(tied.sum()))
    a[2] = rng.standard_normal(a.shape[1])
    a[2, rng.random(a.shape[1]) < 0.2] = np.nan
    a.flags.writeable = False
    x = tt.asarray(a)
    q = [0.0, 0.0005, 0.5, 0.9995, 1.0]
    with use_backend("numba"):
        _same(x.median(-1).numpy(), np.median(a, -1))
        _same(tt.nanmedian(x, -1).numpy(), np.nanmedian(a, -1))
        for method in ("linear", "nearest"):
            _same(
                tt.quantile(x, q, -1, method=method).numpy(), np.quantile(a, q, -1, method=method)
            )
            _same(
                tt.nanquantile(x, q, -1, method=method).numpy(),
                np.nanquantile(a, q, -1, method=method),
            )


def test_mostly_tied_row_finishes_with_numpys_median() -> None:
    """A 20000-value row, 90% zeros: the band keeps every value on narrowing (this looped
    forever once); numpy's median, quantile and nanmedian."""
    a = np.zeros(20000)
    a[::10] = np.arange(2000.0)
    x = tt.asarray(a)
    with use_backend("numba"):
        _same(x.median().numpy(), np.median(a))
        _same(tt.nanmedian(x).numpy(), np.nanmedian(a))
        _same(tt.quantile(x, [0.5, 0.95]).numpy(), np.quantile(a, [0.5, 0.95]))
