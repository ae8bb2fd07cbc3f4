"""The NaN-aware reductions and count_nonzero, on every backend, against numpy as the oracle.

Ranks 0..5 with empty and size-1 dims, C/F/negative-stride/broadcast/strided layouts, NaN-rich
values (whole slices of NaN included), every axis spelling and both keepdims: the result's
shape and dtype equal numpy's, the values are numpy-close, numpy's RuntimeWarnings are emitted
where numpy emits them (and only there), and numpy's ValueErrors are raised where it raises.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt

from ._strategies import LAYOUTS, Case, _relayout, axis_spellings, shapes

#: the dtypes these ops run on both backends (float16 and complex: numpy's loops on every one)
CLASSIC = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64"]  # fmt: skip

NAN_OPS = [
    "nansum",
    "nanprod",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanvar",
    "nanstd",
    "nanargmax",
    "nanargmin",
    "count_nonzero",
]
SINGLE_AXIS = {"nanargmax", "nanargmin"}
#: the RuntimeWarnings numpy's nan* functions emit on purpose (not floating-point noise)
WARNINGS = ("All-NaN slice encountered", "Mean of empty slice", "Degrees of freedom <= 0")


@st.composite
def nan_arrays(draw: st.DrawFn, dtypes: list[str] | None = None) -> Case:
    """Arrays whose floats are NaN about half the time (all-NaN slices are common)."""
    dtype = np.dtype(draw(st.sampled_from(dtypes or CLASSIC), label="dtype"))
    shape = draw(shapes(0, 5), label="shape")
    if dtype.kind == "f":
        finite = st.floats(-4, 4, width=dtype.itemsize * 8)
        nan_share = draw(st.sampled_from(["none", "some", "all"]), label="NaNs")
        if nan_share == "none":
            elements: Any = finite
        elif nan_share == "all":
            elements = st.just(np.nan)
        else:
            elements = st.one_of(finite, st.just(np.nan), st.sampled_from([np.inf, -np.inf]))
    elif dtype.kind == "b":
        elements = st.booleans()
    else:
        elements = st.integers(-3, 3) if dtype.kind == "i" else st.integers(0, 3)
    base = draw(hnp.arrays(dtype, shape, elements=elements))
    layout = draw(st.sampled_from(LAYOUTS), label="layout")
    return Case(_relayout(base, layout, draw(st.data())), layout)


def _run(fn: Any, *args: Any, **kw: Any) -> tuple[Any, set[str], type[Exception] | None]:
    """(result, the deliberate RuntimeWarnings' texts, the exception class raised)."""
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kw)
        except (ValueError, TypeError) as err:
            return None, set(), type(err)
    found = {w for w in WARNINGS for c in caught if str(c.message).startswith(w)}
    return result, found, None


def _numpy(op: str, a: Any, axis: Any, keepdims: bool, **kw: Any) -> Any:
    fn = getattr(np, op)
    if op in SINGLE_AXIS and a.ndim == 0:
        return fn(a)  # numpy's nanargmax takes no axis on rank 0 but answers 0 (or raises)
    if op in SINGLE_AXIS and isinstance(axis, tuple):  # every axis: the flat index
        axis = None
    return np.asarray(fn(a, axis=axis, keepdims=keepdims, **kw))


def _tol(dtype: np.dtype[Any]) -> dict[str, float]:
    if dtype == np.float16:
        return {"rtol": 1e-2, "atol": 1e-2}
    return {"rtol": 1e-4, "atol": 1e-4} if dtype == np.float32 else {"rtol": 1e-9, "atol": 1e-9}


@pytest.mark.parametrize("op", NAN_OPS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_matches_numpy(backend: str, op: str, data: st.DataObject) -> None:
    case = data.draw(nan_arrays([*CLASSIC, "float16"]), label="array")
    a = case.array
    axis = data.draw(axis_spellings(a.ndim, single=op in SINGLE_AXIS), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    kw: dict[str, Any] = {}
    if op in ("nanvar", "nanstd"):
        kw["ddof"] = data.draw(st.sampled_from([0, 1, 2.5]), label="ddof")
    before = a.copy()
    expected, want_warn, want_err = _run(_numpy, op, a, axis, keepdims, **kw)
    with tt.use_backend(backend):
        got, got_warn, got_err = _run(getattr(tt, op), tt.asarray(a), axis, keepdims, **kw)
    np.testing.assert_array_equal(a, before)  # inputs are never modified
    if want_err is not None:
        assert got_err is not None and issubclass(got_err, want_err), (case, got_err)
        return
    assert got_err is None, (case, got_err)
    assert got_warn == want_warn, (case, got_warn, want_warn)
    r = got.numpy()
    assert r.shape == expected.shape and r.dtype == expected.dtype, (case, r.shape, r.dtype)
    if r.dtype.kind == "f":
        np.testing.assert_allclose(r, expected, equal_nan=True, **_tol(a.dtype))
    else:
        np.testing.assert_array_equal(r, expected)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape_axis", [((64, 3000), 1), ((3000, 64), 0), ((40, 50, 60), (0, 2))])
def test_large_layouts(backend: str, dtype: str, shape_axis: tuple[Any, Any]) -> None:
    """Beyond the kernels' chunk and block sizes, in each layout: rows, columns, strided."""
    shape, axis = shape_axis
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape).astype(dtype) + 3
    a[rng.random(shape) < 0.2] = np.nan
    a[..., 0] = np.nan  # some all-NaN slices along the last axis only
    for layout in ("C", "F", "negative", "strided"):
        x = _relayout(a, layout, None)  # type: ignore[arg-type]
        for op in ("nansum", "nanmean", "nanmax", "nanmin", "nanvar", "nanstd", "count_nonzero"):
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                expected = getattr(np, op)(x, axis=axis)
                with tt.use_backend(backend):
                    got = getattr(tt, op)(x, axis=axis).numpy()
            assert got.dtype == np.asarray(expected).dtype
            np.testing.assert_allclose(got, expected, equal_nan=True, **_tol(np.dtype(dtype)))
        for op in ("nanargmax", "nanargmin"):
            if isinstance(axis, tuple):
                continue
            expected, _, err = _run(getattr(np, op), x, axis=axis)
            with tt.use_backend(backend):
                got, _, got_err = _run(getattr(tt, op), x, axis=axis)
            assert got_err is err  # an all-NaN column: ValueError from both
            if err is None:
                np.testing.assert_array_equal(got.numpy(), expected)


def test_all_nan_slices_warn_as_numpy(backend: str) -> None:
    a = tt.asarray(np.array([[1.0, np.nan], [np.nan, np.nan]], dtype=np.float32))
    with tt.use_backend(backend):
        with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
            r = tt.nanmax(a, axis=1)
        np.testing.assert_array_equal(r.numpy(), [1.0, np.nan])
        with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
            tt.nanmin(a, axis=1)
        with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
            r = tt.nanmean(a, axis=1)
        np.testing.assert_array_equal(r.numpy(), [1.0, np.nan])
        with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
            r = tt.nanvar(a, axis=1)
        np.testing.assert_array_equal(r.numpy(), [0.0, np.nan])
        with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
            tt.nanstd(a, axis=1, ddof=1)
        assert tt.nansum(a, axis=1).numpy().tolist() == [1.0, 0.0]
        assert tt.nanprod(a, axis=1).numpy().tolist() == [1.0, 1.0]
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            tt.nanargmax(a, axis=1)
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            tt.nanargmin(a)  # axis=None: fine here, the flat array holds a number
            tt.nanargmin(tt.asarray(np.full(3, np.nan)))
        assert tt.nanargmin(a).item() == 0


def test_empty_reductions(backend: str) -> None:
    e = tt.zeros((0, 3), tt.float64)
    with tt.use_backend(backend):
        for op in ("nanmax", "nanmin", "nanargmax", "nanargmin"):
            with pytest.raises(ValueError, match="empty"):
                getattr(tt, op)(e, axis=0)
        assert tt.nansum(e, axis=0).numpy().tolist() == [0.0, 0.0, 0.0]
        with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
            assert np.isnan(tt.nanmean(e, axis=0).numpy()).all()
        assert tt.nanmax(e, axis=1).shape == (0,)


def test_ints_behave_as_the_plain_reductions(backend: str) -> None:
    x = tt.asarray(np.arange(-6, 6, dtype=np.int8).reshape(3, 4))
    with tt.use_backend(backend):
        for nan_op, op in [("nansum", "sum"), ("nanmax", "max"), ("nanargmin", "argmin")]:
            got, plain = getattr(tt, nan_op)(x, axis=1), getattr(tt, op)(x, axis=1)
            assert got.dtype is plain.dtype
            np.testing.assert_array_equal(got.numpy(), plain.numpy())
        assert tt.nanmean(x).dtype is tt.float64
        assert tt.count_nonzero(x, axis=(0, 1), keepdims=True).numpy().tolist() == [[11]]


def test_functions_only_and_out() -> None:
    x = tt.asarray(np.array([[1.0, np.nan, 3.0]]))
    assert not hasattr(tt.Tensor, "nansum") and not hasattr(tt.Tensor, "count_nonzero")
    out = tt.full((1,), 7.0)
    assert tt.nansum(x, axis=1, out=out) is out and out.numpy().tolist() == [4.0]
    assert tt.count_nonzero(x).dtype is tt.int64
    with pytest.raises(tt.AxisError):
        tt.nanmean(x, axis=2)
    with pytest.raises(TypeError):
        tt.nanargmax(x, axis=(0, 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tt.nansum(x, axis=(0, -2))


@pytest.mark.parametrize("op", NAN_OPS)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_numba_kernels_match_the_reference(op: str, data: st.DataObject) -> None:
    """The numba backend's kernels at every size (the public API routes small inputs to
    numpy): same values, dtype, warnings and errors as the numpy reference."""
    from typedtensor import _rules as rules
    from typedtensor._backend import _numba, _numpy

    a = data.draw(nan_arrays(), label="array").array
    axis = data.draw(axis_spellings(a.ndim, single=op in SINGLE_AXIS), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    spec = rules.REDUCTIONS[op]
    axes = rules.normalize_axes(axis, a.ndim, single=spec.single_axis)
    if spec.identity is None and any(a.shape[d] == 0 for d in axes):
        return  # rejected before any backend runs
    dtype = np.dtype(rules.result_dtype(spec.dtype_rule, a.dtype.name))
    params = (
        {"correction": data.draw(st.sampled_from([0, 1]))} if "correction" in spec.params else {}
    )
    want, want_warn, want_err = _run(_numpy.reduce, op, a, axes, keepdims, dtype, **params)
    got, got_warn, got_err = _run(_numba.reduce, op, a, axes, keepdims, dtype, **params)
    assert got_err is want_err
    if want_err is not None:
        return
    if got is None:  # not covered (nanprod): numpy runs it
        assert op == "nanprod"
        return
    assert got_warn == want_warn
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, equal_nan=True, **_tol(a.dtype))


@pytest.mark.parametrize("op", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", [tt.float64, "float32", np.dtype("float64")])
def test_dtype_argument(backend: str, op: str, dtype: Any) -> None:
    rng = np.random.default_rng(3)
    a = rng.random((40, 30)).astype(np.float32) + 0.5
    a[rng.random(a.shape) < 0.2] = np.nan
    np_dtype = tt._dtypes.as_dtype_class(dtype).numpy_dtype
    with tt.use_backend(backend):
        got = getattr(tt, op)(a, 1, dtype=dtype)
    expected = getattr(np, op)(a, axis=1, dtype=np_dtype)
    assert got.numpy().dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("layout", ["C", "F", "negative", "strided"])
def test_nanmax_nanmin_exact_on_every_layout(backend: str, dtype: str, layout: str) -> None:
    """Bit for bit numpy's (max/min are exact): rows, columns, every axis and the full
    reduction, with all-NaN slices, slices whose answer is -inf/+inf (the kernels' second
    look) and NaN-free slices; sizes below and above the numba threshold (1 MB)."""
    from typedtensor._backend import _numba

    rng = np.random.default_rng(6)
    for shape in ((9, 33), (700, 520), (3, 50_000), (50_000, 3)):
        a = rng.standard_normal(shape).astype(dtype)
        a[rng.random(shape) < 0.3] = np.nan
        a[0] = np.nan  # an all-NaN row
        a[:, 0] = np.nan  # an all-NaN column
        a[1] = np.where(np.isnan(a[1]), a[1], -np.inf)  # a row of -inf and NaN
        a[2] = np.where(np.isnan(a[2]), a[2], np.inf)
        a[:, 1] = np.where(np.isnan(a[:, 1]), a[:, 1], -np.inf)
        x = _relayout(a, layout, None)  # type: ignore[arg-type]
        for op in ("nanmax", "nanmin"):
            for axis in (0, 1, None):
                with warnings.catch_warnings(record=True) as want_w:
                    warnings.simplefilter("always")
                    want = getattr(np, op)(x, axis=axis)
                with warnings.catch_warnings(record=True) as got_w, tt.use_backend(backend):
                    warnings.simplefilter("always")
                    got = getattr(tt, op)(x, axis).numpy()
                assert got.dtype == want.dtype and got.shape == np.shape(want)
                np.testing.assert_array_equal(got, want)
                assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
                # the kernels themselves (the routing may give a layout to numpy's loop)
                axes = tuple(range(x.ndim)) if axis is None else (axis,)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    kernel = _numba.reduce(op, x, axes, False, x.dtype)
                np.testing.assert_array_equal(kernel, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nanprod_keeps_numpys_overflow_order(backend: str, dtype: str) -> None:
    """Huge and tiny factors with NaNs among them: inf, 0 and NaN (inf * 0) exactly where
    numpy's sequential order gives them, in rows, columns and the full product, big arrays
    (the numba kernels) and small ones."""
    rng = np.random.default_rng(7)
    info = np.finfo(dtype)
    for shape in ((5, 40), (400, 700), (700, 400)):
        a = rng.standard_normal(shape).astype(dtype)
        pick = rng.random(shape)
        a[pick < 0.2] = info.max / 8
        a[(pick > 0.2) & (pick < 0.4)] = info.tiny * 8
        a[rng.random(shape) < 0.2] = np.nan
        a[3] = np.nan
        for layout in ("C", "F", "negative"):
            x = _relayout(a, layout, None)  # type: ignore[arg-type]
            for axis in (0, 1, None):
                with np.errstate(all="ignore"):
                    want = np.nanprod(x, axis=axis)
                    with tt.use_backend(backend):
                        got = tt.nanprod(x, axis).numpy()
                assert got.dtype == want.dtype
                for special in (np.isnan, np.isposinf, np.isneginf):
                    np.testing.assert_array_equal(special(got), special(want))
                np.testing.assert_array_equal(got == 0, want == 0)
                np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == "float32" else 1e-10)


@pytest.mark.parametrize("value", [0.0, 2.5, True, 0, -3])
def test_count_nonzero_of_rank_0_takes_numpys_int_axis(backend: str, value: Any) -> None:
    """numpy 2.4 counts a rank-0 array's element with axis 0 or -1 (a ufunc reduce's legacy
    rule; keepdims leaves the result rank 0) and raises AxisError for other ints and tuples."""
    a = np.array(value)
    with tt.use_backend(backend):
        for axis in (None, (), 0, -1, np.int64(-1), 1, -2, (0,), (-1,), (0, 0)):
            for keepdims in (False, True):
                try:
                    want = np.asarray(np.count_nonzero(a, axis=axis, keepdims=keepdims))
                except np.exceptions.AxisError:
                    with pytest.raises(tt.AxisError):
                        tt.count_nonzero(tt.asarray(a), axis, keepdims)  # type: ignore[arg-type]
                    continue
                got = tt.count_nonzero(tt.asarray(a), axis, keepdims)  # type: ignore[arg-type]
                assert got.shape == want.shape == () and got.dtype is tt.int64
                assert got.item() == want.item()
    with pytest.raises(tt.AxisError):  # the other reductions keep typedtensor's rule
        tt.nansum(tt.asarray(a), 0)
