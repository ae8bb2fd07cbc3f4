"""Quantiles and percentiles, numpy's: ``tt.quantile(x, 0.9, axis=1)``, ``tt.percentile``
and the NaN-aware ``tt.nanquantile`` / ``tt.nanpercentile``.

They run through the runtime registry (``_backend/order_statistics.py``). ``q`` is a number
or a 1-D sequence/Tensor of them: a 1-D ``q`` of length Q puts a leading dim Q in front of the
reduced shape, as in numpy. ``method=`` takes numpy's names (``"linear"``, ``"lower"``,
``"higher"``, ``"nearest"``, ``"midpoint"`` and the Hyndman-Fan ones); ``"lower"``,
``"higher"``, ``"nearest"`` and the discrete methods keep an integer input's dtype, the others
give float64, as numpy does. The mypy plugin types them (``rules.quantiles``): the reduced
shape behind the leading dim of a list/tuple literal or 1-D Tensor ``q``, numpy's dtype where
the spelling of ``q`` decides it, an error for an unknown ``method``. Under pyright the
generated ``quantiles.pyi`` types a scalar or tuple-literal ``q`` with ``axis=None`` or one
literal axis (docs/stubs.md, "The quantile family under pyright").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _rules as rules
from . import _tensor
from ._arguments import _raise_rule_error
from ._backend import get_backend, registry
from ._creation import asarray
from ._tensor import AnyTensor, Axis, Tensor

__all__ = ["nanpercentile", "nanquantile", "percentile", "quantile"]


def _order_statistic(
    name: str, x: Any, q: Any, axis: Axis, keepdims: bool, method: str, out: AnyTensor | None
) -> AnyTensor:
    t = x if isinstance(x, Tensor) else asarray(x)
    if isinstance(q, Tensor):
        q = q.numpy()
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError(f"keepdims must be a bool, got {type(keepdims).__name__} {keepdims!r}")
    try:
        axes = rules.normalize_axes(axis, t.ndim)
    except rules.RuleError as err:
        _raise_rule_error(err)
        raise  # unreachable
    rules.check_quantile_method(name, method)  # a ValueError naming numpy's methods
    if hasattr(type(t), "dask_array"):  # dask: one chunk per reduced slice, runner per block
        return _order_statistic_dask(name, t, q, axes, keepdims, method, out)
    a = t.numpy()
    run = registry.bind(get_backend(), name, a.shape, a.strides, a.dtype, axes, bool(keepdims))
    return _tensor._store(run(a, {"q": q, "method": method}), out, name)


def _order_statistic_dask(
    name: str,
    t: Any,
    q: Any,
    axes: tuple[int, ...],
    keepdims: bool,
    method: str,
    out: AnyTensor | None,
) -> AnyTensor:
    """The dask form: numpy's result dtype and ``q``'s errors from the same call on one
    element (numpy's promotion does not depend on the values), then ``registry_one_chunk_q``."""
    from ._dask._registry import registry_one_chunk_q
    from ._dask.tensor import _no_out, from_dask_array

    _no_out(out, name)
    fn = getattr(np, name)
    probe = np.asarray(fn(np.zeros(1, t.dask_array.dtype), q, method=method))
    lead = probe.shape
    arr = registry_one_chunk_q(
        t.dask_array, name, axes, bool(keepdims), probe.dtype, {"q": q, "method": method}, lead
    )
    return from_dask_array(arr)


def quantile(
    x: AnyTensor,
    q: Any,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    method: str = "linear",
    out: AnyTensor | None = None,
) -> AnyTensor:
    """The ``q``-th quantile(s), ``q`` in [0, 1]: ``tt.quantile(x, 0.5, axis=1)``,
    (8, 3) -> (8,); ``tt.quantile(x, [0.1, 0.9], axis=1)``, (8, 3) -> (2, 8)."""
    return _order_statistic("quantile", x, q, axis, keepdims, method, out)


def percentile(
    x: AnyTensor,
    q: Any,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    method: str = "linear",
    out: AnyTensor | None = None,
) -> AnyTensor:
    """The ``q``-th percentile(s), ``q`` in [0, 100]: ``tt.percentile(x, 90, axis=0)``,
    (8, 3) -> (3,)."""
    return _order_statistic("percentile", x, q, axis, keepdims, method, out)


def nanquantile(
    x: AnyTensor,
    q: Any,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    method: str = "linear",
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Quantile(s) of the non-NaNs: ``tt.nanquantile(x, 0.5, axis=1)``, (8, 3) -> (8,); an
    all-NaN slice gives NaN and numpy's RuntimeWarning."""
    return _order_statistic("nanquantile", x, q, axis, keepdims, method, out)


def nanpercentile(
    x: AnyTensor,
    q: Any,
    axis: Axis = None,
    keepdims: bool = False,
    *,
    method: str = "linear",
    out: AnyTensor | None = None,
) -> AnyTensor:
    """Percentile(s) of the non-NaNs: ``tt.nanpercentile(x, 50, axis=0)``, (8, 3) -> (3,)."""
    return _order_statistic("nanpercentile", x, q, axis, keepdims, method, out)
