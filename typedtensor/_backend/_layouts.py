"""How a reduction walks memory: the layout classes the routing tables are keyed on
(``layout``), and the layouts the numba backend reads without a copy (``one_block``) or as
one ``(O, R, I)`` view (``one_reduced_block``); and the input dtypes its kernels read at all
(``kernel_dtype``). Plain Python on shapes, strides and dtype codes (no numpy, no numba),
shared by the routing, the numba backend, its scans and direct kernels, and the dask partials.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: the dtypes (``dtype.char``) the numba kernels read: bool, the integers, float32, float64
#: (float16 and complex go to numpy's loops)
KERNEL_CHARS = frozenset("?bhilqBHILQfd")


def kernel_dtype(dtype: Any) -> bool:
    """Do the numba kernels read input of ``dtype`` (a numpy dtype): one of ``KERNEL_CHARS``
    in native byte order?"""
    return dtype.char in KERNEL_CHARS and bool(dtype.isnative)


#: a reduced run of at most this many elements is a short row (the numba backend's narrow
#: kernels, ``kern.NARROW``)
SHORT_ROW = 16


def layout(shape: Sequence[int], strides: Sequence[int], axes: Sequence[int]) -> str:
    """How a reduction walks memory, as the numba backend's canonical form sees it.

    ``full``: every dim of size > 1 is reduced; ``rows``: the innermost dim in memory is
    reduced (a contiguous run per result); ``short_rows``: the same with a run of at most
    ``SHORT_ROW`` elements; ``columns``: the innermost dim is kept (a strided reduced axis).

    >>> layout((64, 128), (512, 4), (1,)), layout((64, 128), (512, 4), (0,))
    ('rows', 'columns')
    """
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    red = set(axes)
    if all(d in red for d in dims):
        return "full"
    by_stride = sorted(dims, key=lambda d: abs(strides[d]))
    if by_stride[0] not in red:
        return "columns"
    run = 1
    for d in by_stride:
        if d not in red:
            break
        run *= shape[d]
    return "short_rows" if run <= SHORT_ROW else "rows"


def one_reduced_block(
    shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int, axes: tuple[int, ...]
) -> tuple[int, int, int] | None:
    """``(O, R, I)`` for a C-contiguous layout whose reduced dims of size > 1 are adjacent
    (dims of size 1 are skipped, as the canonical form drops them); ``None`` otherwise. The
    layouts the numba backend's direct kernels read as one view (``_numba/direct.py``).

    >>> one_reduced_block((4, 5, 6), (120, 24, 4), 4, (1, 2))
    (4, 30, 1)
    >>> one_reduced_block((4, 5, 6), (120, 24, 4), 4, (0, 2)) is None
    True
    """
    expected = itemsize
    for size, stride in zip(reversed(shape), reversed(strides), strict=True):
        if size != 1 and stride != expected:
            return None
        expected *= size
    kinds = [d in axes for d in range(len(shape)) if shape[d] != 1]
    if True not in kinds:
        return None
    first, last = kinds.index(True), len(kinds) - 1 - kinds[::-1].index(True)
    if not all(kinds[first : last + 1]):
        return None
    sizes = [s for s in shape if s != 1]
    return (
        math.prod(sizes[:first]),
        math.prod(sizes[first : last + 1]),
        math.prod(sizes[last + 1 :]),
    )


def one_block(shape: Sequence[int], strides: Sequence[int], itemsize: int) -> bool:
    """Are the dims of size > 1 a permutation of one contiguous block (in any order, strides of
    either sign)? Such a layout the numba backend reads as it is; any other (slices with gaps,
    broadcast views) it copies once (``_numba/_canonical.py``).

    >>> one_block((4, 6), (4, 16), 4), one_block((4, 3), (48, 8), 4)
    (True, False)
    """
    expected = itemsize
    for stride, size in sorted(
        (abs(st), n) for n, st in zip(shape, strides, strict=True) if n != 1
    ):
        if stride != expected:
            return False
        expected *= size
    return True
