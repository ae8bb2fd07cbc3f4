"""The norms family: ``norm`` (its modes, the rules' ``norm_lp_*``, arrive as ``norm`` with
a ``mode`` parameter) and ``l2_normalize``, registered once (``registry.py``, ``Routes``).

Here: the numpy backend's functions and numpy's runners bound to a plan (float and complex
input); the numba backend's are ``_numba._norm``/``_numba._l2_normalize`` (the power sums of
``_stages._acc``, the ``scale`` kernels), the plan-bound kernels' builders
``_numba/direct.py``'s ``direct_norm``/``direct_l2_normalize``; both finish with ``norm_finish.py``.

    >>> import numpy as np
    >>> a = np.array([3.0, 4.0])
    >>> float(_norm(a, (0,), False, np.dtype("float64"), 2.0, 0.0, "plain"))
    5.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _rules as rules
from ._numpy_runners import (
    ERRSTATE,
    OVER_INVALID_DIVIDE,
    Run,
    RunnerPlan,
    on_float_input,
    quiet_state,
)
from .norm_finish import l2_denominator, norm_from_power_sum
from .registry import DaskTree, Routes, register, routed

Array = npt.NDArray[Any]


def _norm(
    a: Array,
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    p: float,
    eps: float,
    mode: str,
) -> Array:
    r: Any
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        if p == 2 and a.dtype.kind == "c":  # np.linalg.norm's squares: (conj(x) * x).real,
            sq = (a.conj() * a).real.astype(dtype, copy=False)  # no modulus pass (hypot)
            s = np.sum(sq, axis=axes, keepdims=keepdims)
            return np.asarray(norm_from_power_sum(s, p, eps, mode, dtype), dtype=dtype)
        # |x| in the real result dtype (complex: numpy's abs, the modulus, then the dtype)
        x: Array = (
            np.abs(a).astype(dtype, copy=False)
            if a.dtype.kind == "c"
            else np.abs(a.astype(dtype, copy=False))
        )
        if p == np.inf:
            r = np.max(x, axis=axes, keepdims=keepdims, initial=0)  # empty -> 0
        elif p == -np.inf:
            r = np.min(x, axis=axes, keepdims=keepdims, initial=np.inf)
        elif p == 0:
            r = np.sum(x != 0, axis=axes, keepdims=keepdims, dtype=dtype)
        else:
            s = np.sum(x if p == 1 else x * x if p == 2 else x**p, axis=axes, keepdims=keepdims)
            r = norm_from_power_sum(s, p, eps, mode, dtype)
    return np.asarray(r, dtype=dtype)


def _l2_normalize(
    a: Array, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype[Any], eps: float, variant: str
) -> Array:
    x = a.astype(dtype, copy=False)
    e = np.asarray(eps, dtype=x.real.dtype)  # complex: the norm is real
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        sq = (x * x.conj()).real if x.dtype.kind == "c" else x * x
        ss = np.sum(sq, axis=axes, keepdims=True)
        denom = l2_denominator(ss, e, variant)
        return np.asarray(x / denom, dtype=dtype)


def _norm_runner(
    axes: tuple[int, ...], keepdims: bool, zero_d: bool, otherwise: Run, complex_input: bool
) -> Run:
    """The plain L1/L2 norm of float32/float64 or complex input: the numpy backend's answer
    under its error state; other ``p`` and modes run ``otherwise``. Real input: |x|, its
    square, the sum, the root (the square of x itself, which skips a pass over the input, is
    the same number); complex: the sum of ``(conj(x) * x).real``, np.linalg.norm's squares,
    and its root; L1: the sum of the moduli."""
    add_reduce: Any = np.add.reduce
    switch, quiet = ERRSTATE, quiet_state

    def norm(a: Array, params: dict[str, Any]) -> Array:
        p = params["p"]
        if params["mode"] != "plain" or (p != 2 and p != 1):
            return otherwise(a, params)
        token = switch.set(quiet(OVER_INVALID_DIVIDE))
        try:
            if p == 2 and complex_input:
                r = np.sqrt(add_reduce((a.conj() * a).real, axes, None, None, keepdims))
            elif p == 2:  # |x|^2 == x*x; abs of the root restores the NaN sign |x| gives
                r = np.abs(np.sqrt(add_reduce(a * a, axes, None, None, keepdims)))
            else:
                r = add_reduce(np.abs(a), axes, None, None, keepdims)
        finally:
            switch.reset(token)
        return np.asarray(r) if zero_d else r

    return norm


def _l2_normalize_runner(axes: tuple[int, ...], dtype: np.dtype[Any]) -> Run:
    """l2_normalize of float32/float64/complex64/complex128 into the same dtype: the numpy
    backend's calls (sum of squares with keepdims, complex ``(x * conj(x)).real``, the
    variant's denominator, the division) under its error state."""
    add_reduce: Any = np.add.reduce
    switch, quiet = ERRSTATE, quiet_state
    scalar = np.dtype(rules.real_dtype(dtype.name)).type  # eps in the real dtype of the norm
    is_complex = dtype.kind == "c"

    def l2_normalize(a: Array, params: dict[str, Any]) -> Array:
        e, variant = scalar(params["eps"]), params["variant"]
        token = switch.set(quiet(OVER_INVALID_DIVIDE))
        try:
            squares = (a * a.conj()).real if is_complex else a * a
            ss = add_reduce(squares, axes, None, None, True)
            return a / l2_denominator(ss, e, variant)  # type: ignore[no-any-return]
        finally:
            switch.reset(token)

    return l2_normalize


def _norm_numpy_runner(plan: RunnerPlan) -> Run | None:
    """numpy's runner of the norm: complex input into its real dtype, or float input
    (``on_float_input``); else None (the numpy backend's function)."""
    input_dtype = plan.input_dtype
    if (
        ERRSTATE is not None
        and input_dtype is not None
        and input_dtype.kind == "c"
        and plan.dtype.name == rules.real_dtype(input_dtype.name)  # complex64 -> float32 ...
    ):
        return _norm_runner(plan.axes, plan.keepdims, plan.zero_d, plan.generic(), True)
    return on_float_input(
        plan, lambda p: _norm_runner(p.axes, p.keepdims, p.zero_d, p.generic(), False)
    )


def _l2_normalize_numpy_runner(plan: RunnerPlan) -> Run | None:
    """numpy's runner of l2_normalize of float or complex input (``on_float_input``)."""
    return on_float_input(plan, lambda p: _l2_normalize_runner(p.axes, p.dtype), True)


_NUMBA = "typedtensor._backend._numba"
register(
    routed(
        "norm",
        Routes(
            _norm,
            _norm_numpy_runner,
            numba=f"{_NUMBA}:_norm",
            direct=f"{_NUMBA}.direct:direct_norm",
        ),
        # dask: float64 sums of |x|^p per chunk (max/min |x|, a count for p = inf, -inf, 0)
        DaskTree("typedtensor._dask.norms_tree:norm_steps"),
    ),
    routed(
        "l2_normalize",
        Routes(
            _l2_normalize,
            _l2_normalize_numpy_runner,
            numba=f"{_NUMBA}:_l2_normalize",
            direct=f"{_NUMBA}.direct:direct_l2_normalize",
        ),
        None,  # shape kept: _dask/reductions.l2_normalize_dask
    ),
)
