"""The steps shared by the registry's ufunc-fold dask trees (``registry.DaskTree``): sum,
prod, max, min, any, all, their NaN-aware forms and count_nonzero name
``"typedtensor._dask.tree_steps:ufunc_steps"`` with their ufunc as an option.

A builder ``(call, **options)`` (``call`` a ``TreeCall``: what is reduced, how) returns
``Steps``, ``(chunk, combine, aggregate, partial dtype)`` for ``dask.array.reduction``:
``ufunc_steps(TreeCall("sum", f4, (0,), (1000, 64), {}, f4, "numba"), ufunc=np.add,
empty="zero")`` reduces each chunk by the op, merges by ``np.add``. The other families'
builders are in their tree modules (``mean_tree``, ``moments_tree``, ``logsumexp_tree``,
``norms_tree``, ``arg_extremes_tree``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from . import _partials as part
from . import _trees as tree

__all__ = [
    "Steps",
    "TreeCall",
    "ufunc_steps",
]

Array = npt.NDArray[Any]
#: (chunk, combine, aggregate, partial dtype)
Steps = tuple[Callable[..., Array], Callable[..., Array], Callable[..., Array], np.dtype[Any]]


@dataclasses.dataclass(frozen=True)
class TreeCall:
    """One reduction of a chunked array, as every builder is given it: the op's ``name``,
    the input's dtype, the reduced ``axes`` of ``shape`` (NaN for chunks of unknown size),
    the op's ``params``, the result's dtype and the backend the chunks are reduced on."""

    name: str
    in_dtype: np.dtype[Any]
    axes: tuple[int, ...]
    shape: tuple[float, ...]
    params: dict[str, Any]
    out_dtype: np.dtype[Any]
    backend: str


def ufunc_steps(
    call: TreeCall,
    *,
    ufunc: np.ufunc,
    empty: str,
    partial: Literal["result", "input", "bool"] = "result",
) -> Steps:
    """An op whose partial is the op itself (sum, max, any...), merged by ``ufunc``;
    ``empty``: the value of an empty chunk (``_fill``); ``partial``: the partial's dtype, the
    result's, the input's (max/min keep it) or bool (any/all)."""
    p = functools.partial
    pdt = {"result": call.out_dtype, "input": call.in_dtype, "bool": np.dtype(bool)}[partial]
    chunk = p(
        part.reduced_chunk,
        op=call.name,
        partial_dtype=pdt,
        empty_fill=_fill(empty, pdt),
        backend=call.backend,
    )
    combine = p(tree.ufunc_combine, ufunc=ufunc)
    return chunk, combine, p(tree.ufunc_aggregate, ufunc=ufunc, result_dtype=call.out_dtype), pdt


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
