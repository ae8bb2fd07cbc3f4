"""Constructors: ``asarray``, ``zeros``/``ones``/``full``/``empty``, ``random``, ``arange`` and
the checked cast ``tensor``. The mypy plugin types them from literal shapes."""

from __future__ import annotations

from typing import Any, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeVar, Unpack

from ._dask import from_dask, is_dask_array
from ._dtypes import DType, as_dtype_class, float64, int64
from ._tensor import AnyTensor, Tensor, _shape_tuple, check_shape

__all__ = ["arange", "asarray", "empty", "full", "ones", "random", "tensor", "zeros"]

DT = TypeVar("DT", bound=DType)
ShapeArg = int | tuple[int, ...]
#: numpy's spellings of a dtype, accepted at runtime (typed results need a typedtensor class)
NumpyDType = np.dtype[Any] | type[np.generic] | str


def _np_dtype(dtype: object, default: type[DType] | None) -> np.dtype[Any] | None:
    if dtype is None:
        return None if default is None else default.numpy_dtype
    return as_dtype_class(dtype).numpy_dtype


@overload
def asarray(obj: Any, dtype: None = None) -> AnyTensor: ...
@overload
def asarray(obj: Any, dtype: type[DT]) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def asarray(obj: Any, dtype: NumpyDType) -> AnyTensor: ...
def asarray(obj: Any, dtype: Any = None) -> AnyTensor:
    """A Tensor viewing ``obj`` (no copy when it is already an ndarray of that dtype).

    ``tt.asarray([[1.0, 2.0]], dtype=tt.float32)`` -> shape (1, 2), float32. A
    ``dask.array.Array`` (or a dask-backed Tensor) gives a lazy dask-backed Tensor: nothing
    is computed, ``dtype=`` converts lazily (see ``tt.from_zarr``).
    """
    if isinstance(obj, Tensor):
        obj = obj._data
    if type(obj) is not np.ndarray and is_dask_array(obj):
        return from_dask(obj, dtype)
    return Tensor(np.asarray(obj, dtype=_np_dtype(dtype, None)))


@overload
def zeros(shape: ShapeArg, dtype: None = None) -> Tensor[float64, Unpack[tuple[Any, ...]]]: ...
@overload
def zeros(shape: ShapeArg, dtype: type[DT]) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def zeros(shape: ShapeArg, dtype: NumpyDType) -> AnyTensor: ...
def zeros(shape: ShapeArg, dtype: Any = None) -> AnyTensor:
    """Zeros of ``shape``: ``tt.zeros((8, 3), dtype=tt.float32)``; float64 by default."""
    return Tensor(np.zeros(_shape_tuple(shape), dtype=_np_dtype(dtype, float64)))


@overload
def ones(shape: ShapeArg, dtype: None = None) -> Tensor[float64, Unpack[tuple[Any, ...]]]: ...
@overload
def ones(shape: ShapeArg, dtype: type[DT]) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def ones(shape: ShapeArg, dtype: NumpyDType) -> AnyTensor: ...
def ones(shape: ShapeArg, dtype: Any = None) -> AnyTensor:
    """Ones of ``shape``: ``tt.ones((8, 3), dtype=tt.int32)``; float64 by default."""
    return Tensor(np.ones(_shape_tuple(shape), dtype=_np_dtype(dtype, float64)))


@overload
def empty(shape: ShapeArg, dtype: None = None) -> Tensor[float64, Unpack[tuple[Any, ...]]]: ...
@overload
def empty(shape: ShapeArg, dtype: type[DT]) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def empty(shape: ShapeArg, dtype: NumpyDType) -> AnyTensor: ...
def empty(shape: ShapeArg, dtype: Any = None) -> AnyTensor:
    """Uninitialised tensor of ``shape`` (contents arbitrary): ``tt.empty((4,), tt.uint8)``."""
    return Tensor(np.empty(_shape_tuple(shape), dtype=_np_dtype(dtype, float64)))


@overload
def full(shape: ShapeArg, fill_value: Any, dtype: None = None) -> AnyTensor: ...
@overload
def full(
    shape: ShapeArg, fill_value: Any, dtype: type[DT]
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def full(shape: ShapeArg, fill_value: Any, dtype: NumpyDType) -> AnyTensor: ...
def full(shape: ShapeArg, fill_value: Any, dtype: Any = None) -> AnyTensor:
    """``shape`` filled with ``fill_value``: ``tt.full((2, 3), 7, dtype=tt.int8)``.

    Without ``dtype`` the dtype follows numpy's rule for the fill value (int64, float64, bool).
    """
    return Tensor(np.full(_shape_tuple(shape), fill_value, dtype=_np_dtype(dtype, None)))


@overload
def random(
    shape: ShapeArg, dtype: None = None, seed: int | None = None
) -> Tensor[float64, Unpack[tuple[Any, ...]]]: ...
@overload
def random(
    shape: ShapeArg, dtype: type[DT], seed: int | None = None
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def random(shape: ShapeArg, dtype: NumpyDType, seed: int | None = None) -> AnyTensor: ...
def random(shape: ShapeArg, dtype: Any = None, seed: int | None = None) -> AnyTensor:
    """Random tensor of ``shape``: standard normal floats (complex: real and imaginary parts
    standard normal), integers uniform in [-100, 100) (unsigned: [0, 100)), fair bools.
    ``tt.random((8, 10), tt.float32, seed=0)``."""
    dims = _shape_tuple(shape)
    np_dtype = _np_dtype(dtype, float64)
    assert np_dtype is not None
    rng = np.random.default_rng(seed)
    data: npt.NDArray[Any]
    if np_dtype.kind in "fc":
        part = np.float64 if np_dtype.itemsize in (8, 16) else np.float32  # float16: rounded
        data = rng.standard_normal(dims, dtype=part).astype(np_dtype)
        if np_dtype.kind == "c":
            data.imag = rng.standard_normal(dims, dtype=part)
    elif np_dtype.kind == "b":
        data = rng.integers(0, 2, dims).astype(bool)
    else:
        low = 0 if np_dtype.kind == "u" else -100
        data = rng.integers(low, 100, dims, dtype=np_dtype)
    return Tensor(data)


@overload
def arange(n: int, dtype: None = None) -> Tensor[int64, Any]: ...
@overload
def arange(n: int, dtype: type[DT]) -> Tensor[DT, Any]: ...
@overload
def arange(n: int, dtype: NumpyDType) -> Tensor[Any, Any]: ...
def arange(n: int, dtype: Any = None) -> Tensor[Any, Any]:
    """``0, 1, ..., n-1`` as a rank-1 tensor: ``tt.arange(5, tt.float32)``; int64 by default."""
    return Tensor(np.arange(n, dtype=_np_dtype(dtype, int64)))


@overload
def tensor(obj: Any, shape: tuple[object, ...], dtype: None = None) -> AnyTensor: ...
@overload
def tensor(
    obj: Any, shape: tuple[object, ...], dtype: type[DT]
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def tensor(obj: Any, shape: tuple[object, ...], dtype: NumpyDType) -> AnyTensor: ...
def tensor(obj: Any, shape: tuple[object, ...], dtype: Any = None) -> AnyTensor:
    """Checked cast: wrap ``obj`` and verify its runtime shape (and dtype, if given).

    ``shape`` entries are ints (exact), ``None`` (any), TypeVars or ``tt.Dim`` markers (any
    size, the same size wherever repeated): ``tt.tensor(arr, shape=(B, 3), dtype=tt.float32)``.
    Raises ``ShapeError`` on a shape mismatch (checked first), ``TypeError`` when the shape
    fits but the dtype differs (no conversion).
    """
    if not isinstance(shape, (tuple, list)):
        raise TypeError(
            f"tt.tensor(obj, shape, dtype): shape must be a tuple of dims (ints, None, TypeVars "
            f"or tt.Dim markers), got {shape!r}; write tt.tensor(obj, (2, 3), tt.float32), or "
            "tt.asarray(obj, dtype=...) to convert without a shape check"
        )
    t = asarray(obj)
    check_shape(t.shape, shape)  # first: a shape bug is not a dtype mismatch to convert away
    if dtype is not None:
        want = as_dtype_class(dtype)
        if t.dtype is not want:
            raise TypeError(
                f"expected dtype {want.__name__}, got {t.dtype.__name__}; convert explicitly "
                f"with tt.asarray(obj, dtype=tt.{want.__name__}) if that is intended"
            )
    return t
