"""Where the numba backend keeps compiled kernels (imported before the kernels are defined).

``TYPEDTENSOR_NUMBA_CACHE=0`` disables the on-disk cache; ``TYPEDTENSOR_NUMBA_CACHE_DIR=path``
relocates it (default: ``$XDG_CACHE_HOME/typedtensor/numba`` or ``~/.cache/typedtensor/numba``).
The directory is stamped with the numba version and a hash of the kernel sources, so an edited
or upgraded backend never loads stale machine code (numba alone keys on the kernel file only).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.core import caching
from numba.core.runtime.nrt import rtsys

from .._background_compile import NotCompiledError, cache_enabled, cache_only, probing

__all__ = ["CACHE", "CACHE_DIR", "NotCompiledError", "cache_only", "kernel"]

_HERE = Path(__file__).resolve().parent
#: the dispatcher's modules: plain Python that calls kernels, defines none and is imported by
#: no module that does (``tests/runtime/test_kernel_cache_key.py``), so left out of the key
_DISPATCH = frozenset(
    (
        "__init__.py",
        "_canonical.py",
        "_kernels.py",
        "_stages.py",
        "direct.py",
        "logsumexp_runs.py",
        "nan_reductions.py",
    )
)
#: every module of this package that defines kernels (all but the dispatcher)
_SOURCES = tuple(sorted(p.name for p in _HERE.glob("*.py") if p.name not in _DISPATCH))


def _base_dir() -> Path:
    explicit = os.environ.get("TYPEDTENSOR_NUMBA_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    root = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return root / "typedtensor" / "numba"


def _stamp() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for name in _SOURCES:
        h.update((_HERE / name).read_bytes())
    return f"numba{numba.__version__}-{h.hexdigest()[:16]}"


CACHE_DIR: str = str(_base_dir() / _stamp())
CACHE: bool = cache_enabled()


class _Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Cache files of this package's kernels in CACHE_DIR, nothing else."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno

    def get_cache_path(self) -> str:
        return CACHE_DIR

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if Path(py_file).resolve().parent != _HERE:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[no-untyped-call]


if _Locator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, _Locator)


class _FastLoadCache(caching.FunctionCache):
    """numba's function cache, minus the full target set-up before a load.

    numba's ``load_overload`` first calls ``target_context.refresh()``, which imports and
    installs every typing and lowering registry (~70 ms, most of a new process's first call);
    a cached kernel needs none of them to run, only the NRT (its allocations). A cache miss
    compiles, and numba's compiler refreshes the context itself.
    """

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            loaded = self._load_overload(sig, target_context)  # type: ignore[no-untyped-call]
        if loaded is None and probing():
            raise NotCompiledError(sig)
        return loaded


_FAST_LOAD = all(
    hasattr(caching.Cache, name) for name in ("_guard_against_spurious_io_errors", "_load_overload")
)


def kernel(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``numba.njit(cache=CACHE, nogil=True, **options)`` loading its cache with
    ``_FastLoadCache``. ``nogil``: a kernel releases the GIL, so dask's worker threads (and any
    other Python threads) run kernels side by side."""
    options.setdefault("nogil", True)

    def wrap(fn: Callable[..., Any]) -> Any:
        if not (CACHE and _FAST_LOAD):
            return numba.njit(cache=CACHE, **options)(fn)
        disp = numba.njit(**options)(fn)
        # what cache=True sets (Dispatcher.enable_caching), with the fast load
        disp._cache = _FastLoadCache(fn)  # type: ignore[no-untyped-call]
        return disp

    return wrap
