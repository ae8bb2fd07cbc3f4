"""Parallel kernels compile off the critical path: while a parallel variant has not been
compiled (or loaded from the disk cache) for a launch's argument types, the launch runs the
serial variant (the same bits, ``_stages._segments``) and a background thread compiles the
parallel one; later launches use it once it is ready.

A parallel kernel costs 0.8-6 s to compile cold against ~0.5 s for a serial one
(``NUMBA_NOTES.md``), so a program's first run on large tensors no longer waits for them.
``TYPEDTENSOR_NUMBA_PARALLEL=1`` (forced) compiles in the foreground: a test that forces the
parallel kernels runs them on its first call.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import numba
import numpy as np

__all__ = ["compile_in_background", "parallel_ready"]

_log = logging.getLogger("typedtensor.numba")
_ready: set[tuple[Any, ...]] = set()
_started: set[tuple[Any, ...]] = set()
_guard = threading.Lock()


def _type_key(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """What numba's dispatch keys on, cheaply: dtype, rank and layout of arrays, the Python
    (or numpy scalar) type of the rest."""
    return tuple(
        (a.dtype.char, a.ndim, a.flags.c_contiguous, a.flags.f_contiguous)
        if isinstance(a, np.ndarray)
        else type(a)
        for a in args
    )


def _compile(kernel: Any, signature: tuple[Any, ...], key: tuple[Any, ...]) -> None:
    try:
        kernel.compile(signature)
    except Exception:  # pragma: no cover - a compile error: the serial kernel keeps running
        _log.exception("background compile of %s failed; its serial kernel runs", kernel)
        return
    with _guard:
        _ready.add(key)


def parallel_ready(kernel: Any, args: tuple[Any, ...], wait: bool) -> bool:
    """Is ``kernel`` (a parallel dispatcher) compiled for ``args``? With ``wait`` it is made so:
    the call compiles (or loads) it in the foreground."""
    key = (kernel, _type_key(args))
    if key in _ready:
        return True
    if wait:
        with _guard:
            _ready.add(key)
        return True
    return False


def compile_in_background(kernel: Any, args: tuple[Any, ...]) -> None:
    """Compile (or load from the disk cache) ``kernel`` for ``args`` in a background thread,
    once per argument types; ``parallel_ready`` says True when it is done."""
    key = (kernel, _type_key(args))
    with _guard:
        if key in _started or key in _ready:
            return
        _started.add(key)
    signature = tuple(numba.typeof(a) for a in args)  # type: ignore[no-untyped-call]
    threading.Thread(
        target=_compile, args=(kernel, signature, key), name="typedtensor-compile", daemon=True
    ).start()
