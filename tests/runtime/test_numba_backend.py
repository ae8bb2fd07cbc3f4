"""The numba backend against the numpy reference backend, on the paths the shared suite's small
arrays never reach: rows longer than a chunk, split rows (parallel segments), multi-stage
reductions over non-adjacent axes, the serial/parallel switch, and the backend's own contract
(fallback, result types, accuracy). Arrays stay small; parallel kernels are forced by lowering
``PAR_MIN`` for a few cases only (each parallel kernel costs seconds to compile cold).
"""

from __future__ import annotations

import logging
import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt
from typedtensor._backend import _numba as nb
from typedtensor._backend import _numpy as ref
from typedtensor._backend._numba import _stages as stages

Array = np.ndarray[Any, Any]

OPS: list[tuple[str, dict[str, Any]]] = [
    ("sum", {}),
    ("mean", {}),
    ("max", {}),
    ("min", {}),
    ("any", {}),
    ("all", {}),
    ("var", {"correction": 1.0}),
    ("std", {"correction": 0.0}),
    ("logsumexp", {}),
    ("norm", {"p": 1.0, "eps": 0.0, "mode": "plain"}),
    ("norm", {"p": 2.0, "eps": 1e-3, "mode": "lp_max"}),
    ("norm", {"p": 3.0, "eps": 0.5, "mode": "power_p_sum"}),
    ("norm", {"p": math.inf, "eps": 0.0, "mode": "plain"}),
    ("norm", {"p": 0.0, "eps": 0.0, "mode": "plain"}),
    ("l2_normalize", {"eps": 1e-12, "variant": "pytorch"}),
]
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "uint64", "float32", "float64"]


def _result_dtype(op: str, dtype: np.dtype[Any]) -> np.dtype[Any]:
    if op in ("any", "all"):
        return np.dtype(bool)
    if op in ("argmax", "argmin"):
        return np.dtype(np.int64)
    if op in ("max", "min"):
        return dtype
    if dtype.kind == "f":
        return dtype
    if op in ("sum", "prod"):
        return np.dtype(np.uint64 if dtype.kind == "u" else np.int64)
    return np.dtype(np.float64)


def _nb(op: str, a: Array, axes: tuple[int, ...], dtype: Any, **params: Any) -> Array:
    """The numba backend's answer (never the numpy fallback)."""
    got = nb.reduce(op, a, axes, False, np.dtype(dtype), **params)
    assert got is not None, f"numba backend declined {op} on {a.dtype}"
    return got


def _both(
    op: str, a: Array, axes: tuple[int, ...], keepdims: bool, **params: Any
) -> tuple[Array, Array]:
    dt = _result_dtype(op, a.dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        got = nb.reduce(op, a, axes, keepdims, dt, **params)
        want = ref.reduce(op, a, axes, keepdims, dt, **params)
    assert got is not None, f"numba backend declined {op} on {a.dtype}"
    return got, want


def _check(op: str, a: Array, axes: tuple[int, ...], keepdims: bool, **params: Any) -> None:
    got, want = _both(op, a, axes, keepdims, **params)
    assert isinstance(got, np.ndarray)
    assert got.shape == want.shape, (op, got.shape, want.shape)
    assert got.dtype == want.dtype, (op, got.dtype, want.dtype)
    if got.dtype.kind != "f":
        np.testing.assert_array_equal(got, want)
        return
    # float tolerance: relative, plus the magnitude the reduction summed over
    x = np.abs(a.astype(np.float64))
    x[~np.isfinite(x)] = 0
    scale = x.max(initial=1.0) * max(1, math.prod(a.shape[d] for d in axes))
    eps = 2e-6 if got.dtype == np.float32 else 1e-13
    rtol = 1e-3 if got.dtype == np.float32 else 1e-9
    if op in ("var", "std"):
        scale = scale * x.max(initial=1.0)
    if op == "l2_normalize":
        scale = 1.0
    np.testing.assert_allclose(got, want, rtol=rtol, atol=eps * scale, equal_nan=True)


@st.composite
def _cases(draw: st.DrawFn, dtypes: list[str] = DTYPES) -> tuple[Array, tuple[int, ...]]:
    """Arrays of rank 1-4 with one long dim (crosses the 2048-element chunk), any layout."""
    dtype: Any = np.dtype(draw(st.sampled_from(dtypes)))
    rank = draw(st.integers(1, 4))
    shape = [draw(st.integers(1, 5)) for _ in range(rank)]
    shape[draw(st.integers(0, rank - 1))] = draw(st.sampled_from([1, 7, 300, 2049, 4500]))
    n = math.prod(shape)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    base: Array
    if dtype.kind == "f":
        base = rng.uniform(-4, 4, n).astype(dtype)
        if draw(st.booleans()):  # a few NaN / inf at random places
            for v in draw(st.lists(st.sampled_from([np.nan, np.inf, -np.inf]), max_size=3)):
                base[rng.integers(0, n)] = v
    elif dtype.kind == "b":
        base = rng.random(n) < draw(st.sampled_from([0.0, 0.5, 1.0]))
    else:
        info = np.iinfo(dtype)
        base = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    a = base.reshape(shape)
    layout = draw(st.sampled_from(["C", "F", "negative", "transposed", "strided", "broadcast"]))
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "negative":
        a = a[::-1, ...] if rank == 1 else a[::-1, :, ...][:, ::-1]
    elif layout == "transposed":
        a = a.transpose(draw(st.permutations(range(rank))))
    elif layout == "strided":
        a = np.repeat(a, 2, axis=0)[::2]
    elif layout == "broadcast":
        a = np.broadcast_to(a[..., :1], a.shape)
    axes = tuple(sorted(draw(st.lists(st.integers(0, rank - 1), unique=True, min_size=1))))
    return a, axes


@settings(max_examples=150)
@given(case=_cases(), op=st.sampled_from(OPS), keepdims=st.booleans())
def test_numba_matches_numpy_backend(
    case: tuple[Array, tuple[int, ...]], op: tuple[str, dict[str, Any]], keepdims: bool
) -> None:
    """Random shapes, axes, dtypes, layouts and NaN/inf: same shape, dtype and values."""
    a, axes = case
    name, params = op
    if name == "l2_normalize":
        keepdims = False
    _check(name, a, axes, keepdims, **params)


@settings(max_examples=60)
@given(case=_cases(), ismax=st.booleans(), keepdims=st.booleans(), flat=st.booleans())
def test_numba_arg_matches_numpy(
    case: tuple[Array, tuple[int, ...]], ismax: bool, keepdims: bool, flat: bool
) -> None:
    """argmax/argmin: one axis, or all axes (C-order flat index); first occurrence, NaN wins."""
    a, axes = case
    axes = tuple(range(a.ndim)) if flat else axes[:1]
    _check("argmax" if ismax else "argmin", a, axes, keepdims)


@settings(max_examples=40)
@given(case=_cases(dtypes=["int8", "int64", "float64"]))
def test_numba_prod_matches_numpy(case: tuple[Array, tuple[int, ...]]) -> None:
    """prod: ints wrap exactly as numpy's int64; floats near 1 so the product stays finite."""
    a, axes = case
    if a.dtype.kind == "f":
        a = 1.0 + a / 4096.0
    _check("prod", a, axes, False)


@pytest.mark.parametrize("ismax", [True, False])
@pytest.mark.parametrize("where", [0, 5, 2047, 2048, 4000])
def test_first_nan_wins_across_chunks(ismax: bool, where: int) -> None:
    """The NaN at ``where`` decides argmax/argmin, max/min and logsumexp, in any chunk."""
    a = np.linspace(-1, 1, 4500)
    a[-1] = 10.0 if ismax else -10.0
    a[where] = np.nan
    a[4100] = np.nan  # a later NaN never wins over the first
    for axes_a in (a, a.reshape(1, -1), np.ascontiguousarray(a.reshape(-1, 1))):
        ax = (0,) if axes_a.shape[0] > 1 else (axes_a.ndim - 1,)
        _check("argmax" if ismax else "argmin", axes_a, ax, False)
        _check("max" if ismax else "min", axes_a, ax, False)
        _check("logsumexp", axes_a, ax, False)
    assert _nb("argmax", a, (0,), np.int64) == where


def test_ties_take_the_first_index() -> None:
    a = np.zeros((3, 5000), np.float32)
    a[:, [100, 2500, 4999]] = 7.0
    got = _nb("argmax", a, (1,), np.int64)
    np.testing.assert_array_equal(got, [100, 100, 100])
    got = _nb("argmax", np.ascontiguousarray(a.T), (0,), np.int64)
    np.testing.assert_array_equal(got, [100, 100, 100])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint64"])
@pytest.mark.parametrize("n", [127, 128, 300, 2051])
def test_prefetched_max_min_match_numpy(
    monkeypatch: pytest.MonkeyPatch, dtype: str, n: int
) -> None:
    """Arrays beyond the caches take the max/min paths that prefetch by chunks of PF_CH bytes
    (rows, and the vertical kernel's whole rows); forced here on small arrays: rows shorter
    than, equal to and longer than a chunk, ragged ends, NaN in any chunk, the last included."""
    monkeypatch.setattr(nb.kern, "PF_MIN", 0)
    rng = np.random.default_rng(n)
    if np.dtype(dtype).kind == "f":
        a = rng.uniform(-4, 4, (6, n)).astype(dtype)
        a[1, n // 2] = np.nan
        a[2, n - 1] = np.nan
        a[3, 0] = np.nan
        a[4] = -np.inf
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, (6, n), dtype=dtype, endpoint=True)
    for op in ("max", "min"):
        _check(op, a, (1,), False)  # horizontal
        _check(op, a, (0,), False)  # vertical, rows of n
        _check(op, a.reshape(2, 3, n), (1,), True)  # vertical, outer blocks
        _check(op, a, (0, 1), False)


# ----------------------------------------------------------------------------- narrow rows
_NARROW_OPS = [*OPS, ("argmax", {}), ("argmin", {}), ("prod", {})]


def _tall(rows: int, r: int, dtype: str, seed: int) -> Array:
    """``rows`` short rows of length ``r`` (the transposed-block kernels): NaN/inf and ties."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random((rows, r)) < 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 5, (rows, r)).astype(dtype)  # many ties
    a = rng.uniform(-4, 4, (rows, r)).astype(dtype)
    flat = a.reshape(-1)
    flat[rng.integers(0, a.size, 6)] = np.nan
    flat[rng.integers(0, a.size, 3)] = np.inf
    flat[rng.integers(0, a.size, 3)] = -np.inf
    a[5] = -np.inf  # a whole row of -inf (logsumexp, max)
    return a


@pytest.mark.parametrize("r", [2, 3, 4, 5, 16])
@pytest.mark.parametrize(("op", "params"), _NARROW_OPS, ids=lambda v: str(v))
def test_narrow_rows_match_numpy(r: int, op: str, params: dict[str, Any]) -> None:
    """Tall arrays of short rows (more than one block of rows), float64 with NaN/inf."""
    rows = 2 * nb._rb(r, 1) + 7
    a = _tall(rows, r, "float64", r)
    if op == "prod":
        a = 1.0 + a / 4096.0
    _check(op, a, (1,), False, **params)
    _check(op, a[:, ::-1], (1,), True, **params)  # reversed rows: flipped, still narrow


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32"])
@pytest.mark.parametrize("op", ["sum", "max", "argmin", "var", "logsumexp", "any"])
def test_narrow_rows_dtypes(dtype: str, op: str) -> None:
    """Every dtype family through the transposed-block kernels."""
    params = {"correction": 0.0} if op == "var" else {}
    a = _tall(3000, 4, dtype, 7)
    _check(op, a, (1,), False, **params)
    assert nb._narrow(3000, 4, 1)  # the path under test


# ----------------------------------------------------------------------------- parallel paths
@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the parallel kernels on small arrays (segments split rows and columns)."""
    monkeypatch.setattr(stages, "PAR_MIN", 0)
    monkeypatch.setattr(stages, "_threads", lambda: 2)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "1")


@pytest.mark.usefixtures("parallel")
@pytest.mark.parametrize(
    ("shape", "axes"),
    [
        ((3, 70000), (1,)),
        ((2, 3000, 5), (1,)),
        ((40000,), (0,)),
        ((5, 6, 2100), (0, 2)),
        ((5000, 4), (1,)),  # short rows: the parallel narrow kernels
    ],
)
@pytest.mark.parametrize(
    ("op", "params"),
    [
        ("sum", {}),
        ("max", {}),
        ("var", {"correction": 0.0}),
        ("logsumexp", {}),
        ("argmax", {}),
        ("l2_normalize", {"eps": 0.0, "variant": "tensorflow"}),
    ],
)
def test_parallel_segments_match(
    shape: tuple[int, ...], axes: tuple[int, ...], op: str, params: dict[str, Any]
) -> None:
    """Rows and columns split into segments whose partials are merged: same answers."""
    if op == "argmax" and len(axes) > 1:
        axes = axes[:1]
    rng = np.random.default_rng(1)
    a = rng.standard_normal(shape) + 3.0
    a.reshape(-1)[rng.integers(0, a.size, 3)] = a.max() + 1  # ties for argmax
    _check(op, a, axes, False, **params)


# ----------------------------------------------------------------------------- accuracy
def test_float32_sum_no_worse_than_numpy() -> None:
    """Contiguous and strided axes: error against the exact sum within numpy's (or tiny)."""
    rng = np.random.default_rng(2)
    a = rng.uniform(0, 1, (1 << 18, 8)).astype(np.float32)
    for axes in [(0,), (1,), (0, 1)]:
        exact = np.sum(a.astype(np.float64), axis=axes)  # float64 of float32 data: ~exact
        got = _nb("sum", a, axes, np.float32)
        ours = np.max(np.abs(got.astype(np.float64) - exact) / np.abs(exact))
        theirs = np.max(np.abs(np.sum(a, axis=axes).astype(np.float64) - exact) / np.abs(exact))
        assert ours <= max(theirs, 1e-7), (axes, ours, theirs)


def test_var_survives_a_large_offset() -> None:
    """x = 1e9 + N(0, 1): one-pass E[x^2]-E[x]^2 fails here; the chunked two-pass does not."""
    rng = np.random.default_rng(3)
    noise = rng.standard_normal((6000, 3))
    a = 1e9 + noise
    for axes in [(0,), (1,), (0, 1)]:
        got = _nb("var", a, axes, np.float64, correction=0.0)
        want = np.var(a - 1e9, axis=axes)  # the subtraction is exact near 1e9
        np.testing.assert_allclose(got, want, rtol=1e-6)
        naive = np.mean(a * a, axis=axes) - np.mean(a, axis=axes) ** 2
        assert np.max(np.abs(naive - want)) > 0.1  # the case does defeat the one-pass formula


def test_correction_at_or_above_n_gives_inf_or_nan() -> None:
    a = np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]])
    got = _nb("var", a, (1,), np.float64, correction=3.0)
    assert np.isinf(got[0]) and np.isnan(got[1])


@pytest.mark.parametrize("variant", ["tensorflow", "pytorch"])
@pytest.mark.parametrize("axis", [0, 1])
def test_l2_normalize_of_zeros_without_eps_is_nan_as_numpys(variant: str, axis: int) -> None:
    """A zero row (column) over eps=0 divides 0 by 0: NaN, as numpy's division (the scaling
    kernel raised ZeroDivisionError under numba's default error model); also through the
    plan-bound kernels of a Tensor method."""
    a = np.random.default_rng(8).standard_normal((300, 260)).astype(np.float32)
    a[7] = 0.0
    a[:, 9] = 0.0
    params = {"eps": 0.0, "variant": variant}
    with np.errstate(all="ignore"):
        want = ref.reduce("l2_normalize", a, (axis,), True, np.dtype(np.float32), **params)
        got = nb.reduce("l2_normalize", a, (axis,), True, np.dtype(np.float32), **params)
        with tt.use_backend("numba"):
            method = tt.asarray(a).l2_normalize(axis, 0.0, variant).numpy()
    assert np.isnan(want).any()
    for result in (got, method):  # NaN where numpy's are; float32 sums accumulate in float64
        np.testing.assert_array_equal(np.isnan(result), np.isnan(want))
        np.testing.assert_allclose(result, want, rtol=2e-6)


# ----------------------------------------------------------------------------- contract
def test_full_reduction_is_0d_array_of_the_result_dtype() -> None:
    got = _nb("sum", np.arange(10, dtype=np.int8), (0,), np.int64)
    assert isinstance(got, np.ndarray) and got.shape == () and got.dtype == np.int64
    assert got == 45
    s = tt.asarray(np.arange(10, dtype=np.float32)).sum()
    assert s.dtype is tt.float32


def test_unsupported_dtype_falls_back_with_a_debug_line(caplog: pytest.LogCaptureFixture) -> None:
    a = np.arange(6, dtype=np.float16).reshape(2, 3)
    assert nb.reduce("sum", a, (1,), False, np.dtype(np.float16)) is None
    from typedtensor import _backend

    with tt.use_backend("numba"), caplog.at_level(logging.DEBUG, logger="typedtensor"):
        got = _backend.reduce("sum", a, (1,), False, np.dtype(np.float16))
    np.testing.assert_array_equal(got, [3, 12])
    assert any("numba does not cover sum" in r.getMessage() for r in caplog.records)


def test_numba_is_the_default_backend() -> None:
    from typedtensor import _backend

    assert _backend.DEFAULT_BACKEND == "numba"
    with tt.use_backend("numpy"):
        assert _backend.get_backend() == "numpy"


def test_empty_and_trivial_reductions_follow_numpy() -> None:
    e = np.zeros((0, 3), np.float32)
    _check("sum", e, (0,), False)
    _check("mean", e, (0,), True)
    _check("logsumexp", e, (0,), False)
    one = np.arange(4.0).reshape(4, 1)
    for op, params in OPS:
        if op != "l2_normalize":
            _check(op, one, (1,), False, **params)


_GAPPED_VIEWS = {
    "every other row": lambda a: a[::2],
    "every other column": lambda a: a[:, ::2],
    "reversed rows, every other column": lambda a: a[::-1, ::2],
    "transposed, every other row": lambda a: a.T[::2],
}


@pytest.mark.parametrize("view", list(_GAPPED_VIEWS))
def test_a_gapped_input_is_copied_in_its_memory_order(view: str) -> None:
    """A layout that is not one contiguous block is copied once, in the order its memory
    runs, so a reduction over its outer axis stays one over a strided axis (a copy into
    (kept..., reduced...) order transposed the memory: var over axis 0 of ``x[::2]`` took
    2-4x numpy's time). Answers as numpy's over each axis."""
    from typedtensor._backend._numba._canonical import _canon

    base = np.random.default_rng(3).standard_normal((40, 30))
    a = _GAPPED_VIEWS[view](base)
    outer = int(np.argmax(np.abs(a.strides)))
    c = _canon(a, (outer,))
    assert c.copied and c.perm == [outer, 1 - outer]
    assert c.groups == [(a.shape[outer], True), (a.shape[1 - outer], False)]
    assert c.b.flags.c_contiguous
    for axis in (0, 1):
        for op, params in [("var", {"correction": 1.0}), ("argmax", {}), ("logsumexp", {})]:
            _check(op, a, (axis,), False, **params)
            _check(op, _GAPPED_VIEWS[view](base.astype(np.float32)), (axis,), True, **params)


@pytest.mark.parametrize("op", ["sum", "max", "var", "argmax", "logsumexp", "l2_normalize"])
def test_poisoned_out_buffer_is_fully_overwritten(op: str) -> None:
    """An out= buffer full of garbage ends up holding exactly the fresh result."""
    rng = np.random.default_rng(5)
    x = tt.asarray(rng.standard_normal((7, 2500)).astype(np.float32))
    with tt.use_backend("numba"):
        fresh = getattr(x, op)(axis=1)
        poison = np.full(fresh.shape, np.nan if fresh.dtype.name.startswith("float") else -7)
        out = tt.asarray(poison.astype(np.asarray(fresh).dtype))
        got = getattr(x, op)(axis=1, out=out)
    assert got is out
    np.testing.assert_array_equal(np.asarray(out), np.asarray(fresh))
