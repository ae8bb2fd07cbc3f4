"""logsumexp, the first of the older (routed) families in the registry (``registry.py``).

Its code lives here and in ``_numba/logsumexp_runs.py``, found through its ``Operation``'s
``Routes`` instead of the backends' op tables: the numpy backend's function, numpy's runner
of float input, the numba backend's function and the plan-bound kernels' builder.
``_routing.runner`` still chooses among them for each plan (crossover tables, thread policy),
as for every reduction; ``bind`` gives the numpy reference.

    >>> import numpy as np
    >>> float(_logsumexp(np.log(np.array([1.0, 2.0, 5.0])), (0,), False, np.dtype("float64")))
    2.0794415416798357
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ._numpy import _count, _shape
from ._numpy_runners import (
    ERRSTATE,
    OVER_INVALID_DIVIDE,
    Run,
    RunnerPlan,
    on_float_input,
    quiet_state,
)
from .registry import DaskTree, Routes, register, routed

Array = npt.NDArray[Any]


def _logsumexp(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]) -> Array:
    """The numpy backend's logsumexp in ``dtype`` (every input dtype, empty reductions)."""
    x = a.astype(dtype, copy=False)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        if _count(a, axes) == 0:
            return np.full(_shape(a, axes, keepdims), -np.inf, dtype=dtype)
        # complex: shifted by the largest real part (exp(x - m) stays <= 1 in modulus), so
        # the result is the principal log of sum(exp(x))
        m = np.max(x.real if x.dtype.kind == "c" else x, axis=axes, keepdims=True)
        m = np.where(np.isfinite(m), m, 0).astype(dtype)
        s = np.sum(np.exp(x - m), axis=axes, keepdims=True)
        r: Array = (np.log(s) + m).astype(dtype)
    return r if keepdims else r.reshape(_shape(a, axes, False))


def _numpy_runner(plan: RunnerPlan) -> Run | None:
    """numpy's runner of float input (``on_float_input``), else None."""
    return on_float_input(plan, _logsumexp_runner)


def _logsumexp_runner(plan: RunnerPlan) -> Run:
    """logsumexp of float32/float64 over a non-empty reduction: the numpy backend's calls
    (max, shift by the finite max, exp, sum, log) under its error state."""
    axes, shape, keepdims, dtype = plan.axes, plan.shape or (), plan.keepdims, plan.dtype
    max_reduce: Any = np.maximum.reduce
    add_reduce: Any = np.add.reduce
    switch, quiet = ERRSTATE, quiet_state
    kept = tuple(d for i, d in enumerate(shape) if i not in axes)

    def logsumexp(a: Array, params: dict[str, Any]) -> Array:
        token = switch.set(quiet(OVER_INVALID_DIVIDE))
        try:
            m = max_reduce(a, axes, None, None, True)
            m = np.where(np.isfinite(m), m, 0).astype(dtype)
            total = add_reduce(np.exp(a - m), axes, None, None, True)
            r = (np.log(total) + m).astype(dtype)
        finally:
            switch.reset(token)
        return r if keepdims else r.reshape(kept)  # type: ignore[no-any-return]

    return logsumexp


_NUMBA = "typedtensor._backend._numba.logsumexp_runs"
register(
    routed(
        "logsumexp",
        Routes(
            backend=_logsumexp,
            numpy_runner=_numpy_runner,
            numba=f"{_NUMBA}:reduce",
            direct=f"{_NUMBA}:direct",
        ),
        # dask: (m, s) pairs per chunk, merged in a tree; complex input in one chunk
        DaskTree("typedtensor._dask.logsumexp_tree:lse_steps", complex_one_chunk=True),
    )
)
