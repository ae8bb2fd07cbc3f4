"""The shape-rule module against numpy (never against itself): result shapes of reductions,
AxisError cases, broadcasting, reduce-to-shape and the result-dtype table."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from typedtensor import _rules as rules

from ._strategies import DTYPES, shapes

RANKS = st.integers(0, 6)


@st.composite
def raw_axes(draw: st.DrawFn, ndim: int) -> Any:
    """Any axis argument, valid or not: out of range, duplicated, aliased."""
    span = st.integers(-ndim - 2, ndim + 1)
    return draw(st.one_of(st.none(), span, st.lists(span, max_size=ndim + 2).map(tuple)))


@settings(max_examples=400)
@given(shape=shapes(0, 6, 3), data=st.data())
def test_reduce_shape_matches_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    axis = data.draw(raw_axes(len(shape)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    a = np.empty(shape)
    try:
        expected: Any = np.sum(a, axis=axis, keepdims=keepdims).shape
    except np.exceptions.AxisError:
        expected = "axis"
    except ValueError:
        expected = "duplicate"
    if len(shape) == 0 and axis not in (None, ()):
        # numpy's sum accepts axis 0 / -1 on 0-d input; for typedtensor every int axis of a
        # rank-0 tensor is out of range (numpy's own max, argmax and normalize_axis_index agree)
        expected = "axis"
    try:
        got: Any = rules.reduce_shape(shape, axis, keepdims, 1)
    except rules.AxisRangeError as err:
        got = "axis"
        assert f"rank-{len(shape)} tensor" in str(err)
        assert rules.valid_axes_text(len(shape)) in str(err)
    except rules.DuplicateAxisError as err:
        got = "duplicate"
        assert "refer to dim" in str(err) or "repeated" in str(err)
    assert got == expected


def test_axis_messages() -> None:
    with pytest.raises(
        rules.AxisRangeError,
        match=r"^axis 3 is out of range for a rank-3 tensor; valid axes are -3\.\.2$",
    ):
        rules.normalize_axes(3, 3)
    with pytest.raises(rules.AxisRangeError, match="axis -4 is out of range"):
        rules.normalize_axes((0, -4), 3)
    with pytest.raises(
        rules.DuplicateAxisError, match=r"^axes 0 and -3 both refer to dim 0 of a rank-3 tensor"
    ):
        rules.normalize_axes((0, -3), 3)
    with pytest.raises(rules.DuplicateAxisError, match="axis 1 is repeated"):
        rules.normalize_axes((1, 1), 3)
    with pytest.raises(rules.AxisRangeError, match="rank-0 tensor has no axes"):
        rules.normalize_axes(0, 0)
    with pytest.raises(rules.AxisTypeError, match="single axis"):
        rules.normalize_axes((0,), 2, single=True)
    for bad in (1.0, "0", True, [0.5], (None,)):
        with pytest.raises(rules.AxisTypeError):
            rules.normalize_axes(bad, 3)
    assert rules.normalize_axes(np.int64(-1), 2) == (1,)


@settings(max_examples=300)
@given(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=5))
def test_broadcast_matches_numpy(bs: Any) -> None:
    assert rules.broadcast_shapes(*bs.input_shapes) == np.broadcast_shapes(*bs.input_shapes)


@settings(max_examples=300)
@given(a=shapes(0, 4, 4), b=shapes(0, 4, 4))
def test_broadcast_errors_match_numpy(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    try:
        expected: Any = np.broadcast_shapes(a, b)
    except ValueError:
        expected = None
    try:
        got: Any = rules.broadcast_shapes(a, b)
    except rules.BroadcastError as err:
        got = None
        msg = str(err)
        assert f"dim {err.left} with dim {err.right} at position {err.position}" in msg
        assert str(a) in msg and str(b) in msg
    assert got == expected


def test_broadcast_symbolic_dims() -> None:
    size = {"1": 1, "3": 3, "5": 5}.get
    assert rules.broadcast_shapes(("B", "1"), ("3",), size_of=size, unknown="?") == ("B", "3")
    assert rules.broadcast_shapes(("B",), ("C",), size_of=size, unknown="?") == ("?",)
    assert rules.broadcast_shapes(("B", "3"), ("B", "1"), size_of=size, unknown="?") == ("B", "3")
    assert rules.broadcast_shapes(("1",), ("B",), size_of=size, unknown="?") == ("B",)
    with pytest.raises(rules.BroadcastError):
        rules.broadcast_shapes(("B", "5"), ("3",), size_of=size, unknown="?")


@settings(max_examples=300)
@given(src=shapes(0, 5, 4), data=st.data())
def test_reduce_to_shape(src: tuple[int, ...], data: st.DataObject) -> None:
    dst = tuple(data.draw(st.lists(st.integers(0, 4), max_size=len(src) + 1), label="dst"))
    a = np.arange(math.prod(src), dtype=np.float64).reshape(src)
    try:
        axes = rules.reduce_to_shape(src, dst)
    except rules.ReduceToShapeError as err:
        # numpy agrees it is impossible: dst must broadcast back to src with dims equal or 1
        assert len(dst) > len(src) or any(
            d not in (1, s) for d, s in zip(dst, src[len(src) - len(dst) :], strict=True)
        )
        assert str(src) in str(err) and str(dst) in str(err)
        return
    reduced = np.sum(a, axis=axes, keepdims=True).reshape(dst)
    assert np.broadcast_shapes(reduced.shape, src) == src
    # nothing reduced that the target keeps (a kept dim is not summed)
    lead = len(src) - len(dst)
    for i, d in enumerate(dst):
        if d != 1 or src[lead + i] == 1:
            assert lead + i not in axes


REDUCE_NUMPY = {
    "sum": np.sum,
    "prod": np.prod,
    "mean": np.mean,
    "max": np.max,
    "min": np.min,
    "any": np.any,
    "all": np.all,
    "var": np.var,
    "std": np.std,
    "argmax": np.argmax,
    "argmin": np.argmin,
    # numpy has no logsumexp; like scipy's it computes in numpy's promotion of the input
    # with a Python float (float64 for bool and ints, np.exp alone would give float16)
    "logsumexp": lambda a: (
        np.log(np.sum(np.exp(a)))  # complex: no logaddexp loop; the dtype is the same
        if a.dtype.kind == "c"
        else np.logaddexp.reduce(a.astype(np.result_type(a.dtype, 1.0)).ravel())
    ),
    "norm": lambda a: np.linalg.norm(a.astype(np.result_type(a.dtype, 1.0)).ravel()),
}


@pytest.mark.parametrize("op", sorted(REDUCE_NUMPY))
@pytest.mark.parametrize("dtype", DTYPES)
def test_result_dtype_matches_numpy(op: str, dtype: str) -> None:
    a = np.ones((2, 3), dtype=dtype)
    with np.errstate(all="ignore"):
        expected = np.asarray(REDUCE_NUMPY[op](a)).dtype.name
    spec = rules.REDUCTIONS[op]
    assert rules.result_dtype(spec.dtype_rule, dtype) == expected


def test_result_dtype_rejects_unknown() -> None:
    with pytest.raises(ValueError, match="unknown dtype 'float128'"):
        rules.result_dtype(rules.DTypeRule.SUM, "float128")


def test_table_is_complete() -> None:
    expected = {
        "sum", "prod", "mean", "max", "min", "any", "all", "var", "std", "argmax", "argmin",
        "logsumexp", "norm", "norm_lp_max", "norm_lp_sum", "norm_lp_power_p_max",
        "norm_lp_power_p_sum", "l2_normalize", "nansum", "nanprod", "nanmean", "nanmax",
        "nanmin", "nanvar", "nanstd", "nanargmax", "nanargmin", "count_nonzero",
        "median", "nanmedian",
    }  # fmt: skip
    assert set(rules.REDUCTIONS) == expected
    assert [n for n, s in rules.REDUCTIONS.items() if s.single_axis] == [
        "argmax", "argmin", "nanargmax", "nanargmin",
    ]  # fmt: skip
    assert [n for n, s in rules.REDUCTIONS.items() if not s.method] == [
        "nansum", "nanprod", "nanmean", "nanmax", "nanmin", "nanvar", "nanstd", "nanargmax",
        "nanargmin", "count_nonzero", "nanmedian",
    ]  # fmt: skip


def test_rules_module_is_stdlib_only() -> None:
    path = Path(rules.__file__)
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('r', {str(path)!r})\n"
        "m = importlib.util.module_from_spec(spec); sys.modules['r'] = m\n"
        "spec.loader.exec_module(m)\n"
        "bad = [n for n in ('numpy', 'numba', 'mypy') if n in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
def test_binary_dtypes_match_numpy(a: str, b: str) -> None:
    x, y = np.ones(2, a), np.ones(2, b)
    promoted = rules.promote(a, b)
    assert promoted == np.promote_types(a, b).name == (x + y).dtype.name
    assert rules.binary_dtype(rules.BinaryRule.DIVIDE, promoted) == (x / y).dtype.name
    assert rules.binary_dtype(rules.BinaryRule.COMPARE, promoted) == (x < y).dtype.name
    assert np.maximum(x, y).dtype.name == promoted
    assert rules.binary_dtype(rules.BinaryRule.POWER, promoted) == (x**y).dtype.name
    try:
        numpy_subtract: str | None = np.subtract(x, y).dtype.name
    except TypeError:  # numpy rejects bool - bool
        numpy_subtract = None
    assert rules.binary_dtype(rules.BinaryRule.SUBTRACT, promoted) == numpy_subtract


@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize(
    ("kind", "scalar"), [("bool", True), ("int", 3), ("float", 2.5), ("complex", 1.5j)]
)
def test_scalar_promotion_matches_numpy(a: str, kind: str, scalar: Any) -> None:
    x = np.ones(2, a)
    assert rules.promote_scalar(a, kind) == (x * scalar).dtype.name == (scalar * x).dtype.name
    promoted = rules.promote_scalar(a, kind)
    assert rules.binary_dtype(rules.BinaryRule.DIVIDE, promoted) == (x / scalar).dtype.name


@pytest.mark.parametrize("a", DTYPES)
def test_unary_float_dtype(a: str) -> None:
    x = np.ones(2, a)
    for fn in (np.exp, np.log, np.sqrt):  # numpy's dtype exactly (int8 -> float16)
        assert rules.unary_float_dtype(a) == fn(x).dtype.name
    assert rules.real_dtype(a) == np.abs(x).dtype.name


def test_docstring_examples() -> None:
    import doctest
    import pkgutil
    from importlib import import_module

    failures = tried = 0
    for info in pkgutil.iter_modules(rules.__path__):
        result = doctest.testmod(import_module(f"{rules.__name__}.{info.name}"), report=False)
        failures += result.failed
        tried += result.attempted
    assert tried >= 8 and failures == 0
