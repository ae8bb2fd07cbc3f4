"""Reductions of dask arrays as dask tree reductions whose chunk, combine and aggregate steps
are typedtensor's kernels.

``reduce_dask(x, "var", (0,), False, {"correction": 0})`` builds the lazy graph: each chunk
is reduced once, in one pass at kernel speed, to a partial (``_partials``: ``(n, mean, m2)``
for var/std, ``(m, s)`` pairs for logsumexp, ``sum |x|^p`` for the norms, ``(value, global
index)`` for argmax...), partials merge up a tree of ``split_every`` fan-in (``_trees``), and
the root turns the merged partial into numpy's answer (value and dtype). Where every reduced
axis is one chunk already, each block is reduced in memory with no tree at all. A ``dtype=``
that numpy accumulates in (a uint8 or float16 mean, a float32 var...) takes numpy's own
algorithm in that dtype instead (``_in_dtype``: sums in the dtype, var/std in two passes).

The callers (``typedtensor._dask.tensor``) validate axes, keepdims and parameters first, so
errors are raised while the graph is built; nothing here checks them again.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _rules as rules
from .._backend import get_backend, partials, use_backend
from .._backend.norm_finish import l2_denominator
from .._dtypes import BY_NAME, dtype_class_of
from .._reduce_plan import reduce_array
from . import _in_dtype
from . import _partials as part
from . import _trees as tree

__all__ = ["l2_normalize_dask", "reduce_dask", "result_dtype"]

Array = npt.NDArray[Any]
DaskArray = Any  # dask.array.Array (dask is an optional dependency)

#: ops whose partial is the op itself, merged by one ufunc: (ufunc, value of an empty chunk)
_UFUNC_OPS: dict[str, tuple[np.ufunc, str]] = {
    "sum": (np.add, "zero"),
    "nansum": (np.add, "zero"),
    "prod": (np.multiply, "one"),
    "nanprod": (np.multiply, "one"),
    "any": (np.logical_or, "zero"),
    "all": (np.logical_and, "one"),
    "count_nonzero": (np.add, "zero"),
    "max": (np.maximum, "lowest"),
    "min": (np.minimum, "highest"),
    "nanmax": (np.fmax, "nan_or_lowest"),
    "nanmin": (np.fmin, "nan_or_highest"),
}
_ARG_OPS = ("argmax", "argmin", "nanargmax", "nanargmin")
_MOMENT_OPS = ("var", "std", "nanvar", "nanstd")


def result_dtype(name: str, input_dtype: np.dtype[Any], dtype: object = None) -> np.dtype[Any]:
    """The result dtype of reduction ``name`` of ``input_dtype`` (the shape rules'), or the
    ``dtype=`` given: ``result_dtype("mean", np.dtype("int8")) -> float64``."""
    if dtype is not None:
        named: Any = getattr(dtype, "numpy_dtype", dtype)
        chosen: np.dtype[Any] = np.dtype(named)
        return chosen
    rule = rules.REDUCTIONS[name].dtype_rule
    return BY_NAME[rules.result_dtype(rule, dtype_class_of(input_dtype).name)].numpy_dtype


def reduce_dask(
    array: DaskArray,
    name: str,
    axes: tuple[int, ...],
    keepdims: bool,
    params: Mapping[str, Any],
    *,
    dtype: object = None,
    split_every: int | Mapping[int, int] | None = None,
) -> DaskArray:
    """Reduction ``name`` of a dask array over ``axes`` (validated, sorted, non-negative) as a
    lazy dask array equal to numpy's answer, value and dtype: a (1000, 64) array in chunks of
    (100, 64), ``reduce_dask(x, "logsumexp", (0,), False, {})`` -> (64,) float, ten chunk
    tasks of (max, sum of exp) pairs merged in a tree. ``dtype``: numpy's ``dtype=`` (the
    accumulation and result dtype). ``params``: as the in-memory reduction takes them
    (``correction``; ``p``, ``eps``, ``mode`` for the norms)."""
    spec = rules.REDUCTIONS[name]
    if spec.keeps_shape:
        return l2_normalize_dask(array, axes, params)
    out_dtype = result_dtype(name, array.dtype, dtype)
    named = None if dtype is None else out_dtype
    params = dict(params)
    if spec.norm_mode is not None:
        params.setdefault("mode", spec.norm_mode)
    backend = get_backend()
    if axes and array.ndim and _in_dtype.follows_numpy(name, array.dtype, named):
        # numpy accumulates in this dtype= (overflow, wrap, rounding): its algorithm, chunked
        return _in_dtype.reduce_in_dtype(
            array, name, axes, keepdims, params, out_dtype, split_every
        )
    if array.ndim == 0 or not axes or all(array.numblocks[d] == 1 for d in axes):
        return _blockwise(array, name, axes, keepdims, params, out_dtype, named)
    if array.dtype.kind == "c" and name in ("logsumexp", *_ARG_OPS):
        # no tree for these: each output's reduced axes gathered into one chunk
        gathered = array.rechunk(dict.fromkeys(axes, -1))
        return _blockwise(gathered, name, axes, keepdims, params, out_dtype, named)
    if name in _ARG_OPS:
        return _arg_tree(array, name, axes, keepdims, split_every, backend)
    steps = _tree_steps(name, array.dtype, axes, array.shape, params, out_dtype, backend)
    chunk, combine, aggregate, _ = steps
    import dask.array as da

    out_ndim = array.ndim if keepdims else array.ndim - len(axes)
    return da.reduction(
        array,
        functools.partial(tree.chunk_step, step=chunk),
        aggregate,
        axis=axes,
        keepdims=keepdims,
        dtype=out_dtype,
        split_every=split_every,
        combine=combine,
        concatenate=True,
        meta=np.empty((0,) * out_ndim, out_dtype),
        name=f"typedtensor-{name}",
    )


Steps = tuple[Callable[..., Array], Callable[..., Array], Callable[..., Array], np.dtype[Any]]


def _tree_steps(
    name: str,
    in_dtype: np.dtype[Any],
    axes: tuple[int, ...],
    shape: tuple[int, ...],
    params: dict[str, Any],
    out_dtype: np.dtype[Any],
    backend: str,
) -> Steps:
    """(chunk, combine, aggregate, partial dtype) of reduction ``name``."""
    p = functools.partial
    if name in _UFUNC_OPS:
        ufunc, empty = _UFUNC_OPS[name]
        pdt = out_dtype if name not in ("max", "min", "nanmax", "nanmin") else in_dtype
        if name in ("any", "all"):
            pdt = np.dtype(bool)
        chunk = p(
            part.reduced_chunk,
            op=name,
            partial_dtype=pdt,
            empty_fill=_fill(empty, pdt),
            backend=backend,
        )
        combine = p(tree.ufunc_combine, ufunc=ufunc)
        return chunk, combine, p(tree.ufunc_aggregate, ufunc=ufunc, result_dtype=out_dtype), pdt
    if name == "mean" and any(math.isnan(shape[d]) for d in axes):  # unknown chunk sizes
        chunk = p(part.nan_sum_count, backend=backend, skip_nan=False)
        agg = p(tree.nan_mean_aggregate, result_dtype=out_dtype)
        return chunk, tree.nan_sum_count_combine, agg, part.nan_sum_count_dtype(in_dtype)
    if name == "mean":
        count = math.prod(shape[d] for d in axes)
        chunk = p(part.sum_f8, backend=backend)
        agg = p(tree.ufunc_aggregate, ufunc=np.add, result_dtype=out_dtype, scale=count)
        return chunk, p(tree.ufunc_combine, ufunc=np.add), agg, np.dtype(np.float64)
    if name == "nanmean":
        chunk = p(part.nan_sum_count, backend=backend)
        agg = p(tree.nan_mean_aggregate, result_dtype=out_dtype)
        return chunk, tree.nan_sum_count_combine, agg, part.nan_sum_count_dtype(in_dtype)
    if name in _MOMENT_OPS:
        skip_nan = name.startswith("nan")
        chunk = p(part.moments, skip_nan=skip_nan, backend=backend)
        agg = p(
            tree.moments_aggregate,
            correction=float(params.get("correction") or 0.0),
            sqrt=name.endswith("std"),
            skip_nan=skip_nan,
            result_dtype=out_dtype,
        )
        return chunk, tree.moments_combine, agg, part.moments_dtype(in_dtype)
    if name == "logsumexp":
        chunk = p(part.lse_pairs, backend=backend)
        agg = p(tree.lse_aggregate, result_dtype=out_dtype)
        return chunk, tree.lse_combine, agg, part.LSE
    if "p" in rules.REDUCTIONS[name].params:
        return _norm_steps(params, out_dtype, backend)
    raise ValueError(f"no dask tree for reduction {name!r}")  # pragma: no cover


def _norm_steps(params: dict[str, Any], out_dtype: np.dtype[Any], backend: str) -> Steps:
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


# --------------------------------------------------------------------------- one chunk deep
def _reduce_block(
    block: Array,
    *,
    name: str,
    axes: tuple[int, ...],
    keepdims: bool,
    params: dict[str, Any],
    named: np.dtype[Any] | None,
    backend: str,
) -> Array:
    axis: int | tuple[int, ...] | None = axes
    if rules.REDUCTIONS[name].single_axis:  # argmax's spelling: one axis, or None for all
        axis = axes[0] if len(axes) == 1 else None
    backend = partials.serial_backend(name, block, axes, backend)  # numpy where it wins serially
    with use_backend(backend), part.serial_kernels(backend):
        return reduce_array(block, name, axis, keepdims, params, named)


def _blockwise(
    array: DaskArray,
    name: str,
    axes: tuple[int, ...],
    keepdims: bool,
    params: dict[str, Any],
    out_dtype: np.dtype[Any],
    named: np.dtype[Any] | None,
) -> DaskArray:
    """Every reduced axis is one chunk: each block reduced in memory, no tree. The blocks
    keep the reduced axes (size 1) and a lazy squeeze drops them: ``map_blocks`` with
    ``drop_axis`` would copy every input block once (dask concatenates along dropped axes)."""
    fn = functools.partial(
        _reduce_block,
        name=name,
        axes=axes,
        keepdims=True,
        params=params,
        named=named,
        backend=get_backend(),
    )
    chunks = tuple((1,) if d in axes else c for d, c in enumerate(array.chunks))
    kept = array.map_blocks(
        fn, chunks=chunks, dtype=out_dtype, meta=np.empty((0,) * array.ndim, out_dtype)
    )
    return kept if keepdims or not axes else kept.squeeze(axis=axes)


# --------------------------------------------------------------------------- argmax
def _arg_tree(
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


# --------------------------------------------------------------------------- l2_normalize
def l2_normalize_dask(
    array: DaskArray, axes: tuple[int, ...], params: Mapping[str, Any]
) -> DaskArray:
    """``x`` divided by its L2 norm over ``axes`` (shape kept), lazily: the float64 sums of
    squares reduced in a tree, the variant's denominator (``eps``, ``variant`` in ``params``),
    one broadcast divide: (8, 64) over axis 1 -> (8, 64)."""
    import dask.array as da

    dt = result_dtype("l2_normalize", array.dtype)
    real = np.empty(0, dt).real.dtype  # the norm of complex values is real
    x = array.astype(dt) if array.dtype != dt else array
    if x.ndim == 0 or all(x.numblocks[d] == 1 for d in axes):  # each block on its own
        fn = functools.partial(
            _reduce_block,
            name="l2_normalize",
            axes=axes,
            keepdims=False,
            params=dict(params),
            named=None,
            backend=get_backend(),
        )
        return x.map_blocks(fn, dtype=dt, meta=np.empty((0,) * x.ndim, dt))
    sums = da.reduction(
        x,
        functools.partial(
            tree.chunk_step,
            step=functools.partial(part.power_sum, p=2.0, real=real, backend=get_backend()),
        ),
        functools.partial(tree.ufunc_aggregate, ufunc=np.add, result_dtype=real),
        axis=axes,
        keepdims=True,
        dtype=real,
        combine=functools.partial(tree.ufunc_combine, ufunc=np.add),
        concatenate=True,
        meta=np.empty((0,) * x.ndim, real),
        name="typedtensor-l2-sumsq",
    )
    eps, variant = float(params.get("eps", 1e-12)), str(params.get("variant", "tensorflow"))
    denom = sums.map_blocks(
        functools.partial(_l2_denominator, eps=eps, variant=variant),
        dtype=real,
        meta=np.empty((0,) * x.ndim, real),
    )
    return (x / denom).astype(dt, copy=False)


def _l2_denominator(ss: Array, *, eps: float, variant: str) -> Array:
    """The variant's denominator from the sums of squares (as the in-memory l2_normalize)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        r: Array = l2_denominator(ss, np.asarray(eps, dtype=ss.dtype), variant)
    return r
