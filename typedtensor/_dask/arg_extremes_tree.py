"""The dask tree of argmax/argmin and nanargmax/nanargmin (extremes and NaN-aware families).

The chunk's partial, the merge of neighbouring partials (``combine``), the root's answer
(``aggregate``) and the steps builder the family's registry entry names
(``registry.DaskTree``). Shared steps: ``_partials``, ``_trees``, ``tree_steps`` (folds).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .._backend import partials, use_backend
from .._backend._numpy_nan import all_nan_error
from .._reduce_plan import reduce_array
from . import _trees as tree
from ._partials import _reduced_count, keep_shape
from ._trees import squeeze_reduced

__all__ = ["arg_aggregate", "arg_candidates", "arg_combine", "arg_dtype", "arg_tree"]

Array = npt.NDArray[Any]
DaskArray = Any  # dask.array.Array (dask is an optional dependency)


def arg_dtype(value_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """argmax/argmin partials: the candidate's value, its global index (-1: none) and
    whether its slice held a non-NaN (nanargmax of only NaNs raises at the end)."""
    return np.dtype([("v", value_dtype), ("i", np.int64), ("r", np.bool_)])


def arg_candidates(
    x: Array,
    *,
    axes: tuple[int, ...],
    flat: bool,
    op: str,
    backend: str,
    block_info: dict[Any, Any] | None = None,
) -> Array:
    """The chunk's best candidate for argmax/argmin (and the nan variants) per kept position:
    its value and its index in the whole array (the flat C-order index for ``flat``), -1
    where the chunk has no element; for nanargmax/nanargmin the value has NaNs filled as
    numpy fills them and ``r`` says whether the slice held a non-NaN."""
    assert block_info is not None
    info = block_info[0]
    offsets = [start for start, _ in info["array-location"]]
    total_shape = tuple(info["shape"])
    out = np.empty(keep_shape(x.shape, axes), arg_dtype(x.dtype))
    if _reduced_count(x.shape, axes) == 0 or x.size == 0:
        out["v"], out["i"], out["r"] = 0, -1, False
        return out
    skip_nan = op.startswith("nan") and x.dtype.kind in "fc"
    none: Array | None = None
    if skip_nan:  # local index of numpy's filled argmax, and the slices of NaNs only
        ismax = op == "nanargmax"
        local, none = partials.nan_arg_partials(x, axes, flat, ismax, backend=backend)
    else:
        with use_backend(backend), partials.serial_kernels(backend):
            local = reduce_array(x, op, None if flat else axes[0], True, {})
    if flat:
        at = np.unravel_index(int(local.reshape(())), x.shape)
        out["v"] = x[at]
        out["i"] = np.ravel_multi_index(
            tuple(o + j for o, j in zip(offsets, at, strict=True)), total_shape
        )
    else:
        ax = axes[0]
        out["v"] = np.take_along_axis(x, local, ax)
        out["i"] = local + offsets[ax]
    if skip_nan:  # candidates carry the values numpy fills NaNs with: NaNs never win a merge
        fill = -np.inf if op == "nanargmax" else np.inf
        out["v"] = np.where(np.isnan(out["v"]), fill, out["v"])
    out["r"] = True if none is None else ~none
    return out


def _select(x: Array, axis: tuple[int, ...], ismax: bool) -> Array:
    """The winning ``(v, i)`` per kept position, reduced axes kept at size 1: a NaN first
    (the smallest index among NaNs), else the best value with the smallest index; candidates
    with ``i == -1`` (none) never win; none at all gives ``i == -1``."""
    kept = [d for d in range(x.ndim) if d not in axis]
    width = 1
    for d in axis:
        width *= x.shape[d]
    flat = x.transpose(kept + list(axis)).reshape([x.shape[d] for d in kept] + [width])
    v, i = flat["v"], flat["i"]
    valid = i >= 0
    order = v.view(np.uint8) if v.dtype == np.bool_ else v
    is_nan = np.isnan(order) if order.dtype.kind == "f" else np.zeros(order.shape, bool)
    usable = valid & ~is_nan
    ext = (np.max if ismax else np.min)(
        np.where(usable, order, _worst(order.dtype, ismax)), axis=-1, keepdims=True
    )
    best = usable & (order == ext)
    nan = valid & is_nan
    has_nan = nan.any(axis=-1, keepdims=True)
    candidates = np.where(has_nan, nan, best)
    pick = np.argmin(np.where(candidates, i, np.iinfo(np.int64).max), axis=-1)[..., None]
    chosen = np.take_along_axis(flat, pick, -1)
    chosen["i"] = np.where(np.take_along_axis(candidates, pick, -1), chosen["i"], -1)
    chosen["r"] = flat["r"].any(axis=-1, keepdims=True)
    out_shape = [x.shape[d] if d not in axis else 1 for d in range(x.ndim)]
    return chosen.reshape(out_shape)


def _worst(dtype: np.dtype[Any], ismax: bool) -> Any:
    if dtype.kind == "f":
        return -np.inf if ismax else np.inf
    if dtype.kind == "c":  # pragma: no cover - complex argmax runs the single-block path
        raise TypeError("complex argmax/argmin trees are not supported")
    info = np.iinfo(dtype)
    return info.min if ismax else info.max


def arg_combine(x: Array, axis: tuple[int, ...], keepdims: bool, *, ismax: bool) -> Array:
    """Merged ``(v, i)`` candidates: the winner of each group of chunks."""
    return _select(x, axis, ismax)


def arg_aggregate(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, ismax: bool, skip_nan: bool
) -> Array:
    """The global index of the winner (int64); nanargmax/nanargmin of a slice holding only
    NaNs raises numpy's ValueError (at compute time: only then is it known)."""
    chosen = _select(x, axis, ismax)
    if skip_nan and not chosen["r"].all():
        raise all_nan_error()
    return squeeze_reduced(np.ascontiguousarray(chosen["i"]), axis, keepdims)


def arg_tree(
    array: DaskArray,
    name: str,
    axes: tuple[int, ...],
    keepdims: bool,
    split_every: int | Mapping[int, int] | None,
    backend: str,
) -> DaskArray:
    """argmax/argmin: each chunk's ``(value, global index)`` candidate (map_blocks knows the
    chunk's offset), merged by value then index up a tree."""
    import dask.array as da

    flat = len(axes) != 1 or array.ndim == 1
    if flat:
        axes = tuple(range(array.ndim))
    unknown = [
        d for d in (range(array.ndim) if flat else axes) if any(map(math.isnan, array.chunks[d]))
    ]
    if unknown:
        raise ValueError(
            f"{name} needs the chunk sizes of axis {unknown[0]} to place each chunk's index, "
            "and this dask array does not know them (boolean indexing loses them); call "
            "x.compute_chunk_sizes() on the dask array first"
        )
    pdt = arg_dtype(array.dtype)
    chunks = tuple((1,) * len(c) if d in axes else c for d, c in enumerate(array.chunks))
    candidates = array.map_blocks(
        functools.partial(arg_candidates, axes=axes, flat=flat, op=name, backend=backend),
        chunks=chunks,
        dtype=pdt,
        meta=np.empty((0,) * array.ndim, pdt),
    )
    ismax = name.endswith("argmax")
    out_ndim = array.ndim if keepdims else array.ndim - len(axes)
    return da.reduction(
        candidates,
        functools.partial(tree.chunk_step, step=tree.pass_through),
        functools.partial(arg_aggregate, ismax=ismax, skip_nan=name.startswith("nan")),
        axis=axes,
        keepdims=keepdims,
        dtype=np.dtype(np.int64),
        split_every=split_every,
        combine=functools.partial(arg_combine, ismax=ismax),
        concatenate=True,
        meta=np.empty((0,) * out_ndim, np.int64),
        name=f"typedtensor-{name}",
    )
