"""``Tensor[DType, *Dims]``: an ndarray whose dtype and shape are part of its static type."""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeAlias, Union

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from ._arguments import _axes as _axes
from ._arguments import _broadcast_check as _broadcast_check
from ._arguments import _check_device as _check_device
from ._arguments import _correction as _correction
from ._arguments import _norm_params as _norm_params
from ._arguments import _raise_rule_error as _raise_rule_error
from ._arguments import _real as _real
from ._arguments import _shape_tuple as _shape_tuple
from ._dask import is_dask_array as _is_dask_array
from ._dims import DIM_EXPRESSIONS, annotation_expr, declared_exact_divisions
from ._dtypes import _CLASS_OF_NUMPY_DTYPE, DType, as_dtype_class, dtype_class_of
from ._errors import ShapeError
from ._tensor_api import ProtocolMethods, TensorBase
from ._ufuncs import apply_ufunc as _apply_ufunc

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
Operand: TypeAlias = Union[
    "TensorBase", npt.NDArray[Any], np.generic, int, float, complex, bool, "Dim"
]
#: Norm modes: the plain Lp norm and oneDNN's four eps modes.
NormMode: TypeAlias = Literal["plain", "lp_max", "lp_sum", "power_p_max", "power_p_sum"]
#: L2-normalize variants of TensorFlow, PyTorch and OpenVINO (eps_mode add / max).
L2Variant: TypeAlias = Literal["tensorflow", "pytorch", "openvino-add", "openvino-max"]


def _binary_operator(fn: Any, reflected: bool = False) -> Any:
    """The operator method ``fn(self, other)`` (reflected: ``fn(other, self)``): what
    ``Tensor._binary`` does, as one function per operator without a helper to call (with the
    dtype check it skips, ``x * 2.0`` costs ~0.22 us over numpy's instead of ~0.37). numpy
    checks that the shapes broadcast before it computes anything; where it refuses, the
    rules say why (``ShapeError`` naming both shapes), so a call that broadcasts pays no
    check. ``binary_ufunc`` and ``reflected`` name it for subclasses that route every
    operator through their own ``_binary`` (``DaskTensor``)."""

    def operator(self: AnyTensor, other: object) -> Any:
        # a Tensor or a Python scalar operand gives one of the Tensor dtypes (numpy's
        # promotion among them, NEP 50 for the scalars): no dtype check on the result
        if isinstance(other, Tensor):
            other_data: Any = other._data
            known_dtype = True
        elif type(other) in _PYTHON_SCALARS:
            other_data = other
            known_dtype = True
        elif isinstance(other, _SCALAR_OR_ARRAY):
            other_data = other
            known_dtype = False
        else:
            return NotImplemented
        try:
            result = fn(other_data, self._data) if reflected else fn(self._data, other_data)
        except (ValueError, TypeError):  # the shapes first, as numpy users read them
            if hasattr(other_data, "shape"):
                _broadcast_check(self._data.shape, other_data.shape, reflected)
            raise
        if type(result) is np.ndarray and (known_dtype or result.dtype in _CLASS_OF_NUMPY_DTYPE):
            t: AnyTensor = _object_new(Tensor)  # wrap(result) without the calls
            t._data = result
            return t
        return wrap(result)

    operator.binary_ufunc = fn  # type: ignore[attr-defined]
    operator.reflected = reflected  # type: ignore[attr-defined]
    return operator


class Dim:
    """Base of named symbolic dims: ``class Batch(tt.Dim): ...`` then ``Tensor[DT, Batch, L[3]]``.

    A marker in types; never instantiated. Runtime shape checks bind each marker to one size
    per call, like a TypeVar.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Dim:
        raise TypeError(f"{cls.__name__} is a dim marker for annotations; it has no instances")


class Tensor(ProtocolMethods, Generic[DT, Unpack[Shape]]):
    """An ndarray with its dtype and dims in the type: ``Tensor[tt.float32, L[8], L[10]]``.

    Construct with ``tt.asarray``, ``tt.zeros`` and friends, or check a declared shape with
    ``tt.tensor(array, shape=(8, 10))``. ``.numpy()`` returns the wrapped array (no copy).
    """

    __slots__ = ("_data",)
    __array_priority__ = 1000  # numpy defers binary operators to Tensor

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """numpy ufuncs on a Tensor (``typedtensor._ufuncs``): the ufuncs behind operators run
        the Tensor's operator (``ndarray + Tensor`` is a Tensor, as the checkers say); every
        other ufunc raises a TypeError naming the typedtensor function (``np.tanh(x)``: call
        ``tt.tanh(x)``), as the checkers reject it (the stub has no ``__array__``)."""
        return _apply_ufunc(Tensor, ufunc, method, inputs, kwargs)

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

    def __repr__(self) -> str:
        head = ", ".join([self.dtype.__name__, *map(str, self._data.shape)])
        body = np.array2string(self._data, separator=", ", prefix="Tensor[...](")
        return f"Tensor[{head}]({body})"

    def astype(
        self, dtype: type[DType] | Any, *, copy: bool = True, device: Any = None
    ) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """A copy converted to ``dtype``: ``x.astype(tt.float32)`` keeps the shape;
        ``copy=False`` returns ``self`` when it has that dtype already (the standard's)."""
        _check_device(device)
        cls = as_dtype_class(dtype)
        if not copy and self._data.dtype == cls.numpy_dtype:
            return self
        return Tensor(self._data.astype(cls.numpy_dtype))

    def assert_shape(self, *dims: object) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """Check the runtime shape against ``dims`` and return ``self``; raise ``ShapeError``.

        Each dim is an int (exact), ``None`` (any size), a TypeVar or a ``tt.Dim`` marker (any
        size, the same size wherever it appears): ``x.assert_shape(B, 3)`` for a ``(B, 3)``.
        """
        check_shape(self.shape, dims)
        return self

    # -------------------------------------------------------------- elementwise
    def _binary(self, other: object, fn: Any, reflected: bool = False) -> Any:
        """``fn(self, other)`` (reflected: ``fn(other, self)``) as a Tensor: what the operator
        made for ``fn`` does (``_binary_operator``); subclasses that check operands first
        (``DaskTensor``) route every operator through here."""
        return _OPERATOR_OF[fn, reflected](self, other)

    __add__ = _binary_operator(np.add)
    __radd__ = _binary_operator(np.add, reflected=True)
    __sub__ = _binary_operator(np.subtract)
    __rsub__ = _binary_operator(np.subtract, reflected=True)
    __mul__ = _binary_operator(np.multiply)
    __rmul__ = _binary_operator(np.multiply, reflected=True)
    __truediv__ = _binary_operator(np.true_divide)
    __rtruediv__ = _binary_operator(np.true_divide, reflected=True)
    __pow__ = _binary_operator(np.power)
    __rpow__ = _binary_operator(np.power, reflected=True)
    __floordiv__ = _binary_operator(np.floor_divide)
    __rfloordiv__ = _binary_operator(np.floor_divide, reflected=True)
    __mod__ = _binary_operator(np.remainder)
    __rmod__ = _binary_operator(np.remainder, reflected=True)
    __lt__ = _binary_operator(np.less)
    __le__ = _binary_operator(np.less_equal)
    __gt__ = _binary_operator(np.greater)
    __ge__ = _binary_operator(np.greater_equal)
    __eq__ = _binary_operator(np.equal)
    __ne__ = _binary_operator(np.not_equal)
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

    __and__ = _binary_operator(np.bitwise_and)
    __rand__ = _binary_operator(np.bitwise_and, reflected=True)
    __or__ = _binary_operator(np.bitwise_or)
    __ror__ = _binary_operator(np.bitwise_or, reflected=True)
    __xor__ = _binary_operator(np.bitwise_xor)
    __rxor__ = _binary_operator(np.bitwise_xor, reflected=True)
    __lshift__ = _binary_operator(np.left_shift)
    __rlshift__ = _binary_operator(np.left_shift, reflected=True)
    __rshift__ = _binary_operator(np.right_shift)
    __rrshift__ = _binary_operator(np.right_shift, reflected=True)

    # the shape, indexing, matmul and reduction methods: _tensor_methods.py installs them


AnyTensor: TypeAlias = Tensor[Any, Unpack[tuple[Any, ...]]]
#: the operator made for each (ufunc, reflected), for ``Tensor._binary``
_OPERATOR_OF = {
    (op.binary_ufunc, op.reflected): op
    for op in vars(Tensor).values()
    if hasattr(op, "binary_ufunc")
}


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
        from ._dask import from_dask

        return from_dask(value)
    return Tensor(np.asarray(value))


_object_new = object.__new__
#: the operands ``_binary`` passes to numpy as they are (Tensors give their ndarray)
_SCALAR_OR_ARRAY = (bool, int, float, complex, np.bool_, np.number, np.ndarray)
_PYTHON_SCALARS = frozenset((bool, int, float, complex))


def _new(arr: npt.NDArray[Any]) -> AnyTensor:
    """A Tensor around ``arr`` without validation: for ndarrays of a supported dtype that the
    library made itself (reduction results), ~3x cheaper than ``Tensor(arr)``."""
    t: AnyTensor = _object_new(Tensor)
    t._data = arr
    return t


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


def check_shape(actual: tuple[int, ...], declared: Sequence[object]) -> None:
    """Raise ``ShapeError`` unless ``actual`` matches ``declared`` (see ``assert_shape``)."""
    if len(actual) != len(declared):
        raise ShapeError(
            f"expected a rank-{len(declared)} tensor of shape {_show(declared)}, "
            f"got rank {len(actual)} with shape {actual}"
        )
    bound: dict[object, int] = {}
    expressions: list[tuple[int, int, object]] = []
    for i, (size, want) in enumerate(zip(actual, declared, strict=True)):
        if want is None:
            continue
        if typing.get_origin(want) in DIM_EXPRESSIONS:  # checked once every symbol is bound
            expressions.append((i, size, want))
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
            f"declared dim {want!r} must be an int, None, a TypeVar, a tt.Dim subclass or a "
            "dim expression (tt.Mul[L[2], B])"
        )
    for i, size, want in expressions:
        _check_expression_dim(i, size, want, bound, actual, declared)


def _check_expression_dim(
    i: int,
    size: int,
    want: object,
    bound: dict[object, int],
    actual: tuple[int, ...],
    declared: Sequence[object],
) -> None:
    """Dim ``i`` of size ``size`` against the declared expression ``want`` (``2 * B``), each
    symbol bound by a plain dim; an exact division must divide."""
    expr = annotation_expr(want, _name, _is_marker)
    if expr is None:
        raise TypeError(f"declared dim {want!r}: the arguments of a dim expression must be dims")
    divisions = declared_exact_divisions(want, _name, _is_marker)
    symbols = expr.symbols().union(*(e.symbols() for pair in divisions for e in pair))
    missing = sorted(s.name for s in symbols if s.key not in bound)
    if missing:
        raise TypeError(
            f"declared dim {expr} uses {', '.join(missing)}, which no plain dim binds; "
            f"declare {missing[0]} as a dim of its own too"
        )
    values = ", ".join(f"{s.name} = {bound[s.key]}" for s in sorted(symbols, key=_sym_key))
    for num_expr, den_expr in divisions:
        num, den = (e.evaluate(lambda s: bound[s.key]) for e in (num_expr, den_expr))
        if den == 0 or num % den:
            spelled = " // ".join(
                f"({e})" if " " in str(e) else str(e) for e in (num_expr, den_expr)
            )
            raise ShapeError(
                f"dim {i}: {spelled} is not an exact division for {values} ({num} is not a "
                f"multiple of {den}): got shape {actual}, expected {_show(declared)}"
            )
    value = expr.evaluate(lambda s: bound[s.key])
    if value != size:
        raise ShapeError(
            f"dim {i} is {size} but {expr} = {value} for {values}: got shape {actual}, "
            f"expected {_show(declared)}"
            if expr.constant is None
            else f"dim {i} is {size} but {value} was declared: got shape {actual}, "
            f"expected {_show(declared)}"
        )


def _sym_key(s: Any) -> str:
    return str(s.name)


def _is_symbol(d: object) -> bool:
    return isinstance(d, (typing.TypeVar, TypeVar)) or _is_marker(d)


def _is_marker(d: object) -> bool:
    return isinstance(d, type) and issubclass(d, Dim)


def _name(d: object) -> str:
    return getattr(d, "__name__", repr(d))


def _show(dims: Sequence[object]) -> str:
    parts = ("?" if d is None else str(d) if isinstance(d, int) else _show_one(d) for d in dims)
    return "(" + ", ".join(parts) + ")"


def _show_one(d: object) -> str:
    expr = (
        annotation_expr(d, _name, _is_marker) if typing.get_origin(d) in DIM_EXPRESSIONS else None
    )
    return str(expr) if expr is not None else _name(d)
