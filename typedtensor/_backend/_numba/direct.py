"""Serial kernels bound once per plan: the numba backend at the cost of one kernel call.

The backend's ``reduce`` canonicalises its input, picks the stage kernels and sizes their
partial results on every call (~13-25 us of Python, more than numpy's whole reduction of a
256 KB array). A plan (``typedtensor/_reduce_plan.py``) is keyed on the shape, the strides,
the dtype and the axes, so for one plan all of that is the same on every call. ``direct_runner``
does it once, for the common case: a C-contiguous input whose reduced dims (those of size > 1)
are one block, seen as ``(O, R, I)`` and reduced over ``R``, neither empty nor short rows. The
``run(a, params)`` it returns reshapes ``a``, allocates the partial result and calls the serial
kernel with exactly the arguments ``reduce`` passes it when its kernels run serially, then
finishes as ``reduce`` does: the same answers bit for bit (tests/runtime/test_direct_kernels.py),
for ``sum prod mean max min any all var std argmax argmin logsumexp norm l2_normalize``
(argmax/argmin over rows call ``arg_rows``, ``arg_h`` without the partial values it would
discard). The parallel kernels stay with
``reduce`` (``_routing.runner`` decides per call); where ``_stages._segments`` splits rows the
serial kernels here compute and combine the same segments (the bits of either route).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ... import _rules as rules
from .. import registry
from .._layouts import kernel_dtype, one_reduced_block
from ..norm_finish import l2_denominator, norm_from_power_sum
from . import _kernels as kern
from ._stages import (
    _WB,
    _WB_VAR,
    ONE_OP_ROW_KERNELS,
    _combine_acc,
    _combine_moments,
    _index_zero,
    _narrow,
    _rb,
    _segments,
)

__all__ = ["DIRECT_OPS", "direct_runner", "first_extreme_of_rows"]

Array = npt.NDArray[Any]
Run = Callable[[Array, dict[str, Any]], Array]


_POWER_SUM_OPS = (kern.SUMABS, kern.SUMSQ, kern.SUMPOW)
#: the norms that are not a power sum (max, min and count of |x|): the backend's ``reduce``
_NOT_POWER_SUMS = (0, math.inf, -math.inf)


def _accumulate(
    o: int, r: int, i: int, op: int, zc: Any, zt: Any
) -> Callable[[Array, float], Array]:
    """``_stages._stage_acc``'s serial path: ``acc(x, p)``, the ``(O, I)`` accumulate of ``x``
    over ``R`` (``p``: the power of ``SUMPOW``), with the backend's row segments."""
    part_dtype = np.asarray(zt).dtype
    if i == 1:
        ns = _segments(o, r, 1, o * r, 1 << 14)
        rb = _rb(r, ns)

        one_op = ONE_OP_ROW_KERNELS.get(op)
        if one_op is not None:
            one_op_serial = one_op[0]

            def one_op_rows(x: Array, p: float) -> Array:
                part: Array = np.empty((o, ns), part_dtype)
                one_op_serial(x.reshape(o, r), part, zc, zt, rb)
                return _combine_acc(part.reshape(o, ns, 1), op)

            return one_op_rows

        def rows(x: Array, p: float) -> Array:
            part: Array = np.empty((o, ns), part_dtype)
            kern.acc_h(x.reshape(o, r), part, op, p, zc, zt, rb)
            return _combine_acc(part.reshape(o, ns, 1), op)

        return rows
    wb = min(i, _WB)
    ns = _segments(o, r, -(-i // wb), o * r * i, 64)
    vertical = kern.nrm_v if op in _POWER_SUM_OPS else kern.acc_v

    def columns(x: Array, p: float) -> Array:
        part: Array = np.empty((o, ns, i), part_dtype)
        vertical(x.reshape(o, r, i), part, op, p, zc, wb)
        return _combine_acc(part, op)

    return columns


def _extremes(
    o: int, r: int, i: int, dtype: np.dtype[Any], ismax: bool
) -> Callable[[Array], Array]:
    """``_stages._stage_ext``'s serial path."""
    pf = o * r * i * dtype.itemsize >= kern.PF_MIN
    if i == 1:
        rb = _rb(r, 1)

        def rows(x: Array) -> Array:
            part: Array = np.empty((o, 1), dtype)
            kern.ext_h(x.reshape(o, r), part, ismax, rb, pf)
            return part

        return rows
    wb = min(i, _WB)

    def columns(x: Array) -> Array:
        part: Array = np.empty((o, 1, i), dtype)
        kern.ext_v(x.reshape(o, r, i), part, ismax, wb, pf)
        return part

    return columns


def _arg_indices(
    o: int, r: int, i: int, dtype: np.dtype[Any], ismax: bool
) -> Callable[[Array], Array]:
    """``_stages._stage_arg``'s serial path (the indices)."""
    if i == 1:
        return lambda x: first_extreme_of_rows(x.reshape(o, r), ismax)
    wb = min(i, _WB)
    zi = _index_zero(dtype.itemsize, r)

    def columns(x: Array) -> Array:
        pv: Array = np.empty((o, 1, i), dtype)
        pi: Array = np.empty((o, 1, i), np.int64)
        kern.arg_v(x.reshape(o, r, i), pv, pi, ismax, zi, wb)
        return pi

    return columns


def first_extreme_of_rows(x: Array, ismax: bool) -> Array:
    """Index of the first max (min) of each row of a C-contiguous 2-D array, the first NaN
    winning (``arg_rows``): the argmax/argmin over rows of a plan, and of
    the Tensor methods' call without one (``_tensor_reductions._index_of_rows``)."""
    index: Array = np.empty(x.shape[0], np.int64)
    kern.arg_rows(x, index, ismax)
    return index


def _moments(o: int, r: int, i: int) -> Callable[[Array], Array]:
    """``_stages._stage_var``'s serial path (the sums of squared deviations), with the
    backend's row segments."""
    if i == 1:
        ns = _segments(o, r, 1, o * r, 1 << 14)
        rb = _rb(r, ns)

        def rows(x: Array) -> Array:
            pm: Array = np.empty((o, ns))
            p2: Array = np.empty((o, ns))
            kern.var_h(x.reshape(o, r), pm, p2, rb)
            return _combine_moments(pm.reshape(o, ns, 1), p2.reshape(o, ns, 1), r)[1]

        return rows
    wb = min(i, _WB_VAR)
    ns = _segments(o, r, -(-i // wb), o * r * i, 64)

    def columns(x: Array) -> Array:
        pm: Array = np.empty((o, ns, i))
        p2: Array = np.empty((o, ns, i))
        kern.var_v(x.reshape(o, r, i), pm, p2, wb)
        return _combine_moments(pm, p2, r)[1]

    return columns


def _float_product(o: int, r: int, i: int, dtype: np.dtype[Any]) -> Callable[[Array], Array]:
    """``_stages._stage_prodf``'s serial path: numpy's order of multiplication."""
    one = dtype.type(1)
    if i == 1:
        rb = _rb(r, 1)
        big = float(np.ldexp(1.0, np.finfo(dtype).maxexp - 4))

        def rows(x: Array) -> Array:
            part: Array = np.empty((o, 1), dtype)
            kern.acc_h(x.reshape(o, r), part, kern.PRODF, big, one, one, rb)
            return part

        return rows
    wb = min(i, _WB)

    def columns(x: Array) -> Array:
        part: Array = np.empty((o, 1, i), dtype)
        kern.acc_v(x.reshape(o, r, i), part, kern.PROD, 0.0, one, wb)
        return part

    return columns


def direct_runner(
    op: str,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    axes: tuple[int, ...],
    keepdims: bool,
    dtype: np.dtype[Any],
    input_dtype: np.dtype[Any],
    reduce: Run,
) -> Run | None:
    """``run(a, params)`` for one plan of the numba backend, or ``None`` where the layout, the
    dtype or the op needs the backend's full ``reduce`` (see the module docstring); ``reduce``
    is that full path for the same plan (the norms that are not power sums run it)."""
    routes = registry.routes(op)
    make = None if routes is None or routes.direct is None else registry.resolve(routes.direct)
    if make is None or not kernel_dtype(input_dtype):
        return None
    if dtype.name != rules.result_dtype(rules.REDUCTIONS[op].dtype_rule, input_dtype.name):
        return None  # a dtype= argument
    block = one_reduced_block(shape, strides, input_dtype.itemsize, axes)
    if block is None or 0 in shape or _narrow(*block) or block[1] == 1:
        return None
    read_as = np.dtype(np.uint8) if input_dtype == np.bool_ else input_dtype
    result_shape = tuple((1 if keepdims else None) if d in axes else s for d, s in enumerate(shape))
    out_shape = shape if op == "l2_normalize" else tuple(s for s in result_shape if s is not None)
    n = math.prod(shape[d] for d in axes)
    finish = make(block, read_as, dtype, n)
    if input_dtype == np.bool_:
        run: Run = lambda a, params: finish(a.view(np.uint8), params).reshape(out_shape)  # noqa: E731
    else:
        run = lambda a, params: finish(a, params).reshape(out_shape)  # noqa: E731
    if op == "norm":
        return lambda a, params: (
            reduce(a, params) if params["p"] in _NOT_POWER_SUMS else run(a, params)
        )
    return run


_Finish = Callable[[Array, dict[str, Any]], Array]
_Block = tuple[int, int, int]


def direct_sum(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    if kdt.kind == "f":
        zc, zt = kdt.type(0), np.float64(0)
    else:
        zc = zt = dtype.type(0) if dtype.kind in "iuf" else np.int64(0)
    acc = _accumulate(*block, kern.SUM, zc, zt)
    return lambda x, params: acc(x, 0.0).astype(dtype, copy=False)


def direct_prod(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    if kdt.kind != "f":  # integer products wrap around: any order gives numpy's answer
        one = dtype.type(1)
        product = _accumulate(*block, kern.PROD, one, one)
        return lambda x, params: product(x, 0.0).astype(dtype, copy=False)
    in_order = _float_product(*block, kdt)
    return lambda x, params: in_order(x).astype(dtype, copy=False)


def direct_mean(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    zc = kdt.type(0) if kdt.kind == "f" else np.float64(0)
    acc = _accumulate(*block, kern.SUM, zc, np.float64(0))
    return lambda x, params: (acc(x, 0.0) / n).astype(dtype, copy=False)


def _extreme(ismax: bool) -> Callable[..., _Finish]:
    def make(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
        ext = _extremes(*block, kdt, ismax)
        return lambda x, params: ext(x).astype(dtype, copy=False)

    return make


def _nonzero_count(block: _Block, kdt: np.dtype[Any]) -> Callable[[Array, float], Array]:
    if kdt.kind == "f":
        zc, zt = kdt.type(0), np.float64(0)
    elif kdt.kind == "u":
        zc = zt = np.uint64(0)
    else:
        zc = zt = np.int64(0)
    return _accumulate(*block, kern.NNZ, zc, zt)


def direct_any(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    count = _nonzero_count(block, kdt)
    return lambda x, params: (count(x, 0.0) > 0).astype(dtype, copy=False)


def direct_all(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    count = _nonzero_count(block, kdt)
    return lambda x, params: (count(x, 0.0) == n).astype(dtype, copy=False)


def _variance(root: bool) -> Callable[..., _Finish]:
    def make(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
        m2_of = _moments(*block)

        def finish(x: Array, params: dict[str, Any]) -> Array:
            m2 = m2_of(x)
            denominator: float = max(n - params["correction"], 0.0)
            with np.errstate(invalid="ignore", divide="ignore"):
                v = (m2 / denominator).astype(dtype, copy=False)
            if not root:
                return v
            with np.errstate(invalid="ignore"):
                return np.asarray(np.sqrt(v))

        return finish

    return make


def _arg(ismax: bool) -> Callable[..., _Finish]:
    def make(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
        indices = _arg_indices(*block, kdt, ismax)
        if dtype == np.int64:
            return lambda x, params: indices(x)
        return lambda x, params: indices(x).astype(dtype, copy=False)

    return make


def direct_norm(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    """The backend's ``_norm`` for a finite, non-zero ``p`` (its ``_sumpow``)."""
    zc = kdt.type(0) if kdt.kind == "f" else np.float64(0)
    by_op = {op: _accumulate(*block, op, zc, np.float64(0)) for op in _POWER_SUM_OPS}

    def finish(x: Array, params: dict[str, Any]) -> Array:
        p = params["p"]
        op = kern.SUMABS if p == 1 else kern.SUMSQ if p == 2 else kern.SUMPOW
        s = by_op[op](x, float(p))
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            r = norm_from_power_sum(s.astype(dtype), p, params["eps"], params["mode"], dtype)
            return np.asarray(r, dtype=dtype)

    return finish


def direct_l2_normalize(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    """The backend's ``_l2_normalize`` of one reduced block: the sums of squares, the
    denominator, then the serial ``scale`` kernel over the whole input."""
    o, r, i = block
    zc = kdt.type(0) if kdt.kind == "f" else np.float64(0)
    squares = _accumulate(o, r, i, kern.SUMSQ, zc, np.float64(0))
    rb = max(1, (1 << 14) // (r * i))

    def finish(x: Array, params: dict[str, Any]) -> Array:
        ss = squares(x, 2.0).reshape(o, i)
        e = np.asarray(params["eps"], dtype=dtype)
        out: Array = np.empty((o, r * i), dtype)
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            denominator = l2_denominator(ss.astype(dtype), e, params["variant"])
            kern.scale(x.reshape(o, r * i), np.ascontiguousarray(denominator), out, i, rb)
        return out

    return finish


#: the builders the registry names for max, min, var, std, argmax and argmin (``Routes.direct``)
direct_max = _extreme(True)
direct_min = _extreme(False)
direct_var = _variance(False)
direct_std = _variance(True)
direct_argmax = _arg(True)
direct_argmin = _arg(False)
#: the ops ``direct_runner`` binds: those whose ``Routes`` name a builder
DIRECT_OPS = frozenset(
    name for name in rules.REDUCTIONS if getattr(registry.routes(name), "direct", None)
)
