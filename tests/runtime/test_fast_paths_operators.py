"""The operators' and shape operations' fast paths: numpy checks the shapes first and the
rules only explain a refusal, so every error stays the rules' error and every answer numpy's
(moved out of ``test_fast_paths``, which keeps the reductions' paths)."""

from __future__ import annotations

import numpy as np
import pytest

import typedtensor as tt
from typedtensor._dtypes import dtype_class_of
from typedtensor._rules import DTYPE_NAMES

from .test_fast_paths import _same_bits


# ------------------------------------------------------ elementwise: numpy checks shapes
def test_binary_ops_report_the_shapes_before_numpys_other_errors() -> None:
    """Shapes that do not broadcast are a ShapeError naming both, even where numpy would
    first refuse the dtypes; numpy's own errors stay where the shapes broadcast."""
    f = tt.asarray(np.ones((4, 3)))
    with pytest.raises(tt.ShapeError, match=r"shapes \(4, 3\) and \(4,\)"):
        f & tt.asarray(np.ones(4))  # type: ignore[operator]
    with pytest.raises(tt.ShapeError, match=r"shapes \(2,\) and \(4, 3\)"):
        np.ones(2) + f
    with pytest.raises(TypeError):
        f & f  # type: ignore[operator]
    with pytest.raises(ValueError, match="negative integer powers"):
        tt.asarray(np.arange(3)) ** tt.asarray(np.array([-1, -1, -1]))
    r = tt.asarray(np.float32(2.0)) + 1.0
    assert r.shape == () and r.numpy().dtype == np.float32


def test_exp_keeps_floats_and_complex_and_widens_ints() -> None:
    for dtype, want in [
        ("float16", "float16"),
        ("float32", "float32"),
        ("complex64", "complex64"),
        ("int8", "float16"),
        ("int16", "float32"),
        ("int64", "float64"),
        ("bool", "float16"),
    ]:
        a = np.arange(6).reshape(2, 3).astype(dtype)
        got = tt.exp(tt.asarray(a)).numpy()
        assert got.dtype == np.dtype(want)
        _same_bits(got, np.exp(a.astype(want)))


# ---------------------------------------- reshape / transpose: numpy first, the rules explain
def test_reshape_and_transpose_keep_the_rules_errors() -> None:
    """x.reshape and x.transpose call numpy directly; what numpy refuses gets the rules'
    error, and what the rules refuse numpy refuses too (bools, floats, an ndarray shape)."""
    x = tt.asarray(np.arange(24.0).reshape(4, 6))
    assert x.reshape(8, 3).shape == (8, 3) and x.reshape((2, -1)).shape == (2, 12)
    assert x.reshape([24]).shape == (24,) and x.transpose(1, 0).shape == (6, 4)
    assert x.transpose((1, 0)).numpy().base is not None  # numpy's view
    for bad in [(True, 24), ((24.0,),), (np.array([24]),)]:
        with pytest.raises(TypeError):
            x.reshape(*bad)
    with pytest.raises(tt.ShapeError, match="24"):
        x.reshape(5, 5)
    with pytest.raises(ValueError):
        x.reshape(-1, -1)
    with pytest.raises(TypeError):
        x.transpose(True, 0)
    with pytest.raises(ValueError):
        x.transpose(0, 0)
    with pytest.raises(tt.AxisError):
        x.transpose(0, 2)


def test_indexing_directly_equals_the_validated_path() -> None:
    """x[...] indexes the ndarray directly; Tensor items (numpy reads their ndarray), lists,
    masks and errors give what _indexing.getitem gives."""
    from typedtensor._indexing import getitem

    x = tt.asarray(np.arange(24.0).reshape(4, 6))
    for index in [
        (slice(None), 0),
        0,
        (Ellipsis, None, 1),
        (slice(None), tt.asarray(np.array([0, 2]))),
        (tt.asarray(np.array([True, False, True, False])), 1),
        (tt.asarray(np.array(2)), 3),
        (0, [1, 2]),
        (1, 2),
    ]:
        got, want = x[index].numpy(), getitem(x, index).numpy()
        assert type(got) is np.ndarray and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    with pytest.raises(IndexError, match=r"out of range|out of bounds"):
        x[:, 6]
    with pytest.raises(IndexError):
        x[0, 0, 0]


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_operators_skip_the_dtype_check_only_where_the_result_is_a_tensor_dtype(dtype: str) -> None:
    """The operators wrap a result without checking its dtype when the other operand is a
    Tensor or a Python scalar: every such result's dtype is a Tensor dtype, and is the ufunc's
    (``ndarray.__pow__`` has fast paths of its own: ``bool ** 2`` is int8 there)."""
    a = np.arange(1, 4).astype(dtype)
    x = tt.asarray(a)
    operators = {n: op for n, op in vars(tt.Tensor).items() if hasattr(op, "binary_ufunc")}
    for other in (True, 2, 2.5, 1.5j, x):
        operand = other._data if isinstance(other, tt.Tensor) else other
        for name, op in operators.items():
            args = (operand, a) if op.reflected else (a, operand)
            try:
                with np.errstate(all="ignore"):
                    want = op.binary_ufunc(*args)
            except (TypeError, ValueError, OverflowError):
                continue
            with np.errstate(all="ignore"):
                got = getattr(x, name)(other)
            assert dtype_class_of(got._data.dtype) is got.dtype, (name, other)
            assert got._data.dtype == want.dtype, (name, other)
