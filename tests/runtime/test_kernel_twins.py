"""The kernels' numpy twins (``typedtensor/_backend/kernel_twins.py``, ``logsumexp_twin.py``)
give the numba kernels' bits: the numba backend's ``reduce`` inside ``kernel_twins.serving()``
equals its ``reduce`` outside, byte for byte, in every layout its stages take (horizontal
rows and their lane counts, chunks and segments, vertical column blocks, short rows), and the
twins did run (a spy counts them). An op a twin does not reproduce runs its kernel."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from typedtensor import _rules as rules
from typedtensor._backend import _numba as nb
from typedtensor._backend import kernel_twins, logsumexp_twin
from typedtensor._backend._thread_policy import PARALLEL_FROM_ELEMENTS

Array = np.ndarray[Any, Any]

_PARAMS: dict[str, dict[str, Any]] = {
    "sum": {},
    "mean": {},
    "var": {"correction": 0.0},
    "std": {"correction": 1.0},
    "norm1": {"p": 1.0, "eps": 0.0, "mode": "plain"},
    "norm2": {"p": 2.0, "eps": 0.0, "mode": "plain"},
    "logsumexp": {},
}
#: (shape, axes, the twins expected to run): rows short and long (the lane counts change at
#: 512, chunks at 2048), whole arrays split into segments, columns wide and narrow (the
#: vertical branches at 64, 1024 and 4096 columns and 64 rows), short rows (transposed)
_LAYOUTS: list[tuple[tuple[int, ...], tuple[int, ...], str]] = [
    ((37,), (0,), "h"),
    ((16,), (0,), "h"),
    ((511,), (0,), "h"),
    ((513,), (0,), "h"),
    ((2048 * 3 + 5,), (0,), "h"),
    ((PARALLEL_FROM_ELEMENTS + 4099,), (0,), "h"),  # segments: the parallel split
    ((7, 2049), (1,), "h"),
    ((600, 1000), (1,), "h"),
    ((900, 300), (1,), "h"),  # many short rows: 32-blocks, an 8-block and a rest
    ((200, 700), (0, 1), "h"),
    ((300, 70), (0,), "v"),
    ((70, 300), (0,), "v"),
    ((200, 1500), (0,), "v"),
    ((70, 5000), (0,), "v"),
    ((3000, 200), (0,), "v"),
    ((40, 30, 20), (0, 2), "hv"),
    ((5000, 3), (1,), "n"),
    ((2100, 16), (1,), "n"),
]


@pytest.fixture(autouse=True)
def serial_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference runs the serial kernels (the parallel ones give the same bits)."""
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_PARALLEL", "0")


@pytest.fixture
def twin_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """The twins that ran to the end (not handing back to their kernel), by kernel name."""
    runs: dict[str, int] = {}
    spied = dict(kernel_twins.TWINS)
    for name, twin in spied.items():

        def spy(*args: Any, _twin: Any = twin, _name: str = name) -> object:
            result = _twin(*args)
            if result is not kernel_twins.NOT_TWINNED:
                runs[_name] = runs.get(_name, 0) + 1
            return result

        spied[name] = spy
    monkeypatch.setattr(kernel_twins, "TWINS", spied)
    yield runs


def _reduce(op: str, a: Array, axes: tuple[int, ...]) -> Array:
    name = "norm" if op.startswith("norm") else op
    dtype = np.dtype(rules.result_dtype(rules.REDUCTIONS[name].dtype_rule, a.dtype.name))
    result = nb.reduce(name, a, axes, True, dtype, **_PARAMS[op])
    assert result is not None
    return np.asarray(result)


def _assert_twins_give_the_kernels_bits(op: str, a: Array, axes: tuple[int, ...]) -> None:
    with warnings.catch_warnings(record=True) as kernel_warnings:
        warnings.simplefilter("always")
        want = _reduce(op, a, axes)
    with kernel_twins.serving(), warnings.catch_warnings(record=True) as twin_warnings:
        warnings.simplefilter("always")
        got = _reduce(op, a, axes)
    # the twins warn of what the kernels' run warns of, nothing more
    assert [str(w.message) for w in twin_warnings] == [str(w.message) for w in kernel_warnings]
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (op, a.shape, a.dtype, axes)


def _data(shape: tuple[int, ...], dtype: str, seed: int) -> Array:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.3
    if dtype == "int32":
        return rng.integers(-1000, 1000, shape).astype(np.int32)
    a = rng.standard_normal(shape).astype(dtype) * 3
    a.reshape(-1)[3] = -0.0
    return a


def _twins_of(op: str, dtype: str, where: str) -> set[str]:
    """The twins a reduction of ``op`` runs in the kernel layouts ``where`` (h: rows, v:
    columns, n: short rows)."""
    if op == "logsumexp":
        if dtype != "float32":
            return set()  # no twin: float64's exp fuses 53-bit multiply-adds
        family = "lse"
    elif op in ("var", "std"):
        family = "var"
    else:
        family = "acc"
    if family != "acc" and where == "hv":
        where = "h"  # one kernel stage; the other axes' partials merge in numpy
    names = {"h": f"{family}_h", "v": f"{family}_v", "n": f"{family}_n"}
    if family == "acc":
        rows = {"sum": "sum_h", "mean": "sum_h", "norm2": "sumsq_h"}
        names["h"] = rows.get(op, "acc_h")
        names["v"] = "nrm_v" if op.startswith("norm") and where != "hv" else "acc_v"
    return {names[w] for w in where}


@pytest.mark.parametrize("op", sorted(_PARAMS))
@pytest.mark.parametrize(("shape", "axes", "where"), _LAYOUTS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_twins_give_the_kernels_bits(
    op: str,
    shape: tuple[int, ...],
    axes: tuple[int, ...],
    where: str,
    dtype: str,
    twin_runs: dict[str, int],
) -> None:
    _assert_twins_give_the_kernels_bits(op, _data(shape, dtype, 1), axes)
    assert set(twin_runs) == _twins_of(op, dtype, where)  # a norm's later stage sums: acc_v


@pytest.mark.parametrize("op", sorted(_PARAMS))
def test_the_twins_blocks_do_not_change_the_bits(op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The twins take rows (horizontal) and columns (vertical) a block at a time; blocks of a
    few elements give the same bits (rows and columns split mid-task included)."""
    monkeypatch.setattr(kernel_twins, "BLOCK_ELEMENTS", 50)
    monkeypatch.setattr(kernel_twins, "PIECE_ELEMENTS", 50)
    for shape, axes, _ in _LAYOUTS:
        if math.prod(shape) <= 1 << 16:
            _assert_twins_give_the_kernels_bits(op, _data(shape, "float32", 8), axes)


@pytest.mark.parametrize("op", ["sum", "mean", "norm1", "norm2"])
@pytest.mark.parametrize("dtype", ["int32", "bool"])
@pytest.mark.parametrize(("shape", "axes"), [((3, 5000), (1,)), ((700, 90), (0,)), ((999,), (0,))])
def test_integer_sums(
    op: str, dtype: str, shape: tuple[int, ...], axes: tuple[int, ...], twin_runs: dict[str, int]
) -> None:
    _assert_twins_give_the_kernels_bits(op, _data(shape, dtype, 2), axes)
    assert twin_runs


def _special(shape: tuple[int, ...], dtype: str, kind: str) -> Array:
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape).astype(dtype)
    flat = a.reshape(-1)
    if kind == "negative zeros":
        flat[:] = -0.0
    elif kind == "nan":
        flat[::97] = np.nan
    elif kind == "infinities":
        flat[5], flat[7], flat[-1] = np.inf, -np.inf, -np.inf
    elif kind == "huge and an infinity":
        flat *= 1e30 if dtype == "float32" else 1e300
        flat[5] = np.inf
    elif kind == "mostly -inf":
        kept = flat[::13].copy() * 50
        flat[:] = -np.inf
        flat[::13] = kept
    elif kind == "huge":
        flat *= 1e30 if dtype == "float32" else 1e300
    elif kind == "wide range":
        flat *= 40
    return a


@pytest.mark.parametrize("op", sorted(_PARAMS))
@pytest.mark.parametrize(
    "kind",
    [
        "negative zeros",
        "nan",
        "infinities",
        "huge and an infinity",
        "mostly -inf",
        "huge",
        "wide range",
    ],
)
@pytest.mark.parametrize(("shape", "axes"), [((300, 3000), (1,)), ((3000, 300), (0,))])
def test_special_values(op: str, kind: str, shape: tuple[int, ...], axes: tuple[int, ...]) -> None:
    for dtype in ("float32", "float64"):
        _assert_twins_give_the_kernels_bits(op, _special(shape, dtype, kind), axes)


@pytest.mark.parametrize("op", ["sum", "var", "logsumexp", "norm2"])
def test_fortran_order_and_strided_inputs(op: str) -> None:
    a = _data((400, 300), "float32", 4)
    _assert_twins_give_the_kernels_bits(op, np.asfortranarray(a), (0,))
    _assert_twins_give_the_kernels_bits(op, a[::2, ::3], (1,))
    _assert_twins_give_the_kernels_bits(op, a.T, (0, 1))


def test_ops_without_a_twin_run_their_kernels(twin_runs: dict[str, int]) -> None:
    """A float product (numpy's order of over- and underflow) and a norm of ``p = 3`` have no
    twin: inside ``serving()`` their kernels run and give the same bits."""
    a = _data((64, 3000), "float32", 5)
    for op, params in [("prod", {}), ("norm", {"p": 3.0, "eps": 0.0, "mode": "plain"})]:
        dtype = np.dtype(rules.result_dtype(rules.REDUCTIONS[op].dtype_rule, "float32"))
        want = nb.reduce(op, a, (1,), False, dtype, **params)
        with kernel_twins.serving():
            got = nb.reduce(op, a, (1,), False, dtype, **params)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    assert twin_runs == {}


def test_outside_serving_no_twin_runs(twin_runs: dict[str, int]) -> None:
    _reduce("sum", _data((100, 1000), "float32", 6), (1,))
    assert twin_runs == {}


# ----------------------------------------------------------------------------- the exp
def test_the_twins_exp_is_the_kernels_exp_element_by_element() -> None:
    """The twin's exp (numpy's float32 steps) against the kernels' own ``_expneg``, compiled
    by numba here, on every kind of argument it sees: exp's range and past its underflow
    edge, both zeros, NaN, the range reduction's rounding boundaries, over more than one
    block of ``_EXP_BLOCK`` elements. A fused multiply-add in the kernel, or a step of the
    twin in another order, changes the last bit of thousands of these."""
    from numba import njit

    from typedtensor._backend._numba._primitives import _expneg

    @njit
    def kernel_exp(x: Array, out: Array) -> None:
        for i in range(x.shape[0]):
            out[i] = _expneg(x[i])

    rng = np.random.default_rng(11)
    spread = np.linspace(-90.0, 0.0, logsumexp_twin._EXP_BLOCK + 4099, dtype=np.float32)
    boundaries = (np.arange(-126, 1) + 0.5) * np.float32(math.log(2))  # k's rounding ties
    near = np.concatenate([np.nextafter(boundaries, -np.inf), boundaries,
                           np.nextafter(boundaries, 0.0)]).astype(np.float32)  # fmt: skip
    random = -rng.exponential(5.0, 20000).astype(np.float32)
    x = np.concatenate([spread, near, random, np.float32([0.0, -0.0, np.nan, -87.0, -1e-30])])
    want = np.empty_like(x)
    kernel_exp(x, want)
    got = logsumexp_twin._expneg32(x)
    assert got.dtype == np.float32
    assert got.tobytes() == want.tobytes()
    close = np.isclose(got[: spread.size], np.exp(np.maximum(spread, -87.0)), rtol=4e-7, atol=0)
    assert close.all(), "within a few ulp of numpy's exp"


def test_the_exp_matches_the_kernels_exp_through_logsumexp() -> None:
    """Every float32 exponent the polynomial sees, through a logsumexp of one row that spans
    exp's range (its sum of exps is the twin's exp summed in the kernel's lanes)."""
    x = np.linspace(-90.0, 0.0, 1 << 16, dtype=np.float32)
    _assert_twins_give_the_kernels_bits("logsumexp", x, (0,))
    _assert_twins_give_the_kernels_bits("logsumexp", x.reshape(256, 256), (0,))
    assert math.isfinite(float(_reduce("logsumexp", x, (0,))[0]))


def test_the_twins_serve_plans_up_to_max_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan of a twinned op is served by its twins while the helper compiles
    (``_background_compile``'s run) up to ``MAX_BYTES``, and compiles its kernels on its first
    call past it (``_compile_ahead``'s run), as does float64 logsumexp (no twin) at any size."""
    from typedtensor._backend import _routing

    for name in ("TYPEDTENSOR_NUMBA_PARALLEL", "TYPEDTENSOR_NUMBA_CACHE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_BACKGROUND", "1")
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_AHEAD", "1")

    def served_by(op: str, dtype: str) -> str:
        dt = np.dtype(dtype)
        shape, strides = (1024, 1024), (1024 * dt.itemsize, dt.itemsize)
        run = _routing.runner("numba", op, shape, strides, dt.itemsize, (0, 1), False, dt, dt)
        return run.__code__.co_filename.rsplit("/", 1)[-1]

    assert served_by("sum", "float32") == "_background_compile.py"
    assert served_by("var", "float64") == "_background_compile.py"
    assert served_by("logsumexp", "float32") == "_background_compile.py"
    assert served_by("logsumexp", "float64") == "_compile_ahead.py"
    monkeypatch.setattr(kernel_twins, "MAX_BYTES", (1 << 22) - 1)
    assert served_by("sum", "float32") == "_compile_ahead.py"
    assert served_by("var", "int8") == "_background_compile.py"  # 1 MB
