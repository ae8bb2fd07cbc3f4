"""Searching (numpy's names and semantics): ``nonzero``, ``flatnonzero``, ``argwhere``,
``searchsorted``, ``take_along_axis``. The number of hits depends on the data: those dims are
unknown (``Any``) in the static type."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from typing_extensions import TypeVarTuple, Unpack

from ._arguments import _axes
from ._dtypes import int64
from ._tensor import AnyTensor, Tensor, wrap

__all__ = ["argwhere", "flatnonzero", "nonzero", "searchsorted", "take_along_axis"]

Shape = TypeVarTuple("Shape")


def _tensor_data(x: object, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.{name} takes a Tensor, got {type(x).__name__}")
    return x._data


def nonzero(x: Tensor[Any, Unpack[tuple[Any, ...]]]) -> tuple[Tensor[int64, Any], ...]:
    """The indices of the nonzero elements, one int64 tensor per dim: (8, 10) -> two (k,)
    tensors, k the number of hits (data-dependent). A rank-0 tensor raises, as numpy 2."""
    data = _tensor_data(x, "nonzero")
    if data.ndim == 0:
        raise ValueError(
            "nonzero of a rank-0 tensor is not defined (numpy 2 raises); use x.reshape(1)"
        )
    return tuple(wrap(i) for i in np.nonzero(data))


def flatnonzero(x: Tensor[Any, Unpack[tuple[Any, ...]]]) -> Tensor[int64, Any]:
    """The indices of the nonzero elements of the flattened tensor: (8, 10) -> (k,) int64."""
    return wrap(np.flatnonzero(_tensor_data(x, "flatnonzero")))


def argwhere(x: Tensor[Any, Unpack[tuple[Any, ...]]]) -> Tensor[int64, Any, Any]:
    """The indices of the nonzero elements, one row per hit: (8, 10) -> (k, 2) int64."""
    return wrap(np.argwhere(_tensor_data(x, "argwhere")))


def searchsorted(
    x1: Tensor[Any, Any],
    x2: Tensor[Any, Unpack[Shape]],
    *,
    side: Literal["left", "right"] = "left",
    sorter: Tensor[Any, Any] | None = None,
) -> Tensor[int64, Unpack[Shape]]:
    """Where each value of ``x2`` would be inserted into the sorted 1-D ``x1`` to keep it
    sorted: x1 (10,), x2 (8, 3) -> (8, 3) int64."""
    d1 = _tensor_data(x1, "searchsorted")
    if d1.ndim != 1:
        raise ValueError(f"searchsorted needs a 1-D x1, got rank {d1.ndim}")
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    d2 = _tensor_data(x2, "searchsorted")
    order = None if sorter is None else _tensor_data(sorter, "searchsorted")
    return wrap(np.searchsorted(d1, d2, side=side, sorter=order))


def take_along_axis(
    x: Tensor[Any, Unpack[tuple[Any, ...]]], indices: Any, axis: int = -1
) -> AnyTensor:
    """Values of ``x`` at ``indices`` along ``axis`` (numpy's ``take_along_axis``): x (8, 10),
    indices (8, 3) of ints, axis=1 -> (8, 3), x's dtype; the other dims broadcast. ``axis``
    defaults to the last (the standard's)."""
    data = _tensor_data(x, "take_along_axis")
    idx = indices._data if isinstance(indices, Tensor) else np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"take_along_axis needs integer indices, got {idx.dtype.name}")
    if idx.ndim != data.ndim:
        raise ValueError(
            f"take_along_axis needs indices of the same rank as x ({data.ndim}), got rank "
            f"{idx.ndim}"
        )
    (ax,) = _axes(axis, data.ndim, single=True)
    return wrap(np.take_along_axis(data, idx, axis=ax))
