"""The runtime registry: every reduction registered once, by its family's module.

Each family module (``FAMILIES``: ``sums_family.py``, ``extremes_family.py``,
``moments_family.py``, ``norms_family.py``, ``logsumexp_family.py``, ``nan_family.py``,
``order_statistics.py``) registers each of its operations once, with:

- ``reference``: the numpy reference, ``(a, axes, keepdims, params) -> ndarray``: numpy's own
  answer, the numpy backend's code and the fallback of every other backend;
- ``bind_numba``: ``(shape, strides, dtype, axes, keepdims) -> run | None``: the numba
  backend's runner for that layout and dtype, or ``None`` where its kernels do not cover it
  (the reference runs instead);
- ``dask``: how a dask-backed Tensor reduces it (``"one_chunk"``: the reduced axes are
  rechunked into one chunk and each block runs the in-memory runner; a ``DaskTree``: the
  builder of its tree's chunk, combine and aggregate steps, by name);
- ``routes`` (every family but the order statistics; ``routed(name, Routes(...))`` builds
  the entry): the code paths that ``_routing.runner`` chooses among per plan (``Routes``),
  each backend's one lookup of the op (``routes(name)``); such an op is routed, not bound.

``bind(backend, name, shape, strides, dtype, axes, keepdims)`` returns the runner
``run(a, params) -> ndarray`` for one plan and caches it: a plan binds once, every later call
with the same key is one dict lookup. The family modules are imported on first use
(``FAMILIES``), so ``import typedtensor`` compiles and imports none of them.

    >>> import numpy as np
    >>> run = bind("numpy", "median", (2, 3), (24, 8), np.dtype("float64"), (1,), False)
    >>> run(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]), {})
    array([2., 4.])
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .. import _rules as rules

__all__ = [
    "FAMILIES",
    "DaskTree",
    "OPERATIONS",
    "Operation",
    "Routes",
    "bind",
    "clear",
    "operation",
    "register",
    "resolve",
    "routed",
    "routed_names",
    "routes",
]

Array = npt.NDArray[Any]
#: a bound runner: ``run(a, params) -> result`` for one (layout, dtype, axes, keepdims)
Run = Callable[[Array, dict[str, Any]], Array]
Reference = Callable[[Array, tuple[int, ...], bool, dict[str, Any]], Array]
NumbaBinder = Callable[
    [tuple[int, ...], tuple[int, ...], np.dtype[Any], tuple[int, ...], bool], "Run | None"
]

#: the family modules, imported on the first ``operation`` or ``bind``: adding a family adds
#: its module here
FAMILIES: tuple[str, ...] = (
    "typedtensor._backend.order_statistics",
    "typedtensor._backend.logsumexp_family",
    "typedtensor._backend.moments_family",
    "typedtensor._backend.norms_family",
    "typedtensor._backend.sums_family",
    "typedtensor._backend.extremes_family",
    "typedtensor._backend.nan_family",
)


@dataclass(frozen=True)
class Routes:
    """The code of an op that ``_routing.runner`` routes (by the crossover tables and the
    thread policy) instead of ``bind``; every backend finds it here, by the op's name:

    - ``backend``: the numpy backend's function ``(a, axes, keepdims, dtype, **params)``;
    - ``numpy_runner``: ``(plan) -> run | None``, numpy's loops bound to one plan
      (``_numpy_runners.RunnerPlan``: axes, shape, dtypes; ``None``: the plan is not one it
      takes, and the numpy backend's function runs);
    - ``numba``: ``"module:function"`` (imported on first use: numba is imported only when it
      runs), the numba backend's function ``(a, axes, keepdims, dtype, **params) -> result |
      None`` of a kernel dtype over a non-empty reduction in the rules' result dtype (the
      backend's ``reduce`` checks that), or, with ``numba_checks_itself``, its whole entry
      ``(op, a, axes, keepdims, dtype, **params)`` that does those checks itself (the
      NaN-aware family's ``reduce_nan``);
    - ``direct``: ``"module:function"``, the builder of the plan-bound serial kernels
      ``(block, kernel dtype, result dtype, count) -> finish(x, params)``
      (``_numba.direct.direct_runner`` binds it; ``None``: the op has none, its plans run
      the backend's function).
    """

    backend: Callable[..., Array]
    numpy_runner: Callable[..., Run | None] | None = None
    numba: str | None = None
    numba_checks_itself: bool = False
    direct: str | None = None
    #: the result does not depend on the order the elements are visited in (comparisons,
    #: logical tests: no rounding): numpy's loops give the kernels' bits, so ``_routing`` may
    #: switch between them with the machine's load (``PARALLEL_ONLY``) or serve numpy's
    #: loops while the kernels compile (``_background_compile``); an op that rounds must not
    order_free: bool = False
    #: in a layout the numba backend must copy first (not one block: ``x[::2]``, broadcast
    #: views), numpy's loops, which read it in place, run instead: ``"always"`` (the sums:
    #: one read per element, little arithmetic), ``"unless_strided_rows"`` (max/min/any/all,
    #: but over rows whose elements are themselves apart in memory, numpy's slow loop), or
    #: ``None`` (the numba backend's copy pays: every other op)
    numpy_for_copied_layouts: Literal["always", "unless_strided_rows"] | None = None


@dataclass(frozen=True)
class DaskTree:
    """How a dask-backed Tensor reduces a routed op when a reduced axis spans several chunks:
    a tree whose chunk, combine and aggregate steps ``steps`` builds.

    - ``steps``: ``"module:function"`` (imported on first use: dask only then), called as
      ``steps(call, **options)`` (``call`` a ``_dask.tree_steps.TreeCall``: name, dtypes,
      axes, shape, params, backend) and
      returning ``(chunk, combine, aggregate, partial dtype)`` for ``dask.array.reduction``;
      with ``candidates`` it builds the whole graph instead,
      ``steps(array, name, axes, keepdims, split_every, backend, **options)`` (the
      arg-extremes: each chunk's ``(value, global index)`` needs the chunk's offset);
    - ``options``: fixed keyword arguments of ``steps`` (the merging ufunc, the partial's
      dtype...);
    - ``complex_one_chunk``: complex input has no tree (logsumexp, the arg-extremes): its
      reduced axes are rechunked into one chunk and each block reduced in memory.

    ``DaskTree("typedtensor._dask.tree_steps:moment_steps", (("skip_nan", False),))``
    """

    steps: str
    options: tuple[tuple[str, Any], ...] = ()
    candidates: bool = False
    complex_one_chunk: bool = False


@dataclass(frozen=True)
class Operation:
    """One registered operation (see the module docstring)."""

    name: str
    reference: Reference
    bind_numba: NumbaBinder | None = None
    #: how a dask-backed Tensor computes it: ``"one_chunk"`` (see the module docstring), a
    #: ``DaskTree``, or ``None`` (a shape-keeping op with a path of its own: l2_normalize)
    dask: DaskTree | str | None = "one_chunk"
    #: fixed parameters the runners get with every call's (``nanmedian``: ``skip_nan``)
    options: tuple[tuple[str, Any], ...] = ()
    #: the routed code paths of an op of the older families (``Routes``); ``None``: ``bind``
    routes: Routes | None = None


def routed(name: str, routes: Routes, dask: DaskTree | None = None) -> Operation:
    """The ``Operation`` of a routed op: its reference is the numpy backend's function
    (``routes.backend``) in the rules' result dtype; ``dask``: its tree (``DaskTree``), which
    ``_dask/reductions.py`` builds (``None``: no tree, a dask-backed Tensor's reduction
    raises; l2_normalize keeps the shape and has a path of its own;
    ``tests/dask/test_dask_recipes.py`` checks every registered reduction has its recipe)."""
    backend = routes.backend

    def reference(a: Array, axes: tuple[int, ...], keepdims: bool, params: dict[str, Any]) -> Array:
        spec = rules.REDUCTIONS[name]
        dtype = np.dtype(rules.result_dtype(spec.dtype_rule, a.dtype.name))
        return backend(a, axes, keepdims, dtype, **params)

    return Operation(name, reference=reference, dask=dask, routes=routes)


OPERATIONS: dict[str, Operation] = {}
_BOUND: dict[tuple[Any, ...], Run] = {}
_MAX_BOUND = 4096
_loaded = False


def register(*ops: Operation) -> None:
    """Add ``ops`` to the registry (a family module calls it once, at import)."""
    for op in ops:
        if op.name in OPERATIONS and OPERATIONS[op.name] != op:
            raise ValueError(f"operation {op.name!r} is registered twice")
        OPERATIONS[op.name] = op


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in FAMILIES:
            importlib.import_module(module)
        _loaded = True


def operation(name: str) -> Operation | None:
    """The registered operation ``name``, or ``None`` (``operation("median").name == "median"``)."""
    _load()
    return OPERATIONS.get(name)


def routed_names(decides: Callable[[Routes], bool]) -> frozenset[str]:
    """The routed ops whose ``Routes`` ``decides`` holds for
    (``routed_names(lambda r: r.order_free)`` contains ``"argmax"``)."""
    _load()
    return frozenset(
        name for name, op in OPERATIONS.items() if op.routes is not None and decides(op.routes)
    )


def routes(name: str) -> Routes | None:
    """The routed code paths of operation ``name`` (``routes("logsumexp").backend``), or
    ``None`` (not registered, or bound by ``bind``)."""
    op = operation(name)
    return None if op is None else op.routes


@functools.cache
def resolve(ref: str) -> Any:
    """The function a ``Routes`` field names: ``"typedtensor._backend.x:f"`` -> ``x.f``."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def bind(
    backend: str,
    name: str,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    dtype: np.dtype[Any],
    axes: tuple[int, ...],
    keepdims: bool,
) -> Run:
    """The runner of operation ``name`` for one plan on ``backend`` (``"numpy"``,
    ``"numba"``; a dask Tensor's blocks run the in-memory backends), cached by its key."""
    key = (backend, name, shape, strides, dtype, axes, keepdims)
    run = _BOUND.get(key)
    if run is None:
        op = operation(name)
        if op is None:
            raise KeyError(
                f"no operation {name!r} is registered (registered: {sorted(OPERATIONS)})"
            )
        run = None
        if backend == "numba" and op.bind_numba is not None:
            run = op.bind_numba(shape, strides, dtype, axes, keepdims)
        if run is None:
            reference = op.reference

            def run(a: Array, params: dict[str, Any]) -> Array:
                return reference(a, axes, keepdims, params)

        if op.options:
            run = _with_options(run, dict(op.options))
        if len(_BOUND) >= _MAX_BOUND:
            _BOUND.clear()
        _BOUND[key] = run
    return run


def _with_options(run: Run, options: dict[str, Any]) -> Run:
    return lambda a, params: run(a, {**params, **options})


def clear() -> None:
    """Forget every bound runner (after a change to a family's routing)."""
    _BOUND.clear()
