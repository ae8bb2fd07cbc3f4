"""The speed paths give the slow paths' answers: numpy's direct ufunc runners equal the numpy
backend bit for bit, the numba backend's size routing (``NUMBA_FROM_BYTES``) gives numpy's
answer below each threshold and the numba kernels' answer from it on, the plan cache answers
the same shape with other strides, dtypes, axes and backends correctly and keeps rejecting
what the rules reject, and the broadcast and dtype caches change no answer or error."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt
from typedtensor import _reduce_plan
from typedtensor._backend import _numba, _numpy, _numpy_runners, _routing, _thread_policy
from typedtensor._dtypes import BY_NAME

from ._strategies import arrays, axis_spellings

Array = np.ndarray[Any, Any]
FAST_OPS = ["sum", "prod", "max", "min", "any", "all", "argmax", "argmin", "mean", "var", "std"]
FAST_OPS += ["logsumexp", "norm", "l2_normalize"]


def _same_bits(got: Array, want: Array) -> None:
    assert type(got) is np.ndarray
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == np.ascontiguousarray(want).tobytes()


def _result_dtype(op: str, a: Array) -> np.dtype[Any]:
    spec = tt._rules.REDUCTIONS[op]
    return BY_NAME[tt._rules.result_dtype(spec.dtype_rule, a.dtype.name)].numpy_dtype


@pytest.mark.parametrize("op", FAST_OPS)
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_numpy_runners_equal_the_numpy_backend_bit_for_bit(op: str, data: st.DataObject) -> None:
    case = data.draw(arrays(min_rank=1), label="array")
    a = case.array
    single = op in ("argmax", "argmin")
    axes = tt._rules.normalize_axes(data.draw(axis_spellings(a.ndim, single)), a.ndim)
    keepdims = data.draw(st.booleans(), label="keepdims")
    if op in ("max", "min", "argmax", "argmin") and 0 in [a.shape[d] for d in axes]:
        return  # no identity: rejected before any runner (tested in test_reductions)
    dtype = _result_dtype(op, a)
    params: dict[str, Any] = {}
    if op in ("var", "std"):
        params = {"correction": data.draw(st.sampled_from([0.0, 1.0, 2.5]))}
    if op == "norm":
        p = data.draw(st.sampled_from([1.0, 2.0, 3.0, np.inf]))
        mode = data.draw(st.sampled_from(["plain", "plain", "lp_sum"]))
        params = {"p": p, "eps": 0.0 if mode == "plain" else 0.5, "mode": mode}
    if op == "l2_normalize":
        variant = data.draw(st.sampled_from(["tensorflow", "pytorch", "openvino-add"]))
        params = {"eps": data.draw(st.sampled_from([1e-12, 0.5, 0.0])), "variant": variant}
    with np.errstate(all="ignore"):
        want = _numpy.reduce(op, a, axes, keepdims, dtype, **params)
        run = _numpy_runners.numpy_runner(op, axes, a.ndim, keepdims, dtype, a.dtype, a.shape)
        got = run(a, params)
    _same_bits(got, want)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float16])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_a_mean_divides_as_numpys(dtype: Any, axis: int | None) -> None:
    """np.mean divides a sum by an intp count: a complex one in complex128 (complex64's own
    division, by 1/count, differs in the last bit for about half of these rows), a float16
    one (summed in float32) in float64, rounded to float16 (through float32 but for a 0-d
    result). The runners give its bits."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((50, 7)) * 300
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((50, 7))
    a = a.astype(dtype)
    want = np.asarray(a.mean(axis=axis))
    for backend in ("numpy", "numba"):
        with tt.use_backend(backend):
            _same_bits(tt.asarray(a).mean(axis=axis).numpy(), want)
    axes = (0, 1) if axis is None else (axis,)
    run = _numpy_runners.numpy_runner("mean", axes, 2, False, a.dtype, a.dtype, a.shape)
    assert run.__qualname__.startswith("_moments_runner")
    _same_bits(run(a, {}), want)


def test_moments_keep_the_numpy_backends_error_state() -> None:
    """mean/var/std of inf - inf warn in neither path; a caller's np.errstate still counts."""
    a = np.array([[np.inf, -np.inf, 1.0]], np.float32)
    t = tt.asarray(a)
    with tt.use_backend("numpy"), np.errstate(invalid="raise", over="raise"):
        for op in ("mean", "var", "std"):
            got = getattr(t, op)(axis=-1).numpy()
            assert np.isnan(got).all()
        with pytest.raises(FloatingPointError):
            tt.asarray(np.full(4, 3e38, np.float32)).mean()  # overflow is not silenced


# (layout, shape of an array of n elements in that layout, axes)
_LAYOUT_ARRAYS = {
    "full": (lambda n: (n,), (0,)),
    "rows": (lambda n: (n // 32, 32), (1,)),
    "short_rows": (lambda n: (n // 4, 4), (1,)),
    "columns": (lambda n: (32, n // 32), (0,)),
}
_PARAMS: dict[str, dict[str, Any]] = {
    "var": {"correction": 1.0},
    "std": {"correction": 0.0},
    "norm": {"p": 2.0, "eps": 0.0, "mode": "plain"},
    "l2_normalize": {"eps": 1e-12, "variant": "pytorch"},
}


#: each routed op called through its Tensor method with _PARAMS
_CALLS: dict[str, Any] = {
    "sum": lambda t, ax: t.sum(ax),
    "prod": lambda t, ax: t.prod(ax),
    "mean": lambda t, ax: t.mean(ax),
    "max": lambda t, ax: t.max(ax),
    "min": lambda t, ax: t.min(ax),
    "any": lambda t, ax: t.any(ax),
    "all": lambda t, ax: t.all(ax),
    "var": lambda t, ax: t.var(ax, correction=1.0),
    "std": lambda t, ax: t.std(ax, correction=0.0),
    "argmax": lambda t, ax: t.argmax(ax[0]),
    "argmin": lambda t, ax: t.argmin(ax[0]),
    "logsumexp": lambda t, ax: t.logsumexp(ax),
    "norm": lambda t, ax: t.norm(2, ax),
    "l2_normalize": lambda t, ax: t.l2_normalize(ax, variant="pytorch"),
    "nanmax": lambda t, ax: tt.nanmax(t, ax),  # functions only
    "nanmin": lambda t, ax: tt.nanmin(t, ax),
}


def _call(t: tt.Tensor[Any, Any], op: str, axes: tuple[int, ...]) -> Array:
    return _CALLS[op](t, axes).numpy()  # type: ignore[no-any-return]


@pytest.mark.parametrize("op", sorted(_routing.NUMBA_FROM_BYTES))
@pytest.mark.parametrize("where", sorted(_LAYOUT_ARRAYS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_every_threshold_is_crossed(
    op: str, where: str, dtype: str, fresh_plans: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each table entry moved to the test array's size: one byte more runs numpy (bit for bit
    the numpy backend), exactly its size runs the numba backend (bit for bit its kernels)."""
    if dtype == "int16" and op in ("logsumexp", "l2_normalize", "norm", "var", "std"):
        pytest.skip("float results: covered by the float dtypes")
    make_shape, axes = _LAYOUT_ARRAYS[where]
    a = np.random.default_rng(3).standard_normal(make_shape(2048)).astype(dtype)
    if dtype == "int16":
        a = (a * 3).astype(dtype)
    assert _routing.layout(a.shape, a.strides, axes) == where
    t = tt.asarray(a)
    params = {**_PARAMS.get(op, {})}
    result = _result_dtype("norm" if op == "norm" else op, a)
    table = {w: dict(v) for w, v in _routing.NUMBA_FROM_BYTES.items()}
    monkeypatch.setattr(_routing, "NUMBA_FROM_BYTES", table)
    # argmax/argmin: no plan-free path
    monkeypatch.setattr(tt._tensor_index, "_INDEX_SMALL_BYTES", 0)
    monkeypatch.setattr(tt._tensor_index, "_index_of_rows", lambda *args: None)
    monkeypatch.setattr(tt._tensor_index, "_INDEX_FULL_PLANNED_BYTES", 0)
    monkeypatch.setattr(tt._tensor_index, "_INDEX_FULL_PLANNED", np.typecodes["All"])
    with tt.use_backend("numba"), np.errstate(all="ignore"):
        table[op][where] = a.nbytes + 1
        below = _call(t, op, axes)
        _reduce_plan.clear_plans()
        table[op][where] = a.nbytes
        at = _call(t, op, axes)
        with tt.use_backend("numpy"):
            reference = _call(t, op, axes)
    with np.errstate(all="ignore"):
        kernel = _numba.reduce(op, a, axes, False, result, **params)
    assert kernel is not None
    _same_bits(below, reference)
    _same_bits(at, kernel)


@pytest.mark.parametrize("op", ["sum", "max", "argmax", "mean"])
def test_the_measured_short_row_thresholds(op: str, fresh_plans: None) -> None:
    """Around the real table entry (no monkeypatching) for short rows of float32."""
    threshold = _routing.NUMBA_FROM_BYTES[op]["short_rows"]
    assert threshold is not None and threshold <= 1 << 20
    for nbytes in (threshold - 16, threshold):
        a = np.random.default_rng(1).standard_normal((nbytes // 16, 4)).astype(np.float32)
        t = tt.asarray(a)
        dtype = _result_dtype(op, a)
        with tt.use_backend("numba"):
            got = getattr(t, op)(axis=1).numpy()
        if nbytes < threshold:
            want = _numpy.reduce(op, a, (1,), False, dtype)
        else:
            want = _numba.reduce(op, a, (1,), False, dtype)
        _same_bits(got, want)


def test_plan_cache_same_shape_other_strides_dtypes_axes(fresh_plans: None) -> None:
    base = np.arange(24, dtype=np.float64).reshape(4, 6) - 7.5
    views = {
        "C": base,
        "F": np.asfortranarray(base),
        "reversed": base[::-1, ::-1],
        "transposed": np.ascontiguousarray(base.T).T,
        "broadcast": np.broadcast_to(base[:1], (4, 6)),
    }
    for backend in ("numpy", "numba", "numpy"):
        with tt.use_backend(backend):
            for name, v in views.items():
                for dtype in ("float64", "float32", "int8", "uint16", "bool"):
                    a = v.astype(dtype)
                    t = tt.asarray(a)
                    for axis in (None, 0, 1, -1, (0, 1), (1, 0), ()):
                        for keepdims in (False, True):
                            got = t.sum(axis, keepdims).numpy()
                            want = np.sum(a, axis=axis, keepdims=keepdims)
                            assert got.shape == np.shape(want), (name, dtype, axis)
                            assert got.dtype == _result_dtype("sum", a)
                            np.testing.assert_array_equal(got, want)
                            np.testing.assert_array_equal(
                                t.max(axis, keepdims).numpy(), np.max(a, axis, keepdims=keepdims)
                            )


def test_cached_plans_keep_rejecting_what_the_rules_reject(fresh_plans: None) -> None:
    t = tt.asarray(np.ones((2, 3), np.float32))
    assert t.sum(1).shape == (2,) and t.sum((0, 1)).shape == () and t.sum(1, True).shape == (2, 1)
    for bad in (True, 1.0, (1.0,), (True, 0), [1]):
        with pytest.raises(TypeError):
            t.sum(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        t.sum(1, 1)  # type: ignore[arg-type]
    with pytest.raises(tt.AxisError):
        t.sum(2)
    for _ in range(2):  # numpy integers and bools share the plans of ints and bools
        assert t.sum(np.int64(1)).shape == (2,)  # type: ignore[arg-type]
        assert t.sum(np.int8(-1), np.True_).shape == (2, 1)  # type: ignore[arg-type]
        with pytest.raises(tt.AxisError, match="axis 2 is out of range"):
            t.sum(np.int64(2))  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            t.sum(np.float64(1.0))  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            t.sum(np.True_)  # type: ignore[arg-type]
    assert t.argmax(1).shape == (2,)
    with pytest.raises(TypeError):
        t.argmax((1,))  # type: ignore[arg-type]


def test_empty_inputs_are_checked_on_every_call(fresh_plans: None) -> None:
    t = tt.asarray(np.ones((3, 0), np.float64))
    for _ in range(2):
        assert t.norm(2, axis=1).shape == (3,)
        with pytest.raises(ValueError):
            t.norm(-np.inf, axis=1)
        with pytest.raises(ValueError):
            t.max(axis=1)
        assert t.max(axis=0).shape == (0,)


def test_broadcast_cache_keeps_errors_and_directions() -> None:
    x = tt.zeros((4, 3), tt.float32)
    y = tt.zeros((3,), tt.float32)
    z = tt.zeros((4,), tt.float32)
    for _ in range(2):
        assert (x + y).shape == (4, 3) and (y + x).shape == (4, 3)
        with pytest.raises(tt.ShapeError, match=r"shapes \(4, 3\) and \(4,\)"):
            x + z
        with pytest.raises(tt.ShapeError, match=r"shapes \(4,\) and \(4, 3\)"):
            z + x


def test_wrap_and_dtype_lookups_still_reject_unsupported_dtypes() -> None:
    for _ in range(2):
        with pytest.raises(TypeError, match="not supported"):
            tt._tensor.wrap(np.array(["a"], dtype=object))
        with pytest.raises(TypeError, match="not supported"):
            tt.Tensor(np.zeros(2, np.longdouble))
    t = tt._tensor.wrap(np.zeros(2, np.dtype(">f4")))
    assert t.dtype is tt.float32
    assert tt._tensor.wrap(np.float32(1)).shape == ()


@pytest.mark.parametrize("expected", [False, True])
def test_sizes_only_parallel_kernels_win_follow_the_machine(
    expected: bool, fresh_plans: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries where only the parallel kernels beat numpy run numba when they will run
    (checked per call) and numpy's loops while the cores are busy."""
    a = np.random.default_rng(5).standard_normal((64, 32)).astype(np.float32)
    never_serial = a.nbytes
    table = {w: dict(v) for w, v in _routing.NUMBA_FROM_BYTES.items()}
    table["sum"]["rows"] = never_serial
    monkeypatch.setattr(_routing, "NUMBA_FROM_BYTES", table)
    monkeypatch.setattr(_routing, "PARALLEL_ONLY", _routing.PARALLEL_ONLY | {("sum", "rows")})
    monkeypatch.setattr(_routing, "parallel_kernels_expected", lambda: expected)
    with tt.use_backend("numba"):
        got = tt.asarray(a).sum(axis=1).numpy()
    want = _numba.reduce("sum", a, (1,), False, a.dtype) if expected else a.sum(axis=1)
    assert want is not None
    _same_bits(got, want)


def test_parallel_kernels_expected_reads_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "0")
    assert not _routing.parallel_kernels_expected()
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "1")
    assert _routing.parallel_kernels_expected()
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "auto")
    monkeypatch.setattr(_thread_policy, "SAMPLE_S", 0.0)  # read the load on every call
    _thread_policy.reset()
    monkeypatch.setattr(_thread_policy, "CORES", 2)
    monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: 3.0)
    assert not _routing.parallel_kernels_expected()
    monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: 0.9)
    assert _routing.parallel_kernels_expected()
    monkeypatch.setattr(_thread_policy, "CORES", 1)  # one core: no second thread, however idle
    monkeypatch.setattr(_thread_policy, "runnable_tasks", lambda: 0.1)
    assert not _routing.parallel_kernels_expected()


def test_l2_norm_keeps_the_nan_sign_bits_of_the_numpy_backend() -> None:
    neg_nan = np.copysign(np.nan, -1.0)
    for dtype in ("float32", "float64"):
        a = np.array([[neg_nan, 1.0], [-np.inf, 2.0], [-0.0, -0.0]], dtype)
        for axes, keepdims in (((1,), False), ((0, 1), False), ((0,), True)):
            want = _numpy.reduce("norm", a, axes, keepdims, a.dtype, p=2.0, eps=0.0, mode="plain")
            run = _numpy_runners.numpy_runner("norm", axes, 2, keepdims, a.dtype, a.dtype, a.shape)
            _same_bits(run(a, {"p": 2.0, "eps": 0.0, "mode": "plain"}), want)


# ----------------------------------------------------- small inputs: plans without strides
def _call_int_axis(t: tt.Tensor[Any, Any], op: str, axis: int | None) -> Any:
    """``op`` over ``axis`` (an int or None, the spellings the small plans take), _PARAMS."""
    if op in ("var", "std"):
        return getattr(t, op)(axis, correction=_PARAMS[op]["correction"])
    if op == "norm":
        return t.norm(2, axis)
    if op == "l2_normalize":
        return t.l2_normalize(axis, variant="pytorch")
    return getattr(t, op)(axis)


def test_small_plans_serve_every_layout_and_backend(fresh_plans: None) -> None:
    """A small input's plan is keyed without strides nor backend: the same shape in other
    layouts, on either backend, still gives the numpy backend's bits."""
    base = np.random.default_rng(5).standard_normal((6, 10)).astype(np.float32)
    views = [base, np.asfortranarray(base), base[::-1, ::-1], np.broadcast_to(base[:1], (6, 10))]
    for backend in ("numba", "numpy", "numba"):
        with tt.use_backend(backend):
            for v in views:
                t = tt.asarray(v)
                for op in FAST_OPS:
                    for axis in (None, 0, 1, -1):
                        if op == "l2_normalize" and axis is None:
                            continue
                        got = _call_int_axis(t, op, axis).numpy()
                        axes = tt._rules.normalize_axes(axis, 2)
                        params = _PARAMS.get(op, {})
                        want = _numpy.reduce(op, v, axes, False, _result_dtype(op, v), **params)
                        _same_bits(got, want)
    assert _reduce_plan.SMALL_PLANS  # the path under test was taken


def test_small_plans_keep_rejecting_bools_floats_and_lists(fresh_plans: None) -> None:
    """``True == 1`` and ``1.0 == 1`` as dict keys: the small plans' key holds the types."""
    t = tt.asarray(np.ones((2, 3), np.float32))
    for _ in range(2):
        assert t.sum(1).shape == (2,) and t.max(0, False).shape == (3,)
        for bad in (True, 1.0, np.float64(1.0), [1]):
            with pytest.raises(TypeError):
                t.sum(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            t.max(0, 0)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            t.sum(1, [True])  # type: ignore[arg-type]


def test_larger_plans_looked_up_by_the_method_keep_rejecting(fresh_plans: None) -> None:
    """Past the small plans ``Tensor._reduce`` reads ``reduce_array``'s plans itself for int
    or None axes and bool keepdims: bools, floats and ints as keepdims still fail after a
    valid call cached the plan, numpy integers still work, and the answers are the plan's."""
    a = np.random.default_rng(8).standard_normal((256, 128)).astype(np.float32)
    assert a.nbytes >= _routing.min_numba_bytes()
    t = tt.asarray(a)
    for backend in ("numpy", "numba"):
        with tt.use_backend(backend):
            first = t.sum(1).numpy()
            assert any(key[:3] == ("sum", 1, False) for key in _reduce_plan.PLANS)
            _same_bits(t.sum(1).numpy(), first)
            _same_bits(t.sum(np.int64(1)).numpy(), first)
            for bad in (True, 1.0, np.float64(1.0)):
                with pytest.raises(TypeError):
                    t.sum(bad)  # type: ignore[arg-type]
            t.max(0)  # cached: keepdims=0 would find it by equality
            with pytest.raises(TypeError):
                t.max(0, 0)  # type: ignore[arg-type]
            with pytest.raises(tt.AxisError):
                t.max(2)


def test_small_plans_stop_at_the_smallest_numba_size(fresh_plans: None) -> None:
    """Only inputs below every op's numba size enter the small plans; one element more runs
    the validated plan of its layout (bit for bit the backend in force)."""
    limit = _routing.min_numba_bytes()
    for nbytes in (limit - 4, limit):
        a = np.random.default_rng(2).standard_normal((nbytes // 16, 4)).astype(np.float32)
        _reduce_plan.clear_plans()
        with tt.use_backend("numba"):
            got = tt.asarray(a).sum(1).numpy()
        assert bool(_reduce_plan.SMALL_PLANS) == (nbytes < limit)
        threshold = _routing.NUMBA_FROM_BYTES["sum"]["short_rows"]
        backend = _numba if nbytes >= threshold else _numpy  # type: ignore[attr-defined]
        want = backend.reduce("sum", a, (1,), False, a.dtype)
        _same_bits(got, want)
