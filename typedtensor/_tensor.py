"""``Tensor[DType, *Dims]``: an ndarray whose dtype and shape are part of its static type."""

from __future__ import annotations

import math
import typing
from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeAlias, Union

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from . import _rules as rules
from ._backend._routing import min_numba_bytes
from ._dask import is_dask_array as _is_dask_array
from ._dtypes import _CLASS_OF_NUMPY_DTYPE, DType, as_dtype_class, dtype_class_of
from ._errors import AxisError, ShapeError
from ._reduce_plan import SMALL_PLANS as _SMALL_PLANS
from ._reduce_plan import reduce_array

__all__ = ["AnyTensor", "Axis", "Dim", "L2Variant", "NormMode", "Tensor", "TensorBase", "wrap"]

DT = TypeVar("DT", bound=DType, covariant=True)
Shape = TypeVarTuple("Shape")

#: The ``axis`` argument of every reduction.
Axis: TypeAlias = Union[int, tuple[int, ...], None]
#: An operand of an elementwise operation.
#: Tensors are named by their non-generic base ``TensorBase``, not ``Tensor[Any, ...]``: mypy
#: solves a generic call's type variables from its type context first, so an ``Any``-filled
#: ``Tensor`` here erased the symbols of an operand such as ``x + same(x)``. ``Dim``: a
#: marker-typed ``x.shape[i]`` (an int at run time).
Operand: TypeAlias = Union["TensorBase", npt.NDArray[Any], int, float, complex, bool, "Dim"]
#: Norm modes: the plain Lp norm and oneDNN's four eps modes.
NormMode: TypeAlias = Literal["plain", "lp_max", "lp_sum", "power_p_max", "power_p_sum"]
#: L2-normalize variants of TensorFlow, PyTorch and OpenVINO (eps_mode add / max).
L2Variant: TypeAlias = Literal["tensorflow", "pytorch", "openvino-add", "openvino-max"]


class Dim:
    """Base of named symbolic dims: ``class Batch(tt.Dim): ...`` then ``Tensor[DT, Batch, L[3]]``.

    A marker in types; never instantiated. Runtime shape checks bind each marker to one size
    per call, like a TypeVar.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Dim:
        raise TypeError(f"{cls.__name__} is a dim marker for annotations; it has no instances")


def _raise_rule_error(err: rules.RuleError) -> None:
    """Re-raise a shape-rule error as the runtime exception numpy users expect."""
    if isinstance(err, rules.AxisRangeError):
        raise AxisError(str(err), err.axis, err.ndim) from None
    if isinstance(err, rules.AxisTypeError):
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


class TensorBase:
    """The non-generic base of ``Tensor``, used in operand annotations (see ``Operand``)."""

    __slots__ = ()


class Tensor(TensorBase, Generic[DT, Unpack[Shape]]):
    """An ndarray with its dtype and dims in the type: ``Tensor[tt.float32, L[8], L[10]]``.

    Construct with ``tt.asarray``, ``tt.zeros`` and friends, or check a declared shape with
    ``tt.tensor(array, shape=(8, 10))``. ``.numpy()`` returns the wrapped array (no copy).
    """

    __slots__ = ("_data",)
    __array_priority__ = 1000  # numpy defers binary operators to Tensor
    #: ndarray operators defer to Tensor's (``ndarray + Tensor`` is a Tensor, as the checkers
    #: say), and numpy ufuncs reject a Tensor (its stub has no ``__array__``, so the checkers
    #: reject ``np.exp(x)`` too): use ``tt.exp(x)`` or ``np.exp(x.numpy())``
    __array_ufunc__ = None

    _data: npt.NDArray[Any]

    def __init__(self, data: npt.ArrayLike) -> None:
        arr = np.asarray(data)
        dtype_class_of(arr.dtype)  # rejects unsupported dtypes with a clear TypeError
        self._data = arr

    # ---------------------------------------------------------------- basic properties
    @property
    def shape(self) -> tuple[int, ...]:
        """The runtime shape, e.g. ``(8, 10)``."""
        return tuple(self._data.shape)

    @property
    def dtype(self) -> type[DT]:
        """The dtype class, e.g. ``tt.float32``."""
        return dtype_class_of(self._data.dtype)  # type: ignore[return-value]

    @property
    def ndim(self) -> int:
        """The rank."""
        return self._data.ndim

    @property
    def size(self) -> int:
        """The number of elements."""
        return int(self._data.size)

    def numpy(self) -> npt.NDArray[Any]:
        """The wrapped ndarray itself (no copy)."""
        return self._data

    # ------------------------------------------- dask (a dask-backed Tensor overrides these)
    @property
    def chunks(self) -> tuple[tuple[int, ...], ...]:
        """dask's chunk sizes per dim; in memory, one chunk: ``((8,), (3,))`` for (8, 3)."""
        return tuple((n,) for n in self._data.shape)

    def compute(self, **kwargs: Any) -> Tensor[DT, Unpack[Shape]]:
        """The values in memory: ``self`` here; a dask-backed tensor runs its graph."""
        return self

    def persist(self, **kwargs: Any) -> Tensor[DT, Unpack[Shape]]:
        """``self`` here; a dask-backed tensor keeps its computed chunks (``dask.persist``)."""
        return self

    def rechunk(self, chunks: Any = "auto", **kwargs: Any) -> Tensor[DT, Unpack[Shape]]:
        """A lazy dask-backed tensor of these values in ``chunks`` (needs dask):
        ``tt.ones((8, 3)).rechunk((4, 3)).chunks -> ((4, 4), (3,))``."""
        from ._dask import from_numpy

        return from_numpy(self._data, chunks, **kwargs)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        if dtype is None and not copy:
            return self._data
        return np.array(self._data, dtype=dtype, copy=True if copy else None)

    def item(self) -> Any:
        """The single element as a Python scalar (``x.sum().item()``)."""
        return self._data.item()

    def __float__(self) -> float:
        return float(self._data)

    def __int__(self) -> int:
        return int(self._data)

    def __bool__(self) -> bool:
        return bool(self._data)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a rank-0 tensor")
        return int(self._data.shape[0])

    def __repr__(self) -> str:
        head = ", ".join([self.dtype.__name__, *map(str, self._data.shape)])
        body = np.array2string(self._data, separator=", ", prefix="Tensor[...](")
        return f"Tensor[{head}]({body})"

    def astype(self, dtype: type[DType] | Any) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """A copy converted to ``dtype``: ``x.astype(tt.float32)`` keeps the shape."""
        cls = as_dtype_class(dtype)
        return Tensor(self._data.astype(cls.numpy_dtype))

    def assert_shape(self, *dims: object) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """Check the runtime shape against ``dims`` and return ``self``; raise ``ShapeError``.

        Each dim is an int (exact), ``None`` (any size), a TypeVar or a ``tt.Dim`` marker (any
        size, the same size wherever it appears): ``x.assert_shape(B, 3)`` for a ``(B, 3)``.
        """
        check_shape(self.shape, dims)
        return self

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
        without strides: below ``min_numba_bytes()`` every layout runs numpy's loops)."""
        a = self._data
        if out is None and dtype is None:
            try:
                plan = _SMALL_PLANS.get(
                    (name, axis, type(axis), keepdims, type(keepdims), a.shape, a.dtype)
                )
            except TypeError:  # an unhashable axis or keepdims (a list): the rules say why
                plan = None
            if plan is not None:
                try:
                    result = plan(a, params)
                except rules.RuleError as err:  # an empty input's per-call check (norm's p)
                    _raise_rule_error(err)
                t: AnyTensor = _object_new(Tensor)
                t._data = result
                return t
        # dtype=: numpy's, accumulate in that dtype and return it (a class, numpy dtype or name)
        named = None if dtype is None else as_dtype_class(dtype).numpy_dtype
        try:  # validation and the choice of code are cached per call signature
            result = reduce_array(a, name, axis, keepdims, params, named)
        except rules.RuleError as err:
            _raise_rule_error(err)
            raise  # unreachable
        return _new(result) if out is None else _store(result, out, name)

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

    def argmax(
        self,
        axis: int | None = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Index of the first maximum (first NaN wins) along one axis, or of the flattened
        tensor for ``axis=None``: ``(8, 3).argmax(axis=1) -> (8,)`` of int64."""
        a = self._data  # a small input over one int axis: numpy's own call (_INDEX_SMALL_BYTES)
        if type(axis) is int and keepdims is False and out is None and type(a) is np.ndarray:
            try:
                length = a.shape[axis]
            except IndexError:  # out of range (rank 0 too): the rules' error, below
                length = 0
            if length and a.nbytes < _INDEX_SMALL_BYTES:  # length 0: the rules' error too
                index = a.argmax(axis)
                t: AnyTensor = _object_new(Tensor)
                t._data = index if type(index) is np.ndarray else np.asarray(index)
                return t
        return self._reduce("argmax", axis, keepdims, out)

    def argmin(
        self,
        axis: int | None = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Index of the first minimum along one axis: ``(8, 3).argmin(axis=0) -> (3,)``."""
        a = self._data  # as argmax
        if type(axis) is int and keepdims is False and out is None and type(a) is np.ndarray:
            try:
                length = a.shape[axis]
            except IndexError:  # out of range (rank 0 too): the rules' error, below
                length = 0
            if length and a.nbytes < _INDEX_SMALL_BYTES:  # length 0: the rules' error too
                index = a.argmin(axis)
                t: AnyTensor = _object_new(Tensor)
                t._data = index if type(index) is np.ndarray else np.asarray(index)
                return t
        return self._reduce("argmin", axis, keepdims, out)

    def logsumexp(
        self,
        axis: Axis = None,
        keepdims: bool = False,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """``log(sum(exp(x)))`` computed stably: ``(8, 10).logsumexp(axis=-1) -> (8,)``."""
        return self._reduce("logsumexp", axis, keepdims, out)

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
            axes = rules.reduce_to_shape(self.shape, dst)
        except rules.RuleError as err:
            _raise_rule_error(err)
        result = self._reduce(op, axes, True)
        return _store(result._data.reshape(dst), out, f"reduce_to({op})")

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

        return cumsum(self, axis, dtype, out=out)

    def cumprod(
        self,
        axis: int | None = None,
        dtype: object = None,
        *,
        out: Tensor[Any, Unpack[tuple[Any, ...]]] | None = None,
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Cumulative product along ``axis``: ``(8, 3).cumprod(axis=None) -> (24,)``."""
        from .scans import cumprod

        return cumprod(self, axis, dtype, out=out)

    # -------------------------------------------------------------- elementwise
    def _binary(self, other: object, fn: Any, reflected: bool = False) -> Any:
        """``fn(self, other)`` (reflected: ``fn(other, self)``) as a Tensor. numpy checks that
        the shapes broadcast before it computes anything; where it refuses, the rules say
        why (``ShapeError`` naming both shapes), so a call that broadcasts pays no check."""
        if isinstance(other, Tensor):
            other_data: Any = other._data
        elif isinstance(other, _SCALAR_OR_ARRAY):
            other_data = other
        else:
            return NotImplemented
        a, b = (other_data, self._data) if reflected else (self._data, other_data)
        try:
            result = fn(a, b)
        except (ValueError, TypeError):  # the shapes first, as numpy users read them
            if hasattr(other_data, "shape"):
                _broadcast_check(self._data.shape, other_data.shape, reflected)
            raise
        if type(result) is np.ndarray and result.dtype in _CLASS_OF_NUMPY_DTYPE:
            t: AnyTensor = _object_new(Tensor)  # wrap(result) without the calls
            t._data = result
            return t
        return wrap(result)

    def __add__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.add)  # type: ignore[no-any-return]

    def __radd__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.add, True)  # type: ignore[no-any-return]

    def __sub__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.subtract)  # type: ignore[no-any-return]

    def __rsub__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.subtract, True)  # type: ignore[no-any-return]

    def __mul__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.multiply)  # type: ignore[no-any-return]

    def __rmul__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.multiply, True)  # type: ignore[no-any-return]

    def __truediv__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.true_divide)  # type: ignore[no-any-return]

    def __rtruediv__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.true_divide, True)  # type: ignore[no-any-return]

    def __pow__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.power)  # type: ignore[no-any-return]

    def __rpow__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.power, True)  # type: ignore[no-any-return]

    def __lt__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.less)  # type: ignore[no-any-return]

    def __le__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.less_equal)  # type: ignore[no-any-return]

    def __gt__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.greater)  # type: ignore[no-any-return]

    def __ge__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.greater_equal)  # type: ignore[no-any-return]

    def __eq__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:  # type: ignore[override]
        return self._binary(other, np.equal)  # type: ignore[no-any-return]

    def __ne__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:  # type: ignore[override]
        return self._binary(other, np.not_equal)  # type: ignore[no-any-return]

    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> Tensor[DT, Unpack[Shape]]:
        return wrap(np.negative(self._data))

    def __pos__(self) -> Tensor[DT, Unpack[Shape]]:
        return Tensor(self._data.copy())

    def __abs__(self) -> Tensor[DT, Unpack[Shape]]:
        return wrap(np.abs(self._data))

    # ----------------------------------------- bitwise / logical (bool and integer dtypes)
    def __invert__(self) -> Tensor[DT, Unpack[Shape]]:
        """``~x``: logical not of a bool tensor, bitwise not of ints (floats: TypeError)."""
        return wrap(np.invert(self._data))

    def __and__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.bitwise_and)  # type: ignore[no-any-return]

    def __rand__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.bitwise_and, True)  # type: ignore[no-any-return]

    def __or__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.bitwise_or)  # type: ignore[no-any-return]

    def __ror__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.bitwise_or, True)  # type: ignore[no-any-return]

    def __xor__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.bitwise_xor)  # type: ignore[no-any-return]

    def __rxor__(self, other: Operand) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return self._binary(other, np.bitwise_xor, True)  # type: ignore[no-any-return]

    # -------------------------------------------------------------- shape manipulation
    @property
    def T(self) -> Tensor[DT, Unpack[tuple[Any, ...]]]:  # noqa: N802
        """All dims reversed: ``(8, 3, 4) -> (4, 3, 8)`` (see ``tt.transpose``)."""
        a = self._data
        if type(a) is np.ndarray:  # nothing to validate: numpy's view, wrapped
            t: AnyTensor = _object_new(Tensor)
            t._data = a.T
            return t
        return _manipulation.transpose(self)

    @property
    def mT(self) -> Tensor[DT, Unpack[tuple[Any, ...]]]:  # noqa: N802
        """The last two dims swapped: ``(8, 3, 4) -> (8, 4, 3)``; needs rank >= 2."""
        return _manipulation.matrix_transpose(self)

    def transpose(self, *axes: Any) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """``x.transpose()`` reverses the dims; ``x.transpose(1, 0)`` / ``((1, 0))`` permutes."""
        a = self._data
        if type(a) is np.ndarray and axes and type(axes[0]) in _SHAPE_OR_AXES_ARG:
            try:  # numpy refuses what the rules refuse (bools, floats, non-permutations)
                t: AnyTensor = _object_new(Tensor)
                t._data = a.transpose(*axes)
                return t
            except (TypeError, ValueError):
                pass  # the rules say why, below
        return _manipulation.transpose_method(self, axes)

    def swapaxes(self, axis1: int, axis2: int) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """Swap two dims: ``(8, 3, 4).swapaxes(0, -1) -> (4, 3, 8)``."""
        return _manipulation.swapaxes(self, axis1, axis2)

    def reshape(self, *shape: Any) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """``x.reshape((8, -1))`` or ``x.reshape(8, -1)``: see ``tt.reshape``."""
        a = self._data
        if type(a) is np.ndarray and shape and type(shape[0]) in _SHAPE_OR_AXES_ARG:
            try:  # numpy refuses what the rules refuse (bools, floats, two -1s, the size)
                t: AnyTensor = _object_new(Tensor)
                t._data = a.reshape(*shape)
                return t
            except (TypeError, ValueError):
                pass  # the rules say why, below
        return _manipulation.reshape_method(self, shape)

    def squeeze(
        self, axis: int | tuple[int, ...] | None = None
    ) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """Remove size-1 dims (all, or those at ``axis``): see ``tt.squeeze``."""
        return _manipulation.squeeze(self, axis)

    # ------------------------------------------------------------ matmul and indexing
    def __matmul__(self, other: object) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """``self @ other``: see ``tt.matmul``."""
        return _matmul(self, other)

    def __rmatmul__(self, other: object) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return _matmul(other, self)

    def __getitem__(self, index: object) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """``x[0, 1:, None]``: numpy's indexing, always a Tensor (rank 0 for a full int index)."""
        a = self._data
        if type(a) is np.ndarray and (type(index) is tuple or type(index) in _PLAIN_INDEX):
            try:  # numpy's index as it is (a Tensor item: numpy reads its ndarray, as _getitem)
                result = a[index]
            except (IndexError, TypeError, ValueError):
                pass  # _getitem: its own call, the rules' explanation for an IndexError
            else:
                if type(result) is np.ndarray:  # an element: wrap makes it rank 0
                    t: AnyTensor = _object_new(Tensor)
                    t._data = result
                    return t
        return _getitem(self, index)

    def __setitem__(self, index: object, value: object) -> None:
        """``x[1:] = value``: ``value`` must broadcast to the indexed shape."""
        _setitem(self, index, value)


AnyTensor: TypeAlias = Tensor[Any, Unpack[tuple[Any, ...]]]


def wrap(value: Any) -> AnyTensor:
    """Wrap an ndarray or numpy scalar as a Tensor (a scalar becomes rank 0)."""
    if type(value) is np.ndarray and value.dtype in _CLASS_OF_NUMPY_DTYPE:  # a known dtype
        t: AnyTensor = _object_new(Tensor)
        t._data = value
        return t
    if type(value) is np.ndarray:
        dtype_class_of(value.dtype)  # rejects unsupported dtypes with a clear TypeError
        return _new(value)
    if _is_dask_array(value):  # a lazy result of numpy functions on dask-backed tensors
        from ._dask.tensor import from_dask_array

        return from_dask_array(value)
    return Tensor(np.asarray(value))


_object_new = object.__new__
#: ``x.reshape``/``x.transpose`` arguments numpy checks as the rules do (an ndarray shape, say,
#: numpy takes and the rules refuse: those calls take the rules' path)
_SHAPE_OR_AXES_ARG = (int, tuple, list)
#: index items numpy takes as they are (``_indexing._PLAIN``)
_PLAIN_INDEX = frozenset({int, slice, type(None), type(Ellipsis)})
#: the operands ``_binary`` passes to numpy as they are (Tensors give their ndarray)
_SCALAR_OR_ARRAY = (bool, int, float, complex, np.bool_, np.number, np.ndarray)


def _new(arr: npt.NDArray[Any]) -> AnyTensor:
    """A Tensor around ``arr`` without validation: for ndarrays of a supported dtype that the
    library made itself (reduction results), ~3x cheaper than ``Tensor(arr)``."""
    t: AnyTensor = _object_new(Tensor)
    t._data = arr
    return t


#: argmax/argmin of an input below this size over one int axis run numpy's own call on every
#: backend, with no plan: the plan's validation costs more than the call (argmax of 16 floats:
#: numpy 0.14 us) and gives the same answer (``_routing._arg_runner`` makes the same call; its
#: int64 is numpy's intp on the platforms where that runner runs)
_INDEX_SMALL_BYTES = min_numba_bytes(("argmax", "argmin"))


def _store(result: npt.NDArray[Any], out: AnyTensor | None, name: str) -> AnyTensor:
    if out is None:
        return _new(result)
    if not isinstance(out, Tensor):
        raise TypeError(f"out= must be a typedtensor Tensor, got {type(out).__name__}")
    if type(out._data) is not np.ndarray:
        raise TypeError("out= must be an in-memory Tensor; a dask-backed one cannot be written to")
    if out.shape != result.shape:
        raise ShapeError(
            f"out= has shape {out.shape} but {name} produces shape {result.shape}; "
            "allocate out with exactly the result shape"
        )
    if out._data.dtype != result.dtype:
        raise TypeError(
            f"out= has dtype {out._data.dtype.name} but {name} produces {result.dtype.name}; "
            "allocate out with exactly the result dtype"
        )
    if not out._data.flags.writeable:
        raise ValueError("out= is read-only")
    np.copyto(out._data, result)
    return out


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


def check_shape(actual: tuple[int, ...], declared: Sequence[object]) -> None:
    """Raise ``ShapeError`` unless ``actual`` matches ``declared`` (see ``assert_shape``)."""
    if len(actual) != len(declared):
        raise ShapeError(
            f"expected a rank-{len(declared)} tensor of shape {_show(declared)}, "
            f"got rank {len(actual)} with shape {actual}"
        )
    bound: dict[object, int] = {}
    for i, (size, want) in enumerate(zip(actual, declared, strict=True)):
        if want is None:
            continue
        if isinstance(want, (int, np.integer)) and not isinstance(want, bool):
            if size != want:
                raise ShapeError(
                    f"dim {i} is {size} but {want} was declared: got shape {actual}, "
                    f"expected {_show(declared)}"
                )
            continue
        if _is_symbol(want):
            if want in bound and bound[want] != size:
                raise ShapeError(
                    f"dim {i} is {size} but {_name(want)} was bound to {bound[want]} by an "
                    f"earlier dim: got shape {actual}, expected {_show(declared)}"
                )
            bound[want] = size
            continue
        raise TypeError(
            f"declared dim {want!r} must be an int, None, a TypeVar or a tt.Dim subclass"
        )


def _is_symbol(d: object) -> bool:
    return isinstance(d, (typing.TypeVar, TypeVar)) or (isinstance(d, type) and issubclass(d, Dim))


def _name(d: object) -> str:
    return getattr(d, "__name__", repr(d))


def _show(dims: Sequence[object]) -> str:
    parts = ("?" if d is None else str(d) if isinstance(d, int) else _name(d) for d in dims)
    return "(" + ", ".join(parts) + ")"


# shape manipulation lives in its own module, which imports this one: bound after Tensor
from . import manipulation as _manipulation  # noqa: E402

# the same for the indexing and matmul dunders (an import inside each method cost ~1.7 us a call)
from ._indexing import getitem as _getitem  # noqa: E402
from ._indexing import setitem as _setitem  # noqa: E402
from .linalg import matmul as _matmul  # noqa: E402
