"""The standard's elementwise functions (and their operators) against array-api-strict: every
function on every dtype its category allows, NaN/infinity/-0 included, broadcast shapes and
Python scalar operands; shape, dtype and values must agree."""

from __future__ import annotations

import operator
from typing import Any

import array_api_strict as xs
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._oracle import CATEGORIES, ULPS, agree, tt_dtype, xps

#: unary functions -> the standard's input category (2024.12, "Elementwise Functions")
UNARY = {
    "abs": "numeric",
    "acos": "floating",
    "acosh": "floating",
    "asin": "floating",
    "asinh": "floating",
    "atan": "floating",
    "atanh": "floating",
    "bitwise_invert": "integer or boolean",
    "ceil": "real numeric",
    "conj": "numeric",
    "cos": "floating",
    "cosh": "floating",
    "exp": "floating",
    "expm1": "floating",
    "floor": "real numeric",
    "imag": "complex floating",
    "isfinite": "numeric",
    "isinf": "numeric",
    "isnan": "numeric",
    "log": "floating",
    "log1p": "floating",
    "log2": "floating",
    "log10": "floating",
    "logical_not": "bool",
    "negative": "numeric",
    "positive": "numeric",
    "real": "complex floating",
    "reciprocal": "floating",
    "round": "numeric",
    "sign": "numeric",
    "signbit": "real floating",
    "sin": "floating",
    "sinh": "floating",
    "sqrt": "floating",
    "square": "numeric",
    "tan": "floating",
    "tanh": "floating",
    "trunc": "real numeric",
}

#: binary functions -> the standard's input category
BINARY = {
    "add": "numeric",
    "atan2": "real floating",
    "bitwise_and": "integer or boolean",
    "bitwise_left_shift": "integer",
    "bitwise_or": "integer or boolean",
    "bitwise_right_shift": "integer",
    "bitwise_xor": "integer or boolean",
    "copysign": "real floating",
    "divide": "floating",
    "equal": "all",
    "floor_divide": "real numeric",
    "greater": "real numeric",
    "greater_equal": "real numeric",
    "hypot": "real floating",
    "less": "real numeric",
    "less_equal": "real numeric",
    "logaddexp": "real floating",
    "logical_and": "bool",
    "logical_or": "bool",
    "logical_xor": "bool",
    "maximum": "real numeric",
    "minimum": "real numeric",
    "multiply": "numeric",
    "nextafter": "real floating",
    "not_equal": "all",
    "pow": "numeric",
    "remainder": "real numeric",
    "subtract": "numeric",
}

#: the operators of the binary functions
OPERATORS = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": operator.floordiv,
    "remainder": operator.mod,
    "pow": operator.pow,
    "bitwise_and": operator.and_,
    "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor,
    "bitwise_left_shift": operator.lshift,
    "bitwise_right_shift": operator.rshift,
    "equal": operator.eq,
    "not_equal": operator.ne,
    "less": operator.lt,
    "less_equal": operator.le,
    "greater": operator.gt,
    "greater_equal": operator.ge,
}

#: operands of the shifts stay below the width (the standard leaves larger shifts undefined)
_SHIFT_ELEMENTS = {"min_value": 0, "max_value": 7}


@pytest.mark.parametrize("name", sorted(UNARY))
@settings(max_examples=25)
@given(data=st.data())
def test_unary(name: str, data: st.DataObject) -> None:
    x = data.draw(_array(UNARY[name]), label="x")
    if name == "sign" and x.numpy().dtype.kind == "c":
        # numpy's sign of an infinite complex is the unit number (sign(0 + inf j) = 1j); the
        # standard's x / abs(x) gives NaN: typedtensor keeps numpy's (docs/array-api.md)
        assume(not np.isinf(x.numpy()).any())
    agree(getattr(tt, name), getattr(xs, name), [x], rtol=ULPS)


@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=40)
@given(data=st.data())
def test_binary(name: str, data: st.DataObject) -> None:
    """Two operands of one dtype, then of two dtypes the standard promotes (others drawn are
    refused by the oracle as undefined)."""
    names = CATEGORIES[BINARY[name]]
    shapes = data.draw(xps.mutually_broadcastable_shapes(2, max_dims=3, max_side=3))
    shape1, shape2 = shapes.input_shapes
    elements = _SHIFT_ELEMENTS if "shift" in name else None
    d1, d2 = (tt_dtype(data.draw(st.sampled_from(names), label="dtype")) for _ in range(2))
    x1 = data.draw(xps.arrays(d1, shape1, elements=elements), label="x1")
    for dtype in (d1, d2):
        x2 = data.draw(xps.arrays(dtype, shape2, elements=elements), label="x2")
        agree(getattr(tt, name), getattr(xs, name), [x1, x2], rtol=ULPS)
        if name in OPERATORS:
            op = OPERATORS[name]
            agree(op, op, [x1, x2], rtol=ULPS)


@pytest.mark.parametrize("name", sorted(OPERATORS))
@settings(max_examples=25)
@given(data=st.data())
def test_operator_with_python_scalar(name: str, data: st.DataObject) -> None:
    """``x op 2`` and ``2 op x``: the scalar is weak (x's dtype kept), as the standard says."""
    category = BINARY[name]
    elements = _SHIFT_ELEMENTS if "shift" in name else {}
    x = data.draw(_array(category, **elements), label="x")
    kinds = {"b": (True, False), "i": (0, 1, 2, 5), "u": (0, 1, 2, 5), "f": (0.5, -2.0, 3.0)}
    kind = x.numpy().dtype.kind
    scalar = data.draw(st.sampled_from(kinds.get(kind, (1.5, -1.0))), label="scalar")
    op = OPERATORS[name]
    agree(op, op, [x, scalar], rtol=ULPS)
    agree(lambda a, b: op(b, a), lambda a, b: op(b, a), [x, scalar], rtol=ULPS)


@pytest.mark.parametrize("name", ["clip"])
@settings(max_examples=25)
@given(data=st.data())
def test_clip(name: str, data: st.DataObject) -> None:
    x = data.draw(_array("real numeric"), label="x")
    low = data.draw(st.one_of(st.none(), st.integers(-3, 0)), label="min")
    high = data.draw(st.one_of(st.none(), st.integers(1, 5)), label="max")
    agree(tt.clip, xs.clip, [x], {"min": low, "max": high})


def _array(category: str, shape: Any = None, **elements: Any) -> st.SearchStrategy[Any]:
    """An array of a dtype of ``category`` (one shape, or any of rank 0..3)."""
    names = CATEGORIES[category]
    shapes = xps.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
    return st.sampled_from(names).flatmap(
        lambda n: xps.arrays(
            tt_dtype(n), shapes if shape is None else shape, elements=elements or None
        )
    )
