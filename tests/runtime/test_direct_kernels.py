"""The plan-bound serial kernels (``typedtensor/_backend/_numba/direct.py``) give the numba
backend's answers bit for bit (its ``reduce`` with the serial kernels), take only the layouts
they can read as one ``(O, R, I)`` view, and the routing runs them from ``DIRECT_FROM_BYTES``
below the backend's own table."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import _reduce_plan
from typedtensor._backend import _numba, _numpy, _routing
from typedtensor._backend._numba.direct import DIRECT_OPS, direct_runner

from .test_fast_paths import _result_dtype, _same_bits

Array = np.ndarray[Any, Any]

_PARAMS: dict[str, dict[str, Any]] = {
    "var": {"correction": 1.0},
    "std": {"correction": 0.0},
    "norm": {"p": 2.0, "eps": 0.0, "mode": "plain"},
    "l2_normalize": {"eps": 1e-12, "variant": "tensorflow"},
}
#: (shape, axes): rows, columns, full, 3-D blocks, size-1 dims among the kept and reduced ones
_LAYOUTS = [
    ((64, 300), (1,)),
    ((90, 37), (1,)),
    ((300, 64), (0,)),
    ((3000,), (0,)),
    ((40, 70), (0, 1)),
    ((5, 40, 70), (1,)),
    ((5, 40, 70), (1, 2)),
    ((5, 40, 70), (0, 1)),
    ((6, 1, 50, 1, 30), (2,)),
    ((6, 1, 50, 1, 30), (1, 2, 3)),
    ((7, 33), (0,)),
]


@pytest.fixture
def serial_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The backend's ``reduce`` runs its serial kernels (what the direct runs replay)."""
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "0")


@pytest.fixture
def backend_reduce_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ops the numba backend's ``reduce`` is called for (it still runs them)."""
    calls: list[str] = []
    backend_reduce = _numba.reduce

    def spy(op: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(op)
        return backend_reduce(op, *args, **kwargs)

    monkeypatch.setattr(_numba, "reduce", spy)
    return calls


def _array(shape: tuple[int, ...], dtype: str, op: str, seed: int = 0) -> Array:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) > 0.3
    if op == "prod" and dtype.startswith("float"):
        return (1 + rng.random(shape) * 0.01).astype(dtype)  # no overflow to hide differences
    a = (rng.standard_normal(shape) * 3).astype(dtype)
    if dtype.startswith("float"):
        a.flat[::97] = np.nan
        a.flat[5::211] = -np.inf
    return a


def _general(op: str, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Any:
    return lambda a, params: np.asarray(_numba.reduce(op, a, axes, keepdims, dtype, **params))


@pytest.mark.parametrize("op", sorted(DIRECT_OPS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool"])
def test_direct_runs_equal_the_backends_serial_kernels(
    op: str, dtype: str, serial_kernels: None
) -> None:
    if dtype == "bool" and op in ("mean", "var", "std", "logsumexp", "l2_normalize"):
        pytest.skip("float results of bool input: covered by the integer dtypes")
    for shape, axes in _LAYOUTS:
        if op in ("argmax", "argmin") and len(axes) > 1 and len(axes) != len(shape):
            continue  # one axis or all of them
        a = _array(shape, dtype, op)
        result = _result_dtype(op, a)
        params_list = [_PARAMS.get(op, {})]
        if op == "norm":
            params_list += [{"p": p, "eps": 0.0, "mode": "plain"} for p in (1, 3.0, math.inf, 0)]
            params_list += [{"p": 2.0, "eps": 0.5, "mode": "lp_sum"}]
        if op == "l2_normalize":
            variants = ("pytorch", "openvino-max", "openvino-add")
            params_list += [{"eps": 0.5, "variant": v} for v in variants]
        for keepdims in (False, True):
            general = _general(op, axes, keepdims, result)
            run = direct_runner(op, a.shape, a.strides, axes, keepdims, result, a.dtype, general)
            assert run is not None, (shape, axes)
            for params in params_list:
                with np.errstate(all="ignore"):
                    want = general(a, params)
                    got = run(a, params)
                _same_bits(got, want)
                assert got.shape == _numpy.reduce(op, a, axes, keepdims, result, **params).shape


@pytest.mark.parametrize(
    "make",
    [
        lambda a: np.asfortranarray(a),
        lambda a: a[:, ::2],
        lambda a: a[::-1],
        lambda a: np.broadcast_to(a[:1], a.shape),
        lambda a: np.ascontiguousarray(a.T).T,
    ],
    ids=["fortran", "gaps", "reversed", "broadcast", "transposed"],
)
def test_layouts_that_are_not_one_contiguous_block_go_to_reduce(make: Any) -> None:
    a = make(_array((40, 64), "float32", "sum"))
    general = _general("sum", (1,), False, a.dtype)
    assert direct_runner("sum", a.shape, a.strides, (1,), False, a.dtype, a.dtype, general) is None


def test_what_else_goes_to_reduce() -> None:
    f32 = np.dtype(np.float32)

    def runner(op: str, shape: tuple[int, ...], axes: tuple[int, ...], **kw: Any) -> Any:
        dtype = kw.get("input_dtype", f32)
        a = np.zeros(shape, dtype)
        result = kw.get("result", _result_dtype(op, a))
        general = _general(op, axes, False, result)
        return direct_runner(op, shape, a.strides, axes, False, result, dtype, general)

    assert runner("sum", (4, 5, 6), (0, 2)) is None  # reduced dims not one block
    assert runner("sum", (2048, 4), (1,)) is None  # short rows: the backend's narrow kernels
    assert runner("sum", (0, 6), (1,)) is None  # empty
    assert runner("sum", (8, 1), (1,)) is None  # nothing to reduce
    assert runner("sum", (8, 6), (1,), result=np.dtype(np.float64)) is None  # dtype=
    assert runner("sum", (8, 6), (1,), input_dtype=np.dtype(np.float16)) is None
    assert runner("sum", (8, 6), (1,), input_dtype=np.dtype(np.complex64)) is None
    assert runner("nansum", (8, 6), (1,)) is None  # not a direct op
    assert runner("sum", (8, 6), (1,)) is not None


@pytest.mark.parametrize("op", ["sum", "max", "argmax", "var", "norm", "any", "l2_normalize"])
@pytest.mark.parametrize("where", ["rows", "columns", "full"])
def test_the_routing_runs_them_from_their_table(
    op: str, where: str, fresh_plans: None, serial_kernels: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each ``DIRECT_FROM_BYTES`` range moved to start at the test array's size: one byte more
    runs numpy's loops (bit for bit the numpy backend), exactly its size the direct kernel (bit
    for bit the numba backend's kernels), and a range ending at its size numpy's loops."""
    shape, axes = {"rows": ((64, 48), (1,)), "columns": ((48, 64), (0,)), "full": ((3072,), (0,))}[
        where
    ]
    a = _array(shape, "float32", op, seed=4)
    assert _routing.layout(a.shape, a.strides, axes) == where
    t = tt.asarray(a)
    params = _PARAMS.get(op, {})
    call = {
        "var": lambda: t.var(axes, correction=1.0),
        "norm": lambda: t.norm(2, axes),
        "argmax": lambda: t.argmax(axes[0]),
        "l2_normalize": lambda: t.l2_normalize(axes, 1e-12, "tensorflow"),
    }.get(op, lambda: getattr(t, op)(axes))
    table = {o: dict(v) for o, v in _routing.DIRECT_FROM_BYTES.items()}
    monkeypatch.setattr(_routing, "DIRECT_FROM_BYTES", table)
    monkeypatch.setattr(tt._tensor_index, "_INDEX_SMALL_BYTES", 0)
    monkeypatch.setattr(tt._tensor_index, "_index_of_rows", lambda *args: None)
    monkeypatch.setattr(tt._tensor_index, "_INDEX_FULL_PLANNED_BYTES", 0)
    monkeypatch.setattr(tt._tensor_index, "_INDEX_FULL_PLANNED", np.typecodes["All"])
    result = _result_dtype(op, a)
    with tt.use_backend("numba"), np.errstate(all="ignore"):
        table.setdefault(op, {})[where] = (a.nbytes + 1, None)
        below = call().numpy()
        _reduce_plan.clear_plans()
        table[op][where] = (a.nbytes, None)
        at = call().numpy()
        (plan,) = _reduce_plan.PLANS.values()
        _reduce_plan.clear_plans()
        table[op][where] = (1, a.nbytes)  # the range's end is numpy's again
        above = call().numpy()
        want_numpy = _numpy.reduce(op, a, axes, False, result, **params)
        want_kernels = np.asarray(_numba.reduce(op, a, axes, False, result, **params))
    assert plan.__module__ == "typedtensor._backend._numba.direct"
    _same_bits(below, want_numpy)
    _same_bits(above, want_numpy)
    _same_bits(at, want_kernels)


def test_ranges_for_some_dtypes_and_row_lengths_only() -> None:
    """``DIRECT_DTYPES`` and ``DIRECT_LONGEST`` narrow a range: argmax over float32 rows of up
    to the longest length runs the kernels; float64, int16 or longer rows, and a whole array
    (one long row), numpy's loops; a product over rows numpy's loop, over columns the kernels
    (every dtype)."""

    def runs_kernels(op: str, shape: tuple[int, ...], axes: tuple[int, ...], dtype: Any) -> bool:
        a = np.zeros(shape, dtype)
        result = _result_dtype(op, a)
        run = _routing.runner(
            "numba", op, a.shape, a.strides, a.itemsize, axes, False, result, a.dtype
        )
        return bool(run.__module__ == "typedtensor._backend._numba.direct")

    longest = _routing.DIRECT_LONGEST["argmax", "rows"]
    rows = (1 << 16) // longest  # 64 K elements: past these ranges' starts, serial kernels
    assert runs_kernels("argmax", (rows, longest), (1,), np.float32)
    assert runs_kernels("argmin", (rows, longest), (1,), np.float32)
    assert not runs_kernels("argmax", (rows // 2, longest * 2), (1,), np.float32)
    for other in (np.float64, np.int16):
        assert not runs_kernels("argmax", (rows, longest), (1,), other)
    assert not runs_kernels("argmax", (rows * longest,), (0,), np.float32)
    assert runs_kernels("argmax", (longest, rows), (0,), np.int16)  # columns: every dtype
    for dtype in (np.float64, np.float32):  # products over rows: numpy's loop (faster)
        assert not runs_kernels("prod", (rows, longest), (1,), dtype)
    assert runs_kernels("prod", (longest, rows), (0,), np.float32)  # columns: every dtype
    assert runs_kernels("l2_normalize", (rows, longest), (0,), np.float32)


@pytest.mark.parametrize("parallel", [False, True])
def test_argmax_rows_past_the_backends_threshold(
    parallel: bool, backend_reduce_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """From ``NUMBA_FROM_BYTES``' size argmax over float rows runs the parallel kernels while
    they will run (``NUMBA_DTYPES``: floats only); serially the direct kernels where they apply,
    numpy's loops elsewhere; integer rows numpy's loops at any size."""
    monkeypatch.setattr(_routing, "parallel_kernels_expected", lambda: parallel)
    start = _routing.NUMBA_FROM_BYTES["argmax"]["rows"]
    assert start is not None and ("argmax", "rows") in _routing.PARALLEL_ONLY
    calls = backend_reduce_calls
    rng = np.random.default_rng(9)
    for dtype, length, floats in [
        (np.float32, 256, True),  # serially the direct kernels
        (np.float32, 512, True),  # serially numpy's loops (longer than DIRECT_LONGEST)
        (np.float64, 256, True),  # serially numpy's loops (DIRECT_DTYPES)
        (np.int16, 256, False),
    ]:
        itemsize = np.dtype(dtype).itemsize
        a = (rng.standard_normal((start // (itemsize * length), length)) * 9).astype(dtype)
        result = np.dtype(np.int64)
        run = _routing.runner(
            "numba", "argmax", a.shape, a.strides, a.itemsize, (1,), False, result, a.dtype
        )
        calls.clear()
        got = run(a, {})
        np.testing.assert_array_equal(got, a.argmax(axis=1))
        assert calls == (["argmax"] if parallel and floats else []), (dtype, length)
        below = a[: a.shape[0] // 2]  # under the threshold: never the backend's reduce
        run = _routing.runner(
            "numba",
            "argmax",
            below.shape,
            below.strides,
            below.itemsize,
            (1,),
            False,
            result,
            below.dtype,
        )
        calls.clear()
        run(below, {})
        assert not calls


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("size", ["serial", "parallel"])
def test_past_the_backends_own_threshold(
    parallel: bool,
    size: str,
    fresh_plans: None,
    backend_reduce_calls: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where both tables say numba: below ``PARALLEL_FROM_ELEMENTS`` the direct kernels (the
    backend would run the same serial ones); from it the backend's ``reduce`` while its
    parallel kernels will run (checked per call), the direct kernels otherwise."""
    a = _array((64, 48), "float32", "sum")
    table = {o: dict(v) for o, v in _routing.NUMBA_FROM_BYTES.items()}
    table["sum"]["rows"] = a.nbytes
    direct = {o: dict(v) for o, v in _routing.DIRECT_FROM_BYTES.items()}
    direct["sum"]["rows"] = (a.nbytes, None)
    monkeypatch.setattr(_routing, "NUMBA_FROM_BYTES", table)
    monkeypatch.setattr(_routing, "DIRECT_FROM_BYTES", direct)
    if size == "parallel":
        monkeypatch.setattr(_routing, "PARALLEL_FROM_ELEMENTS", a.size)
    monkeypatch.setattr(_routing, "parallel_kernels_expected", lambda: parallel)
    calls = backend_reduce_calls
    with tt.use_backend("numba"):
        got = tt.asarray(a).sum(1).numpy()
    assert calls == (["sum"] if size == "parallel" and parallel else [])
    _same_bits(got, np.asarray(_numba.reduce("sum", a, (1,), False, a.dtype)))


def test_min_numba_bytes_counts_the_direct_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The small plans (keyed without strides nor backend) stop below every direct entry."""
    direct = {o: dict(v) for o, v in _routing.DIRECT_FROM_BYTES.items()}
    direct["sum"]["rows"] = (1024, None)
    monkeypatch.setattr(_routing, "DIRECT_FROM_BYTES", direct)
    assert _routing.min_numba_bytes() == 1024
    assert _routing.min_numba_bytes(("sum",)) == 1024
    assert _routing.min_numba_bytes(("max",)) > 1024
