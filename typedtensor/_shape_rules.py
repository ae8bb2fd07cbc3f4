"""The single source of truth for shape and dtype rules.

Stdlib only: this module is imported by the runtime, by the mypy plugin (which must not import
numpy or numba) and by the stub generator. Every function here is generic over the *dim item*:
the runtime passes ints, the plugin passes mypy types, the stub generator passes names. Where a
rule needs to know a dim's size, the caller passes ``size_of`` (``None`` for a symbolic or
unknown dim).

Errors are plain exceptions carrying data (``RuleError`` and subclasses); the runtime re-raises
them as numpy's ``AxisError``/``ValueError``/``TypeError`` and the plugin maps them to error
codes.
"""

from __future__ import annotations

import enum
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

__all__ = [
    "AxisRangeError",
    "AxisTypeError",
    "BinaryRule",
    "BroadcastError",
    "DTYPE_NAMES",
    "DTypeRule",
    "DuplicateAxisError",
    "L2_VARIANTS",
    "NORM_MODES",
    "REDUCTIONS",
    "ReduceToShapeError",
    "ReductionSpec",
    "RuleError",
    "binary_dtype",
    "broadcast_shapes",
    "normalize_axes",
    "promote",
    "promote_scalar",
    "reduce_shape",
    "reduce_to_shape",
    "result_dtype",
    "unary_float_dtype",
    "valid_axes_text",
]

D = TypeVar("D")


# ----------------------------------------------------------------------------------- errors
class RuleError(Exception):
    """Base of every rule violation; ``str(err)`` is the user-facing message."""


class AxisRangeError(RuleError):
    """An axis is outside ``-ndim..ndim-1``."""

    def __init__(self, axis: int, ndim: int) -> None:
        self.axis = axis
        self.ndim = ndim
        super().__init__(
            f"axis {axis} is out of range for a rank-{ndim} tensor; {valid_axes_text(ndim)}"
        )


class DuplicateAxisError(RuleError):
    """Two axis spellings name the same dim."""

    def __init__(self, first: int, second: int, dim: int, ndim: int) -> None:
        self.first = first
        self.second = second
        self.dim = dim
        self.ndim = ndim
        if first == second:
            text = f"axis {first} is repeated"
        else:
            text = f"axes {first} and {second} both refer to dim {dim} of a rank-{ndim} tensor"
        super().__init__(f"{text}; each axis may appear once")


class AxisTypeError(RuleError):
    """The axis argument has the wrong type (or a tuple where a single axis is required)."""


class BroadcastError(RuleError):
    """Two shapes cannot be broadcast together."""

    def __init__(self, position: int, left: object, right: object, message: str) -> None:
        self.position = position
        self.left = left
        self.right = right
        super().__init__(message)


class ReduceToShapeError(RuleError):
    """The target of a reduce-to-shape is not the source with some dims set to 1."""


def valid_axes_text(ndim: int) -> str:
    """``'valid axes are -3..2'``, or the rank-0 explanation."""
    if ndim == 0:
        return "a rank-0 tensor has no axes (use axis=None or axis=())"
    return f"valid axes are {-ndim}..{ndim - 1}"


# ------------------------------------------------------------------------------------- axes
def _as_axis_int(value: object) -> int:
    if isinstance(value, bool):
        raise AxisTypeError(f"axis must be an int or a tuple of ints, got bool {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise AxisTypeError(
            f"axis must be None, an int or a tuple of ints, got {type(value).__name__} {value!r}"
        ) from None


def normalize_axes(axis: object, ndim: int, *, single: bool = False) -> tuple[int, ...]:
    """Return the reduced dims as sorted non-negative ints.

    ``axis`` is ``None`` (every dim), an int or a tuple of ints; negative axes count from the
    end. With ``single=True`` (argmax/argmin) a tuple is rejected. Raises ``AxisRangeError``,
    ``DuplicateAxisError`` or ``AxisTypeError``.

    >>> normalize_axes((-1, 0), 3)
    (0, 2)
    """
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):  # numpy takes tuples only (a list is a TypeError there too)
        if single:
            raise AxisTypeError(
                f"this reduction takes a single axis (an int or None), got the tuple "
                f"{tuple(axis)!r}; reduce over one axis at a time"
            )
        spelled = [_as_axis_int(a) for a in axis]
    else:
        spelled = [_as_axis_int(axis)]
    for a in spelled:  # ranges first, then duplicates, in numpy's order
        if not -ndim <= a < ndim:
            raise AxisRangeError(a, ndim)
    seen: dict[int, int] = {}
    for a in spelled:
        dim = a + ndim if a < 0 else a
        if dim in seen:
            raise DuplicateAxisError(seen[dim], a, dim, ndim)
        seen[dim] = a
    return tuple(sorted(seen))


def reduce_shape(
    dims: Sequence[D], axis: object, keepdims: bool, one: D, *, single: bool = False
) -> tuple[D, ...]:
    """Shape of a reduction of ``dims`` over ``axis``; reduced dims become ``one`` if kept.

    >>> reduce_shape((2, 3, 4), 1, False, 1)
    (2, 4)
    >>> reduce_shape(("B", "C"), -1, True, "1")
    ('B', '1')
    """
    axes = set(normalize_axes(axis, len(dims), single=single))
    if keepdims:
        return tuple(one if i in axes else d for i, d in enumerate(dims))
    return tuple(d for i, d in enumerate(dims) if i not in axes)


# -------------------------------------------------------------------------------- broadcast
def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) else None


def broadcast_shapes(
    *shapes: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    unknown: D | None = None,
    render: Callable[[Sequence[D]], str] | None = None,
) -> tuple[D, ...]:
    """numpy broadcasting over dim items.

    A known size of 1 yields to the other dim; two equal items are kept; a known size other
    than 1 against a symbolic/unknown dim is the result (the other must be 1 or equal at run
    time); two different symbolic/unknown dims give ``unknown``. Raises ``BroadcastError``
    when two known sizes differ and neither is 1.

    >>> broadcast_shapes((8, 1), (3,))
    (8, 3)
    """
    if not shapes:
        return ()
    show = render or (lambda s: str(tuple(s)))
    result: list[D] = list(shapes[0])
    result_src = shapes[0]
    for shape in shapes[1:]:
        n = max(len(result), len(shape))
        left = [None] * (n - len(result)) + list(result)
        right = [None] * (n - len(shape)) + list(shape)
        merged: list[D] = []
        for i, (a, b) in enumerate(zip(left, right, strict=True)):
            position = i - n
            if a is None:
                merged.append(b)  # type: ignore[arg-type]
                continue
            if b is None:
                merged.append(a)
                continue
            sa, sb = size_of(a), size_of(b)
            if sa is not None and sb is not None:
                if sa == sb or sb == 1:
                    merged.append(a)
                elif sa == 1:
                    merged.append(b)
                else:
                    raise BroadcastError(
                        position,
                        a,
                        b,
                        f"cannot broadcast dim {sa} with dim {sb} at position {position}: "
                        f"shapes {show(result_src)} and {show(shape)}",
                    )
            elif sa is not None:
                merged.append(b if sa == 1 else a)
            elif sb is not None:
                merged.append(a if sb == 1 else b)
            elif a == b:
                merged.append(a)
            else:
                merged.append(unknown)  # type: ignore[arg-type]
        result = merged
        result_src = shape if len(shape) >= len(result_src) else result_src
    return tuple(result)


def reduce_to_shape(
    src: Sequence[D],
    dst: Sequence[D],
    size_of: Callable[[D], int | None] = _int_size,
    render: Callable[[Sequence[D]], str] | None = None,
) -> tuple[int, ...]:
    """Axes of ``src`` to reduce so that the result (keepdims) broadcasts to ``dst``'s shape.

    oneDNN-style: each dst dim equals the src dim or is 1 (reduced, kept as 1). ``dst`` may have
    a lower rank; its missing leading dims are reduced and dropped (the inverse of
    broadcasting). The caller reduces over the returned axes with keepdims and then drops the
    leading ``len(src) - len(dst)`` dims. Pairs that cannot be decided (symbolic dims) are
    treated as kept. Raises ``ReduceToShapeError``.

    >>> reduce_to_shape((8, 3, 32, 32), (1, 3, 1, 1))
    (0, 2, 3)
    """
    show = render or (lambda s: str(tuple(s)))
    if len(dst) > len(src):
        raise ReduceToShapeError(
            f"cannot reduce shape {show(src)} to {show(dst)}: the target has more dims "
            f"({len(dst)}) than the source ({len(src)})"
        )
    lead = len(src) - len(dst)
    axes = list(range(lead))
    for i, (s, d) in enumerate(zip(src[lead:], dst, strict=True)):
        sd, ss = size_of(d), size_of(s)
        if sd == 1:
            if ss != 1:
                axes.append(lead + i)
        elif sd is not None and ss is not None and sd != ss:
            raise ReduceToShapeError(
                f"cannot reduce shape {show(src)} to {show(dst)}: target dim {sd} at position "
                f"{i - len(dst)} is neither 1 nor the source dim {ss}"
            )
    return tuple(axes)


# ----------------------------------------------------------------------------------- dtypes
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


# ------------------------------------------------------------------------------- reductions
NORM_MODES: tuple[str, ...] = ("plain", "lp_max", "lp_sum", "power_p_max", "power_p_sum")
L2_VARIANTS: tuple[str, ...] = ("tensorflow", "pytorch", "openvino-add", "openvino-max")


@dataclass(frozen=True)
class ReductionSpec:
    """One row of the reduction table."""

    name: str
    dtype_rule: DTypeRule
    #: identity for an empty reduction, or None when numpy raises (max/min/argmax/argmin)
    identity: float | bool | None
    #: argmax/argmin take one axis, never a tuple
    single_axis: bool = False
    #: l2_normalize keeps the input shape and only reduces internally
    keeps_shape: bool = False
    #: supports ``keepdims``
    keepdims: bool = True
    #: extra keyword parameters (beyond axis/keepdims/out)
    params: tuple[str, ...] = field(default=())
    #: norm mode for the norm_lp_* family
    norm_mode: str | None = None
    doc: str = ""


def _table() -> dict[str, ReductionSpec]:
    s = DTypeRule
    rows = [
        ReductionSpec("sum", s.SUM, 0, doc="sum of elements"),
        ReductionSpec("prod", s.SUM, 1, doc="product of elements"),
        ReductionSpec("mean", s.FLOAT, math.nan, doc="arithmetic mean"),
        ReductionSpec("max", s.SAME, None, doc="maximum (NaN propagates)"),
        ReductionSpec("min", s.SAME, None, doc="minimum (NaN propagates)"),
        ReductionSpec("any", s.BOOL, False, doc="logical or"),
        ReductionSpec("all", s.BOOL, True, doc="logical and"),
        ReductionSpec("var", s.FLOAT, math.nan, params=("correction",), doc="variance"),
        ReductionSpec("std", s.FLOAT, math.nan, params=("correction",), doc="standard deviation"),
        ReductionSpec("argmax", s.INDEX, None, single_axis=True, doc="index of the first maximum"),
        ReductionSpec("argmin", s.INDEX, None, single_axis=True, doc="index of the first minimum"),
        ReductionSpec("logsumexp", s.FLOAT, -math.inf, doc="log(sum(exp(x))), computed stably"),
        ReductionSpec("norm", s.FLOAT, 0.0, params=("p", "eps", "mode"), doc="Lp norm"),
    ]
    for mode in NORM_MODES[1:]:
        rows.append(
            ReductionSpec(
                _norm_method_name(mode),
                s.FLOAT,
                0.0,  # the empty sum of |x|^p, then the mode's eps rule
                params=("p", "eps"),
                norm_mode=mode,
                doc=f"oneDNN norm mode {mode}",
            )
        )
    rows.append(
        ReductionSpec(
            "l2_normalize",
            s.FLOAT,
            None,
            keeps_shape=True,
            keepdims=False,
            params=("eps", "variant"),
            doc="x divided by its L2 norm over axis",
        )
    )
    return {r.name: r for r in rows}


def _norm_method_name(mode: str) -> str:
    """``lp_max -> norm_lp_max``, ``power_p_max -> norm_lp_power_p_max`` (oneDNN's names)."""
    return "norm_" + (mode if mode.startswith("lp_") else "lp_" + mode)


#: name -> spec, for every reduction that takes ``axis``.
REDUCTIONS: dict[str, ReductionSpec] = _table()
