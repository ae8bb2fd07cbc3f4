"""Elementwise functions with numpy broadcasting: ``exp log sqrt abs negative maximum minimum``,
``isnan isfinite isinf``, ``where`` and ``astype``.

Operators (``+ - * / **``, comparisons, unary ``-`` and ``abs()``) are methods of ``Tensor``.
Shapes broadcast as in numpy; incompatible shapes raise ``tt.ShapeError`` naming both shapes
and the failing dim. Result dtypes follow numpy (e.g. ``exp`` of int32 is float64).
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from . import _rules as rules
from ._dtypes import ComplexFloating, DType, bool_, dtype_class_of
from ._tensor import AnyTensor, Operand, Tensor, _broadcast_check, _raise_rule_error, wrap

__all__ = [
    "abs",
    "astype",
    "exp",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "maximum",
    "minimum",
    "negative",
    "sqrt",
    "where",
]

DT = TypeVar("DT", bound=DType)
Shape = TypeVarTuple("Shape")


def _data(x: object, name: str) -> Any:
    if isinstance(x, Tensor):
        return x._data  # an ndarray, or a dask array for a dask-backed Tensor (not computed)
    if isinstance(x, (bool, int, float, complex, np.generic, np.ndarray)):
        return x
    raise TypeError(f"{name} takes Tensors or Python/numpy scalars, got {type(x).__name__}")


def _floating(x: object, name: str) -> Any:
    """The operand as floats: float and complex kept, bool/ints in the rules'
    ``unary_float_dtype`` (numpy's: bool/8-bit -> float16, 16-bit -> float32, else float64)."""
    if isinstance(x, Tensor):
        data = x._data
    else:
        data = _data(x, name)
        if not hasattr(data, "dtype"):  # Python scalars; ndarrays and dask arrays stay
            data = np.asarray(data)
    kind = data.dtype.kind  # dtype_class_of: numpy's dtype.name costs ~1.5 us
    if kind not in "biu":  # float and complex kept (the rule's answer; wrap checks the dtype)
        return data
    target = rules.unary_float_dtype(dtype_class_of(data.dtype).name)
    return data.astype(target, copy=False)


def exp(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``e**x`` elementwise, shape kept: (8, 10) -> (8, 10); int32 gives float64, int8 float16."""
    return wrap(np.exp(_floating(x, "exp")))


def log(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Natural logarithm elementwise, shape kept: (8, 10) -> (8, 10); int32 gives float64."""
    return wrap(np.log(_floating(x, "log")))


def sqrt(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Square root elementwise, shape kept: (8, 10) -> (8, 10); int32 gives float64."""
    return wrap(np.sqrt(_floating(x, "sqrt")))


@overload  # complex: real (complex64 -> float32), spelled Any: see Tensor.__abs__ in the stub
def abs(x: Tensor[ComplexFloating, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]: ...  # noqa: A001
@overload
def abs(x: Tensor[DT, Unpack[Shape]]) -> Tensor[DT, Unpack[Shape]]: ...  # noqa: A001
def abs(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:  # noqa: A001
    """Absolute value elementwise, shape kept: (8, 10) -> (8, 10); the dtype kept, except
    complex, whose modulus is real (complex64 -> float32)."""
    return wrap(np.abs(_data(x, "abs")))


def negative(x: Tensor[DT, Unpack[Shape]]) -> Tensor[DT, Unpack[Shape]]:
    """``-x`` elementwise; dtype and shape kept: (8, 10) -> (8, 10)."""
    operand: Any = x
    if isinstance(operand, Tensor):  # the operator: a dask-backed tensor checks the dtype first
        negated: Tensor[DT, Unpack[Shape]] = -operand
        return negated
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


def isnan(x: Tensor[Any, Unpack[Shape]]) -> Tensor[bool_, Unpack[Shape]]:
    """Whether each element is NaN, shape kept: (8, 10) -> (8, 10) of bool (ints: all False)."""
    return wrap(np.isnan(_data(x, "isnan")))


def isfinite(x: Tensor[Any, Unpack[Shape]]) -> Tensor[bool_, Unpack[Shape]]:
    """Whether each element is finite (not NaN or +-inf): (8, 10) -> (8, 10) of bool."""
    return wrap(np.isfinite(_data(x, "isfinite")))


def isinf(x: Tensor[Any, Unpack[Shape]]) -> Tensor[bool_, Unpack[Shape]]:
    """Whether each element is +inf or -inf: (8, 10) -> (8, 10) of bool."""
    return wrap(np.isinf(_data(x, "isinf")))


def where(condition: Operand, x: Operand, y: Operand) -> AnyTensor:
    """``x`` where ``condition`` is true, else ``y``, all three broadcast together:
    (8, 1), (3,), () -> (8, 3). The dtype promotes ``x`` and ``y`` as numpy (Python scalars
    are weak: ``where(c, x_float32, 0.0)`` stays float32)."""
    dc, dx, dy = _data(condition, "where"), _data(x, "where"), _data(y, "where")
    try:
        return wrap(np.where(dc, dx, dy))
    except ValueError:  # numpy's broadcasting failed: say why in the rule's words
        try:
            rules.broadcast_shapes(np.shape(dc), np.shape(dx), np.shape(dy))
        except rules.RuleError as err:
            _raise_rule_error(err)
        raise


@overload
def astype(
    x: Tensor[Any, Unpack[Shape]], dtype: type[DT], *, copy: bool = True, device: Any = None
) -> Tensor[DT, Unpack[Shape]]: ...
@overload
def astype(
    x: Tensor[Any, Unpack[Shape]], dtype: object, *, copy: bool = True, device: Any = None
) -> Tensor[Any, Unpack[Shape]]: ...
def astype(
    x: Tensor[Any, Unpack[Shape]], dtype: object, *, copy: bool = True, device: Any = None
) -> Tensor[Any, Unpack[Shape]]:
    """A copy of ``x`` converted to ``dtype`` (numpy's unsafe cast), shape kept:
    ``astype(x, tt.float64)``: (8, 10) of int32 -> (8, 10) of float64; ``copy=False``
    returns ``x`` itself when it has that dtype already."""
    if not isinstance(x, Tensor):
        raise TypeError(f"astype takes a Tensor, got {type(x).__name__}")
    return x.astype(dtype, copy=copy, device=device)  # type: ignore[return-value, unused-ignore]
