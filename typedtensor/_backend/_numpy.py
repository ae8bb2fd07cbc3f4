"""The numpy reference backend: every reduction written with numpy, numpy's semantics.

``reduce`` runs the op's function that its family module registers (``registry.routes(op)
.backend``, in ``_backend/<family>_family.py``). Each such function takes an ndarray,
normalized axes (sorted, non-negative), ``keepdims`` and the result dtype decided by the
shape rules, and returns an ndarray of exactly the result shape and dtype (0-d for a full
reduction). Validation (axes, parameters, empty reductions without identity) is done by the
caller, ``typedtensor._reduce``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import registry

__all__ = ["NAME", "reduce"]

NAME = "numpy"

Array = npt.NDArray[Any]


def _count(a: Array, axes: tuple[int, ...]) -> int:
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def _shape(a: Array, axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    return tuple(d for i, d in enumerate(a.shape) if i not in axes)


def reduce(
    op: str,
    a: Array,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    **params: Any,
) -> Array:
    """Run reduction ``op`` (a name from the reduction table; norm modes arrive as ``norm``)."""
    routes = registry.routes(op)
    if routes is None:
        raise KeyError(op)
    fn = routes.backend
    result: Array = fn(a, axes, keepdims, dtype, **params)
    return result
