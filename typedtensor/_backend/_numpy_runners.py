"""numpy's loops bound to one reduction plan: ``numpy_runner(op, axes, ndim, keepdims, dtype,
input_dtype, shape)`` returns ``run(a, params) -> ndarray``, the ufunc or ndarray method a
numpy-backend function calls, without the Python wrappers around it (``np.sum`` costs ~1 us
more than ``np.add.reduce``), under the error state the numpy backend sets, so the answers are
the numpy backend's bit for bit (tests/runtime/test_fast_paths.py). ``_routing.runner`` picks
these or the numba backend per plan.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _numpy, registry

__all__ = [
    "ERRSTATE",
    "INVALID_DIVIDE",
    "OUT_ELLIPSIS",
    "OVER_INVALID_DIVIDE",
    "Run",
    "RunnerPlan",
    "is_numpy_route",
    "numpy_runner",
    "on_float_input",
    "quiet_state",
    "ufunc_runner",
]

Array = npt.NDArray[Any]
#: a bound reduction: ``run(a, params)`` for an array of the plan's shape, strides and dtype
Run = Callable[[Array, dict[str, Any]], Array]


def _supports_out_ellipsis() -> bool:
    try:
        return isinstance(np.add.reduce(np.zeros(1), out=...), np.ndarray)
    except TypeError:  # numpy < 2.3: ``out=...`` (a 0-d array, not a scalar) is unknown
        return False


OUT_ELLIPSIS = _supports_out_ellipsis()
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_FLOAT_DTYPES = (_F32, _F64)


def _ufunc_runner(
    ufunc: np.ufunc, axes: tuple[int, ...], dtype: Any, keepdims: bool, zero_d: bool
) -> Run:
    reduce: Any = ufunc.reduce
    if not zero_d:
        return lambda a, params: reduce(a, axes, dtype, None, keepdims)
    if OUT_ELLIPSIS:  # a 0-d array rather than a numpy scalar, at no extra cost
        return lambda a, params: reduce(a, axes, dtype, keepdims=keepdims, out=...)
    return lambda a, params: np.asarray(reduce(a, axes, dtype, None, keepdims))


def ufunc_runner(ufunc: np.ufunc, dtype_arg: Any) -> Callable[[RunnerPlan], Run]:
    """numpy's runner of ``ufunc.reduce`` for a plan (the cheap ops: sum, prod, max, min, any,
    all), with the ``dtype=`` the numpy backend passes: ``"result"`` (the plan's), None or a
    fixed dtype."""

    def make(plan: RunnerPlan) -> Run:
        dtype = plan.dtype if dtype_arg == "result" else dtype_arg
        return _ufunc_runner(ufunc, plan.axes, dtype, plan.keepdims, plan.zero_d)

    return make


def _errstate_switch() -> Any:
    try:  # numpy 2 keeps the floating-point error state in a context variable
        from numpy._core.umath import _extobj_contextvar
    except ImportError:  # pragma: no cover - another numpy layout: np.errstate
        return None
    return _extobj_contextvar


ERRSTATE = _errstate_switch()
#: (error state in force, errors to ignore) -> that state with those ignored: what the numpy
#: backend's np.errstate(...) blocks set (~1.4 us a call; setting the context variable ~0.2 us)
_QUIET_OF: dict[tuple[Any, tuple[str, ...]], Any] = {}
INVALID_DIVIDE = ("invalid", "divide")
OVER_INVALID_DIVIDE = ("over", "invalid", "divide")


def quiet_state(ignored: tuple[str, ...] = INVALID_DIVIDE) -> Any:
    """The error state in force with ``ignored`` errors ignored, for ``ERRSTATE.set`` (a
    runner's way to set what the numpy backend's ``np.errstate`` block sets, cached)."""
    key = (ERRSTATE.get(), ignored)
    quiet = _QUIET_OF.get(key)
    if quiet is None:
        with np.errstate(**dict.fromkeys(ignored, "ignore")):  # type: ignore[arg-type]
            quiet = ERRSTATE.get()
        if len(_QUIET_OF) >= 64:
            _QUIET_OF.clear()
        _QUIET_OF[key] = quiet
    return quiet


@dataclass(frozen=True)
class RunnerPlan:
    """One plan as ``numpy_runner`` gets it; a family's ``Routes.numpy_runner`` reads it
    (``None``: the plan's shape is unknown; ``input_dtype`` ``None``: unknown too)."""

    op: str
    axes: tuple[int, ...]
    ndim: int
    keepdims: bool
    dtype: np.dtype[Any]
    input_dtype: np.dtype[Any] | None
    shape: tuple[int, ...] | None

    @property
    def zero_d(self) -> bool:
        """Is the result 0-d (every axis reduced, not kept)?"""
        return not self.keepdims and len(self.axes) == self.ndim

    def nonempty(self) -> bool:
        """Are the shape known, no reduced dim empty and numpy's error state switchable (what
        the runners that set it need)?"""
        shape = self.shape
        return shape is not None and ERRSTATE is not None and all(shape[d] for d in self.axes)

    def generic(self) -> Run:
        """The numpy backend's own function for the plan."""
        return _generic_runner(self.op, self.axes, self.keepdims, self.dtype, self.zero_d)


def numpy_runner(
    op: str,
    axes: tuple[int, ...],
    ndim: int,
    keepdims: bool,
    dtype: np.dtype[Any],
    input_dtype: np.dtype[Any] | None = None,
    shape: tuple[int, ...] | None = None,
) -> Run:
    """The numpy backend's ``op`` bound to one plan: its family's runner
    (``Routes.numpy_runner``, the ufunc itself for the cheap ops) where it takes the plan,
    else the numpy backend's function.

    >>> numpy_runner("sum", (1,), 2, False, np.dtype("int64"))(np.ones((2, 3), "int8"), {})
    array([3, 3])
    """
    plan = RunnerPlan(op, axes, ndim, keepdims, dtype, input_dtype, shape)
    routes = registry.routes(op) if ndim > 0 else None
    make = None if routes is None else routes.numpy_runner
    run = None if make is None else make(plan)
    return _marked(plan.generic() if run is None else run)


#: the attribute ``numpy_runner`` sets on the runners it returns, whichever module made them
_ROUTE = "typedtensor_route"


def _marked(run: Run) -> Run:
    """``run``, marked as numpy's route (``is_numpy_route``)."""
    vars(run)[_ROUTE] = "numpy"
    return run


def is_numpy_route(run: Run) -> bool:
    """Is ``run`` numpy's own loops, as ``numpy_runner`` bound them? (what the routing tests
    tell a plan's code by; a runner that chooses per call, or runs a kernel, is not)

    >>> is_numpy_route(numpy_runner("max", (0,), 1, False, np.dtype("float64")))
    True
    """
    return getattr(run, _ROUTE, None) == "numpy"


def on_float_input(
    plan: RunnerPlan, make: Callable[[RunnerPlan], Run], complex_too: bool = False
) -> Run | None:
    """``make(plan)``, a runner of float32/float64 input in its own dtype over a non-empty
    reduction (the norm, logsumexp, l2_normalize), given ``plan``'s input as the numpy
    backend takes it (bool and the integers cast to the float64 result; with
    ``complex_too`` complex input in its own dtype too), or None."""
    prepare = _as_float_input(plan.input_dtype, plan.dtype, complex_too)
    if prepare is None or not plan.nonempty():
        return None
    run = make(plan)
    return run if prepare is _unchanged else _preparing(run, prepare)


def _unchanged(a: Array) -> Array:
    """The input a runner takes as it is (``_as_float_input``)."""
    return a


def _as_float_input(
    input_dtype: np.dtype[Any] | None, dtype: np.dtype[Any], complex_too: bool
) -> Callable[[Array], Array] | None:
    """How a runner of float input in its result dtype takes ``input_dtype`` as the numpy
    backend does, or None: float32/float64 as they are (and complex, ``complex_too``); bool
    and the integers cast to the float64 result, as the backend casts."""
    if input_dtype is None:
        return None
    if complex_too and input_dtype == dtype and dtype.kind == "c":
        return _unchanged  # its runner squares complex values as the backend does
    if dtype not in _FLOAT_DTYPES:
        return None
    if input_dtype == dtype:
        return _unchanged
    if input_dtype.kind in "biu" and dtype == _F64:
        return lambda a: a.astype(_F64)
    return None


def _preparing(run: Run, prepare: Callable[[Array], Array]) -> Run:
    """``run`` of ``prepare(a)`` (a cast: no floating-point error to quiet)."""
    return lambda a, params: run(prepare(a), params)


def _generic_runner(
    op: str, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], zero_d: bool
) -> Run:
    """The numpy backend's own function for ``op``."""
    reduce = _numpy.reduce
    if zero_d:  # a backend function may give a numpy scalar (np.sqrt of a 0-d array does)
        return lambda a, params: np.asarray(reduce(op, a, axes, keepdims, dtype, **params))
    return lambda a, params: reduce(op, a, axes, keepdims, dtype, **params)
