"""argmax and argmin, the methods of ``Tensor`` (``_tensor_reductions.ReductionMethods``
holds them): numpy's own call, or the numba kernel a plan would run, without a plan wherever
the plan would make that call, and the plan (``ReductionMethods._reduce``) elsewhere, whose
rules also raise the errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from typing_extensions import Unpack

from . import _tensor
from ._backend import get_backend
from ._backend._routing import (
    DIRECT_DTYPES,
    DIRECT_FROM_BYTES,
    DIRECT_KERNEL_CHARS,
    DIRECT_LONGEST,
    NUMBA_DTYPES,
    SHORT_ROW,
    min_numba_bytes,
    numba_from_bytes,
)

if TYPE_CHECKING:
    from ._tensor import AnyTensor, Tensor

__all__ = ["index_method"]

_object_new = object.__new__
#: argmax/argmin of an input below this size over one int axis run numpy's own call on every
#: backend, with no plan (where numpy raises, the plan path raises the rules' error): the
#: plan's validation costs more than the call (argmax of 16 floats: numpy 0.14 us) and gives
#: the same answer (``extremes_family.arg_runner`` makes the same call; its int64 is numpy's
#: intp on the platforms where that runner runs)
_INDEX_SMALL_BYTES = min_numba_bytes(("argmax", "argmin"))
#: ... and at any size over the last axis of a C-contiguous input in rows longer than a short
#: row (the ``rows`` layout), but for the rows the numba backend runs in its kernels: from
#: ``DIRECT_FROM_BYTES``' size, of the dtypes of ``DIRECT_DTYPES`` and at most
#: ``DIRECT_LONGEST`` elements long, those call the serial kernel without a plan, as the plan
#: would; from ``NUMBA_FROM_BYTES``' size, of the dtypes of ``NUMBA_DTYPES``, the plan decides
#: per call (the parallel kernels while they will run).
_INDEX_ROWS_KERNEL_BYTES: int = DIRECT_FROM_BYTES.get("argmax", {}).get("rows", (0, None))[0]
_INDEX_ROWS_IN_KERNELS: frozenset[str] = (
    DIRECT_DTYPES.get(("argmax", "rows"), DIRECT_KERNEL_CHARS)
    if "rows" in DIRECT_FROM_BYTES.get("argmax", {})
    else frozenset()
)
_INDEX_ROWS_LONGEST = DIRECT_LONGEST.get(("argmax", "rows"), 1 << 62)
_INDEX_ROWS_PLANNED_BYTES: int = numba_from_bytes("argmax", "rows") or 0
_INDEX_ROWS_PLANNED: frozenset[str] = (
    NUMBA_DTYPES.get(("argmax", "rows"), DIRECT_KERNEL_CHARS)
    if numba_from_bytes("argmax", "rows") is not None
    else frozenset()
)
#: ... and over the whole array (``axis=None``, the ``full`` layout, where no direct kernel
#: runs) below ``NUMBA_FROM_BYTES``' size or of the dtypes outside ``NUMBA_DTYPES``
_INDEX_FULL_PLANNED_BYTES: int = numba_from_bytes("argmax", "full") or 1 << 62
_INDEX_FULL_PLANNED: frozenset[str] = NUMBA_DTYPES.get(("argmax", "full"), DIRECT_KERNEL_CHARS)
_first_extreme_of_rows: Any = None  # _numba.direct's, imported at the first call that runs it


def index_method(ismax: bool, doc: str) -> Callable[..., Tensor[Any, Unpack[tuple[Any, ...]]]]:
    """The argmax (``ismax``) or argmin method: numpy's call without a plan wherever the plan
    would make it (over the whole array, a vector's axis 0 or -1 included, below
    ``_INDEX_FULL_PLANNED_BYTES`` or of the dtypes outside ``_INDEX_FULL_PLANNED``: the flat
    index; over one int axis of a small input; over rows: ``_index_of_rows``), else the plan
    (``_reduce``), whose rules also raise the errors. One function a method, made here: a
    shared helper's frame cost 60-90 ns a call (~15%)."""
    method = np.ndarray.argmax if ismax else np.ndarray.argmin
    name = method.__name__

    def arg_extreme(
        self: AnyTensor,
        axis: int | None = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        a = self._data
        if keepdims is False and out is None and type(a) is np.ndarray:
            # a vector's only axis is the whole array: the same flat index, 0-d
            if axis is None or (type(axis) is int and a.ndim == 1 and axis in (0, -1)):
                if a.nbytes < _INDEX_FULL_PLANNED_BYTES or a.dtype.char not in _INDEX_FULL_PLANNED:
                    try:
                        index = method(a)
                    except ValueError:  # empty: the rules' error below
                        pass
                    else:
                        whole: AnyTensor = _object_new(_tensor.Tensor)
                        whole._data = np.asarray(index)
                        return whole
            elif type(axis) is int:
                if a.nbytes >= _INDEX_SMALL_BYTES:
                    rows = _index_of_rows(a, method, axis, ismax)
                    if rows is not None:
                        return rows
                elif a.ndim:  # numpy's own call (rank 0: numpy takes axis 0, the rules not)
                    try:
                        index = method(a, axis)
                    except ValueError:  # an axis out of range or empty: the rules' error below
                        pass
                    else:
                        t: AnyTensor = _object_new(_tensor.Tensor)
                        t._data = index if type(index) is np.ndarray else np.asarray(index)
                        return t
        return self._reduce(name, axis, keepdims, out)

    arg_extreme.__name__ = name
    arg_extreme.__qualname__ = f"ReductionMethods.{name}"
    arg_extreme.__doc__ = doc
    return arg_extreme


#: the dtypes (``dtype.char``) whose argmax-of-rows kernel is compiled or in the disk cache
_ROWS_KERNEL_READY: set[str] = set()


def _rows_kernel_ready(rows: npt.NDArray[Any], ismax: bool) -> bool:
    """Is the argmax-of-rows kernel for ``rows``' dtype compiled or cached? Else a helper
    process compiles it (``_background_compile.kernel_ready``) and False until then."""
    from ._backend._background_compile import kernel_ready
    from ._backend._numba import _kernels

    ready = kernel_ready(_kernels.arg_rows, (rows, np.empty(1, np.int64), ismax))
    if ready:
        _ROWS_KERNEL_READY.add(rows.dtype.char)
    return ready


def _index_of_rows(a: npt.NDArray[Any], method: Any, axis: int, ismax: bool) -> AnyTensor | None:
    """``a.argmax(axis)``/``a.argmin(axis)`` (``method(a, axis)``: ``np.ndarray.argmax`` or
    ``.argmin``, as ``ismax``) wrapped, for an input of
    ``_INDEX_SMALL_BYTES`` or more in the rows layout with ``axis`` the last: numpy's call, or
    the serial kernel the plan would run (``_INDEX_ROWS_IN_KERNELS`` on the numba backend).
    Else None: the plan path (its rules raise for an out-of-range axis and an empty one; it
    picks the parallel kernels per call from ``_INDEX_ROWS_PLANNED_BYTES``)."""
    global _first_extreme_of_rows
    try:
        length = a.shape[axis]
    except IndexError:
        return None
    if not (
        length > SHORT_ROW
        and a.size > length  # another dim > 1: rows, not the full layout
        and axis in (-1, a.ndim - 1)
        and a.flags.c_contiguous
    ):
        return None
    numba = get_backend() == "numba"
    char = a.dtype.char
    if numba and char in _INDEX_ROWS_PLANNED and a.nbytes >= _INDEX_ROWS_PLANNED_BYTES:
        return None  # the plan: the parallel kernels while they will run
    if (
        numba
        and char in _INDEX_ROWS_IN_KERNELS
        and length <= _INDEX_ROWS_LONGEST
        and (a.nbytes >= _INDEX_ROWS_KERNEL_BYTES)
    ):
        if _first_extreme_of_rows is None:
            from ._backend._numba.direct import first_extreme_of_rows

            _first_extreme_of_rows = first_extreme_of_rows
        rows = a if a.ndim == 2 else a.reshape(-1, length)
        if char in _ROWS_KERNEL_READY or _rows_kernel_ready(rows, ismax):
            index = _first_extreme_of_rows(rows, ismax)
            if a.ndim != 2:
                index = index.reshape(a.shape[:-1])
        else:  # numpy's argmax (the same answer) while a helper process compiles the kernel
            index = method(a, axis)
    else:
        index = method(a, axis)
    t: AnyTensor = _object_new(_tensor.Tensor)
    t._data = index if type(index) is np.ndarray else np.asarray(index)
    return t
