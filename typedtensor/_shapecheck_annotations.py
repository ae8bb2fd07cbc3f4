"""What ``@tt.shapecheck`` does with annotations and values: translate ``Tensor[...]``
annotations into jaxtyping's form, show tensors to jaxtyping as probes, render annotations and
values compactly for error messages, and find which argument failed and why.

``Tensor[tt.float32, L[3], B, *tuple[Any, ...]]`` -> ``Float32[_Probe, "3 B ..."]``.
jaxtyping and beartype are imported on first use (``_jaxtyping()``), never at import time.
"""

from __future__ import annotations

import collections.abc
import contextlib
import functools
import io
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal, TypeVar, cast, get_args, get_origin

import typing_extensions

from ._dims import DIM_EXPRESSIONS, annotation_expr
from ._dtypes import (
    ComplexFloating,
    DType,
    Floating,
    Integer,
    Number,
    SignedInteger,
    UnsignedInteger,
)
from ._tensor import Dim, Tensor

_UNPACKS: tuple[object, ...] = tuple(
    {id(u): u for u in (getattr(typing, "Unpack", None), typing_extensions.Unpack) if u}.values()
)
_UNIONS: tuple[object, ...] = (typing.Union, types.UnionType)

# jaxtyping dtype names per typedtensor dtype class (concrete classes by ``.name``)
_CONCRETE_JT = {
    "bool": "Bool",
    "int8": "Int8",
    "int16": "Int16",
    "int32": "Int32",
    "int64": "Int64",
    "uint8": "UInt8",
    "uint16": "UInt16",
    "uint32": "UInt32",
    "uint64": "UInt64",
    "float16": "Float16",
    "float32": "Float32",
    "float64": "Float64",
    "complex64": "Complex64",
    "complex128": "Complex128",
}
_FAMILY_JT: dict[type[DType], str] = {
    DType: "Shaped",
    Number: "Num",
    Integer: "Integer",
    SignedInteger: "Int",
    UnsignedInteger: "UInt",
    Floating: "Float",
    ComplexFloating: "Complex",
}


# --------------------------------------------------------------------------- probes
class _Probe:
    """What the checker sees of a Tensor: the wrapped array's ``shape`` and ``dtype``."""

    __slots__ = ("dtype", "shape", "tensor")

    def __init__(self, tensor: Tensor[Any, typing_extensions.Unpack[tuple[Any, ...]]]) -> None:
        data = tensor._data  # a dask array for a dask-backed Tensor: not computed
        self.tensor = tensor
        self.shape = data.shape
        self.dtype = data.dtype

    def __repr__(self) -> str:
        return _show_value(self.tensor)


def _probe_tree(value: object) -> object:
    """Replace every Tensor inside tuples, lists and dicts by its probe."""
    if isinstance(value, Tensor):
        return _Probe(value)
    kind = type(value)
    if kind is tuple:
        return tuple(_probe_tree(v) for v in cast(tuple[object, ...], value))
    if kind is list:
        return [_probe_tree(v) for v in cast(list[object], value)]
    if kind is dict:
        return {k: _probe_tree(v) for k, v in cast(dict[object, object], value).items()}
    return value


# ----------------------------------------------------------------------- translation
def _jaxtyping() -> Any:
    import jaxtyping

    return jaxtyping


def _is_tensor_leaf(ann: object) -> bool:
    return ann is Tensor or get_origin(ann) is Tensor


def _is_jaxtyping_leaf(ann: object) -> bool:
    if not isinstance(ann, type):
        return False
    jt = _jaxtyping()
    return issubclass(ann, jt.AbstractArray)


def _mentions_arrays(ann: object) -> bool:
    if _is_tensor_leaf(ann) or _is_jaxtyping_leaf(ann):
        return True
    return any(_mentions_arrays(a) for a in get_args(ann) if not isinstance(a, (str, int)))


def _is_dim(d: object) -> bool:
    return isinstance(d, type) and issubclass(d, Dim)


def _dim_name(name: str) -> str:
    # a leading "_" means "unchecked dim" to jaxtyping; keep such names checked
    stripped = name.lstrip("_")
    return stripped + "_" * (len(name) - len(stripped)) if stripped else "underscore_dim"


def _is_unpack(item: object) -> bool:
    return get_origin(item) in _UNPACKS or bool(getattr(item, "__unpacked__", False))


def _unpacked_target(item: object) -> object:
    if getattr(item, "__unpacked__", False):
        return types.GenericAlias(tuple, get_args(item))  # *tuple[X, ...] -> tuple[X, ...]
    return get_args(item)[0]


def _dim_tokens(item: object, where: str) -> list[str]:
    """jaxtyping shape-string tokens for one dim of a Tensor annotation."""
    if item is Any or item is int:
        return ["_"]
    if get_origin(item) is Literal:
        values = get_args(item)
        if len(values) == 1 and type(values[0]) is int and values[0] >= 0:
            return [str(values[0])]
        raise TypeError(
            f"{where}: dim {item!r} must be Literal[n] with one non-negative int; "
            "use a TypeVar or a tt.Dim marker for a dim that takes several sizes"
        )
    if isinstance(item, (TypeVar, typing_extensions.TypeVar)):
        return [_dim_name(item.__name__)]
    if isinstance(item, type) and issubclass(item, Dim):
        return [_dim_name(item.__name__)]
    if get_origin(item) in DIM_EXPRESSIONS:  # tt.Mul[L[2], B]: jaxtyping evaluates "2*B"
        expr = annotation_expr(item, lambda d: _dim_name(getattr(d, "__name__", str(d))), _is_dim)
        if expr is None:
            raise TypeError(f"{where}: cannot check dim {item!r}; its arguments must be dims")
        return [str(expr).replace(" ", "")]
    if _is_unpack(item):
        target = _unpacked_target(item)
        if isinstance(
            target,
            (
                getattr(typing, "TypeVarTuple", typing_extensions.TypeVarTuple),
                typing_extensions.TypeVarTuple,
            ),
        ):
            return ["*" + _dim_name(str(getattr(target, "__name__", target)))]
        if get_origin(target) is tuple:
            inner = get_args(target)
            if len(inner) == 2 and inner[1] is Ellipsis:
                if inner[0] in (Any, int):
                    return ["..."]
                raise TypeError(
                    f"{where}: unknown-rank dims must be *tuple[Any, ...], got {item!r}"
                )
            return [tok for sub in inner for tok in _dim_tokens(sub, where)]
    raise TypeError(
        f"{where}: cannot check dim {item!r}; dims are Literal[n], a TypeVar, a tt.Dim "
        "subclass, Any, or an unpacked *tuple[Any, ...] / *Shape"
    )


def _dtype_jt(dtype: object, where: str) -> Any:
    """The jaxtyping dtype (``Float32``, ``Float``, ``Shaped``...) for a dtype argument."""
    jt = _jaxtyping()
    if dtype is Any:
        return jt.Shaped
    if isinstance(dtype, (TypeVar, typing_extensions.TypeVar)):
        constraints = getattr(dtype, "__constraints__", ())
        if constraints:
            names = sorted({n for c in constraints for n in _concrete_names(c, where)})
            return _custom_dtype(tuple(names))
        bound = getattr(dtype, "__bound__", None)
        return jt.Shaped if bound is None else _dtype_jt(bound, where)
    if isinstance(dtype, type) and issubclass(dtype, DType):
        if dtype.name:
            return getattr(jt, _CONCRETE_JT[dtype.name])
        if dtype in _FAMILY_JT:
            return getattr(jt, _FAMILY_JT[dtype])
    raise TypeError(
        f"{where}: dtype {dtype!r} is not a typedtensor dtype class (tt.float32, tt.Floating...), "
        "a TypeVar bound to one, or Any"
    )


def _concrete_names(dtype: object, where: str) -> list[str]:
    from ._dtypes import BY_NAME

    if isinstance(dtype, type) and issubclass(dtype, DType):
        return [name for name, cls in BY_NAME.items() if issubclass(cls, dtype)]
    raise TypeError(f"{where}: TypeVar constraint {dtype!r} is not a typedtensor dtype class")


@functools.cache
def _custom_dtype(names: tuple[str, ...]) -> Any:
    jt = _jaxtyping()
    return type("|".join(names), (jt.AbstractDtype,), {"dtypes": list(names)})


@functools.lru_cache(maxsize=512)
def _translate_leaf(ann: object, where: str) -> Any:
    """``Tensor[tt.float32, L[3], B]`` -> ``Float32[_Probe, "3 B"]``."""
    args = get_args(ann)
    if not args:  # bare Tensor: any dtype, any shape
        return _jaxtyping().Shaped[_Probe, "..."]
    tokens = [tok for item in args[1:] for tok in _dim_tokens(item, where)]
    try:
        return _dtype_jt(args[0], where)[_Probe, " ".join(tokens)]
    except (ValueError, TypeError) as err:
        raise TypeError(f"{where}: cannot translate {_show_ann(ann)}: {err}") from None


def _translate(ann: object, where: str) -> Any:
    """Rewrite an annotation so that each Tensor leaf is its jaxtyping form."""
    if _is_tensor_leaf(ann):
        return _translate_leaf(ann, where)
    if _is_jaxtyping_leaf(ann) or not _mentions_arrays(ann):
        return ann
    origin, args = get_origin(ann), get_args(ann)
    new_args = tuple(
        a if isinstance(a, (str, int)) or a is Ellipsis else _translate(a, where) for a in args
    )
    if origin in _UNIONS:
        return typing.Union[new_args]
    if origin is typing.Annotated:
        return ann.copy_with((new_args[0],))  # type: ignore[attr-defined]
    if isinstance(ann, types.GenericAlias):
        return types.GenericAlias(cast(type, origin), new_args)
    copy_with = getattr(ann, "copy_with", None)
    if copy_with is not None:
        return copy_with(new_args)
    raise TypeError(f"{where}: cannot check the annotation {ann!r}")


# ------------------------------------------------------------------------ rendering
def _show_dim(item: object) -> str:
    if item is Any or item is int:
        return "?"
    if get_origin(item) in DIM_EXPRESSIONS:
        expr = annotation_expr(item, lambda d: str(getattr(d, "__name__", d)), _is_dim)
        return str(expr) if expr is not None else repr(item)
    if get_origin(item) is Literal:
        return ", ".join(map(str, get_args(item)))
    if _is_unpack(item):
        target = _unpacked_target(item)
        if get_origin(target) is tuple:
            inner = get_args(target)
            if len(inner) == 2 and inner[1] is Ellipsis:
                return "..."
            return ", ".join(_show_dim(i) for i in inner)
        return "*" + str(getattr(target, "__name__", target))
    return str(getattr(item, "__name__", item))


def _show_ann(ann: object) -> str:
    """Compact rendering: ``Tensor[float32, B, 3]``; jaxtyping types as jaxtyping shows them."""
    if _is_tensor_leaf(ann):
        args = get_args(ann)
        if not args:
            return "Tensor"
        return "Tensor[" + ", ".join([_show_dim(args[0]), *map(_show_dim, args[1:])]) + "]"
    if _is_jaxtyping_leaf(ann):
        return f"{getattr(ann, '__name__', ann)}"
    origin, args = get_origin(ann), get_args(ann)
    if origin in _UNIONS:
        return " | ".join("None" if a is type(None) else _show_ann(a) for a in args)
    if origin is not None and args:
        name = getattr(origin, "__name__", str(origin))
        shown = ["..." if a is Ellipsis else _show_ann(a) for a in args]
        return f"{name}[{', '.join(shown)}]"
    return str(getattr(ann, "__name__", ann))


def _show_value(value: object) -> str:
    if isinstance(value, _Probe):
        value = value.tensor
    if isinstance(value, Tensor):
        return "Tensor[" + ", ".join([value.dtype.__name__, *map(str, value.shape)]) + "]"
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if isinstance(shape, tuple) and dtype is not None:
        return f"{type(value).__name__}[{', '.join([str(dtype), *map(str, shape)])}]"
    if isinstance(value, (tuple, list)) and len(value) <= 8:
        inner = ", ".join(_show_value(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    return f"{type(value).__name__} {value!r}"[:200]


def _has_dtype_var(ann: object) -> bool:
    if _is_tensor_leaf(ann):
        args = get_args(ann)
        return bool(args) and isinstance(args[0], (TypeVar, typing_extensions.TypeVar))
    return any(_has_dtype_var(a) for a in get_args(ann) if not isinstance(a, (str, int)))


def _tensor_leaves(
    ann: object, value: object, path: str
) -> Iterator[tuple[object, Tensor[Any, typing_extensions.Unpack[tuple[Any, ...]]], str]]:
    """(Tensor annotation, Tensor value, path) pairs where the value's structure follows."""
    if _is_tensor_leaf(ann):
        if isinstance(value, Tensor):
            yield ann, value, path
        return
    origin, args = get_origin(ann), get_args(ann)
    if origin in _UNIONS:
        for member in args:
            if _is_tensor_leaf(member) and isinstance(value, Tensor):
                yield from _tensor_leaves(member, value, path)
                return
        return
    if origin is typing.Annotated:
        yield from _tensor_leaves(args[0], value, path)
    elif origin is tuple and isinstance(value, tuple):
        if len(args) == 2 and args[1] is Ellipsis:
            args = (args[0],) * len(value)
        for i, (a, v) in enumerate(zip(args, value, strict=False)):
            yield from _tensor_leaves(a, v, f"{path}[{i}]")
    elif origin in (list, collections.abc.Sequence) and isinstance(value, (list, tuple)) and args:
        for i, v in enumerate(value):
            yield from _tensor_leaves(args[0], v, f"{path}[{i}]")


_Failure = tuple[str, str, str, str]  # (path, expected, actual, reason)


def _why(ann: object, value: object, path: str) -> _Failure | None:
    """None if ``value`` (probed) matches ``ann`` (binding dims in jaxtyping's memo), else
    (path, expected, actual, reason)."""
    if _is_tensor_leaf(ann):
        if not isinstance(value, _Probe):
            return path, _show_ann(ann), _show_value(value), "this is not a typedtensor Tensor"
        return _leaf_why(_translate_leaf(ann, path), value, path, _show_ann(ann))
    if _is_jaxtyping_leaf(ann):
        return _leaf_why(ann, value, path, _show_ann(ann))
    origin, args = get_origin(ann), get_args(ann)
    if origin in _UNIONS:
        failures = []
        for member in args:
            failure = _why(member, value, path)
            if failure is None:
                return None
            if _mentions_arrays(member):
                failures.append(failure)
        if failures:
            first = failures[0]
            return first[0], _show_ann(ann), first[2], first[3]
        return path, _show_ann(ann), _show_value(value), "no member of the union matches"
    if origin is typing.Annotated:
        return _why(args[0], value, path)
    if origin is tuple and _mentions_arrays(ann):
        if not isinstance(value, tuple):
            return path, _show_ann(ann), _show_value(value), "this is not a tuple"
        if len(args) == 2 and args[1] is Ellipsis:
            args = (args[0],) * len(value)
        elif len(args) != len(value):
            return (
                path,
                _show_ann(ann),
                _show_value(value),
                (f"a tuple of {len(value)} items, expected {len(args)}"),
            )
        for i, (a, v) in enumerate(zip(args, value, strict=False)):
            failure = _why(a, v, f"{path}[{i}]")
            if failure is not None:
                return failure
        return None
    if origin is list and _mentions_arrays(ann) and isinstance(value, list):
        for i, v in enumerate(value):
            failure = _why(args[0], v, f"{path}[{i}]")
            if failure is not None:
                return failure
        return None
    from beartype.door import is_bearable

    try:
        ok = is_bearable(value, _translate(ann, path))
    except Exception:  # an annotation beartype cannot check alone: do not blame it
        return None
    if ok:
        return None
    return path, _show_ann(ann), _show_value(value), f"this is not a {_show_ann(ann)}"


def _leaf_why(jt_type: Any, value: object, path: str, expected: str) -> _Failure | None:
    reason: str = jt_type.__instancecheck_str__(value)
    if not reason:
        return None
    if "not an instance of the underlying array type" in reason:
        reason = (
            "this is not a typedtensor Tensor"
            if expected.startswith("Tensor")
            else (f"this is a {type(value).__name__}, not the annotated array type")
        )
    return path, expected, _show_value(value), reason


def _bindings() -> dict[str, object]:
    """jaxtyping's current dim bindings (``print_bindings``), as ``{"B": 3, "rest": (4, 5)}``."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        _jaxtyping().print_bindings()
    out: dict[str, object] = {}
    for line in buf.getvalue().splitlines():
        name, sep, size = line.partition("=")
        if sep and name.isidentifier():
            out[name] = int(size) if size.isdigit() else size
    return out
