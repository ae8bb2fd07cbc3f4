"""Sorting (numpy's names and semantics): ``sort`` and ``argsort`` along an axis (``kind``:
``"quicksort"``, ``"mergesort"``, ``"heapsort"``, ``"stable"``; ``stable=`` as the Array API
standard's, stable by default as the standard's: without ``kind=`` ties keep their order),
``descending`` as the standard's. The shape and dtype are kept (``argsort``:
int64); ``axis`` is one int (sort a flattened tensor with ``x.reshape(-1)``)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from ._arguments import _axes
from ._dtypes import DType, int64
from ._tensor import Tensor, wrap

__all__ = ["argsort", "sort"]

DT = TypeVar("DT", bound=DType)
Shape = TypeVarTuple("Shape")
Kind = Literal["quicksort", "mergesort", "heapsort", "stable"]
_KINDS = ("quicksort", "mergesort", "heapsort", "stable")


def _prepare(name: str, x: object, axis: object, kind: object, stable: object) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.{name} takes a Tensor, got {type(x).__name__}")
    if kind is not None and kind not in _KINDS:
        raise ValueError(f"{name} kind must be one of {', '.join(_KINDS)}, got {kind!r}")
    if stable is not None and kind is not None:
        raise ValueError(f"give {name} kind= or stable=, not both")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(
            f"{name} axis must be an int, got {axis!r}; sort a flattened tensor with x.reshape(-1)"
        )
    data = x._data
    if data.ndim == 0:
        raise np.exceptions.AxisError(f"{name} needs a tensor of rank >= 1, got rank 0")
    _axes(axis, data.ndim, single=True)
    return data


def sort(
    x: Tensor[DT, Unpack[Shape]],
    axis: int = -1,
    *,
    kind: Kind | None = None,
    stable: bool | None = None,
    descending: bool = False,
) -> Tensor[DT, Unpack[Shape]]:
    """A sorted copy along ``axis`` (default the last), shape and dtype kept: (8, 10) ->
    (8, 10); NaN sorts last, as numpy's. ``descending=True`` reverses the order (stable
    ties keep their order, as the standard's)."""
    data = _prepare("sort", x, axis, kind, stable)
    kind = _kind(kind, stable)
    if descending:
        idx = _descending_indices(data, axis, kind)
        return wrap(np.take_along_axis(data, idx, axis=axis))
    return wrap(np.sort(data, axis=axis, kind=kind))


def argsort(
    x: Tensor[Any, Unpack[Shape]],
    axis: int = -1,
    *,
    kind: Kind | None = None,
    stable: bool | None = None,
    descending: bool = False,
) -> Tensor[int64, Unpack[Shape]]:
    """The indices that sort ``x`` along ``axis`` (default the last): (8, 10) -> (8, 10) of
    int64. ``descending=True``: largest first, equal values in their original order."""
    data = _prepare("argsort", x, axis, kind, stable)
    kind = _kind(kind, stable)
    if descending:
        return wrap(_descending_indices(data, axis, kind))
    return wrap(np.argsort(data, axis=axis, kind=kind))


def _kind(kind: Kind | None, stable: bool | None) -> Kind | None:
    """numpy's ``kind`` for the call: the given one, else stable unless ``stable=False`` (the
    standard's default; a stable order is also a valid unstable one)."""
    if kind is not None:
        return kind
    return None if stable is False else "stable"


def _descending_indices(data: Any, axis: int, kind: Any) -> Any:
    """Indices sorting ``data`` largest first, ties in their original order: a stable sort of
    the reversed axis, reversed back."""
    n = data.shape[axis]
    flipped = np.flip(data, axis=axis)
    order = np.argsort(flipped, axis=axis, kind="stable" if kind is None else kind)
    return np.flip(n - 1 - order, axis=axis)
