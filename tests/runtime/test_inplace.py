"""In-place operators against numpy: ``x += y`` writes ``numpy.add(x, y)`` into ``x``'s own
buffer (a view writes through to its base) when the result keeps ``x``'s shape and dtype;
otherwise the standard's errors (ShapeError, TypeError), and a read-only ``x`` raises
ValueError. ``y`` is never modified."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt

from ._strategies import DTYPES, Case, _elements, arrays

#: symbol -> (the in-place operator, numpy's ufunc for it)
OPERATORS: dict[str, tuple[Any, np.ufunc]] = {
    "+=": (operator.iadd, np.add),
    "-=": (operator.isub, np.subtract),
    "*=": (operator.imul, np.multiply),
    "/=": (operator.itruediv, np.true_divide),
    "//=": (operator.ifloordiv, np.floor_divide),
    "%=": (operator.imod, np.remainder),
    "**=": (operator.ipow, np.power),
    "&=": (operator.iand, np.bitwise_and),
    "|=": (operator.ior, np.bitwise_or),
    "^=": (operator.ixor, np.bitwise_xor),
    "<<=": (operator.ilshift, np.left_shift),
    ">>=": (operator.irshift, np.right_shift),
}


def _operand(data: st.DataObject, x: np.ndarray[Any, Any]) -> Any:
    """A Python scalar, or an array of any dtype whose shape mostly broadcasts to x's."""
    kind = data.draw(st.sampled_from(["scalar", "same", "suffix", "other"]), label="operand")
    if kind == "scalar":
        return data.draw(st.sampled_from([True, 0, 1, 2, -1, 0.5, 2.0, 1j]), label="scalar")
    dtype = np.dtype(data.draw(st.sampled_from(DTYPES), label="y dtype"))
    if kind == "same":
        shape = x.shape
    elif kind == "suffix":
        shape = tuple(d if data.draw(st.booleans()) else 1 for d in x.shape[x.ndim // 2 :])
    else:
        shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
    return data.draw(hnp.arrays(dtype, shape, elements=_elements(dtype, True)), label="y")


def _outcome(fn: np.ufunc, x: np.ndarray[Any, Any], y: Any, writeable: bool) -> tuple[str, Any]:
    """What numpy says ``x <op>= y`` must do under the standard: ("ok", result) or the error."""
    if not writeable:
        return "error", ValueError
    try:
        shape = np.broadcast_shapes(x.shape, np.shape(y))
    except ValueError:
        return "error", ValueError  # ShapeError is a ValueError
    if shape != x.shape:
        return "error", ValueError
    weak = np.dtype(bool) if type(y) is bool else type(y) if np.isscalar(y) else y.dtype  # NEP 50
    try:
        promoted = fn.resolve_dtypes((x.dtype, weak, None))[-1]
    except TypeError:  # no loop for these dtypes (bool - bool)
        return "error", TypeError
    if promoted != x.dtype:
        return "error", TypeError
    try:
        result = fn(x, y)
    except (ValueError, OverflowError) as err:  # negative int powers, out-of-range scalars
        return "error", type(err)
    return "ok", result


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(OPERATORS)), arrays(), st.data())
def test_inplace_operator_against_numpy(symbol: str, case: Case, data: st.DataObject) -> None:
    op, fn = OPERATORS[symbol]
    x_np = case.array
    y = _operand(data, x_np)
    y_before = np.copy(y)
    x_before = x_np.copy()
    x = tt.asarray(x_np)
    buffer = x.numpy()
    with np.errstate(all="ignore"):
        kind, expected = _outcome(fn, x_before, y, x_np.flags.writeable)
        y_arg = tt.asarray(y) if isinstance(y, np.ndarray) else y
        if kind == "error":
            with pytest.raises(expected):
                op(x, y_arg)
            return
        result = op(x, y_arg)
    assert result is x and x.numpy() is buffer  # the same Tensor, the same buffer
    assert x.dtype.numpy_dtype == x_before.dtype and x.shape == x_before.shape
    np.testing.assert_array_equal(x_np, np.broadcast_to(expected, x_np.shape), strict=True)
    np.testing.assert_array_equal(np.asarray(y), y_before, strict=True)  # y never modified


def test_inplace_writes_through_a_view_and_handles_overlap() -> None:
    base = np.arange(12.0).reshape(3, 4)
    column = tt.asarray(base[:, ::2])  # a strided view of base
    column += 100.0
    assert base[:, 0].tolist() == [100.0, 104.0, 108.0] and base[:, 1].tolist() == [1, 5, 9]
    x = tt.asarray(np.arange(4.0))
    x += x[::-1]  # the operand overlaps x: numpy buffers it
    assert x.numpy().tolist() == [3.0, 3.0, 3.0, 3.0]


def test_inplace_errors_say_what_to_do() -> None:
    x = tt.zeros((2, 3), tt.float32)
    with pytest.raises(tt.ShapeError, match=r"does not broadcast to x's shape \(2, 3\)"):
        x += tt.ones((4, 2, 3), tt.float32)
    with pytest.raises(TypeError, match=r"from float32 to float64.*write x = x \* y"):
        x *= tt.ones((2, 3), tt.float64)
    with pytest.raises(TypeError, match="from float32 to float64"):
        x -= np.float64(1)  # NEP 50: a numpy scalar is not weak
    i = tt.zeros((3,), tt.int16)
    with pytest.raises(TypeError, match="from int16 to float64"):
        i /= 2
    with pytest.raises(TypeError, match="boolean subtract"):  # numpy's own error kept
        b = tt.zeros((2,), tt.bool_)
        b -= b
    readonly = np.ones(3)
    readonly.flags.writeable = False
    r = tt.asarray(readonly)
    with pytest.raises(ValueError, match="read-only"):
        r += 1.0
    assert readonly.tolist() == [1.0, 1.0, 1.0]
    assert x.numpy().tolist() == [[0.0] * 3] * 2  # nothing written by a refused operation


def test_inplace_matmul() -> None:
    m_np = np.arange(9.0).reshape(3, 3)
    expected = m_np @ (m_np + 1)
    m = tt.asarray(m_np)
    m @= tt.asarray(m_np + 1)
    assert m.numpy() is m_np
    np.testing.assert_allclose(m_np, expected)
    batch = tt.asarray(np.ones((2, 3, 3), np.float32))
    batch @= tt.asarray(np.eye(3, dtype=np.float32))
    assert batch.shape == (2, 3, 3) and batch.dtype is tt.float32
    with pytest.raises(tt.ShapeError, match="x @= y"):
        m @= tt.ones((3, 2))
    with pytest.raises(TypeError, match="from float32 to float64"):
        batch @= tt.asarray(np.eye(3))


def test_inplace_on_a_dask_tensor_rebinds() -> None:
    da = pytest.importorskip("dask.array")
    lazy = tt.asarray(da.ones((4,), chunks=2))
    before = lazy
    lazy += 1.0  # dask arrays are immutable graphs: x = x + y
    assert lazy is not before and lazy.numpy().tolist() == [2.0] * 4
