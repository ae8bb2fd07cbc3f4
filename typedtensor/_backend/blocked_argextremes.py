"""argmax/argmin over an outer axis in blocks of that axis: numpy's answer, faster than
numpy's own loop while the kernels compile (a program's first run, ``_routing``).

numpy's ``a.argmax(axis)`` over an axis that is not the last copies the array with that axis
moved last (a transpose of the whole input: ~90 ms for 64 MB of float32 here). The same
answer comes from blocks of ``BLOCK_ROWS`` along the axis, each small enough for the
caches: each block's argmax and its values, and the running best, replaced where a block's
value is greater (for argmin: less) or is the first NaN. numpy's rule is the first maximum,
with NaN greater than every number: a later block wins only by a strictly greater value or
a NaN where the running best has none, so the first index stays.

    >>> import numpy as np
    >>> a = np.zeros((3000, 16))
    >>> a[2500, 3], a[10, 3], a[1800, 5], a[2900, 5] = 7.0, np.nan, 7.0, 7.0
    >>> run = blocked_arg_runner("argmax", (0,), a.shape, False, a.dtype)
    >>> run(a, {})[3:6].tolist(), a.argmax(0)[3:6].tolist()
    ([10, 0, 1800], [10, 0, 1800])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BLOCK_ROWS", "blocked_arg_runner"]

Array = npt.NDArray[Any]
Run = Callable[[Array, dict[str, Any]], Array]

#: rows of the reduced axis a block holds (its transpose stays in the L2 cache)
BLOCK_ROWS = 1024
#: the fewest elements after the axis worth it: narrower, numpy's own loop is as fast
MIN_INNER = 16


def blocked_arg_runner(
    op: str, axes: tuple[int, ...], shape: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any]
) -> Run | None:
    """A run of ``op`` (argmax/argmin) over the one outer axis in ``axes`` of an input of
    ``shape`` and real ``dtype``, giving numpy's int64 indices, or None where numpy's own
    loop is the one to use (the last axis, several axes, few elements after the axis, a
    short axis, complex or object input)."""
    if op not in ("argmax", "argmin") or len(axes) != 1 or dtype.kind not in "biuf":
        return None
    axis = axes[0] % len(shape)
    if axis == len(shape) - 1 or shape[axis] <= BLOCK_ROWS:
        return None
    if int(np.prod(shape[axis + 1 :])) < MIN_INNER:
        return None
    better = np.greater if op == "argmax" else np.less
    first = getattr(np.ndarray, op)

    def run(a: Array, params: dict[str, Any]) -> Array:
        def block(r0: int) -> Array:
            return a[(slice(None),) * axis + (slice(r0, r0 + BLOCK_ROWS),)]

        best_index = first(block(0), axis, None, keepdims=True)
        best = np.take_along_axis(block(0), best_index, axis)
        for r0 in range(BLOCK_ROWS, a.shape[axis], BLOCK_ROWS):
            rows = block(r0)
            index = first(rows, axis, None, keepdims=True)
            value = np.take_along_axis(rows, index, axis)
            take = better(value, best)
            if dtype.kind == "f":
                take |= (value != value) & (best == best)
            np.copyto(best_index, index + r0, where=take)
            np.copyto(best, value, where=take)
        result: Array = np.asarray(best_index, np.int64)
        return result if keepdims else np.squeeze(result, axis)

    return run
