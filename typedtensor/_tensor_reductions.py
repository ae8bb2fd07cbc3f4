"""The reduction and scan methods of ``Tensor`` (``_tensor_methods`` installs this class's
members, its generated base's included, on ``Tensor``; the stub ``_tensor.pyi`` declares them
on ``Tensor`` itself). The reduction table's methods are generated
(``_tensor_reduction_methods.py``, ``python -m stubs.generate``); each validates its parameters
and calls ``_reduce``, the one reduction path, written here: a small input's cached plan
(``SMALL_PLANS``), else the plan cache and the backend (``_reduce_plan.reduce_array``). A
dask-backed Tensor overrides ``_reduce``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy.typing as npt
from typing_extensions import Unpack

from . import _rules as rules
from . import _tensor
from ._arguments import _raise_rule_error, _shape_tuple
from ._backend import get_backend
from ._backend._routing import min_numba_bytes
from ._dtypes import as_dtype_class
from ._reduce_plan import PLANS as _PLANS
from ._reduce_plan import SMALL_PLANS as _SMALL_PLANS
from ._reduce_plan import reduce_array
from ._tensor_index import index_method
from ._tensor_reduction_methods import TableReductionMethods

if TYPE_CHECKING:
    from ._tensor import AnyTensor, Tensor

__all__ = ["ReductionMethods"]

_object_new = object.__new__
#: inputs of this size and more never have a ``SMALL_PLANS`` entry (``reduce_array`` adds
#: one only below ``min_numba_bytes()``); were the tables changed at run time, a stale value
#: costs a lookup that misses or skips one that ``PLANS`` answers as well
_SMALL_PLAN_BYTES = min_numba_bytes()


class ReductionMethods(TableReductionMethods):
    """The reduction and scan methods: the table's (``sum`` ... ``l2_normalize``, generated in
    ``TableReductionMethods``), ``_reduce``, argmax/argmin, ``reduce_to``/``sum_to``,
    ``cumsum``/``cumprod``."""

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

    argmax = index_method(True, rules.REDUCTIONS["argmax"].method_doc)
    argmin = index_method(False, rules.REDUCTIONS["argmin"].method_doc)

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
