"""Result dtypes (numpy 2, 64-bit Linux): reductions, promotion, Python scalars (NEP 50),
binary and unary elementwise ops. Dtypes are numpy names (``"float32"``)."""

from __future__ import annotations

import enum

__all__ = [
    "BinaryRule",
    "DTYPE_NAMES",
    "DTypeRule",
    "binary_dtype",
    "promote",
    "promote_scalar",
    "real_dtype",
    "result_dtype",
    "unary_float_dtype",
]


#: Every dtype typedtensor knows, by numpy name.
DTYPE_NAMES: tuple[str, ...] = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_FLOATS = ("float16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
#: float and complex dtypes: kept by the float rules
_INEXACT = _FLOATS + _COMPLEX
#: the real dtype of each complex dtype (its real and imaginary parts, ``abs``, ``var``)
_REAL_OF = {"complex64": "float32", "complex128": "float64"}


class DTypeRule(enum.Enum):
    """How a reduction's result dtype follows from its input dtype (numpy 2, 64-bit Linux)."""

    SAME = "same"  #: max/min: the input dtype
    SUM = "sum"  #: sum/prod: bool and signed ints -> int64, unsigned -> uint64, float/complex kept
    FLOAT = "float"  #: mean/logsumexp/l2_normalize: bool and ints -> float64, float/complex kept
    REAL = "real"  #: var/std/norms: as FLOAT, but complex -> its real dtype (complex64 -> float32)
    BOOL = "bool"  #: any/all
    INDEX = "index"  #: argmax/argmin -> int64


def result_dtype(rule: DTypeRule, dtype: str) -> str:
    """Result dtype name of a reduction with ``rule`` on input ``dtype``.

    >>> result_dtype(DTypeRule.SUM, "int8"), result_dtype(DTypeRule.FLOAT, "float16")
    ('int64', 'float16')
    >>> result_dtype(DTypeRule.REAL, "complex64"), result_dtype(DTypeRule.FLOAT, "complex64")
    ('float32', 'complex64')
    """
    if dtype not in DTYPE_NAMES:
        raise ValueError(f"unknown dtype {dtype!r}; expected one of {', '.join(DTYPE_NAMES)}")
    if rule is DTypeRule.SAME:
        return dtype
    if rule is DTypeRule.BOOL:
        return "bool"
    if rule is DTypeRule.INDEX:
        return "int64"
    if rule is DTypeRule.REAL and dtype in _COMPLEX:
        return _REAL_OF[dtype]
    if dtype in _INEXACT:
        return dtype
    if rule is DTypeRule.SUM:
        return "uint64" if dtype in _UNSIGNED else "int64"
    return "float64"


_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
_BITS.update({"u" + k: v for k, v in _BITS.items()})
_BITS.update({"float16": 16, "float32": 32, "float64": 64, "complex64": 32, "complex128": 64})
_BITS["bool"] = 1
#: the narrowest float holding every value of an integer (or bool) dtype exactly, as numpy
_FLOAT_FOR_BITS = {1: "float16", 8: "float16", 16: "float32", 32: "float64", 64: "float64"}
_COMPLEX_FOR_FLOAT = {"float16": "complex64", "float32": "complex64", "float64": "complex128"}


def _float_part(d: str) -> str:
    """The float dtype that holds ``d``'s values (its real part for complex)."""
    if d in _FLOATS:
        return d
    if d in _COMPLEX:
        return _REAL_OF[d]
    return _FLOAT_FOR_BITS[_BITS[d]]


def promote(a: str, b: str) -> str:
    """numpy's ``promote_types`` over typedtensor's dtypes (the result of ``+ - * **``,
    ``maximum``/``minimum`` between two tensors).

    >>> promote("int8", "uint8"), promote("int32", "float32"), promote("int64", "uint64")
    ('int16', 'float64', 'float64')
    >>> promote("float16", "int8"), promote("float16", "int16"), promote("complex64", "float64")
    ('float16', 'float32', 'complex128')
    """
    for d in (a, b):
        if d not in DTYPE_NAMES:
            raise ValueError(f"unknown dtype {d!r}; expected one of {', '.join(DTYPE_NAMES)}")
    if a == b:
        return a
    if a == "bool":
        return b
    if b == "bool":
        return a
    if a in _INEXACT or b in _INEXACT:
        # the wider of the two float parts (ints: the narrowest float holding them exactly),
        # made complex when either side is
        fa, fb = _float_part(a), _float_part(b)
        f = fa if _BITS[fa] >= _BITS[fb] else fb
        return _COMPLEX_FOR_FLOAT[f] if a in _COMPLEX or b in _COMPLEX else f
    sa, sb = a in _SIGNED, b in _SIGNED
    if sa == sb:
        return a if _BITS[a] >= _BITS[b] else b
    signed, unsigned = (a, b) if sa else (b, a)
    if _BITS[signed] > _BITS[unsigned]:
        return signed
    bits = 2 * _BITS[unsigned]
    return f"int{bits}" if bits <= 64 else "float64"


def promote_scalar(dtype: str, scalar: str) -> str:
    """Result dtype of a tensor with a Python scalar (NEP 50 weak scalars), ``scalar`` one of
    ``"bool"``, ``"int"``, ``"float"``, ``"complex"``.

    >>> promote_scalar("float32", "float"), promote_scalar("int8", "float")
    ('float32', 'float64')
    >>> promote_scalar("float16", "complex"), promote_scalar("int8", "complex")
    ('complex64', 'complex128')
    """
    if scalar == "bool":
        return dtype
    if scalar == "int":
        return "int64" if dtype == "bool" else dtype
    if scalar == "float":
        return dtype if dtype in _INEXACT else "float64"
    if scalar == "complex":
        if dtype in _COMPLEX:
            return dtype
        return _COMPLEX_FOR_FLOAT[dtype] if dtype in _FLOATS else "complex128"
    raise ValueError(f"scalar kind must be 'bool', 'int', 'float' or 'complex', got {scalar!r}")


class BinaryRule(enum.Enum):
    """Result dtype of an elementwise binary op from the promoted dtype."""

    PROMOTE = "promote"  #: + * maximum minimum
    SUBTRACT = "subtract"  #: -: promoted, but numpy rejects bool - bool
    POWER = "power"  #: **: promoted, but bool ** bool is int8 in numpy
    DIVIDE = "divide"  #: /: promoted, then bool/ints -> float64
    COMPARE = "compare"  #: < <= > >= == != -> bool


def binary_dtype(rule: BinaryRule, promoted: str) -> str | None:
    """Apply ``rule`` to the promoted operand dtype (see ``promote``/``promote_scalar``);
    ``None`` where numpy rejects the operation (``bool - bool``)."""
    if rule is BinaryRule.SUBTRACT and promoted == "bool":
        return None
    if rule is BinaryRule.COMPARE:
        return "bool"
    if rule is BinaryRule.DIVIDE and promoted not in _INEXACT:
        return "float64"
    if rule is BinaryRule.POWER and promoted == "bool":
        return "int8"
    return promoted


def unary_float_dtype(dtype: str) -> str:
    """``exp``/``log``/``sqrt``: float and complex kept; bool and ints in the narrowest float
    that holds them exactly, as numpy (bool/8-bit -> float16, 16-bit -> float32, else float64).

    >>> unary_float_dtype("int8"), unary_float_dtype("uint16"), unary_float_dtype("complex64")
    ('float16', 'float32', 'complex64')
    """
    if dtype not in DTYPE_NAMES:
        raise ValueError(f"unknown dtype {dtype!r}; expected one of {', '.join(DTYPE_NAMES)}")
    return dtype if dtype in _INEXACT else _float_part(dtype)


def real_dtype(dtype: str) -> str:
    """``abs`` (and the real/imaginary parts) of ``dtype``: complex -> its real dtype, others
    kept.

    >>> real_dtype("complex128"), real_dtype("int8")
    ('float64', 'int8')
    """
    return _REAL_OF.get(dtype, dtype)
