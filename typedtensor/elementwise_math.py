"""The elementwise functions of the Array API standard that ``elementwise.py`` does not have
(``tanh sin floor atan2 bitwise_left_shift logical_and``...), plus ``real``, ``imag``,
``round`` and ``clip``, with numpy's semantics: shapes broadcast as in numpy (incompatible
shapes raise ``tt.ShapeError``), result dtypes are numpy's (``_rules.elementwise``: ``tanh`` of
int16 is float32), a dtype numpy has no loop for raises a TypeError naming the function and
the dtype. numpy's names are aliases (``arctan2 = atan2``, ``power = pow``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from typing_extensions import TypeVarTuple, Unpack

from . import _rules as rules
from ._arguments import _broadcast_check
from ._dtypes import bool_
from ._rules.elementwise import BINARY_FUNCTIONS, UNARY_FUNCTIONS
from ._tensor import AnyTensor, Operand, Tensor, wrap
from .elementwise import _data

__all__ = [
    *UNARY_FUNCTIONS,
    *BINARY_FUNCTIONS,
    "real",
    "imag",
    "round",
    "clip",
    # numpy's names
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctan2",
    "arctanh",
    "conjugate",
    "invert",
    "left_shift",
    "power",
    "right_shift",
    "true_divide",
]

Shape = TypeVarTuple("Shape")


def _dtype_name(x: object) -> str:
    dtype = getattr(x, "dtype", None)
    return dtype.name if isinstance(dtype, np.dtype) else type(x).__name__


def _no_loop(name: str, *operands: Any) -> TypeError:
    shown = " and ".join(_dtype_name(o) for o in operands)
    return TypeError(
        f"tt.{name} does not take {shown} (numpy has no loop for it); "
        f"convert first with astype, e.g. x.astype(tt.float64)"
    )


def _unary(name: str, x: object) -> AnyTensor:
    data = _data(x, name)
    ufunc = getattr(np, UNARY_FUNCTIONS[name][0])
    try:
        return wrap(ufunc(data))
    except TypeError:
        raise _no_loop(name, data) from None


def _binary(name: str, a: Operand, b: Operand) -> AnyTensor:
    da, db = _data(a, name), _data(b, name)
    ufunc = getattr(np, BINARY_FUNCTIONS[name][0])
    try:
        return wrap(ufunc(da, db))
    except ValueError:  # numpy's broadcasting failed: say why in the rule's words
        _broadcast_check(np.shape(da), np.shape(db), False)
        raise
    except TypeError:
        raise _no_loop(name, da, db) from None


def acos(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Inverse cosine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16 ->
    float32)."""
    return _unary("acos", x)


def acosh(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Inverse hyperbolic cosine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats
    (int16 -> float32)."""
    return _unary("acosh", x)


def asin(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Inverse sine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16 ->
    float32)."""
    return _unary("asin", x)


def asinh(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Inverse hyperbolic sine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats
    (int16 -> float32)."""
    return _unary("asinh", x)


def atan(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Inverse tangent elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16 ->
    float32)."""
    return _unary("atan", x)


def atanh(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Inverse hyperbolic tangent elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give
    floats (int16 -> float32)."""
    return _unary("atanh", x)


def cos(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Cosine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16 ->
    float32)."""
    return _unary("cos", x)


def cosh(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Hyperbolic cosine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16
    -> float32)."""
    return _unary("cosh", x)


def exp2(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``2**x`` elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16 ->
    float32)."""
    return _unary("exp2", x)


def expm1(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``exp(x) - 1``, accurate near 0 elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give
    floats (int16 -> float32)."""
    return _unary("expm1", x)


def log1p(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``log(1 + x)``, accurate near 0 elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give
    floats (int16 -> float32)."""
    return _unary("log1p", x)


def log2(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Base-2 logarithm elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16
    -> float32)."""
    return _unary("log2", x)


def log10(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Base-10 logarithm elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16
    -> float32)."""
    return _unary("log10", x)


def sin(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Sine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16: float32)."""
    return _unary("sin", x)


def sinh(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Hyperbolic sine elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16 ->
    float32)."""
    return _unary("sinh", x)


def tan(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Tangent elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16 ->
    float32)."""
    return _unary("tan", x)


def tanh(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Hyperbolic tangent elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats (int16
    -> float32)."""
    return _unary("tanh", x)


def rint(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Round to the nearest integer (as floats) elementwise, shape kept: (8, 10) -> (8, 10);
    bool/ints give floats (int16 -> float32)."""
    return _unary("rint", x)


def cbrt(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Cube root elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats; complex
    raises."""
    return _unary("cbrt", x)


def deg2rad(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Degrees to radians elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats;
    complex raises."""
    return _unary("deg2rad", x)


def rad2deg(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Radians to degrees elementwise, shape kept: (8, 10) -> (8, 10); bool/ints give floats;
    complex raises."""
    return _unary("rad2deg", x)


def ceil(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Ceiling elementwise, shape kept: (8, 10) -> (8, 10); dtype kept; complex raises."""
    return _unary("ceil", x)


def floor(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Floor elementwise, shape kept: (8, 10) -> (8, 10); dtype kept; complex raises."""
    return _unary("floor", x)


def trunc(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Round towards zero elementwise, shape kept: (8, 10) -> (8, 10); complex raises."""
    return _unary("trunc", x)


def conj(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Complex conjugate elementwise, shape kept: (8, 10) -> (8, 10); dtype kept, bool: int8."""
    return _unary("conj", x)


def square(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``x * x`` elementwise, shape kept: (8, 10) -> (8, 10); dtype kept, bool gives int8."""
    return _unary("square", x)


def reciprocal(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``1 / x`` (integer division for ints, as numpy) elementwise, shape kept: (8, 10) -> (8, 10);
    dtype kept, bool gives int8."""
    return _unary("reciprocal", x)


def positive(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """``+x`` elementwise, shape kept: (8, 10) -> (8, 10); dtype kept; bool raises."""
    return _unary("positive", x)


def sign(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """The sign (-1, 0, 1; ``x/|x|`` for complex) elementwise, shape kept: (8, 10) -> (8, 10);
    dtype kept; bool raises."""
    return _unary("sign", x)


def logical_not(x: Tensor[Any, Unpack[Shape]]) -> Tensor[bool_, Unpack[Shape]]:
    """Logical not (nonzero is True) elementwise, shape kept: (8, 10) -> (8, 10); bool result."""
    return _unary("logical_not", x)


def signbit(x: Tensor[Any, Unpack[Shape]]) -> Tensor[bool_, Unpack[Shape]]:
    """Whether the sign bit is set (``-0.0`` too) elementwise, shape kept: (8, 10) -> (8, 10); bool
    result; complex raises."""
    return _unary("signbit", x)


def bitwise_invert(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """Bitwise not (``~x``) elementwise, shape kept: (8, 10) -> (8, 10); dtype kept; bool and ints
    only."""
    return _unary("bitwise_invert", x)


def add(a: Operand, b: Operand) -> AnyTensor:
    """``a + b`` with broadcasting: (8, 1), (3,) -> (8, 3); promoted dtype."""
    return _binary("add", a, b)


def multiply(a: Operand, b: Operand) -> AnyTensor:
    """``a * b`` with broadcasting: (8, 1), (3,) -> (8, 3); promoted dtype."""
    return _binary("multiply", a, b)


def subtract(a: Operand, b: Operand) -> AnyTensor:
    """``a - b`` (bool raises) with broadcasting: (8, 1), (3,) -> (8, 3); promoted
    dtype."""
    return _binary("subtract", a, b)


def divide(a: Operand, b: Operand) -> AnyTensor:
    """``a / b`` (ints give float64) with broadcasting: (8, 1), (3,) -> (8, 3); ints
    give float64."""
    return _binary("divide", a, b)


def pow(a: Operand, b: Operand) -> AnyTensor:  # noqa: A001
    """``a ** b`` with broadcasting: (8, 1), (3,) -> (8, 3); promoted dtype (bool:
    int8)."""
    return _binary("pow", a, b)


def atan2(a: Operand, b: Operand) -> AnyTensor:
    """The angle of the point ``(b, a)``: ``arctan(a / b)`` by quadrant elementwise with
    broadcasting: (8, 1), (3,) -> (8, 3); bool/ints give floats; complex raises."""
    return _binary("atan2", a, b)


def copysign(a: Operand, b: Operand) -> AnyTensor:
    """``|a|`` with the sign of ``b`` with broadcasting: (8, 1), (3,) -> (8, 3);
    bool/ints give floats; complex raises."""
    return _binary("copysign", a, b)


def hypot(a: Operand, b: Operand) -> AnyTensor:
    """``sqrt(a**2 + b**2)`` with broadcasting: (8, 1), (3,) -> (8, 3); bool/ints give
    floats; complex raises."""
    return _binary("hypot", a, b)


def logaddexp(a: Operand, b: Operand) -> AnyTensor:
    """``log(exp(a) + exp(b))`` without overflow with broadcasting: (8, 1), (3,) -> (8,
    3); bool/ints give floats; complex raises."""
    return _binary("logaddexp", a, b)


def nextafter(a: Operand, b: Operand) -> AnyTensor:
    """The next float after ``a`` towards ``b`` with broadcasting: (8, 1), (3,) -> (8,
    3); bool/ints give floats; complex raises."""
    return _binary("nextafter", a, b)


def floor_divide(a: Operand, b: Operand) -> AnyTensor:
    """``a // b`` with broadcasting: (8, 1), (3,) -> (8, 3); promoted dtype (bool:
    int8); complex raises."""
    return _binary("floor_divide", a, b)


def remainder(a: Operand, b: Operand) -> AnyTensor:
    """``a % b`` (the sign of ``b``) with broadcasting: (8, 1), (3,) -> (8, 3);
    promoted dtype (bool: int8); complex raises."""
    return _binary("remainder", a, b)


def fmod(a: Operand, b: Operand) -> AnyTensor:
    """C's ``fmod`` (the sign of ``a``) with broadcasting: (8, 1), (3,) -> (8, 3);
    promoted dtype (bool: int8); complex raises."""
    return _binary("fmod", a, b)


def bitwise_and(a: Operand, b: Operand) -> AnyTensor:
    """``a & b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool and ints only."""
    return _binary("bitwise_and", a, b)


def bitwise_or(a: Operand, b: Operand) -> AnyTensor:
    """``a | b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool and ints only."""
    return _binary("bitwise_or", a, b)


def bitwise_xor(a: Operand, b: Operand) -> AnyTensor:
    """``a ^ b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool and ints only."""
    return _binary("bitwise_xor", a, b)


def bitwise_left_shift(a: Operand, b: Operand) -> AnyTensor:
    """``a << b`` with broadcasting: (8, 1), (3,) -> (8, 3); ints only (bool: int8)."""
    return _binary("bitwise_left_shift", a, b)


def bitwise_right_shift(a: Operand, b: Operand) -> AnyTensor:
    """``a >> b`` with broadcasting: (8, 1), (3,) -> (8, 3); ints only (bool: int8)."""
    return _binary("bitwise_right_shift", a, b)


def logical_and(a: Operand, b: Operand) -> AnyTensor:
    """Logical and with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("logical_and", a, b)


def logical_or(a: Operand, b: Operand) -> AnyTensor:
    """Logical or with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("logical_or", a, b)


def logical_xor(a: Operand, b: Operand) -> AnyTensor:
    """Logical xor with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("logical_xor", a, b)


def equal(a: Operand, b: Operand) -> AnyTensor:
    """``a == b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("equal", a, b)


def not_equal(a: Operand, b: Operand) -> AnyTensor:
    """``a != b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("not_equal", a, b)


def less(a: Operand, b: Operand) -> AnyTensor:
    """``a < b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("less", a, b)


def less_equal(a: Operand, b: Operand) -> AnyTensor:
    """``a <= b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("less_equal", a, b)


def greater(a: Operand, b: Operand) -> AnyTensor:
    """``a > b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("greater", a, b)


def greater_equal(a: Operand, b: Operand) -> AnyTensor:
    """``a >= b`` with broadcasting: (8, 1), (3,) -> (8, 3); bool result."""
    return _binary("greater_equal", a, b)


def fmax(a: Operand, b: Operand) -> AnyTensor:
    """Elementwise maximum ignoring NaN, with broadcasting: (8, 1), (3,) -> (8, 3);
    promoted dtype."""
    return _binary("fmax", a, b)


def fmin(a: Operand, b: Operand) -> AnyTensor:
    """Elementwise minimum ignoring NaN, with broadcasting: (8, 1), (3,) -> (8, 3);
    promoted dtype."""
    return _binary("fmin", a, b)


def real(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """The real part, shape kept: (8, 10) -> (8, 10); complex64 gives float32, others kept."""
    return wrap(np.real(_data(x, "real")))


def imag(x: Tensor[Any, Unpack[Shape]]) -> Tensor[Any, Unpack[Shape]]:
    """The imaginary part, shape kept: (8, 10) -> (8, 10); complex64 gives float32, real
    dtypes give zeros of their dtype."""
    return wrap(np.imag(_data(x, "imag")))


def round(x: Tensor[Any, Unpack[Shape]], decimals: int = 0) -> Tensor[Any, Unpack[Shape]]:  # noqa: A001
    """Round half to even to ``decimals`` places (numpy's ``round``), dtype and shape kept:
    (8, 10) -> (8, 10); ints are kept as ints (negative ``decimals`` round them to tens...)."""
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)):
        raise TypeError(f"decimals must be an int, got {type(decimals).__name__}")
    data = _data(x, "round")
    if data.dtype == np.bool_:
        raise TypeError("tt.round does not take bool tensors (numpy has no loop for it)")
    return wrap(np.round(data, int(decimals)))


def clip(x: Operand, min: Operand | None = None, max: Operand | None = None) -> AnyTensor:  # noqa: A002
    """``x`` limited to ``[min, max]`` elementwise (either bound may be ``None``), all three
    broadcast: (8, 3), (3,), () -> (8, 3); the dtype promotes as numpy's (Python bounds weak)."""
    data = _data(x, "clip")
    bounds = [None if v is None else _data(v, "clip") for v in (min, max)]
    if bounds[0] is None and bounds[1] is None:
        return wrap(np.array(data, copy=True))
    try:
        rules.broadcast_shapes(np.shape(data), *(np.shape(v) for v in bounds if v is not None))
    except rules.RuleError as err:
        from ._arguments import _raise_rule_error

        _raise_rule_error(err)
    try:
        return wrap(np.clip(data, bounds[0], bounds[1]))
    except TypeError:
        raise _no_loop("clip", data, *(v for v in bounds if v is not None)) from None


arccos = acos
arccosh = acosh
arcsin = asin
arcsinh = asinh
arctan = atan
arctan2 = atan2
arctanh = atanh
conjugate = conj
invert = bitwise_invert
left_shift = bitwise_left_shift
power = pow
right_shift = bitwise_right_shift
true_divide = divide
