"""Reductions at the cost of a dict lookup: each validated call becomes a cached plan.

A plan is everything a reduction call validates and decides, bound into one callable: the
normalized axes, the result dtype (shape rules), the empty-reduction check (per call, on
inputs with a zero dim: it reads ``p``), and the code that
runs it (``_backend._routing.runner``: numpy's ufunc for small inputs, a numba kernel where it
wins). Plans are keyed on every input they read: ``(op, axis, keepdims, result dtype override,
shape, strides, dtype, backend)``, so the same shape with other strides, dtype, axes or backend
gets a plan of its own. Parameters (``correction``, ``p``, ``eps``...) are not in the key: the
plan passes them to the backend on each call. Only exact ``int``/``tuple``-of-``int``/``None``
axes and ``bool`` keepdims are cached (``True == 1`` and ``1.0 == 1`` as dict keys, and those
must stay errors; numpy integers and ``np.bool_`` are converted first); any other call
validates from scratch, with the same answers and errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import _rules as rules
from ._backend import get_backend, registry
from ._backend._routing import Run, min_numba_bytes, runner
from ._backend.moments_family import moment_in_named_dtype
from ._dtypes import BY_NAME, dtype_class_of
from ._reduce_warnings import with_numpy_warnings

__all__ = ["PLANS", "SMALL_PLANS", "clear_plans", "reduce_array", "small_plan_key"]

Array = npt.NDArray[Any]

#: plan key -> bound reduction; cleared (in place: ``Tensor._reduce`` reads it too) when it
#: reaches _MAX_PLANS entries
PLANS: dict[tuple[Any, ...], Run] = {}
_MAX_PLANS = 4096

#: The plans of small inputs, keyed without strides nor backend (``small_plan_key``): below
#: ``min_numba_bytes()`` both built-in backends run numpy's loops (``_routing.runner`` sends
#: every input under its op's ``NUMBA_FROM_BYTES`` and ``DIRECT_FROM_BYTES`` sizes to
#: ``numpy_runner``, whatever its layout), so one plan serves every layout and backend. Only
#: calls whose axis is ``None`` or an ``int`` and whose keepdims is a ``bool`` enter it, and
#: the key holds both types: ``True == 1`` and ``1.0 == 1`` as dict keys, and those stay
#: errors. ``Tensor._reduce`` reads it first.
SMALL_PLANS: dict[tuple[Any, ...], Run] = {}
_SMALL_AXIS_TYPES = (int, type(None))


def small_plan_key(
    name: str, axis: object, keepdims: object, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> tuple[Any, ...]:
    """The ``SMALL_PLANS`` key of a call (``Tensor._reduce`` builds the same tuple inline)."""
    return (name, axis, type(axis), keepdims, type(keepdims), shape, dtype)


def reduce_array(
    a: Array,
    name: str,
    axis: object,
    keepdims: object,
    params: dict[str, Any],
    result_dtype: np.dtype[Any] | None = None,
) -> Array:
    """Reduction ``name`` of ``a`` over ``axis``, validated as the shape rules say, as an
    ndarray of exactly the result shape and dtype (``result_dtype`` replaces the rules'
    dtype, for a ``dtype=`` argument). Raises ``rules.RuleError`` for axis errors.

    >>> reduce_array(np.ones((2, 3), np.float32), "sum", -1, False, {})
    array([3., 3.], dtype=float32)
    """
    if type(keepdims) is np.bool_:  # numpy's own bools and integer axes share the plans
        keepdims = bool(keepdims)
    if isinstance(axis, np.integer):
        axis = int(axis)
    if keepdims is True or keepdims is False:
        kind = type(axis)
        if axis is None or kind is int or (kind is tuple and _int_tuple(axis)):  # type: ignore[arg-type]
            key = (name, axis, keepdims, result_dtype, a.shape, a.strides, a.dtype, get_backend())
            plan = PLANS.get(key)
            if plan is None:
                plan = _plan(a, name, axis, keepdims, result_dtype)
                if len(PLANS) >= _MAX_PLANS:
                    PLANS.clear()
                PLANS[key] = plan
                if (
                    result_dtype is None
                    and kind in _SMALL_AXIS_TYPES
                    and a.nbytes < min_numba_bytes()
                ):
                    if len(SMALL_PLANS) >= _MAX_PLANS:
                        SMALL_PLANS.clear()
                    SMALL_PLANS[small_plan_key(name, axis, keepdims, a.shape, a.dtype)] = plan
            return plan(a, params)
    return _plan(a, name, axis, keepdims, result_dtype)(a, params)


def clear_plans() -> None:
    """Forget every cached plan (after a change to the routing table)."""
    PLANS.clear()
    SMALL_PLANS.clear()


def _int_tuple(axis: tuple[object, ...]) -> bool:
    for item in axis:
        if type(item) is not int:
            return False
    return True


def _plan(
    a: Array, name: str, axis: object, keepdims: object, result_dtype: np.dtype[Any] | None
) -> Run:
    """Validate one call (raising what the rules say) and bind the code that runs it."""
    spec = rules.REDUCTIONS[name]
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError(f"keepdims must be a bool, got {type(keepdims).__name__} {keepdims!r}")
    axes = rules.normalize_axes(axis, a.ndim, single=spec.single_axis)
    named = result_dtype is not None
    rule_dtype = BY_NAME[rules.result_dtype(spec.dtype_rule, dtype_class_of(a.dtype).name)]
    if result_dtype is None:
        result_dtype = rule_dtype.numpy_dtype
    else:  # a dtype= argument: some reductions cannot compute in every dtype
        rules.check_dtype_argument(name, dtype_class_of(a.dtype).name, result_dtype.name)
    op = "norm" if spec.norm_mode else name
    backend = get_backend()
    if backend == "numba" and result_dtype != rule_dtype.numpy_dtype:
        backend = "numpy"  # the kernels accumulate in the rules' dtype only: numpy's loops
    entry = registry.operation(op)
    if entry is not None and entry.routes is None:  # bound by the registry (order statistics)
        run = registry.bind(backend, op, a.shape, a.strides, a.dtype, axes, bool(keepdims))
    else:
        run = runner(
            backend, op, a.shape, a.strides, a.itemsize, axes, bool(keepdims), result_dtype, a.dtype
        )
    if named and _numpy_steps_differ(name, a.dtype, result_dtype):
        run = moment_in_named_dtype(name, axes, bool(keepdims), result_dtype)
    if spec.norm_mode:  # norm_lp_max and friends: the norm with their mode
        run = _with_mode(run, spec.norm_mode)
    if 0 in a.shape:  # whether zero elements may be reduced depends on p: checked per call
        run = _checking_nonempty(run, name, a.shape, axes)
    return with_numpy_warnings(run, name, a.shape, axes)  # numpy's RuntimeWarnings


def _numpy_steps_differ(name: str, dtype: np.dtype[Any], named: np.dtype[Any]) -> bool:
    """Whether numpy computes reduction ``name`` of ``dtype`` with ``dtype=named`` otherwise
    than the backends compute that result dtype (``moment_in_named_dtype`` says how)."""
    if name in rules.VARIANCES:
        return dtype.kind == "c" and named.kind != "c"
    return name == "mean" and dtype == named == np.float16


def _with_mode(run: Run, mode: str) -> Run:
    return lambda a, params: run(a, {**params, "mode": mode})


def _checking_nonempty(run: Run, name: str, shape: tuple[int, ...], axes: tuple[int, ...]) -> Run:
    def checked(a: Array, params: dict[str, Any]) -> Array:
        rules.check_nonempty(name, shape, axes, size_of=int, p=params.get("p"))
        return run(a, params)

    return checked
