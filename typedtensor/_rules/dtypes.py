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
    "float32",
    "float64",
)
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_FLOATS = ("float32", "float64")


class DTypeRule(enum.Enum):
    """How a reduction's result dtype follows from its input dtype (numpy 2, 64-bit Linux)."""

    SAME = "same"  #: max/min: the input dtype
    SUM = "sum"  #: sum/prod: bool and signed ints -> int64, unsigned -> uint64, floats kept
    FLOAT = "float"  #: mean/var/std/logsumexp/norms: bool and ints -> float64, floats kept
    BOOL = "bool"  #: any/all
    INDEX = "index"  #: argmax/argmin -> int64


def result_dtype(rule: DTypeRule, dtype: str) -> str:
    """Result dtype name of a reduction with ``rule`` on input ``dtype``.

    >>> result_dtype(DTypeRule.SUM, "int8"), result_dtype(DTypeRule.FLOAT, "float32")
    ('int64', 'float32')
    """
    if dtype not in DTYPE_NAMES:
        raise ValueError(f"unknown dtype {dtype!r}; expected one of {', '.join(DTYPE_NAMES)}")
    if rule is DTypeRule.SAME:
        return dtype
    if rule is DTypeRule.BOOL:
        return "bool"
    if rule is DTypeRule.INDEX:
        return "int64"
    if dtype in _FLOATS:
        return dtype
    if rule is DTypeRule.FLOAT:
        return "float64"
    return "uint64" if dtype in _UNSIGNED else "int64"


_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
_BITS.update({"u" + k: v for k, v in _BITS.items()})


def promote(a: str, b: str) -> str:
    """numpy's ``promote_types`` over typedtensor's dtypes (the result of ``+ - * **``,
    ``maximum``/``minimum`` between two tensors).

    >>> promote("int8", "uint8"), promote("int32", "float32"), promote("int64", "uint64")
    ('int16', 'float64', 'float64')
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
    if a in _FLOATS or b in _FLOATS:
        if a in _FLOATS and b in _FLOATS:
            return "float64"
        f, i = (a, b) if a in _FLOATS else (b, a)
        # float32 holds int8/int16 (and unsigned) exactly; wider ints need float64
        return "float32" if f == "float32" and _BITS[i] <= 16 else "float64"
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
    ``"bool"``, ``"int"``, ``"float"``.

    >>> promote_scalar("float32", "float"), promote_scalar("int8", "float")
    ('float32', 'float64')
    """
    if scalar == "bool":
        return dtype
    if scalar == "int":
        return "int64" if dtype == "bool" else dtype
    if scalar == "float":
        return dtype if dtype in _FLOATS else "float64"
    raise ValueError(f"scalar kind must be 'bool', 'int' or 'float', got {scalar!r}")


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
    if rule is BinaryRule.DIVIDE and promoted not in _FLOATS:
        return "float64"
    if rule is BinaryRule.POWER and promoted == "bool":
        return "int8"
    return promoted


def unary_float_dtype(dtype: str) -> str:
    """``exp``/``log``/``sqrt``: floats kept, bool and ints computed in float64 (numpy would
    give float16 for 8-bit inputs, a dtype typedtensor does not have)."""
    return result_dtype(DTypeRule.FLOAT, dtype)
