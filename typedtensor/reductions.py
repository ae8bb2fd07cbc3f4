"""Functional reductions: ``tt.sum(x, axis=...)`` and friends, sharing the method code.

Each function takes a ``Tensor`` (or anything ``tt.asarray`` accepts) and forwards to the
method of the same name; see the methods for the semantics. The NaN-aware reductions
(``nansum``...) and ``count_nonzero`` are functions only, as in numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _rules as rules
from ._creation import asarray
from ._tensor import AnyTensor, Axis, L2Variant, NormMode, Tensor, _correction

__all__ = [
    "sum",
    "prod",
    "mean",
    "max",
    "min",
    "any",
    "all",
    "var",
    "std",
    "argmax",
    "argmin",
    "logsumexp",
    "norm",
    "norm_lp_max",
    "norm_lp_sum",
    "norm_lp_power_p_max",
    "norm_lp_power_p_sum",
    "l2_normalize",
    "reduce_to",
    "sum_to",
    "nansum",
    "nanprod",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanvar",
    "nanstd",
    "nanargmax",
    "nanargmin",
    "count_nonzero",
    "median",
    "nanmedian",
]


def _t(x: Any) -> AnyTensor:
    return x if isinstance(x, Tensor) else asarray(x)


def sum(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Sum over ``axis``: ``tt.sum(x, axis=1)`` on (8, 3, 4) -> (8, 4); ``dtype=tt.float64``
    accumulates in float64 (numpy's ``dtype=``, also on prod, mean, var, std)."""
    return _t(x).sum(axis, keepdims, dtype=dtype, out=out)


def prod(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Product over ``axis``: ``tt.prod(x, axis=0)`` on (8, 3) -> (3,)."""
    return _t(x).prod(axis, keepdims, dtype=dtype, out=out)


def mean(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Mean over ``axis``: ``tt.mean(x, axis=-1, keepdims=True)`` on (8, 3) -> (8, 1)."""
    return _t(x).mean(axis, keepdims, dtype=dtype, out=out)


def max(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Maximum over ``axis`` (NaN propagates): ``tt.max(x, axis=0)`` on (8, 3) -> (3,)."""
    return _t(x).max(axis, keepdims, out=out)


def min(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Minimum over ``axis`` (NaN propagates): ``tt.min(x, axis=0)`` on (8, 3) -> (3,)."""
    return _t(x).min(axis, keepdims, out=out)


def any(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Logical or: ``tt.any(x, axis=1)`` on (8, 3) -> (8,) of bool."""
    return _t(x).any(axis, keepdims, out=out)


def all(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Logical and: ``tt.all(x)`` on (8, 3) -> () of bool."""
    return _t(x).all(axis, keepdims, out=out)


def var(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    correction: float | None = None,
    ddof: float | None = None,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Variance: ``tt.var(x, axis=0, correction=1)`` on (8, 3) -> (3,)."""
    return _t(x).var(axis, keepdims, correction=correction, ddof=ddof, dtype=dtype, out=out)


def std(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    correction: float | None = None,
    ddof: float | None = None,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Standard deviation: ``tt.std(x, axis=0)`` on (8, 3) -> (3,)."""
    return _t(x).std(axis, keepdims, correction=correction, ddof=ddof, dtype=dtype, out=out)


def argmax(
    x: AnyTensor,
    axis: int | None = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Index of the first maximum: ``tt.argmax(x, axis=1)`` on (8, 3) -> (8,) of int64."""
    return _t(x).argmax(axis, keepdims, out=out)


def argmin(
    x: AnyTensor,
    axis: int | None = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Index of the first minimum: ``tt.argmin(x, axis=0)`` on (8, 3) -> (3,) of int64."""
    return _t(x).argmin(axis, keepdims, out=out)


def logsumexp(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Stable log-sum-exp: ``tt.logsumexp(x, axis=-1)`` on (8, 10) -> (8,)."""
    return _t(x).logsumexp(axis, keepdims, out=out)


def norm(
    x: AnyTensor,
    p: float = 2,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    eps: float = 0.0,
    mode: NormMode = "plain",
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Lp norm: ``tt.norm(x, 2, axis=-1)`` on (8, 64) -> (8,). See ``Tensor.norm``."""
    return _t(x).norm(p, axis, keepdims, eps=eps, mode=mode, out=out)


def norm_lp_max(
    x: AnyTensor,
    p: float = 2,
    eps: float = 0.0,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """oneDNN max(sum|x|^p, eps)^(1/p): ``tt.norm_lp_max(x, 2, 1e-6, axis=-1)``, (8, 64) -> (8,)."""
    return _t(x).norm_lp_max(p, eps, axis, keepdims, out=out)


def norm_lp_sum(
    x: AnyTensor,
    p: float = 2,
    eps: float = 0.0,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """oneDNN (sum|x|^p + eps)^(1/p): ``tt.norm_lp_sum(x, 2, 1e-6, axis=-1)``, (8, 64) -> (8,)."""
    return _t(x).norm_lp_sum(p, eps, axis, keepdims, out=out)


def norm_lp_power_p_max(
    x: AnyTensor,
    p: float = 2,
    eps: float = 0.0,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """oneDNN max(sum|x|^p, eps): ``tt.norm_lp_power_p_max(x, 2, 1e-6, -1)``, (8, 64) -> (8,)."""
    return _t(x).norm_lp_power_p_max(p, eps, axis, keepdims, out=out)


def norm_lp_power_p_sum(
    x: AnyTensor,
    p: float = 2,
    eps: float = 0.0,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """oneDNN sum|x|^p + eps: ``tt.norm_lp_power_p_sum(x, 2, 1e-6, -1)``, (8, 64) -> (8,)."""
    return _t(x).norm_lp_power_p_sum(p, eps, axis, keepdims, out=out)


def l2_normalize(
    x: AnyTensor,
    axis: Axis = -1,
    eps: float = 1e-12,
    variant: L2Variant = "tensorflow",
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """``x / ||x||_2`` over ``axis``, shape kept: ``tt.l2_normalize(x, -1, variant="pytorch")``."""
    return _t(x).l2_normalize(axis, eps, variant, out=out)


def reduce_to(
    x: AnyTensor, shape: Sequence[int], op: str = "sum", *, out: AnyTensor | None = None
) -> AnyTensor:
    """Reduce to ``shape`` (each dim kept or 1): ``tt.reduce_to(x, (1, 3, 1, 1), "mean")``."""
    return _t(x).reduce_to(shape, op, out=out)


def sum_to(x: AnyTensor, shape: Sequence[int], *, out: AnyTensor | None = None) -> AnyTensor:
    """Sum to ``shape``: ``tt.sum_to(x, (1, 3, 1, 1))`` on (8, 3, 32, 32) -> (1, 3, 1, 1)."""
    return _t(x).sum_to(shape, out=out)


def nansum(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Sum ignoring NaNs (all-NaN slices give 0): ``tt.nansum(x, axis=1)``, (8, 3) -> (8,)."""
    return _t(x)._reduce("nansum", axis, keepdims, out, dtype)


def nanprod(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Product ignoring NaNs (all-NaN slices give 1): ``tt.nanprod(x, 0)``, (8, 3) -> (3,)."""
    return _t(x)._reduce("nanprod", axis, keepdims, out, dtype)


def nanmean(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Mean of the non-NaNs: ``tt.nanmean(x, axis=-1)``, (8, 3) -> (8,); an all-NaN
    slice gives NaN and numpy's RuntimeWarning."""
    return _t(x)._reduce("nanmean", axis, keepdims, out, dtype)


def nanmax(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Maximum ignoring NaNs: ``tt.nanmax(x, axis=0)``, (8, 3) -> (3,); an all-NaN slice
    gives NaN and numpy's RuntimeWarning."""
    return _t(x)._reduce("nanmax", axis, keepdims, out)


def nanmin(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Minimum ignoring NaNs: ``tt.nanmin(x, axis=0)``, (8, 3) -> (3,); an all-NaN slice
    gives NaN and numpy's RuntimeWarning."""
    return _t(x)._reduce("nanmin", axis, keepdims, out)


def nanvar(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    correction: float | None = None,
    ddof: float | None = None,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Variance of the non-NaNs over ``N - correction``: ``tt.nanvar(x, 0)``, (8, 3) -> (3,);
    no degrees of freedom left gives NaN and numpy's RuntimeWarning."""
    return _t(x)._reduce(
        "nanvar", axis, keepdims, out, dtype, correction=_correction(correction, ddof)
    )


def nanstd(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    correction: float | None = None,
    ddof: float | None = None,
    dtype: object = None,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Standard deviation of the non-NaNs: ``tt.nanstd(x, 0, ddof=1)``, (8, 3) -> (3,)."""
    return _t(x)._reduce(
        "nanstd", axis, keepdims, out, dtype, correction=_correction(correction, ddof)
    )


def nanargmax(
    x: AnyTensor,
    axis: int | None = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Index of the first maximum ignoring NaNs: ``tt.nanargmax(x, 1)``, (8, 3) -> (8,)
    of int64; an all-NaN slice raises ValueError, as numpy."""
    return _t(x)._reduce("nanargmax", axis, keepdims, out)


def nanargmin(
    x: AnyTensor,
    axis: int | None = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Index of the first minimum ignoring NaNs: ``tt.nanargmin(x, 0)``, (8, 3) -> (3,)
    of int64; an all-NaN slice raises ValueError, as numpy."""
    return _t(x)._reduce("nanargmin", axis, keepdims, out)


def count_nonzero(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Number of nonzero (true) elements: ``tt.count_nonzero(x, axis=(0, 1))``,
    (8, 3, 4) -> (4,) of int64; on a rank-0 tensor ``axis=0`` or ``-1`` counts its element,
    as in numpy (``rules.rank0_axis``)."""
    t = _t(x)
    axis = rules.rank0_axis("count_nonzero", axis, t.ndim)  # type: ignore[assignment]
    return t._reduce("count_nonzero", axis, keepdims, out)


def median(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Median as numpy's (a NaN in a slice gives NaN; ints give float64):
    ``tt.median(x, axis=1)``, (8, 3) -> (8,)."""
    return _t(x).median(axis, keepdims, out=out)


def nanmedian(
    x: AnyTensor,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Median of the non-NaNs: ``tt.nanmedian(x, axis=0)``, (8, 3) -> (3,); an all-NaN
    slice gives NaN and numpy's RuntimeWarning."""
    return _t(x)._reduce("nanmedian", axis, keepdims, out)
