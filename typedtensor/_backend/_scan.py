"""Scans (cumulative sums and products): backend dispatch and the numpy reference.

``scan(op, a, axis, dtype, include_initial)`` takes an array of rank >= 1, a normalized axis,
``op`` ``"sum"``, ``"prod"``, ``"nansum"`` or ``"nanprod"`` (a NaN counts as 0 / 1) and the
result dtype decided by the rules, and returns the cumulative result along ``axis`` (with the
identity first when ``include_initial``). The selected backend runs it when it has a scan
module (``SCAN_MODULES``) and covers the case; otherwise numpy does, logged at DEBUG level
like the reductions.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import get_backend, log

__all__ = ["NUMBA_FROM_BYTES", "SCAN_MODULES", "reference_scan", "scan"]

Array = npt.NDArray[Any]

#: backend name -> module with ``scan(op, a, axis, dtype, include_initial) -> Array | None``
SCAN_MODULES: dict[str, str] = {"numba": "typedtensor._backend._numba.scans"}
#: below this input size (bytes) numpy's loop runs the scan on every backend: a program of
#: small tensors never waits for a kernel to compile (numpy's sequential scan is as fast there)
NUMBA_FROM_BYTES = 1 << 20
#: scan op -> numpy's function
_REFERENCE: dict[str, Callable[..., Any]] = {
    "sum": np.cumsum,
    "prod": np.cumprod,
    "nansum": np.nancumsum,
    "nanprod": np.nancumprod,
}


def reference_scan(
    op: str, a: Array, axis: int, dtype: np.dtype[Any], include_initial: bool
) -> Array:
    """numpy's ``cumsum``/``cumprod``/``nancumsum``/``nancumprod`` (sequential accumulation
    in ``dtype``)."""
    result: Array = np.asarray(_REFERENCE[op](a, axis=axis, dtype=dtype))
    if include_initial:
        shape = list(result.shape)
        shape[axis] = 1
        initial = np.full(shape, 0 if op.endswith("sum") else 1, dtype=dtype)
        result = np.concatenate([initial, result], axis=axis)
    return result


def scan(op: str, a: Array, axis: int, dtype: np.dtype[Any], include_initial: bool) -> Array:
    """Run scan ``op`` on the selected backend, falling back to numpy."""
    name = get_backend()
    module = SCAN_MODULES.get(name)
    if module is not None and a.nbytes >= NUMBA_FROM_BYTES:
        result = importlib.import_module(module).scan(op, a, axis, dtype, include_initial)
        if result is not None:
            return result  # type: ignore[no-any-return]
        log.debug(
            "typedtensor: backend %s does not cover %scum%s on %s %s (strides %s); using numpy",
            name,
            "nan" if op.startswith("nan") else "",
            op.removeprefix("nan"),
            a.dtype,
            a.shape,
            a.strides,
        )
    return reference_scan(op, a, axis, dtype, include_initial)
