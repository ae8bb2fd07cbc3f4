"""Rearranging and joining (numpy's names and semantics): ``flip``, ``roll``, ``repeat``,
``tile``, ``pad`` (constant mode), ``hstack``, ``vstack``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from ._arguments import _axes
from ._dtypes import DType
from ._tensor import AnyTensor, Tensor, wrap

__all__ = ["flip", "hstack", "pad", "repeat", "roll", "tile", "vstack"]

DT = TypeVar("DT", bound=DType)
Shape = TypeVarTuple("Shape")


def _tensor_data(x: object, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.{name} takes a Tensor, got {type(x).__name__}")
    return x._data


def flip(
    x: Tensor[DT, Unpack[Shape]], axis: int | tuple[int, ...] | None = None
) -> Tensor[DT, Unpack[Shape]]:
    """The elements in reverse order along ``axis`` (all axes for ``None``), shape and dtype
    kept: (8, 10) -> (8, 10). A view, as numpy's."""
    data = _tensor_data(x, "flip")
    axes = None if axis is None else _axes(axis, data.ndim)
    return wrap(np.flip(data, axis=axes))


def roll(
    x: Tensor[DT, Unpack[Shape]],
    shift: int | tuple[int, ...],
    axis: int | tuple[int, ...] | None = None,
) -> Tensor[DT, Unpack[Shape]]:
    """Elements shifted by ``shift`` along ``axis`` (the flattened tensor for ``None``),
    wrapping around; shape and dtype kept: (8, 10) -> (8, 10)."""
    data = _tensor_data(x, "roll")
    if axis is None:
        return wrap(np.roll(data, shift))
    if isinstance(axis, (tuple, list)):
        # each axis in its place, paired with its shift (numpy also sums the shifts of a repeat)
        axes = tuple(_axes(a, data.ndim, single=True)[0] for a in axis)
        return wrap(np.roll(data, shift, axis=axes))
    return wrap(np.roll(data, shift, axis=_axes(axis, data.ndim, single=True)[0]))


def repeat(
    x: Tensor[DT, Unpack[tuple[Any, ...]]],
    repeats: int | Sequence[int] | Tensor[Any, Any],
    axis: int | None = None,
) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
    """Each element repeated ``repeats`` times along ``axis`` (the flattened tensor for
    ``None``): (2, 3), 2, axis=0 -> (4, 3); (2, 3), 2 -> (12,)."""
    data = _tensor_data(x, "repeat")
    reps = repeats._data if isinstance(repeats, Tensor) else repeats
    # numpy repeats a rank-0 tensor as a rank-1 one (axis 0 or -1)
    ax = None if axis is None else _axes(axis, max(data.ndim, 1), single=True)[0]
    return wrap(np.repeat(data, reps, axis=ax))


def tile(
    x: Tensor[DT, Unpack[tuple[Any, ...]]], reps: int | Sequence[int]
) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
    """``x`` repeated ``reps`` times per dim (numpy's ``tile``): (2, 3), (2, 1) -> (4, 3);
    more reps than dims prepend dims: (3,), (2, 2) -> (2, 6)."""
    return wrap(np.tile(_tensor_data(x, "tile"), reps))


def pad(
    x: Tensor[DT, Unpack[tuple[Any, ...]]],
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    mode: Literal["constant"] = "constant",
    *,
    constant_values: float = 0,
) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
    """``x`` with ``pad_width`` elements of ``constant_values`` before and after each dim
    (numpy's spellings: ``1``, ``(1, 2)``, ``((1, 2), (0, 3))``): (2, 3), 1 -> (4, 5). Only
    the constant mode."""
    if mode != "constant":
        raise ValueError(f"pad supports mode='constant' only, got {mode!r}")
    data = _tensor_data(x, "pad")
    widths = np.asarray(pad_width)
    if widths.dtype.kind not in "iu" or (widths < 0).any():
        raise ValueError(f"pad_width must be ints >= 0, got {pad_width!r}")
    return wrap(np.pad(data, pad_width, mode="constant", constant_values=constant_values))


def _sequence(tensors: object, name: str) -> list[Any]:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"tt.{name} takes a non-empty list or tuple of Tensors")
    return [_tensor_data(t, name) for t in tensors]


def _join(name: str, join: Any, tensors: object) -> AnyTensor:
    datas = _sequence(tensors, name)
    try:
        return wrap(join(datas))
    except ValueError as err:
        shapes = ", ".join(str(d.shape) for d in datas)
        raise ValueError(f"{name} of shapes {shapes}: {err}") from None


def hstack(tensors: Sequence[Tensor[Any, Unpack[tuple[Any, ...]]]]) -> AnyTensor:
    """Join along the second dim (the first for 1-D tensors), numpy's ``hstack``: (2, 3),
    (2, 4) -> (2, 7); (3,), (4,) -> (7,). The dtype promotes as numpy's."""
    return _join("hstack", np.hstack, tensors)


def vstack(tensors: Sequence[Tensor[Any, Unpack[tuple[Any, ...]]]]) -> AnyTensor:
    """Join along the first dim, 1-D tensors as rows (numpy's ``vstack``): (2, 3), (4, 3) ->
    (6, 3); (3,), (3,) -> (2, 3). The dtype promotes as numpy's."""
    return _join("vstack", np.vstack, tensors)
