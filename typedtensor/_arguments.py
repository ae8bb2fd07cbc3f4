"""Validation of call arguments shared by the Tensor methods and the module functions:
shape-rule errors re-raised as numpy's exception classes, axis normalisation, real-number
parameters (``correction``, the norms' ``p`` and ``eps``, ``l2_normalize``'s ``eps`` and
``variant``), shapes given as tuples, and the broadcast check of binary operations (cached per
shape pair)."""

from __future__ import annotations

import math

import numpy as np

from . import _rules as rules
from ._errors import AxisError, ShapeError


def _raise_rule_error(err: rules.RuleError) -> None:
    """Re-raise a shape-rule error as the runtime exception numpy users expect."""
    if isinstance(err, rules.AxisRangeError):
        raise AxisError(str(err), err.axis, err.ndim) from None
    if isinstance(err, (rules.AxisTypeError, rules.DTypeArgumentError)):
        raise TypeError(str(err)) from None
    if isinstance(
        err,
        (
            rules.BroadcastError,
            rules.ReduceToShapeError,
            rules.MatmulShapeError,
            rules.AssignShapeError,
            rules.ShapeMismatchError,
        ),
    ):
        raise ShapeError(str(err)) from None
    if isinstance(err, (rules.IndexRangeError, rules.IndexFormError)):
        raise IndexError(str(err)) from None
    raise ValueError(str(err)) from None


def _axes(axis: object, ndim: int, single: bool = False) -> tuple[int, ...]:
    try:
        return rules.normalize_axes(axis, ndim, single=single)
    except rules.RuleError as err:
        _raise_rule_error(err)
        raise  # unreachable


def _real(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    return float(value)


def _correction(correction: float | None, ddof: float | None) -> float:
    if correction is not None and ddof is not None:
        raise TypeError("give correction= or its numpy name ddof=, not both")
    value = correction if correction is not None else ddof if ddof is not None else 0
    c = _real("correction", value)
    if c < 0 or math.isnan(c):
        raise ValueError(f"correction must be >= 0, got {c}")
    return c


def _norm_params(p: object, eps: object, mode: object) -> tuple[float, float]:
    p_ = _real("p", p)
    eps_ = _real("eps", eps)
    if mode not in rules.NORM_MODES:
        raise ValueError(f"unknown norm mode {mode!r}; choose one of {', '.join(rules.NORM_MODES)}")
    if math.isnan(p_):
        raise ValueError("p must not be NaN")
    if eps_ < 0 or math.isnan(eps_):
        raise ValueError(f"eps must be >= 0, got {eps_}")
    if mode == "plain":
        if eps_ != 0:
            raise ValueError(
                "eps is used by the oneDNN norm modes only; pass mode='lp_max', 'lp_sum', "
                "'power_p_max' or 'power_p_sum' (or use norm_lp_max and friends)"
            )
    elif not (math.isfinite(p_) and p_ > 0):
        raise ValueError(f"norm mode {mode!r} needs a finite p > 0, got p={p_}")
    return p_, eps_


def _l2_normalize_eps(eps: object, variant: object) -> float:
    """``l2_normalize``'s ``eps`` as a float >= 0, once ``variant`` is one of
    ``rules.L2_VARIANTS``: ``_l2_normalize_eps(1e-12, "pytorch") -> 1e-12``."""
    if variant not in rules.L2_VARIANTS:
        raise ValueError(
            f"unknown l2_normalize variant {variant!r}; choose one of "
            f"{', '.join(rules.L2_VARIANTS)}"
        )
    eps_ = _real("eps", eps)
    if eps_ < 0:
        raise ValueError(f"eps must be >= 0, got {eps_}")
    return eps_


def _shape_tuple(shape: object) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"shape must be a tuple of ints, got {type(shape).__name__} {shape!r}")
    dims = []
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"shape entries must be ints, got {type(d).__name__} {d!r}")
        if d < 0:
            raise ValueError(f"shape entries must be >= 0, got {d} in {tuple(shape)}")
        dims.append(int(d))
    return tuple(dims)


#: shape pairs known to broadcast: each pair is checked by the rules once
_BROADCASTING_PAIRS: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()


def _broadcast_check(left: tuple[int, ...], right: tuple[int, ...], reflected: bool) -> None:
    if (left, right) in _BROADCASTING_PAIRS:
        return
    a, b = (right, left) if reflected else (left, right)
    try:
        rules.broadcast_shapes(a, b)
    except rules.RuleError as err:
        _raise_rule_error(err)
    if len(_BROADCASTING_PAIRS) >= 4096:
        _BROADCASTING_PAIRS.clear()
    _BROADCASTING_PAIRS.add((left, right))


def _check_device(device: object) -> None:
    """The standard's ``device=``: ``None`` or ``"cpu"``, typedtensor's only device."""
    if device not in (None, "cpu"):
        raise ValueError(f"typedtensor tensors live on the 'cpu' device, got device={device!r}")
