"""Result dtypes of the elementwise functions by name (numpy 2, 64-bit Linux): ``tanh``,
``floor``, ``atan2``, ``bitwise_left_shift``... Each function belongs to a *kind*, a mapping
from the operand dtype (unary) or the operands' dtypes (binary) to the result dtype, ``None``
where numpy has no loop (it raises a TypeError). The tables are checked against numpy's
``ufunc.resolve_dtypes`` for every dtype (``tests/runtime/test_elementwise_math.py``)."""

from __future__ import annotations

from .dtypes import DTYPE_NAMES, promote, promote_scalar, real_dtype, unary_float_dtype

__all__ = [
    "BINARY_FUNCTIONS",
    "REAL_PART_FUNCTIONS",
    "UNARY_FUNCTIONS",
    "elementwise_binary_dtype",
    "elementwise_unary_dtype",
]

_COMPLEX = ("complex64", "complex128")
_FLOATS = ("float16", "float32", "float64")
_INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")

#: functions whose result is a complex operand's real dtype (complex64 -> float32) and any
#: other operand's own dtype: name -> (numpy function name, kind); not generated as ufuncs
REAL_PART_FUNCTIONS: dict[str, tuple[str, str]] = {
    "abs": ("absolute", "real_part"),
    "real": ("real", "real_part"),
    "imag": ("imag", "real_part"),
}

#: unary function (typedtensor's name) -> (numpy ufunc name, kind)
UNARY_FUNCTIONS: dict[str, tuple[str, str]] = {
    "acos": ("arccos", "float"),
    "acosh": ("arccosh", "float"),
    "asin": ("arcsin", "float"),
    "asinh": ("arcsinh", "float"),
    "atan": ("arctan", "float"),
    "atanh": ("arctanh", "float"),
    "cos": ("cos", "float"),
    "cosh": ("cosh", "float"),
    "exp2": ("exp2", "float"),
    "expm1": ("expm1", "float"),
    "log1p": ("log1p", "float"),
    "log2": ("log2", "float"),
    "log10": ("log10", "float"),
    "sin": ("sin", "float"),
    "sinh": ("sinh", "float"),
    "tan": ("tan", "float"),
    "tanh": ("tanh", "float"),
    "rint": ("rint", "float"),
    "cbrt": ("cbrt", "real_float"),
    "deg2rad": ("deg2rad", "real_float"),
    "rad2deg": ("rad2deg", "real_float"),
    "ceil": ("ceil", "real_same"),
    "floor": ("floor", "real_same"),
    "trunc": ("trunc", "real_same"),
    "conj": ("conjugate", "square"),
    "square": ("square", "square"),
    "reciprocal": ("reciprocal", "square"),
    "positive": ("positive", "number_same"),
    "sign": ("sign", "number_same"),
    "logical_not": ("logical_not", "bool"),
    "signbit": ("signbit", "real_bool"),
    "bitwise_invert": ("invert", "integer_same"),
}

#: binary function -> (numpy ufunc name, kind)
BINARY_FUNCTIONS: dict[str, tuple[str, str]] = {
    "add": ("add", "promote"),
    "multiply": ("multiply", "promote"),
    "subtract": ("subtract", "subtract"),
    "divide": ("true_divide", "divide"),
    "pow": ("power", "power"),
    "atan2": ("arctan2", "real_float"),
    "copysign": ("copysign", "real_float"),
    "hypot": ("hypot", "real_float"),
    "logaddexp": ("logaddexp", "real_float"),
    "nextafter": ("nextafter", "real_float"),
    "floor_divide": ("floor_divide", "real_int8"),
    "remainder": ("remainder", "real_int8"),
    "fmod": ("fmod", "real_int8"),
    "bitwise_and": ("bitwise_and", "integer_same"),
    "bitwise_or": ("bitwise_or", "integer_same"),
    "bitwise_xor": ("bitwise_xor", "integer_same"),
    "bitwise_left_shift": ("left_shift", "integer_int8"),
    "bitwise_right_shift": ("right_shift", "integer_int8"),
    "logical_and": ("logical_and", "bool"),
    "logical_or": ("logical_or", "bool"),
    "logical_xor": ("logical_xor", "bool"),
    "equal": ("equal", "bool"),
    "not_equal": ("not_equal", "bool"),
    "less": ("less", "bool"),
    "less_equal": ("less_equal", "bool"),
    "greater": ("greater", "bool"),
    "greater_equal": ("greater_equal", "bool"),
    "fmax": ("fmax", "promote"),
    "fmin": ("fmin", "promote"),
}


def _of_kind(kind: str, d: str) -> str | None:
    """The result of ``kind`` on one (promoted) dtype ``d``; ``None`` where numpy raises."""
    if kind == "bool":
        return "bool"
    if kind == "promote":
        return d
    if kind == "float":
        return unary_float_dtype(d)
    if kind == "divide":
        return d if d in _FLOATS + _COMPLEX else "float64"
    if kind == "real_part":
        return real_dtype(d)
    if d in _COMPLEX and kind.startswith("real"):
        return None
    if kind == "real_bool":
        return "bool"
    if kind == "real_float":
        return unary_float_dtype(d)
    if kind == "real_same":
        return d
    if kind in ("square", "power", "real_int8"):
        return "int8" if d == "bool" else d
    if kind in ("number_same", "subtract"):
        return None if d == "bool" else d
    if d not in _INTEGERS and d != "bool":  # the integer kinds: floats and complex raise
        return None
    if kind == "integer_same":
        return d
    if kind == "integer_int8":
        return "int8" if d == "bool" else d
    raise ValueError(f"unknown elementwise kind {kind!r}")


def elementwise_unary_dtype(name: str, dtype: str) -> str | None:
    """Result dtype of unary function ``name`` on ``dtype``; ``None`` where numpy raises.

    >>> elementwise_unary_dtype("tanh", "int16"), elementwise_unary_dtype("floor", "int8")
    ('float32', 'int8')
    >>> elementwise_unary_dtype("floor", "complex64") is None
    True
    >>> elementwise_unary_dtype("abs", "complex64"), elementwise_unary_dtype("real", "int8")
    ('float32', 'int8')
    """
    if dtype not in DTYPE_NAMES:
        raise ValueError(f"unknown dtype {dtype!r}; expected one of {', '.join(DTYPE_NAMES)}")
    spec = UNARY_FUNCTIONS.get(name) or REAL_PART_FUNCTIONS[name]
    return _of_kind(spec[1], dtype)


def elementwise_binary_dtype(
    name: str, a: str, b: str, *, a_scalar: bool = False, b_scalar: bool = False
) -> str | None:
    """Result dtype of binary function ``name`` on dtypes ``a`` and ``b``; a side marked
    ``*_scalar`` is a Python scalar kind (``"bool" "int" "float" "complex"``, weak as in
    NEP 50). ``None`` where numpy raises.

    >>> elementwise_binary_dtype("atan2", "int8", "uint8"), elementwise_binary_dtype(
    ...     "atan2", "int8", "float", b_scalar=True)
    ('float16', 'float64')
    """
    kind = BINARY_FUNCTIONS[name][1]
    if a_scalar and b_scalar:
        raise ValueError("at least one operand must be a tensor dtype")
    if a_scalar or b_scalar:
        promoted = promote_scalar(b, a) if a_scalar else promote_scalar(a, b)
    elif kind == "real_float":  # each side made float first: int8 with uint8 is float16
        if a in _COMPLEX or b in _COMPLEX:
            return None
        return promote(unary_float_dtype(a), unary_float_dtype(b))
    else:
        promoted = promote(a, b)
    return _of_kind(kind, promoted)
