"""typedtensor's dtype classes: readable names in types, runtime ``dtype=`` arguments.

``Tensor[tt.float32, ...]`` reveals as ``typedtensor.float32`` rather than numpy's
``floating[_32Bit]``. The classes are markers, never instantiated; each knows its numpy dtype.
Family bases (``Floating``, ``Integer``...) serve as TypeVar bounds.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

__all__ = [
    "DType",
    "Number",
    "Integer",
    "SignedInteger",
    "UnsignedInteger",
    "Floating",
    "ComplexFloating",
    "bool_",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "as_dtype_class",
    "dtype_class_of",
]


class _DTypeMeta(type):
    """The metaclass of the dtype classes: makes them numpy dtype-likes.

    numpy resolves a class it does not know through its ``dtype`` attribute, so
    ``np.dtype(tt.float32) == np.float32`` and ``np.zeros(3, dtype=tt.float32)`` is a float32
    array; a family (``tt.Floating``) has no single numpy dtype, so ``np.dtype(tt.Floating)``
    raises a TypeError naming the concrete dtypes (without the attribute numpy made an object
    array of it).
    """

    @property
    def dtype(cls) -> np.dtype[Any]:
        """The numpy dtype of a concrete dtype class: ``tt.float32.dtype == np.float32``."""
        found = cls.__dict__.get("numpy_dtype")
        if found is None:
            raise TypeError(
                f"{cls.__name__} is a dtype family, not a concrete dtype, and has no numpy "
                f"dtype; use one of {', '.join(c.__name__ for c in _ALL)}"
            )
        return found  # type: ignore[no-any-return]


class DType(metaclass=_DTypeMeta):
    """Base of every typedtensor dtype class (a marker; never instantiated).

    A concrete class is a numpy dtype-like: ``np.dtype(tt.float32) == np.float32``.
    """

    #: the numpy name, e.g. ``"float32"``; the key of the shape rules' dtype table
    name: ClassVar[str] = ""
    #: the numpy dtype this class stands for
    numpy_dtype: ClassVar[np.dtype[Any]]

    def __new__(cls, *args: object, **kwargs: object) -> DType:
        raise TypeError(
            f"typedtensor dtype classes are markers and cannot be instantiated; "
            f"pass {cls.__name__} itself as dtype=, or use tt.asarray(value, dtype={cls.__name__})"
        )


class Number(DType):
    """Numeric dtypes (integers and floats)."""


class Integer(Number):
    """Signed and unsigned integers."""


class SignedInteger(Integer):
    """int8 .. int64."""


class UnsignedInteger(Integer):
    """uint8 .. uint64."""


class Floating(Number):
    """float16, float32 and float64."""


class ComplexFloating(Number):
    """complex64 and complex128."""


class bool_(DType):  # noqa: N801 - named like numpy's scalar type on purpose
    """Boolean elements."""

    name = "bool"
    numpy_dtype = np.dtype(np.bool_)


class int8(SignedInteger):  # noqa: N801
    """8-bit signed integers."""

    name = "int8"
    numpy_dtype = np.dtype(np.int8)


class int16(SignedInteger):  # noqa: N801
    """16-bit signed integers."""

    name = "int16"
    numpy_dtype = np.dtype(np.int16)


class int32(SignedInteger):  # noqa: N801
    """32-bit signed integers."""

    name = "int32"
    numpy_dtype = np.dtype(np.int32)


class int64(SignedInteger):  # noqa: N801
    """64-bit signed integers."""

    name = "int64"
    numpy_dtype = np.dtype(np.int64)


class uint8(UnsignedInteger):  # noqa: N801
    """8-bit unsigned integers."""

    name = "uint8"
    numpy_dtype = np.dtype(np.uint8)


class uint16(UnsignedInteger):  # noqa: N801
    """16-bit unsigned integers."""

    name = "uint16"
    numpy_dtype = np.dtype(np.uint16)


class uint32(UnsignedInteger):  # noqa: N801
    """32-bit unsigned integers."""

    name = "uint32"
    numpy_dtype = np.dtype(np.uint32)


class uint64(UnsignedInteger):  # noqa: N801
    """64-bit unsigned integers."""

    name = "uint64"
    numpy_dtype = np.dtype(np.uint64)


class float16(Floating):  # noqa: N801
    """16-bit IEEE floats (reductions accumulate in float32 where numpy does)."""

    name = "float16"
    numpy_dtype = np.dtype(np.float16)


class float32(Floating):  # noqa: N801
    """32-bit IEEE floats."""

    name = "float32"
    numpy_dtype = np.dtype(np.float32)


class float64(Floating):  # noqa: N801
    """64-bit IEEE floats."""

    name = "float64"
    numpy_dtype = np.dtype(np.float64)


class complex64(ComplexFloating):  # noqa: N801
    """Complex numbers of two float32 parts."""

    name = "complex64"
    numpy_dtype = np.dtype(np.complex64)


class complex128(ComplexFloating):  # noqa: N801
    """Complex numbers of two float64 parts."""

    name = "complex128"
    numpy_dtype = np.dtype(np.complex128)


_ALL: tuple[type[DType], ...] = (
    bool_,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    float32,
    float64,
    complex64,
    complex128,
)
BY_NAME: dict[str, type[DType]] = {c.name: c for c in _ALL}


def as_dtype_class(dtype: object) -> type[DType]:
    """Map a typedtensor class, numpy dtype, numpy scalar type or name to a dtype class.

    >>> as_dtype_class("float32") is float32
    True
    """
    if isinstance(dtype, type) and issubclass(dtype, DType):
        if not dtype.name:
            raise TypeError(
                f"{dtype.__name__} is a dtype family, not a concrete dtype; "
                f"use one of {', '.join(c.__name__ for c in _ALL)}"
            )
        return dtype
    try:
        np_dtype = np.dtype(dtype)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"not a dtype: {dtype!r}") from None
    try:
        return BY_NAME[np_dtype.name]
    except KeyError:
        raise TypeError(
            f"dtype {np_dtype.name} is not supported by typedtensor; "
            f"supported: {', '.join(BY_NAME)}"
        ) from None


#: numpy dtype object -> dtype class, filled by ``dtype_class_of`` (numpy's ``dtype.name`` costs
#: ~1.5 us a call, a dict lookup on the dtype object ~25 ns)
_CLASS_OF_NUMPY_DTYPE: dict[np.dtype[Any], type[DType]] = {}


def dtype_class_of(np_dtype: np.dtype[Any]) -> type[DType]:
    """``as_dtype_class`` for a numpy dtype object, cached by the dtype object: the per-call
    dtype lookup of every Tensor (unsupported dtypes raise the same TypeError, uncached).

    >>> dtype_class_of(np.dtype("float32")) is float32
    True
    """
    try:
        return _CLASS_OF_NUMPY_DTYPE[np_dtype]
    except (KeyError, TypeError):  # TypeError: an unhashable (structured) dtype
        cls = as_dtype_class(np_dtype)
        _CLASS_OF_NUMPY_DTYPE[np_dtype] = cls
        return cls
