"""The steps of the registry's dask trees (``registry.DaskTree``): each family's entry names
its builder here, ``"typedtensor._dask.tree_steps:<builder>"``, with its options.

A builder ``(name, in_dtype, axes, shape, params, out_dtype, backend, **options)`` returns
``(chunk, combine, aggregate, partial dtype)`` for ``dask.array.reduction``: the chunk's
partial (``_partials``), the merge of neighbouring partials and the root's answer
(``_trees``). ``moment_steps("var", f4, (0,), (1000, 64), {"correction": 0}, f4, "numba",
skip_nan=False)``: ``(n, mean, m2)`` per chunk, Chan's merge, the variance at the root.
``arg_tree`` builds the arg-extremes' whole graph (``DaskTree.candidates``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .._backend import use_backend
from .._reduce_plan import reduce_array
from . import _partials as part
from . import _trees as tree

__all__ = [
    "Steps",
    "arg_tree",
    "lse_steps",
    "mean_steps",
    "moment_steps",
    "norm_steps",
    "ufunc_steps",
]

Array = npt.NDArray[Any]
DaskArray = Any  # dask.array.Array (dask is an optional dependency)
#: (chunk, combine, aggregate, partial dtype)
Steps = tuple[Callable[..., Array], Callable[..., Array], Callable[..., Array], np.dtype[Any]]


def ufunc_steps(
    name: str,
    in_dtype: np.dtype[Any],
    axes: tuple[int, ...],
    shape: tuple[int, ...],
    params: dict[str, Any],
    out_dtype: np.dtype[Any],
    backend: str,
    *,
    ufunc: np.ufunc,
    empty: str,
    partial: Literal["result", "input", "bool"] = "result",
) -> Steps:
    """An op whose partial is the op itself (sum, max, any...), merged by ``ufunc``;
    ``empty``: the value of an empty chunk (``_fill``); ``partial``: the partial's dtype, the
    result's, the input's (max/min keep it) or bool (any/all)."""
    p = functools.partial
    pdt = {"result": out_dtype, "input": in_dtype, "bool": np.dtype(bool)}[partial]
    chunk = p(
        part.reduced_chunk,
        op=name,
        partial_dtype=pdt,
        empty_fill=_fill(empty, pdt),
        backend=backend,
    )
    combine = p(tree.ufunc_combine, ufunc=ufunc)
    return chunk, combine, p(tree.ufunc_aggregate, ufunc=ufunc, result_dtype=out_dtype), pdt


def mean_steps(
    name: str,
    in_dtype: np.dtype[Any],
    axes: tuple[int, ...],
    shape: tuple[int, ...],
    params: dict[str, Any],
    out_dtype: np.dtype[Any],
    backend: str,
    *,
    skip_nan: bool,
) -> Steps:
    """mean: float64 sums scaled by the count at the root; nanmean (and a mean over chunks
    of unknown size): (sum, count) pairs."""
    p = functools.partial
    if skip_nan or any(math.isnan(shape[d]) for d in axes):
        chunk = p(part.nan_sum_count, backend=backend, skip_nan=skip_nan)
        agg = p(tree.nan_mean_aggregate, result_dtype=out_dtype)
        return chunk, tree.nan_sum_count_combine, agg, part.nan_sum_count_dtype(in_dtype)
    count = math.prod(shape[d] for d in axes)
    chunk = p(part.sum_f8, backend=backend)
    agg = p(tree.ufunc_aggregate, ufunc=np.add, result_dtype=out_dtype, scale=count)
    return chunk, p(tree.ufunc_combine, ufunc=np.add), agg, np.dtype(np.float64)


def moment_steps(
    name: str,
    in_dtype: np.dtype[Any],
    axes: tuple[int, ...],
    shape: tuple[int, ...],
    params: dict[str, Any],
    out_dtype: np.dtype[Any],
    backend: str,
    *,
    skip_nan: bool,
    sqrt: bool,
) -> Steps:
    """var/std (``sqrt``) and their nan forms: ``(n, mean, m2)`` per chunk, Chan's merge."""
    p = functools.partial
    chunk = p(part.moments, skip_nan=skip_nan, backend=backend)
    agg = p(
        tree.moments_aggregate,
        correction=float(params.get("correction") or 0.0),
        sqrt=sqrt,
        skip_nan=skip_nan,
        result_dtype=out_dtype,
    )
    return chunk, tree.moments_combine, agg, part.moments_dtype(in_dtype)


def lse_steps(
    name: str,
    in_dtype: np.dtype[Any],
    axes: tuple[int, ...],
    shape: tuple[int, ...],
    params: dict[str, Any],
    out_dtype: np.dtype[Any],
    backend: str,
) -> Steps:
    """logsumexp: ``(max, sum of exp)`` pairs per chunk."""
    chunk = functools.partial(part.lse_pairs, backend=backend)
    agg = functools.partial(tree.lse_aggregate, result_dtype=out_dtype)
    return chunk, tree.lse_combine, agg, part.LSE


def norm_steps(
    name: str,
    in_dtype: np.dtype[Any],
    axes: tuple[int, ...],
    shape: tuple[int, ...],
    params: dict[str, Any],
    out_dtype: np.dtype[Any],
    backend: str,
) -> Steps:
    """The norms: max/min of |x| for p = +-inf, a count for p = 0, float64 sums of |x|^p
    for finite p (eps and the root once, at the end)."""
    p = functools.partial
    norm_p = float(params["p"])
    if norm_p in (math.inf, -math.inf, 0.0):
        op, ufunc, fill = (
            ("count_nonzero", np.add, 0)
            if norm_p == 0
            else ("norm", np.maximum, 0)
            if norm_p > 0
            else ("norm", np.minimum, np.inf)
        )
        pdt = np.dtype(np.int64) if norm_p == 0 else out_dtype
        chunk = p(
            _norm_extreme_chunk, op=op, p=norm_p, partial_dtype=pdt, fill=fill, backend=backend
        )
        agg = p(tree.ufunc_aggregate, ufunc=ufunc, result_dtype=out_dtype)
        return chunk, p(tree.ufunc_combine, ufunc=ufunc), agg, pdt
    chunk = p(part.power_sum, p=norm_p, real=out_dtype, backend=backend)
    agg = p(
        tree.norm_aggregate,
        p=norm_p,
        eps=float(params.get("eps") or 0.0),
        mode=str(params.get("mode") or "plain"),
        result_dtype=out_dtype,
    )
    return chunk, p(tree.ufunc_combine, ufunc=np.add), agg, np.dtype(np.float64)


def _norm_extreme_chunk(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    op: str,
    p: float,
    partial_dtype: np.dtype[Any],
    fill: Any,
    backend: str,
) -> Array:
    """max |x| (p = inf), min |x| (p = -inf) or the count of nonzeros (p = 0) of a chunk."""
    if math.prod(x.shape[d] for d in axis) == 0:
        return part.identity_partial(x.shape, axis, fill, partial_dtype)
    if op == "count_nonzero":
        return part.reduced_chunk(
            x, axis, True, op=op, partial_dtype=partial_dtype, empty_fill=0, backend=backend
        )
    params = {"p": p, "eps": 0.0, "mode": "plain"}
    with use_backend(backend), part.serial_kernels(backend):
        return reduce_array(x, "norm", axis, True, params, partial_dtype)


def _fill(kind: str, dtype: np.dtype[Any]) -> Any:
    """The value of a chunk with nothing to reduce: the merge's identity."""
    if kind == "zero":
        return 0
    if kind == "one":
        return 1
    if dtype.kind == "b":
        return kind.endswith("highest")
    if dtype.kind in "fc":
        if kind.startswith("nan"):
            return np.nan  # fmax/fmin skip it
        return -np.inf if kind == "lowest" else np.inf
    info = np.iinfo(dtype)
    return info.min if kind.endswith("lowest") else info.max


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
    pdt = part.arg_dtype(array.dtype)
    chunks = tuple((1,) * len(c) if d in axes else c for d, c in enumerate(array.chunks))
    candidates = array.map_blocks(
        functools.partial(part.arg_candidates, axes=axes, flat=flat, op=name, backend=backend),
        chunks=chunks,
        dtype=pdt,
        meta=np.empty((0,) * array.ndim, pdt),
    )
    ismax = name.endswith("argmax")
    out_ndim = array.ndim if keepdims else array.ndim - len(axes)
    return da.reduction(
        candidates,
        functools.partial(tree.chunk_step, step=tree.pass_through),
        functools.partial(tree.arg_aggregate, ismax=ismax, skip_nan=name.startswith("nan")),
        axis=axes,
        keepdims=keepdims,
        dtype=np.dtype(np.int64),
        split_every=split_every,
        combine=functools.partial(tree.arg_combine, ismax=ismax),
        concatenate=True,
        meta=np.empty((0,) * out_ndim, np.int64),
        name=f"typedtensor-{name}",
    )
