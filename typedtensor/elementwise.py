"""Elementwise functions with numpy broadcasting: ``exp log sqrt abs negative maximum minimum``.

Operators (``+ - * / **``, comparisons, unary ``-`` and ``abs()``) are methods of ``Tensor``.
Shapes broadcast as in numpy; incompatible shapes raise ``tt.ShapeError`` naming both shapes
and the failing dim. Result dtypes follow numpy (e.g. ``exp`` of int32 is float64).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from . import _rules as rules
from ._dtypes import DType
from ._tensor import AnyTensor, Operand, Tensor, _broadcast_check, wrap

__all__ = ["abs", "exp", "log", "maximum", "minimum", "negative", "sqrt"]

DT = TypeVar("DT", bound=DType)
Shape = TypeVarTuple("Shape")


def _data(x: object, name: str) -> Any:
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, (bool, int, float, np.generic, np.ndarray)):
        return x
    raise TypeError(f"{name} takes Tensors or Python/numpy scalars, got {type(x).__name__}")


def _floating(x: object, name: str) -> Any:
    """The operand as floats: float dtypes kept, bool/ints as float64 (the shape rules'
    ``unary_float_dtype``; numpy would make float16 of 8-bit ints)."""
    data = np.asarray(_data(x, name))
    target = rules.unary_float_dtype(data.dtype.name) if data.dtype.kind in "biuf" else None
    return data if target is None else data.astype(target, copy=False)


def exp(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``e**x`` elementwise, shape kept: (8, 10) -> (8, 10); ints and bool give float64."""
    return wrap(np.exp(_floating(x, "exp")))


def log(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Natural logarithm elementwise, shape kept: (8, 10) -> (8, 10); ints give float64."""
    return wrap(np.log(_floating(x, "log")))


def sqrt(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Square root elementwise, shape kept: (8, 10) -> (8, 10); ints give float64."""
    return wrap(np.sqrt(_floating(x, "sqrt")))


def abs(x: Tensor[DT, Unpack[Shape]]) -> Tensor[DT, Unpack[Shape]]:  # noqa: A001
    """Absolute value elementwise; dtype and shape kept: (8, 10) -> (8, 10)."""
    return wrap(np.abs(_data(x, "abs")))


def negative(x: Tensor[DT, Unpack[Shape]]) -> Tensor[DT, Unpack[Shape]]:
    """``-x`` elementwise; dtype and shape kept: (8, 10) -> (8, 10)."""
    return wrap(np.negative(_data(x, "negative")))


def _binary(name: str, fn: Any, a: Operand, b: Operand) -> AnyTensor:
    da, db = _data(a, name), _data(b, name)
    _broadcast_check(np.shape(da), np.shape(db), False)
    return wrap(fn(da, db))


def maximum(a: Operand, b: Operand) -> AnyTensor:
    """Elementwise maximum with broadcasting (NaN propagates): (8, 1), (3,) -> (8, 3)."""
    return _binary("maximum", np.maximum, a, b)


def minimum(a: Operand, b: Operand) -> AnyTensor:
    """Elementwise minimum with broadcasting (NaN propagates): (8, 1), (3,) -> (8, 3)."""
    return _binary("minimum", np.minimum, a, b)
