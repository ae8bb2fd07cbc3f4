"""The kernels' numpy twins (``typedtensor/_backend/kernel_twins.py``, ``logsumexp_twin.py``)
give the numba kernels' bits: the numba backend's ``reduce`` inside ``kernel_twins.serving()``
equals its ``reduce`` outside, byte for byte, in every layout its stages take (horizontal
rows and their lane counts, chunks and segments, vertical column blocks, short rows), and the
twins did run (a spy counts them). An op a twin does not reproduce runs its kernel."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from typedtensor import _rules as rules
from typedtensor._backend import _numba as nb
from typedtensor._backend import kernel_twins, logsumexp_twin

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
    ((1 << 19,), (0,), "h"),
    ((7, 2049), (1,), "h"),
    ((600, 1000), (1,), "h"),
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


# ----------------------------------------------------------------------------- fused multiply-add
def _round_to_float32(exact: Fraction) -> np.float32:
    """``exact`` rounded once to the nearest float32 (ties to even)."""
    near = np.float32(float(exact))  # within one float32 step of the answer
    candidates = [
        np.nextafter(near, np.float32(-np.inf)),
        near,
        np.nextafter(near, np.float32(np.inf)),
    ]

    def key(c: np.float32) -> tuple[Fraction, int]:
        return abs(Fraction(float(c)) - exact), int(np.array(c).view(np.int32)) & 1

    return min(candidates, key=key)


def _fma_cases() -> tuple[Array, Array, Array]:
    rng = np.random.default_rng(7)
    n = 3000
    a = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(np.float32)
    b = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(np.float32)
    c = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(np.float32)
    # a * b + c whose float64 sum lands on a float32 midpoint and is inexact: below it
    # ((1 + 2^-23) (2^-24 - 2^-47) + 1 + 2^-23 = 1 + 3 * 2^-24 - 2^-70), and above it
    # (12584048 * 11183801 = 2^47 + 251120: 1 + 2^-24 + 251120 * 2^-71)
    a[:2] = np.float32(1 + 2.0**-23), np.float32(12584048 * 2.0**-35)
    b[:2] = np.float32(2.0**-24 - 2.0**-47), np.float32(11183801 * 2.0**-36)
    c[:2] = np.float32(1 + 2.0**-23), np.float32(1.0)
    return a, b, c


@pytest.mark.parametrize("cpu", ["this one", "without FMA"])
def test_the_fused_multiply_add_rounds_as_llvm_fmuladd_does(
    cpu: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a CPU with FMA, ``a * b + c`` rounded once (an exact reference in fractions; the
    first two cases are ones a float64 sum rounded again to float32 gets wrong); without
    FMA, a rounded product and a rounded sum."""
    if cpu == "without FMA":
        monkeypatch.setattr(logsumexp_twin, "_host_fma", [False])
    a, b, c = _fma_cases()
    got = logsumexp_twin._fused(*(v.astype(np.float64) for v in (a, b, c)))
    fused = logsumexp_twin._fma()
    if fused is None:
        pytest.skip("numba compiles for a CPU named in its config: the twin is not used")
    for x, y, z, g in zip(a.tolist(), b.tolist(), c.tolist(), got, strict=True):
        if fused:
            want = _round_to_float32(Fraction(x) * Fraction(y) + Fraction(z))
        else:
            want = np.float32(np.float32(x) * np.float32(y)) + np.float32(z)
        assert np.float32(g).tobytes() == np.float32(want).tobytes(), (x, y, z)
    if fused:
        naive = (a.astype(np.float64) * b.astype(np.float64) + c).astype(np.float32)
        assert (naive[:2] != got[:2]).all(), "the midpoint cases are ones double rounding misses"


def test_the_exp_without_fma_is_the_unfused_polynomial(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where numba's ``fmuladd`` does not fuse, the twin's exp is the kernel's polynomial
    (``_primitives._expneg``, its constants) with every product and sum rounded to float32,
    over more than one block of ``_EXP_BLOCK`` elements."""
    from typedtensor._backend._numba import _primitives as prim

    monkeypatch.setattr(logsumexp_twin, "_host_fma", [False])
    f32 = np.float32
    x = np.linspace(-90.0, 0.0, logsumexp_twin._EXP_BLOCK + 4099, dtype=f32)
    x[7] = np.nan
    clamped = np.where(x > prim._LO32, x, prim._LO32)
    k = np.floor(clamped * prim._L2E32 + prim._HALF32)
    r = -k * prim._LN2LO32 + (-k * prim._LN2HI32 + clamped)
    p = np.full_like(x, prim._C32[7])
    for c in prim._C32[6::-1]:
        p = p * r + c
    want = p * np.ldexp(f32(1.0), k.astype(np.int32))
    assert want.dtype == f32
    got = logsumexp_twin._expneg32(x)
    assert got.tobytes() == want.tobytes()


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
    if logsumexp_twin._fma() is not None:
        assert served_by("logsumexp", "float32") == "_background_compile.py"
    assert served_by("logsumexp", "float64") == "_compile_ahead.py"
    monkeypatch.setattr(kernel_twins, "MAX_BYTES", (1 << 22) - 1)
    assert served_by("sum", "float32") == "_compile_ahead.py"
    assert served_by("var", "int8") == "_background_compile.py"  # 1 MB
