"""numpy's RuntimeWarnings of the moments and the norms, kept on every backend: ``mean`` over
an empty axis warns "Mean of empty slice", ``var``/``std`` with ``N - correction <= 0``
"Degrees of freedom <= 0 for slice" (once, whichever runner computed it), a norm with a
negative ``p`` of a tensor holding a zero warns as numpy's ``|x| ** p`` does ("divide by zero
encountered in ..."; ``np.errstate`` applies). The values are the backends' own."""

from __future__ import annotations

import functools
import math
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["with_numpy_warnings"]

Run = Callable[[Any, dict[str, Any]], Any]
_PACKAGE = str(Path(__file__).resolve().parent)
_NORMS = ("norm", "norm_lp_max", "norm_lp_sum", "norm_lp_power_p_max", "norm_lp_power_p_sum")
_DOF = "Degrees of freedom <= 0 for slice"


def with_numpy_warnings(run: Run, name: str, shape: tuple[int, ...], axes: tuple[int, ...]) -> Run:
    """``run`` (a reduction plan of ``name`` over ``axes`` of ``shape``), warning where numpy
    warns: ``mean`` of zero elements (known from the shape), ``var``/``std`` whose count minus
    ``correction`` is not positive, a norm with ``p < 0`` of data holding a zero."""
    count = math.prod(shape[a] for a in axes)
    if name == "mean" and count == 0:
        return _warning_first("Mean of empty slice", run)
    if name in ("var", "std"):
        return _checking_dof(run, count)
    if name in _NORMS:
        return _checking_negative_p(run)
    return run


def _warning_first(message: str, run: Run) -> Run:
    @functools.wraps(run)  # the runner's identity (its module names the route) is kept
    def warned(a: Any, params: dict[str, Any]) -> Any:
        _warn(message)
        return run(a, params)

    return warned


def _checking_dof(run: Run, count: int) -> Run:
    @functools.wraps(run)
    def checked(a: Any, params: dict[str, Any]) -> Any:
        if count - params["correction"] > 0:
            return run(a, params)
        with warnings.catch_warnings():  # the numpy runner's own, for one warning in all
            warnings.filterwarnings("ignore", _DOF, RuntimeWarning)
            result = run(a, params)
        _warn(_DOF)
        return result

    return checked


def _checking_negative_p(run: Run) -> Run:
    @functools.wraps(run)
    def checked(a: Any, params: dict[str, Any]) -> Any:
        p = params.get("p")
        if p is not None and p < 0 and not np.all(a):  # a zero: |0| ** p divides by zero
            probe = np.zeros(1)
            probe **= p  # numpy's own warning for numpy's step (norm: `absx **= ord`)
        return run(a, params)

    return checked


def _warn(message: str) -> None:
    """A RuntimeWarning attributed to the first caller outside typedtensor."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    warnings.warn(message, RuntimeWarning, stacklevel=level)
