"""The reduction and scan methods of ``Tensor`` (``_tensor_methods`` installs this class's
members on ``Tensor``; the stub ``_tensor.pyi`` declares them on ``Tensor`` itself). Each
validates its parameters and calls ``_reduce``, the one reduction path: a small input's cached
plan (``SMALL_PLANS``), else the plan cache and the backend (``_reduce_plan.reduce_array``).
A dask-backed Tensor overrides ``_reduce``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy.typing as npt
from typing_extensions import Unpack

from . import _rules as rules
from . import _tensor
from ._arguments import _correction, _norm_params, _raise_rule_error, _real, _shape_tuple
from ._backend import get_backend
from ._backend._routing import min_numba_bytes
from ._dtypes import as_dtype_class
from ._reduce_plan import PLANS as _PLANS
from ._reduce_plan import SMALL_PLANS as _SMALL_PLANS
from ._reduce_plan import reduce_array
from ._tensor_index import index_method

if TYPE_CHECKING:
    from ._tensor import AnyTensor, Axis, L2Variant, NormMode, Tensor

__all__ = ["ReductionMethods"]

_object_new = object.__new__
#: inputs of this size and more never have a ``SMALL_PLANS`` entry (``reduce_array`` adds
#: one only below ``min_numba_bytes()``); were the tables changed at run time, a stale value
#: costs a lookup that misses or skips one that ``PLANS`` answers as well
_SMALL_PLAN_BYTES = min_numba_bytes()


class ReductionMethods:
    """``sum`` ... ``l2_normalize``, ``reduce_to``/``sum_to``, ``cumsum``/``cumprod``."""

    __slots__ = ()
    _data: npt.NDArray[Any]

    # ------------------------------------------------------------------- reductions
    def _reduce(
        self,
        name: str,
        axis: object,
        keepdims: object,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
        dtype: object = None,
        **params: Any,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Every reduction method's one path (a subclass with another ``_data`` overrides it).
        A small input's validated plan is one dict lookup away (``SMALL_PLANS``, keyed
        without strides: below ``min_numba_bytes()`` every layout runs numpy's loops), a
        larger one's (int or None axis, bool keepdims) one more (``reduce_array``'s plans)."""
        a = self._data
        if out is None and dtype is None:
            plan = None
            if a.nbytes < _SMALL_PLAN_BYTES:  # larger inputs have no small plan: skip the key
                try:
                    plan = _SMALL_PLANS.get(
                        (name, axis, type(axis), keepdims, type(keepdims), a.shape, a.dtype)
                    )
                except TypeError:  # an unhashable axis or keepdims (a list): the rules say why
                    pass
            if plan is None and type(keepdims) is bool and (axis is None or type(axis) is int):
                # a validated plan of a larger input: reduce_array's key for these types
                key = (name, axis, keepdims, None, a.shape, a.strides, a.dtype, get_backend())
                plan = _PLANS.get(key)
            if plan is not None:
                try:
                    result = plan(a, params)
                except rules.RuleError as err:  # an empty input's per-call check (norm's p)
                    _raise_rule_error(err)
                t: AnyTensor = _object_new(_tensor.Tensor)
                t._data = result
                return t
        # dtype=: numpy's, accumulate in that dtype and return it (a class, numpy dtype or name)
        named = None if dtype is None else as_dtype_class(dtype).numpy_dtype
        try:  # validation and the choice of code are cached per call signature
            result = reduce_array(a, name, axis, keepdims, params, named)
        except rules.RuleError as err:
            _raise_rule_error(err)
            raise  # unreachable
        return _tensor._store(result, out, name)

    def sum(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        dtype: object = None,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Sum over ``axis``: ``(8, 3, 4).sum(axis=1) -> (8, 4)``; ints widen to int64/uint64.

        ``dtype=`` (a dtype class, numpy dtype or name) accumulates in and returns that dtype,
        as numpy's: ``x.sum(dtype=tt.float64)`` of float32. So do prod, mean, var and std.
        """
        return self._reduce("sum", axis, keepdims, out, dtype)

    def prod(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        dtype: object = None,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Product over ``axis``: ``(8, 3).prod(axis=0) -> (3,)``; ints widen to int64/uint64."""
        return self._reduce("prod", axis, keepdims, out, dtype)

    def mean(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        dtype: object = None,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Mean over ``axis``: ``(8, 3).mean(axis=-1, keepdims=True) -> (8, 1)``; ints: float64."""
        return self._reduce("mean", axis, keepdims, out, dtype)

    def max(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Maximum over ``axis`` (NaN propagates): ``(8, 3).max(axis=0) -> (3,)``."""
        return self._reduce("max", axis, keepdims, out)

    def min(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Minimum over ``axis`` (NaN propagates): ``(8, 3).min(axis=0) -> (3,)``."""
        return self._reduce("min", axis, keepdims, out)

    def any(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Logical or over ``axis``, a bool tensor: ``(8, 3).any(axis=1) -> (8,)``."""
        return self._reduce("any", axis, keepdims, out)

    def all(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Logical and over ``axis``, a bool tensor: ``(8, 3).all() -> ()``."""
        return self._reduce("all", axis, keepdims, out)

    def var(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        correction: float | None = None,
        ddof: float | None = None,
        dtype: object = None,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Variance over ``axis`` divided by ``N - correction``: ``(8, 3).var(axis=0) -> (3,)``.

        ``ddof`` is numpy's name for ``correction``; give at most one. ints -> float64.
        """
        c = _correction(correction, ddof)
        return self._reduce("var", axis, keepdims, out, dtype, correction=c)

    def std(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        correction: float | None = None,
        ddof: float | None = None,
        dtype: object = None,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Standard deviation over ``axis``: ``(8, 3).std(axis=0, correction=1) -> (3,)``."""
        c = _correction(correction, ddof)
        return self._reduce("std", axis, keepdims, out, dtype, correction=c)

    argmax = index_method(
        True,
        """Index of the first maximum (first NaN wins), int64: ``(8, 3).argmax(axis=1) -> (8,)``.

        Along one axis, or into the flattened tensor for ``axis=None``.""",
    )
    argmin = index_method(
        False,
        """Index of the first minimum (first NaN wins), int64: ``(8, 3).argmin(axis=0) -> (3,)``.

        Along one axis, or into the flattened tensor for ``axis=None``.""",
    )

    def logsumexp(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """``log(sum(exp(x)))`` computed stably: ``(8, 10).logsumexp(axis=-1) -> (8,)``."""
        return self._reduce("logsumexp", axis, keepdims, out)

    def median(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Median, numpy's (a NaN in a slice gives NaN; ints give float64):
        ``(8, 3).median(axis=0) -> (3,)``."""
        return self._reduce("median", axis, keepdims, out)

    def norm(
        self,
        p: float = 2,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        eps: float = 0.0,
        mode: NormMode = "plain",
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Lp norm over ``axis``: ``(8, 64).norm(2, axis=-1) -> (8,)``.

        ``p`` is any nonzero float, ``inf``/``-inf`` (max/min of ``|x|``) or 0 (count of
        nonzeros). ``mode`` selects oneDNN's eps handling (finite ``p > 0`` only):
        ``lp_max`` = max(sum|x|^p, eps)^(1/p), ``lp_sum`` = (sum|x|^p + eps)^(1/p),
        ``power_p_max`` / ``power_p_sum`` the same without the root.
        """
        p_, eps_ = _norm_params(p, eps, mode)
        return self._reduce("norm", axis, keepdims, out, p=p_, eps=eps_, mode=mode)

    def norm_lp_max(
        self,
        p: float = 2,
        eps: float = 0.0,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """oneDNN ``norm_lp_max``: max(sum|x|^p, eps)^(1/p): ``(8, 64) axis=-1 -> (8,)``."""
        p_, eps_ = _norm_params(p, eps, "lp_max")
        return self._reduce("norm_lp_max", axis, keepdims, out, p=p_, eps=eps_)

    def norm_lp_sum(
        self,
        p: float = 2,
        eps: float = 0.0,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """oneDNN ``norm_lp_sum``: (sum|x|^p + eps)^(1/p): ``(8, 64) axis=-1 -> (8,)``."""
        p_, eps_ = _norm_params(p, eps, "lp_sum")
        return self._reduce("norm_lp_sum", axis, keepdims, out, p=p_, eps=eps_)

    def norm_lp_power_p_max(
        self,
        p: float = 2,
        eps: float = 0.0,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """oneDNN ``norm_lp_power_p_max``: max(sum|x|^p, eps): ``(8, 64) axis=-1 -> (8,)``."""
        p_, eps_ = _norm_params(p, eps, "power_p_max")
        return self._reduce("norm_lp_power_p_max", axis, keepdims, out, p=p_, eps=eps_)

    def norm_lp_power_p_sum(
        self,
        p: float = 2,
        eps: float = 0.0,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """oneDNN ``norm_lp_power_p_sum``: sum|x|^p + eps: ``(8, 64) axis=-1 -> (8,)``."""
        p_, eps_ = _norm_params(p, eps, "power_p_sum")
        return self._reduce("norm_lp_power_p_sum", axis, keepdims, out, p=p_, eps=eps_)

    def l2_normalize(
        self,
        axis: Axis = -1,
        eps: float = 1e-12,
        variant: L2Variant = "tensorflow",
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """``x`` divided by its L2 norm over ``axis``; the shape is kept: ``(8, 64) -> (8, 64)``.

        ``variant``: ``tensorflow`` x/max(sum x^2, eps)^0.5, ``pytorch`` x/max((sum x^2)^0.5,
        eps), ``openvino-add`` x/(sum x^2 + eps)^0.5, ``openvino-max`` x/max(sum x^2, eps)^0.5.
        """
        if variant not in rules.L2_VARIANTS:
            raise ValueError(
                f"unknown l2_normalize variant {variant!r}; choose one of "
                f"{', '.join(rules.L2_VARIANTS)}"
            )
        eps_ = _real("eps", eps)
        if eps_ < 0:
            raise ValueError(f"eps must be >= 0, got {eps_}")
        return self._reduce("l2_normalize", axis, False, out, eps=eps_, variant=variant)

    def reduce_to(
        self,
        shape: Sequence[int],
        op: str = "sum",
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Reduce with ``op`` so that the result has exactly ``shape`` (oneDNN's dst shape).

        Each target dim is the source dim or 1; missing leading dims are reduced away (the
        inverse of broadcasting): ``(8, 3, 32, 32).reduce_to((1, 3, 1, 1), "mean")``.
        """
        spec = rules.REDUCTIONS.get(op)
        if spec is None or spec.single_axis or spec.keeps_shape or spec.params:
            usable = [
                n
                for n, s in rules.REDUCTIONS.items()
                if not (s.single_axis or s.keeps_shape or s.params)
            ]
            raise ValueError(f"reduce_to op must be one of {', '.join(usable)}, got {op!r}")
        dst = _shape_tuple(shape)
        try:
            axes = rules.reduce_to_shape(tuple(self._data.shape), dst)
        except rules.RuleError as err:
            _raise_rule_error(err)
        result = self._reduce(op, axes, True)
        return _tensor._store(result._data.reshape(dst), out, f"reduce_to({op})")

    def sum_to(
        self,
        shape: Sequence[int],
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Sum so that the result has ``shape``: ``(8, 3, 32, 32).sum_to((1, 3, 1, 1))``."""
        return self.reduce_to(shape, "sum", out=out)

    # -------------------------------------------------------------------- scans
    def cumsum(
        self,
        axis: int | None = None,
        dtype: object = None,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Cumulative sum along ``axis`` (``None``: flattened): ``(8, 3).cumsum(0) -> (8, 3)``."""
        from .scans import cumsum

        return cumsum(cast("AnyTensor", self), axis, dtype, out=out)

    def cumprod(
        self,
        axis: int | None = None,
        dtype: object = None,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Cumulative product along ``axis``: ``(8, 3).cumprod(axis=None) -> (24,)``."""
        from .scans import cumprod

        return cumprod(cast("AnyTensor", self), axis, dtype, out=out)
