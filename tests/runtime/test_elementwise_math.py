"""The standard's elementwise functions (``typedtensor.elementwise_math``) against numpy: the
dtype rules of ``_rules.elementwise`` against ``ufunc.resolve_dtypes`` for every dtype (pair),
values over ranks 0..5, empty dims, every dtype and layout (C, F, negative strides, broadcast
and strided views, read-only), inputs unchanged, numpy's errors; and the ufunc policy of
``Tensor.__array_ufunc__`` for every ufunc the namespace covers."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt
from typedtensor import _ufuncs
from typedtensor._rules import DTYPE_NAMES
from typedtensor._rules.elementwise import (
    BINARY_FUNCTIONS,
    REAL_PART_FUNCTIONS,
    UNARY_FUNCTIONS,
    elementwise_binary_dtype,
    elementwise_unary_dtype,
)

from ._strategies import Case, arrays

SCALARS = {"bool": True, "int": 2, "float": 0.5, "complex": 0.5j}


def _resolved(ufunc: np.ufunc, *dtypes: str) -> str | None:
    try:
        return ufunc.resolve_dtypes((*map(np.dtype, dtypes), None))[-1].name
    except (TypeError, np.exceptions.DTypePromotionError):
        return None


@pytest.mark.parametrize("name", sorted(UNARY_FUNCTIONS))
def test_unary_dtype_rule_is_numpys(name: str) -> None:
    ufunc = getattr(np, UNARY_FUNCTIONS[name][0])
    for d in DTYPE_NAMES:
        assert elementwise_unary_dtype(name, d) == _resolved(ufunc, d), (name, d)


@pytest.mark.parametrize("name", sorted(REAL_PART_FUNCTIONS))
def test_real_part_dtype_rule_is_numpys_and_the_runtimes(name: str) -> None:
    function = getattr(np, REAL_PART_FUNCTIONS[name][0])
    for d in DTYPE_NAMES:
        x = np.ones(3, d)
        expected = function(x).dtype.name
        assert elementwise_unary_dtype(name, d) == expected, (name, d)
        assert getattr(tt, name)(tt.asarray(x)).dtype.name == expected, (name, d)


@pytest.mark.parametrize("name", sorted(BINARY_FUNCTIONS))
def test_binary_dtype_rule_is_numpys(name: str) -> None:
    ufunc = getattr(np, BINARY_FUNCTIONS[name][0])
    for a, b in itertools.product(DTYPE_NAMES, DTYPE_NAMES):
        assert elementwise_binary_dtype(name, a, b) == _resolved(ufunc, a, b), (name, a, b)
    for d, (kind, value) in itertools.product(DTYPE_NAMES, SCALARS.items()):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected: str | None = ufunc(np.ones(2, d), value).dtype.name
        except TypeError:
            expected = None
        got = elementwise_binary_dtype(name, d, kind, b_scalar=True)
        assert got == expected, (name, d, kind)


def _compare(got: Any, expected: np.ndarray[Any, Any]) -> None:
    assert isinstance(got, tt.Tensor)
    assert got.shape == expected.shape and got.numpy().dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


def _frozen(case: Case) -> np.ndarray[Any, Any]:
    a = case.array
    if a.flags.writeable and a.base is None and a.size:  # some inputs read-only
        a.flags.writeable = a.size % 2 == 0
    return a


@pytest.mark.parametrize("name", sorted(UNARY_FUNCTIONS))
@settings(max_examples=25, deadline=None)
@given(case=arrays())
def test_unary_values_are_numpys(name: str, case: Case) -> None:
    a = _frozen(case)
    before = a.copy()
    ufunc = getattr(np, UNARY_FUNCTIONS[name][0])
    fn = getattr(tt, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if elementwise_unary_dtype(name, a.dtype.name) is None:
            with pytest.raises(TypeError, match=rf"tt.{name} does not take {a.dtype.name}"):
                fn(tt.asarray(a))
            return
        _compare(fn(tt.asarray(a)), ufunc(a))
    np.testing.assert_array_equal(a, before)


@pytest.mark.parametrize("name", sorted(BINARY_FUNCTIONS))
@settings(max_examples=25, deadline=None)
@given(left=arrays(max_rank=3), data=st.data())
def test_binary_values_are_numpys(name: str, left: Case, data: st.DataObject) -> None:
    a = _frozen(left)
    shape = data.draw(st.sampled_from([a.shape, a.shape[1:], (1,) * a.ndim, ()]))
    dtype = data.draw(st.sampled_from(list(DTYPE_NAMES)))
    b = np.ones(shape, dtype) if dtype == "bool" else np.full(shape, 2, dtype)
    scalar = data.draw(st.sampled_from([None, *SCALARS.values()]))
    right: Any = tt.asarray(b) if scalar is None else scalar
    ufunc = getattr(np, BINARY_FUNCTIONS[name][0])
    fn = getattr(tt, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = ufunc(a, b if scalar is None else scalar)
        except (TypeError, OverflowError) as err:
            with pytest.raises(type(err)):
                fn(tt.asarray(a), right)
            return
        _compare(fn(tt.asarray(a), right), expected)


def test_broadcast_failure_is_a_shape_error() -> None:
    with pytest.raises(tt.ShapeError, match="cannot broadcast dim 3 with dim 4"):
        tt.atan2(tt.ones((2, 3)), tt.ones((4,)))


def test_numpy_runtime_warnings_are_kept() -> None:
    with pytest.warns(RuntimeWarning, match="invalid value"):
        tt.arccos(tt.asarray(np.array([2.0])))
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        tt.log2(tt.zeros((2,)))


@pytest.mark.parametrize("decimals", [0, 1, -1])
@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex64"])
def test_round_is_numpys(decimals: int, dtype: str) -> None:
    a = (np.arange(-12, 12).reshape(4, 6) * 1.37).astype(dtype)
    _compare(tt.round(tt.asarray(a), decimals), np.round(a, decimals))
    with pytest.raises(TypeError, match="bool"):
        tt.round(tt.ones((2,), dtype=tt.bool_))


@pytest.mark.parametrize(
    "lo, hi", [(1, 3), (None, 2), (0.5, None), (np.int8(1), np.int8(2)), ("t", None)]
)
@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32", "float64"])
def test_clip_is_numpys(lo: Any, hi: Any, dtype: str) -> None:
    a = np.arange(-6, 6).reshape(3, 4).astype(dtype)
    bounds = np.full((4,), 2, dtype)
    if lo == "t":
        got, expected = tt.clip(tt.asarray(a), tt.asarray(bounds)), np.clip(a, bounds, None)
    else:
        got, expected = tt.clip(tt.asarray(a), lo, hi), np.clip(a, lo, hi)
    _compare(got, expected)
    with pytest.raises(tt.ShapeError):
        tt.clip(tt.asarray(a), tt.ones((5,)))


# ------------------------------------------------------------------ the ufunc policy
#: every numpy ufunc the namespace covers (its name -> typedtensor's)
COVERED = {u: n for u, n in _ufuncs._NAMES.items()}


@pytest.mark.parametrize("ufunc_name", sorted(COVERED))
def test_numpy_ufunc_on_a_tensor(ufunc_name: str) -> None:
    ufunc: np.ufunc = getattr(np, ufunc_name)
    t = tt.asarray(np.array([[1, 2, 3], [4, 5, 6]], np.int32))
    args = [t] * ufunc.nin
    if ufunc_name in _ufuncs.OPERATOR_UFUNCS:  # the operator's Tensor, numpy's values
        a = t.numpy().T.copy() if ufunc_name == "matmul" else t.numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _compare(ufunc(a, t), ufunc(a, t.numpy()))
            _compare(ufunc(t, a), ufunc(t.numpy(), a))
        return
    name = COVERED[ufunc_name]
    assert callable(getattr(tt, name))
    with pytest.raises(TypeError, match=rf"np.{ufunc_name} .*call tt.{name}\("):
        ufunc(*args)


def test_ufunc_without_counterpart_methods_and_out() -> None:
    t = tt.ones((2, 3))
    with pytest.raises(TypeError, match=r"no counterpart of np.gcd.*x.numpy\(\)"):
        np.gcd(t, t)
    with pytest.raises(TypeError, match=r"np.add.reduce .*tt.sum"):
        np.add.reduce(t)
    with pytest.raises(TypeError, match=r"np.multiply.accumulate .*tt.cumprod"):
        np.multiply.accumulate(t)
    with pytest.raises(TypeError, match=r"np.add with out="):
        np.add(t, 1, out=np.empty((2, 3)))
