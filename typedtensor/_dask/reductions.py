"""Reductions of dask arrays as dask tree reductions whose chunk, combine and aggregate steps
are typedtensor's kernels.

``reduce_dask(x, "var", (0,), False, {"correction": 0})`` builds the lazy graph: each chunk
is reduced once, in one pass at kernel speed, to a partial (``(n, mean, m2)`` for var/std,
``(m, s)`` pairs for logsumexp, ``sum |x|^p`` for the norms, ``(value, global index)`` for
argmax...), partials merge up a tree of ``split_every`` fan-in, and the root turns the
merged partial into numpy's answer (value and dtype). Each op's steps are the registry's
(``registry.DaskTree``, registered by the op's family: ``dask_tree(name)``), built by the
family's tree module (``moments_tree``, ``logsumexp_tree``...). Where every reduced
axis is one chunk already, each block is reduced in memory with no tree at all. A ``dtype=``
that numpy accumulates in (a uint8 or float16 mean, a float32 var...) takes numpy's own
algorithm in that dtype instead (``_in_dtype``: sums in the dtype, var/std in two passes).

The callers (``typedtensor._dask.tensor``) validate axes, keepdims and parameters first, so
errors are raised while the graph is built; nothing here checks them again.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _rules as rules
from .._backend import get_backend, partials, registry, use_backend
from .._backend.norm_finish import l2_denominator
from .._dtypes import BY_NAME, dtype_class_of
from .._reduce_plan import reduce_array
from . import _in_dtype
from . import _partials as part
from . import _trees as tree
from .norms_tree import power_sum
from .tree_steps import TreeCall

__all__ = ["dask_tree", "l2_normalize_dask", "reduce_dask", "result_dtype"]

Array = npt.NDArray[Any]
DaskArray = Any  # dask.array.Array (dask is an optional dependency)


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
    recipe = dask_tree(name)
    if array.dtype.kind == "c" and recipe.complex_one_chunk:
        # no tree for these: each output's reduced axes gathered into one chunk
        gathered = array.rechunk(dict.fromkeys(axes, -1))
        return _blockwise(gathered, name, axes, keepdims, params, out_dtype, named)
    build = registry.resolve(recipe.steps)
    options = dict(recipe.options)
    if recipe.candidates:
        return build(array, name, axes, keepdims, split_every, backend, **options)
    call = TreeCall(name, array.dtype, axes, array.shape, params, out_dtype, backend)
    steps = build(call, **options)
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


def dask_tree(name: str) -> registry.DaskTree:
    """The tree recipe the registry holds for reduction ``name`` (the rules' ``norm_lp_*``
    are ``norm`` with a mode): ``dask_tree("var").steps`` names ``moment_steps``."""
    spec = rules.REDUCTIONS[name]
    op = registry.operation("norm" if spec.norm_mode is not None else name)
    recipe = None if op is None else op.dask
    if not isinstance(recipe, registry.DaskTree):
        raise ValueError(f"reduction {name!r} has no dask tree in the registry ({recipe!r})")
    return recipe


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
            step=functools.partial(power_sum, p=2.0, real=real, backend=get_backend()),
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
