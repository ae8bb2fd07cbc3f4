"""Constructors: ``asarray``, ``zeros``/``ones``/``full``/``empty``, ``random``, ``arange`` and
the checked cast ``tensor``. The mypy plugin types them from literal shapes."""

from __future__ import annotations

from typing import Any, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeVar, Unpack

from ._arguments import _check_device
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
def asarray(
    obj: Any, dtype: None = None, *, device: Any = None, copy: bool | None = None
) -> AnyTensor: ...
@overload
def asarray(
    obj: Any, dtype: type[DT], *, device: Any = None, copy: bool | None = None
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def asarray(
    obj: Any, dtype: NumpyDType, *, device: Any = None, copy: bool | None = None
) -> AnyTensor: ...
def asarray(
    obj: Any, dtype: Any = None, *, device: Any = None, copy: bool | None = None
) -> AnyTensor:
    """A Tensor viewing ``obj`` (no copy when it is already an ndarray of that dtype).

    ``tt.asarray([[1.0, 2.0]], dtype=tt.float32)`` -> shape (1, 2), float32. ``copy=True``
    always copies, ``copy=False`` never does (a ValueError where a copy is needed), ``None``
    copies only where needed (the standard's ``copy``, numpy's). A ``dask.array.Array`` (or a
    dask-backed Tensor) gives a lazy dask-backed Tensor: nothing is computed, ``dtype=``
    converts lazily (see ``tt.from_zarr``).
    """
    _check_device(device)
    if isinstance(obj, Tensor):
        obj = obj._data
    if type(obj) is not np.ndarray and is_dask_array(obj):
        return from_dask(obj, dtype)
    try:
        return Tensor(np.asarray(obj, dtype=_np_dtype(dtype, None), copy=copy))
    except ValueError as err:
        if copy is False and "avoid copy" in str(err):
            raise ValueError(
                "tt.asarray(obj, copy=False) needs a copy here (a dtype conversion, or obj is "
                "not an array); pass copy=None to copy only where needed"
            ) from None
        raise


@overload
def zeros(
    shape: ShapeArg, dtype: None = None, *, device: Any = None
) -> Tensor[float64, Unpack[tuple[Any, ...]]]: ...
@overload
def zeros(
    shape: ShapeArg, dtype: type[DT], *, device: Any = None
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def zeros(shape: ShapeArg, dtype: NumpyDType, *, device: Any = None) -> AnyTensor: ...
def zeros(shape: ShapeArg, dtype: Any = None, *, device: Any = None) -> AnyTensor:
    """Zeros of ``shape``: ``tt.zeros((8, 3), dtype=tt.float32)``; float64 by default."""
    _check_device(device)
    return Tensor(np.zeros(_shape_tuple(shape), dtype=_np_dtype(dtype, float64)))


@overload
def ones(
    shape: ShapeArg, dtype: None = None, *, device: Any = None
) -> Tensor[float64, Unpack[tuple[Any, ...]]]: ...
@overload
def ones(
    shape: ShapeArg, dtype: type[DT], *, device: Any = None
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def ones(shape: ShapeArg, dtype: NumpyDType, *, device: Any = None) -> AnyTensor: ...
def ones(shape: ShapeArg, dtype: Any = None, *, device: Any = None) -> AnyTensor:
    """Ones of ``shape``: ``tt.ones((8, 3), dtype=tt.int32)``; float64 by default."""
    _check_device(device)
    return Tensor(np.ones(_shape_tuple(shape), dtype=_np_dtype(dtype, float64)))


@overload
def empty(
    shape: ShapeArg, dtype: None = None, *, device: Any = None
) -> Tensor[float64, Unpack[tuple[Any, ...]]]: ...
@overload
def empty(
    shape: ShapeArg, dtype: type[DT], *, device: Any = None
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def empty(shape: ShapeArg, dtype: NumpyDType, *, device: Any = None) -> AnyTensor: ...
def empty(shape: ShapeArg, dtype: Any = None, *, device: Any = None) -> AnyTensor:
    """Uninitialised tensor of ``shape`` (contents arbitrary): ``tt.empty((4,), tt.uint8)``."""
    _check_device(device)
    return Tensor(np.empty(_shape_tuple(shape), dtype=_np_dtype(dtype, float64)))


@overload
def full(
    shape: ShapeArg, fill_value: Any, dtype: None = None, *, device: Any = None
) -> AnyTensor: ...
@overload
def full(
    shape: ShapeArg, fill_value: Any, dtype: type[DT], *, device: Any = None
) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
@overload
def full(
    shape: ShapeArg, fill_value: Any, dtype: NumpyDType, *, device: Any = None
) -> AnyTensor: ...
def full(shape: ShapeArg, fill_value: Any, dtype: Any = None, *, device: Any = None) -> AnyTensor:
    """``shape`` filled with ``fill_value``: ``tt.full((2, 3), 7, dtype=tt.int8)``.

    Without ``dtype`` the dtype follows numpy's rule for the fill value (int64, float64, bool).
    """
    _check_device(device)
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
def arange(
    start: int,
    /,
    stop: int | None = None,
    step: int = 1,
    *,
    dtype: None = None,
    device: Any = None,
) -> Tensor[int64, Any]: ...
@overload
def arange(
    start: float,
    /,
    stop: float | None = None,
    step: float = 1,
    *,
    dtype: None = None,
    device: Any = None,
) -> Tensor[float64, Any]: ...
@overload
def arange(
    start: float,
    /,
    stop: float | None = None,
    step: float = 1,
    *,
    dtype: type[DT],
    device: Any = None,
) -> Tensor[DT, Any]: ...
@overload
def arange(start: int, /, stop: type[DT], *, device: Any = None) -> Tensor[DT, Any]: ...
@overload
def arange(
    start: float,
    /,
    stop: float | NumpyDType | None = None,
    step: float = 1,
    *,
    dtype: NumpyDType | None = None,
    device: Any = None,
) -> Tensor[Any, Any]: ...
def arange(
    start: float,
    /,
    stop: Any = None,
    step: float = 1,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Tensor[Any, Any]:
    """``start, start + step, ...`` below ``stop`` as a rank-1 tensor (the standard's
    ``arange``, numpy's): ``tt.arange(5)`` -> (5,) int64, ``tt.arange(1, 7, 2)`` -> (3,),
    ``tt.arange(0.0, 1.0, 0.25)`` -> (4,) float64. A dtype class as the second argument is the
    length form ``tt.arange(5, tt.float32)`` -> (5,) float32."""
    _check_device(device)
    if _is_dtype_like(stop):  # tt.arange(n, dtype): n values of dtype
        if dtype is not None or step != 1:
            raise TypeError(
                "tt.arange(n, dtype) takes no step or dtype=; write "
                "tt.arange(start, stop, step, dtype=...)"
            )
        stop, dtype = None, stop
    if stop is None:
        start, stop = 0, start
    return Tensor(np.arange(start, stop, step, dtype=_np_dtype(dtype, None)))


def _is_dtype_like(value: object) -> bool:
    """A dtype class, a numpy dtype, a numpy scalar type or a dtype name."""
    return isinstance(value, (np.dtype, str)) or (
        isinstance(value, type) and issubclass(value, (DType, np.generic))
    )


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
