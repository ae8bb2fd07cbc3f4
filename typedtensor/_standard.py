"""The rest of the Array API standard (2024.12) on typedtensor's Tensors, numpy's semantics:
creation (``eye linspace meshgrid *_like from_dlpack``), data type functions (``can_cast finfo
iinfo isdtype result_type``), inspection (``__array_namespace_info__``), manipulation
(``unstack broadcast_arrays``), indexing (``take``), set functions (``unique_*``), utility
(``diff``) and statistics (``cumulative_*`` live in ``scans.py``). Shapes that depend on the
data (``unique_values``) are unknown dims in the static type."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from ._arguments import _check_device
from ._creation import _np_dtype
from ._dtypes import BY_NAME, DType, as_dtype_class, float64, int64
from ._results import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from ._tensor import AnyTensor, Tensor, wrap

__all__ = [
    "__array_namespace_info__",
    "broadcast_arrays",
    "can_cast",
    "diff",
    "empty_like",
    "eye",
    "finfo",
    "from_dlpack",
    "full_like",
    "iinfo",
    "isdtype",
    "linspace",
    "meshgrid",
    "ones_like",
    "result_type",
    "take",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "unstack",
    "zeros_like",
]


#: the set functions' operand: its dtype is the values', its shape the inverse indices'
_DT = TypeVar("_DT", bound=DType)
_Shape = TypeVarTuple("_Shape")


def _data(x: object, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.{name} takes a Tensor, got {type(x).__name__}")
    return x._data


def _dtype_or(dtype: object, like: Any) -> Any:
    return like.dtype if dtype is None else as_dtype_class(dtype).numpy_dtype


# ------------------------------------------------------------------------------ creation
def eye(
    n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None
) -> Tensor[Any, Any, Any]:
    """Ones on diagonal ``k``: ``eye(3)`` -> (3, 3) float64, ``eye(2, 4, k=1)`` -> (2, 4)."""
    _check_device(device)
    return wrap(np.eye(n_rows, n_cols, k=k, dtype=_np_dtype(dtype, float64)))


def linspace(
    start: float,
    stop: float,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
) -> Tensor[Any, Any]:
    """``num`` evenly spaced values from ``start`` to ``stop``: ``linspace(0, 1, 5)`` -> (5,)
    float64 (complex128 for complex bounds)."""
    _check_device(device)
    np_dtype = None if dtype is None else as_dtype_class(dtype).numpy_dtype
    return wrap(np.linspace(start, stop, num, endpoint=endpoint, dtype=np_dtype))


def meshgrid(*arrays: Tensor[Any, Any], indexing: str = "xy") -> list[AnyTensor]:
    """Coordinate grids of 1-D tensors: (3,), (4,) -> two (4, 3) tensors (``indexing="ij"``:
    (3, 4))."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', got {indexing!r}")
    datas = [_data(a, "meshgrid") for a in arrays]
    if any(d.ndim != 1 for d in datas):
        raise ValueError("meshgrid takes 1-D tensors")
    return [wrap(g) for g in np.meshgrid(*datas, indexing=indexing)]  # type: ignore[call-overload]


def _like(name: str, fill: Any, x: object, dtype: Any, device: Any) -> AnyTensor:
    _check_device(device)
    data = _data(x, name)
    return wrap(np.full(data.shape, fill, dtype=_dtype_or(dtype, data)))


def zeros_like(x: AnyTensor, /, *, dtype: Any = None, device: Any = None) -> AnyTensor:
    """Zeros of ``x``'s shape and dtype (or ``dtype``): (8, 3) -> (8, 3)."""
    return _like("zeros_like", 0, x, dtype, device)


def ones_like(x: AnyTensor, /, *, dtype: Any = None, device: Any = None) -> AnyTensor:
    """Ones of ``x``'s shape and dtype (or ``dtype``): (8, 3) -> (8, 3)."""
    return _like("ones_like", 1, x, dtype, device)


def empty_like(x: AnyTensor, /, *, dtype: Any = None, device: Any = None) -> AnyTensor:
    """An uninitialised tensor of ``x``'s shape and dtype (or ``dtype``): (8, 3) -> (8, 3)."""
    _check_device(device)
    data = _data(x, "empty_like")
    return wrap(np.empty(data.shape, dtype=_dtype_or(dtype, data)))


def full_like(
    x: AnyTensor, /, fill_value: Any, *, dtype: Any = None, device: Any = None
) -> AnyTensor:
    """``fill_value`` in ``x``'s shape and dtype (or ``dtype``): (8, 3) -> (8, 3)."""
    return _like("full_like", fill_value, x, dtype, device)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> AnyTensor:
    """A Tensor from any DLPack producer (a Tensor, an ndarray...), as ``np.from_dlpack``."""
    _check_device(device)
    return wrap(np.from_dlpack(x, copy=copy))


# ---------------------------------------------------------------------- data type functions
def _np_dtype_of(x: object) -> np.dtype[Any]:
    if isinstance(x, Tensor):
        return x._data.dtype
    return as_dtype_class(x).numpy_dtype


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether ``from_`` (a dtype or a Tensor) casts to dtype ``to`` safely."""
    return bool(np.can_cast(_np_dtype_of(from_), as_dtype_class(to).numpy_dtype))


def result_type(*arrays_and_dtypes: Any) -> type[DType]:
    """The dtype numpy's promotion gives: ``result_type(tt.int8, tt.uint8)`` is int16; Python
    scalars are weak (NEP 50)."""
    parts = [
        a if isinstance(a, (bool, int, float, complex)) else _np_dtype_of(a)
        for a in arrays_and_dtypes
    ]
    return as_dtype_class(np.result_type(*parts))


class finfo_object(NamedTuple):  # noqa: N801 - the standard's name
    """The standard's ``finfo`` fields."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: type[DType]


class iinfo_object(NamedTuple):  # noqa: N801
    """The standard's ``iinfo`` fields."""

    bits: int
    max: int
    min: int
    dtype: type[DType]


def finfo(type: Any, /) -> finfo_object:  # noqa: A002
    """Machine limits of a float or complex dtype (or a Tensor's): ``finfo(tt.float32).eps``."""
    dt = _np_dtype_of(type)
    info = np.finfo(dt)
    return finfo_object(
        int(info.bits),
        float(info.eps),
        float(info.max),
        float(info.min),
        float(info.smallest_normal),
        as_dtype_class(info.dtype),
    )


def iinfo(type: Any, /) -> iinfo_object:  # noqa: A002
    """Limits of an integer dtype (or a Tensor's): ``iinfo(tt.int8).max == 127``."""
    dt = _np_dtype_of(type)
    info = np.iinfo(dt)
    return iinfo_object(int(info.bits), int(info.max), int(info.min), as_dtype_class(dt))


_KINDS = {
    "bool": ("b",),
    "signed integer": ("i",),
    "unsigned integer": ("u",),
    "integral": ("i", "u"),
    "real floating": ("f",),
    "complex floating": ("c",),
    "numeric": ("i", "u", "f", "c"),
}


def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind``: a dtype, a kind name (``"integral"``...) or a tuple
    of them: ``isdtype(tt.int8, "integral")``."""
    dt = as_dtype_class(dtype).numpy_dtype
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}; choose one of {', '.join(_KINDS)}")
        return dt.kind in _KINDS[kind]
    return bool(dt == as_dtype_class(kind).numpy_dtype)


class _Info:
    """The standard's inspection namespace (``tt.__array_namespace_info__()``)."""

    def capabilities(self) -> dict[str, Any]:
        """Boolean indexing and data-dependent shapes are supported; no extra devices."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        """The only device: ``"cpu"``."""
        return "cpu"

    def devices(self) -> list[str]:
        """``["cpu"]``."""
        return ["cpu"]

    def default_dtypes(self, *, device: Any = None) -> dict[str, type[DType]]:
        """float64, complex128, int64 and int64 for indexing (numpy's defaults)."""
        return {
            "real floating": BY_NAME["float64"],
            "complex floating": BY_NAME["complex128"],
            "integral": BY_NAME["int64"],
            "indexing": BY_NAME["int64"],
        }

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, type[DType]]:
        """The standard's dtypes (of ``kind``), by name: every dtype but ``float16``, which
        typedtensor has beyond the standard (as numpy's own namespace info leaves it out)."""
        return {
            n: c
            for n, c in BY_NAME.items()
            if n != "float16" and (kind is None or isdtype(c, kind))
        }


def __array_namespace_info__() -> _Info:  # noqa: N807 - the standard's name
    """The standard's inspection object: devices, default and supported dtypes."""
    return _Info()


# ------------------------------------------------------------------ manipulation, indexing
def unstack(x: AnyTensor, /, *, axis: int = 0) -> tuple[AnyTensor, ...]:
    """The slices of ``x`` along ``axis``: (3, 4) -> three (4,) tensors."""
    data = _data(x, "unstack")
    if data.ndim == 0:
        raise ValueError("unstack needs a tensor of rank >= 1")
    return tuple(wrap(s) for s in np.moveaxis(data, axis, 0))


def broadcast_arrays(*arrays: AnyTensor) -> list[AnyTensor]:
    """The tensors broadcast to their common shape: (8, 1), (3,) -> two (8, 3) views."""
    return [wrap(b) for b in np.broadcast_arrays(*(_data(a, "broadcast_arrays") for a in arrays))]


def take(x: AnyTensor, indices: Any, /, *, axis: int | None = None) -> AnyTensor:
    """Elements at integer ``indices`` along ``axis`` (flattened for ``None`` with 1-D x):
    (8, 10), indices (3,), axis=1 -> (8, 3)."""
    data = _data(x, "take")
    idx = indices._data if isinstance(indices, Tensor) else np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"take needs integer indices, got {idx.dtype.name}")
    if axis is None and data.ndim != 1:
        raise ValueError("take needs axis= for a tensor of rank other than 1")
    return wrap(np.take(data, idx, axis=axis))


def diff(
    x: AnyTensor, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None
) -> AnyTensor:
    """The ``n``-th difference along ``axis``: (8, 10) -> (8, 9) for ``n=1``."""
    data = _data(x, "diff")
    extra = {
        k: (v._data if isinstance(v, Tensor) else v)
        for k, v in (("prepend", prepend), ("append", append))
        if v is not None
    }
    return wrap(np.diff(data, n=n, axis=axis, **extra))


# ------------------------------------------------------------------------------- sets
def unique_values(x: AnyTensor, /) -> Tensor[Any, Any]:
    """The distinct values, sorted, as a 1-D tensor: (8, 10) -> (k,), k data-dependent."""
    # np.unique_values does not sort (numpy >= 2.3 hashes integers): sorted as documented, the
    # order of unique_all/unique_counts/unique_inverse's values; each NaN distinct
    return wrap(np.unique(_data(x, "unique_values"), equal_nan=False))


def unique_counts(
    x: Tensor[_DT, Unpack[_Shape]], /
) -> UniqueCountsResult[Tensor[_DT, Any], Tensor[int64, Any]]:
    """The distinct values and how often each occurs: two (k,) tensors (counts int64)."""
    r = np.unique_counts(_data(x, "unique_counts"))
    return UniqueCountsResult(wrap(r.values), wrap(r.counts))


def unique_inverse(
    x: Tensor[_DT, Unpack[_Shape]], /
) -> UniqueInverseResult[Tensor[_DT, Any], Tensor[int64, Unpack[_Shape]]]:
    """The distinct values (k,) and, for each element of ``x``, the index of its value
    (``x``'s shape, int64)."""
    r = np.unique_inverse(_data(x, "unique_inverse"))
    return UniqueInverseResult(wrap(r.values), wrap(r.inverse_indices))


def unique_all(
    x: Tensor[_DT, Unpack[_Shape]], /
) -> UniqueAllResult[
    Tensor[_DT, Any], Tensor[int64, Any], Tensor[int64, Unpack[_Shape]], Tensor[int64, Any]
]:
    """Values, first indices, inverse indices and counts (numpy's ``unique_all``)."""
    r = np.unique_all(_data(x, "unique_all"))
    return UniqueAllResult(wrap(r.values), wrap(r.indices), wrap(r.inverse_indices), wrap(r.counts))
