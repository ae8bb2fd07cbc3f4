"""Backend selection: which module computes reductions.

A backend is a module with ``NAME`` and ``reduce(op, array, axes, keepdims, dtype, **params)``
returning an ndarray of exactly the result shape and dtype (see ``_numpy.py``, the reference).
A backend may return ``None`` for a case it does not cover; the numpy backend then runs it and
the fallback is logged at DEBUG level on the ``typedtensor`` logger.

Selection, strongest first: ``use_backend(name)`` (a context manager, per thread/task), then
``set_backend(name)``, then the ``TYPEDTENSOR_BACKEND`` environment variable (read once, on
the first reduction), then the default.
Backend modules are imported on first use, so ``import typedtensor`` never imports numba.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import logging
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["BACKENDS", "get_backend", "reduce", "reduce_with", "set_backend", "use_backend"]

log = logging.getLogger("typedtensor")

#: backend name -> module implementing it (imported lazily)
BACKENDS: dict[str, str] = {
    "numpy": "typedtensor._backend._numpy",
    "numba": "typedtensor._backend._numba",
}
DEFAULT_BACKEND = "numba"

_override: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "typedtensor_backend", default=None
)
_global: str | None = None


def _check(name: str) -> str:
    if name not in BACKENDS:
        raise ValueError(
            f"unknown typedtensor backend {name!r}; choose one of {', '.join(sorted(BACKENDS))}"
        )
    return name


_env_choice: str | None = None  # TYPEDTENSOR_BACKEND or the default, read on first use


def _env_backend() -> str:
    """``TYPEDTENSOR_BACKEND`` (or the default), read once: ``os.environ`` costs ~0.5 us a
    lookup, more than a whole small reduction's own work."""
    global _env_choice
    if _env_choice is None:
        _env_choice = _check(os.environ.get("TYPEDTENSOR_BACKEND") or DEFAULT_BACKEND)
    return _env_choice


def get_backend() -> str:
    """Name of the backend in force here (context manager, then set_backend, env, default)."""
    return _override.get() or _global or _env_choice or _env_backend()


def set_backend(name: str) -> None:
    """Make ``name`` the process-wide backend (``"numpy"`` or ``"numba"``)."""
    global _global
    _global = _check(name)


@contextlib.contextmanager
def use_backend(name: str) -> Iterator[None]:
    """Run the block with backend ``name``: ``with tt.use_backend("numpy"): ...``."""
    token = _override.set(_check(name))
    try:
        yield
    finally:
        _override.reset(token)


_loaded: dict[str, ModuleType] = {}


def _module(name: str) -> ModuleType:
    module = _loaded.get(name)
    if module is None:
        module = _loaded[name] = importlib.import_module(BACKENDS[name])
    return module


def reduce(
    op: str,
    a: npt.NDArray[Any],
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    **params: Any,
) -> npt.NDArray[Any]:
    """Dispatch one reduction to the selected backend, falling back to numpy."""
    return reduce_with(get_backend(), op, a, axes, keepdims, dtype, **params)


def reduce_with(
    name: str,
    op: str,
    a: npt.NDArray[Any],
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    **params: Any,
) -> npt.NDArray[Any]:
    """Run one reduction on backend ``name``, falling back to numpy where it returns None."""
    if name != "numpy":
        result = _module(name).reduce(op, a, axes, keepdims, dtype, **params)
        if result is not None:
            return result  # type: ignore[no-any-return]
        log.debug(
            "typedtensor: backend %s does not cover %s on %s %s (strides %s); using numpy",
            name,
            op,
            a.dtype,
            a.shape,
            a.strides,
        )
    return _module("numpy").reduce(op, a, axes, keepdims, dtype, **params)  # type: ignore[no-any-return]
