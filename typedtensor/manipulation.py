"""Shape manipulation with numpy's semantics: ``transpose permute_dims swapaxes moveaxis reshape
expand_dims squeeze concatenate (concat) stack split broadcast_to``; ``x.T``, ``x.mT``,
``x.transpose``, ``x.swapaxes``, ``x.reshape`` and ``x.squeeze`` delegate here.

Each function validates its arguments with the shape rules (``typedtensor._rules.manipulation``,
shared with the mypy plugin) and then calls numpy; results share memory with the input where
numpy returns a view. Inputs are never modified. Errors: ``tt.AxisError`` for axes out of range,
``ValueError`` for duplicate axes and axes that are not a permutation, ``tt.ShapeError`` (a
``ValueError``) for shapes that do not fit, ``TypeError`` for arguments of the wrong type.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, TypeVar, Union

import numpy as np
import numpy.typing as npt
from typing_extensions import Unpack

from . import _rules as rules
from ._dtypes import DType
from ._tensor import AnyTensor, Tensor, _raise_rule_error, wrap

__all__ = [
    "broadcast_to",
    "concat",
    "concatenate",
    "expand_dims",
    "moveaxis",
    "permute_dims",
    "reshape",
    "split",
    "squeeze",
    "stack",
    "swapaxes",
    "transpose",
]

DT = TypeVar("DT", bound=DType)
R = TypeVar("R")

#: A tensor of dtype ``DT`` and any shape (the plugin computes the exact result shape).
_Tensor = Tensor[DT, Unpack[tuple[Any, ...]]]
#: A shape argument: ints (-1 for the inferred dim of ``reshape``), or the dims of a typed
#: ``x.shape`` (``(x.shape[0], -1)``), which the checkers see as the dims' own types.
ShapeArg: TypeAlias = Union[int, Sequence[Any]]


def _checked(rule: Callable[..., R], *args: Any) -> R:
    """``rule(*args)``, its ``RuleError`` re-raised as the runtime exception."""
    try:
        return rule(*args)
    except rules.RuleError as err:
        _raise_rule_error(err)
        raise  # unreachable


#: The rules' answers for calls already validated, by (rule, input shape, arguments): a
#: repeated call skips the rule. Only plain arguments (ints, ``None``, tuples of ints) are
#: remembered, so a float or bool axis always reaches the rule (and its ``TypeError``).
_VALIDATED: dict[tuple[Any, ...], Any] = {}
_VALIDATED_LIMIT = 4096


def _plain(value: object) -> bool:
    kind = type(value)
    if kind is int or value is None:
        return True
    if kind is not tuple:
        return False
    for v in value:  # type: ignore[attr-defined]
        if type(v) is not int:
            return False
    return True


def _validated(rule: Callable[..., R], shape: object, *args: Any) -> R:
    """``rule(shape, *args)`` through ``_checked``, remembered when the arguments are plain."""
    for a in args:
        if not _plain(a):
            return _checked(rule, shape, *args)
    key = (rule, shape, args)
    try:
        return _VALIDATED[key]  # type: ignore[no-any-return]
    except KeyError:
        pass
    answer = _checked(rule, shape, *args)
    if len(_VALIDATED) >= _VALIDATED_LIMIT:
        _VALIDATED.clear()
    _VALIDATED[key] = answer
    return answer


def _array(x: object, name: str) -> npt.NDArray[Any]:
    if not isinstance(x, Tensor):
        raise TypeError(f"{name} takes a typedtensor Tensor, got {type(x).__name__}")
    return x._data


def _arrays(tensors: object, name: str) -> list[npt.NDArray[Any]]:
    kind = type(tensors)  # a list or tuple first: isinstance(..., Sequence) costs ~0.3 us
    if kind is not list and kind is not tuple:
        if isinstance(tensors, (Tensor, np.ndarray)) or not isinstance(tensors, Sequence):
            raise TypeError(
                f"{name} takes a list or tuple of Tensors, got {type(tensors).__name__}; "
                f"write tt.{name}([a, b])"
            )
    arrays = []
    for t in tensors:  # type: ignore[attr-defined]
        arrays.append(t._data if isinstance(t, Tensor) else _array(t, name))
    return arrays


def _reorder(x: object, rule: Callable[..., tuple[int, ...]], name: str, *args: Any) -> AnyTensor:
    """``x``'s dims in the order ``rule(ndim, *args)`` gives (a view, same dtype)."""
    data = _array(x, name)
    return wrap(data.transpose(_validated(rule, data.ndim, *args)))


# --------------------------------------------------------------------------- dim orders
def transpose(x: _Tensor[DT], axes: Sequence[int] | None = None) -> _Tensor[DT]:
    """Permute the dims: ``axes=None`` reverses them, ``(8, 3, 4) -> (4, 3, 8)``; with
    ``axes=(0, 2, 1)``, ``(8, 3, 4) -> (8, 4, 3)`` (every axis exactly once)."""
    if axes is None:  # the rule's order without asking it: every dim reversed
        return wrap(_array(x, "transpose").T)
    return _reorder(x, rules.transpose_order, "transpose", axes)


def permute_dims(x: _Tensor[DT], axes: Sequence[int]) -> _Tensor[DT]:
    """The Array API's name for ``transpose`` with explicit axes: ``(8, 3, 4), (2, 0, 1) ->
    (4, 8, 3)``."""
    if axes is None:
        raise TypeError("permute_dims needs axes (a tuple naming every axis once); use transpose")
    return _reorder(x, rules.transpose_order, "permute_dims", axes)


def swapaxes(x: _Tensor[DT], axis1: int, axis2: int) -> _Tensor[DT]:
    """Swap two dims: ``swapaxes((8, 3, 4), 0, -1) -> (4, 3, 8)``."""
    return _reorder(x, rules.swapaxes_order, "swapaxes", axis1, axis2)


def moveaxis(
    x: _Tensor[DT], source: int | Sequence[int], destination: int | Sequence[int]
) -> _Tensor[DT]:
    """Move dims to new positions, the others keeping their order: ``moveaxis((8, 3, 4), 0,
    -1) -> (3, 4, 8)``; ``source``/``destination`` are ints or equally long tuples."""
    return _reorder(x, rules.moveaxis_order, "moveaxis", source, destination)


def matrix_transpose(x: _Tensor[DT]) -> _Tensor[DT]:
    """Swap the last two dims (``x.mT``): ``(8, 3, 4) -> (8, 4, 3)``; needs rank >= 2."""
    data = _array(x, "mT")
    if data.ndim < 2:
        _checked(rules.matrix_transpose_order, data.ndim)  # raises
    return wrap(data.swapaxes(-1, -2))


def transpose_method(x: AnyTensor, axes: tuple[Any, ...]) -> AnyTensor:
    """``x.transpose()``, ``x.transpose(1, 0)`` and ``x.transpose((1, 0))``."""
    if len(axes) == 1:
        first = axes[0]
        if first is None:
            return transpose(x)
        if isinstance(first, (tuple, list)):
            axes = first  # type: ignore[assignment]
    elif not axes:
        return transpose(x)
    return _reorder(x, rules.transpose_order, "transpose", axes)


# ------------------------------------------------------------------------------ reshape
def _shape_items(shape: object, name: str) -> tuple[int, ...]:
    if type(shape) is tuple and _plain(shape):
        return shape
    items = shape if isinstance(shape, (tuple, list)) else (shape,)
    try:
        if any(isinstance(d, bool) for d in items):
            raise TypeError
        return tuple(operator.index(d) for d in items)
    except TypeError:
        raise TypeError(f"{name} shape must be an int or a tuple of ints, got {shape!r}") from None


def reshape(x: _Tensor[DT], shape: ShapeArg, *, copy: bool | None = None) -> _Tensor[DT]:
    """Same elements, new shape; one entry may be -1 (inferred): ``reshape((8, 3, 4), (8,
    -1)) -> (8, 12)``. The element count must not change. ``copy=True`` copies, ``False``
    never copies (a ValueError where a view cannot be made), ``None`` copies where needed."""
    data = _array(x, "reshape")
    target = _validated(rules.reshape_shape, data.shape, _shape_items(shape, "reshape"))
    if copy is False and type(data) is np.ndarray:
        try:
            return wrap(np.reshape(data, target, copy=False))
        except ValueError:
            raise ValueError(
                f"reshape(copy=False): a {data.shape} tensor with these strides cannot be "
                f"viewed as {target}; pass copy=None to copy where needed"
            ) from None
    result = _reshaped(data, target)
    return wrap(result.copy() if copy else result)


def _reshaped(data: npt.NDArray[Any], shape: Any) -> Any:
    """``data.reshape(shape)``; dask cannot reshape a dask array in one step where dims split
    unevenly (``(3, 4) -> (2, 6)``): it goes through the flattening, lazily."""
    try:
        return data.reshape(shape)
    except NotImplementedError:  # dask's reshape; numpy never raises it
        return data.reshape(-1).reshape(shape)


def reshape_method(x: AnyTensor, shape: tuple[Any, ...]) -> AnyTensor:
    """``x.reshape(2, 3)`` and ``x.reshape((2, 3))``."""
    if not shape:
        raise TypeError("reshape() needs a shape: x.reshape((2, 3)) or x.reshape(2, 3)")
    return reshape(x, shape[0] if len(shape) == 1 else shape)


# --------------------------------------------------------------------- expand / squeeze
def expand_dims(x: _Tensor[DT], axis: int | Sequence[int]) -> _Tensor[DT]:
    """Insert size-1 dims at ``axis`` (positions in the RESULT): ``expand_dims((8, 3), (0,
    -1)) -> (1, 8, 3, 1)``."""
    data = _array(x, "expand_dims")
    axes = tuple(axis) if isinstance(axis, list) else axis
    return wrap(_reshaped(data, _validated(rules.expand_dims_shape, data.shape, axes, 1)))


def squeeze(x: _Tensor[DT], axis: int | Sequence[int] | None = None) -> _Tensor[DT]:
    """Remove size-1 dims: all of them for ``axis=None``, ``(1, 8, 1) -> (8,)``; the named ones
    otherwise (each must have size 1), ``squeeze((1, 8, 1), 0) -> (8, 1)``."""
    data = _array(x, "squeeze")
    axes = tuple(axis) if isinstance(axis, list) else axis
    return wrap(_reshaped(data, _validated(rules.squeeze_shape, data.shape, axes)))


# ---------------------------------------------------------- concatenate / stack / split
def concatenate(tensors: Sequence[AnyTensor], axis: int | None = 0) -> AnyTensor:
    """Join along an existing axis: ``concatenate([(2, 3), (4, 3)]) -> (6, 3)``; every other
    dim must match; ``axis=None`` joins the flattened tensors. The dtype is numpy's promotion
    of the inputs' dtypes."""
    arrays = _arrays(tensors, "concatenate")
    try:  # numpy refuses what the rules refuse (bool/float axes, dims that differ, rank 0)
        joined = np.concatenate(arrays, axis=axis)
    except (TypeError, ValueError):  # the rules say why (numpy's error where they accept)
        _validated(rules.concat_shape, tuple([a.shape for a in arrays]), axis)
        raise
    return wrap(joined)


#: The Array API's name for ``concatenate``.
concat = concatenate


def stack(tensors: Sequence[AnyTensor], axis: int = 0) -> AnyTensor:
    """Join equally shaped tensors along a new axis (an axis of the RESULT): ``stack([(2, 3)]
    * 4) -> (4, 2, 3)``, ``stack(..., axis=-1) -> (2, 3, 4)``. Dtype as ``concatenate``."""
    arrays = _arrays(tensors, "stack")
    _validated(rules.stack_shape, tuple([a.shape for a in arrays]), axis)
    return wrap(np.stack(arrays, axis=axis))


def split(x: _Tensor[DT], sections: int, axis: int = 0) -> list[_Tensor[DT]]:
    """Split into ``sections`` equal parts along ``axis``: ``split((6, 4), 3) -> 3 x (2, 4)``;
    the size along ``axis`` must be a multiple of ``sections``."""
    data = _array(x, "split")
    _validated(rules.split_shape, data.shape, sections, axis)
    if type(data) is not np.ndarray:  # a dask array (no np.split): slices, lazily
        ax = operator.index(axis) % data.ndim
        n = operator.index(sections)
        step = data.shape[ax] // n
        before = (slice(None),) * ax
        indexes = [(*before, slice(i * step, (i + 1) * step)) for i in range(n)]
        return [wrap(data[index]) for index in indexes]
    return [wrap(part) for part in np.split(data, operator.index(sections), axis=axis)]


# -------------------------------------------------------------------------- broadcast_to
def broadcast_to(x: _Tensor[DT], shape: ShapeArg) -> _Tensor[DT]:
    """A read-only view of ``x`` broadcast to ``shape``: each of ``x``'s dims (from the right)
    is 1 or the target dim: ``broadcast_to((3, 1), (2, 3, 4)) -> (2, 3, 4)``."""
    data = _array(x, "broadcast_to")
    target = _shape_items(shape, "broadcast_to")
    _validated(rules.broadcast_to_shape, data.shape, target)
    return wrap(np.broadcast_to(data, target))
