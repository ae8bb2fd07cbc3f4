"""Shape and dtype rules of the standard's ``fft`` extension, as numpy 2's ``numpy.fft``
computes them (stdlib only). Transforms of one axis take a length ``n`` (the input's length
along ``axis`` when ``None``); the n-dimensional ones take lengths ``s`` over ``axes``:

- ``fft ifft fftn ifftn``: each transformed dim becomes its length; complex result;
- ``rfft rfftn ihfft``: real input; the (last) transformed dim becomes ``n // 2 + 1``;
- ``irfft irfftn hfft``: real result; the (last) dim becomes ``n``, by default
  ``2 * (m - 1)`` for an input dim ``m``.

The shape rules are generic over the dim item (``DimItems``' keyword arguments): a symbolic
dim ``M`` gives the dim expressions ``M // 2 + 1`` and ``2 * M - 2``.

The result dtype keeps the input's precision: float16, float32 and complex64 give complex64
(a real result: float32; numpy's ``irfft``/``hfft`` keep float16, as ``irfftn`` over
one axis), the rest complex128 or
float64.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .axes import normalize_axes
from .dimitems import DimItems
from .errors import RuleError

__all__ = [
    "COMPLEX_RESULT",
    "REAL_INPUT",
    "REAL_RESULT",
    "FftError",
    "fft_dtype",
    "fft_shape",
    "fftn_shape",
    "freq_shape",
]

D = TypeVar("D")

COMPLEX_RESULT = ("fft", "ifft", "fftn", "ifftn", "rfft", "rfftn", "ihfft")
REAL_RESULT = ("irfft", "irfftn", "hfft")
#: transforms of real input (a complex input is a TypeError, as numpy's)
REAL_INPUT = ("rfft", "rfftn", "ihfft")
_HALF = ("rfft", "rfftn", "ihfft")
_SINGLE = ("float16", "float32", "complex64")


class FftError(RuleError):
    """An FFT length below 1 (a ValueError at run time, as numpy's)."""


def fft_dtype(name: str, dtype: str, axes: int = 1) -> str:
    """The result dtype of transform ``name`` of a ``dtype`` input over ``axes`` dims: ``fft``
    of float32 is complex64, ``irfft`` of complex128 float64; a complex input of a real-input
    transform is a ``TypeError``."""
    if name in REAL_INPUT and dtype.startswith("complex"):
        raise TypeError(f"fft.{name} takes real input, got {dtype}; use fft.{name[1:]} for complex")
    if name in COMPLEX_RESULT:
        return "complex64" if dtype in _SINGLE else "complex128"
    if dtype == "float16" and (name != "irfftn" or axes == 1):
        return "float16"  # numpy's irfft/hfft keep float16 (irfftn's complex steps: float32)
    return "float32" if dtype in _SINGLE else "float64"


def _length(name: str, m: D, n: int | None, last: bool, it: DimItems[D]) -> D:
    """The output dim along one transformed dim ``m``: from the length ``n`` when given, else
    from ``m`` (a dim expression where ``m`` is symbolic: ``M // 2 + 1``, ``2 * M - 2``;
    unknown where ``m`` is)."""
    if n is not None and n < 1:
        raise FftError(f"fft.{name}: the length must be >= 1, got {n}")
    size = it.size_of(m)
    if n is None and size is None:
        if name in REAL_RESULT and last:
            return it.combine([m], lambda e: e[0] * 2 - 2)
        if name in _HALF and last:
            return it.combine([m], lambda e: e[0] // 2 + 1)
        return m
    if name in REAL_RESULT and last:
        out = 2 * (size - 1) if n is None and size is not None else n
        if out is None or out < 1:
            raise FftError(
                f"fft.{name} of a dim of length {size} has no output length; give n (or s) >= 1"
            )
        return it.make_dim(out)
    total = size if n is None else n
    if total is None or total < 1:
        raise FftError(f"fft.{name}: the input has 0 points along the transformed axis")
    return it.make_dim(total // 2 + 1 if name in _HALF and last else total)


def fft_shape(
    name: str, shape: Sequence[D], n: int | None, axis: int, **items: object
) -> tuple[D, ...]:
    """The result shape of a one-axis transform: ``fft`` of (8, 10) with ``n=16`` -> (8, 16),
    ``rfft`` of (8, 10) -> (8, 6), ``irfft`` of (8, 6) -> (8, 10); of a symbolic ``(B, M)``,
    ``rfft`` gives ``(B, M // 2 + 1)``.

    >>> fft_shape("rfft", (8, 10), None, -1), fft_shape("irfft", (8, 6), 11, 1)
    ((8, 6), (8, 11))
    """
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    (ax,) = normalize_axes(axis, len(shape), single=True)
    out = list(shape)
    out[ax] = _length(name, shape[ax], n, True, it)
    return tuple(out)


def fftn_shape(
    name: str,
    shape: Sequence[D],
    s: tuple[int, ...] | None,
    axes: tuple[int, ...] | None,
    **items: object,
) -> tuple[D, ...]:
    """The result shape of an n-dimensional transform over ``axes`` (every dim, or the last
    ``len(s)`` when ``None``), lengths ``s``: ``rfftn`` of (4, 6, 8) -> (4, 6, 5)."""
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    ndim = len(shape)
    if axes is None:
        count = ndim if s is None else len(s)
        if count > ndim:
            raise FftError(f"fft.{name}: s has {count} lengths for a rank-{ndim} tensor")
        axes = tuple(range(ndim - count, ndim))
    elif s is not None and len(s) != len(axes):
        raise FftError(f"fft.{name}: s has {len(s)} lengths but axes names {len(axes)} axes")
    normalized = [normalize_axes(a, ndim, single=True)[0] for a in axes]
    if len(set(normalized)) != len(normalized):
        raise FftError(f"fft.{name}: axes {axes} repeat an axis")
    if not normalized and (name in _HALF or name in REAL_RESULT):
        raise FftError(  # numpy fails with an IndexError
            f"fft.{name} needs an axis to transform (a rank-0 tensor, or axes=()/s=()); "
            "give a tensor of rank >= 1"
        )
    out = list(shape)
    for i, ax in enumerate(normalized):
        last = i == len(normalized) - 1
        out[ax] = _length(name, shape[ax], None if s is None else s[i], last, it)
    return tuple(out)


def freq_shape(name: str, n: int | D, **items: object) -> tuple[D]:
    """The shape of ``fftfreq(n)`` (``(n,)``) and ``rfftfreq(n)`` (``(n // 2 + 1,)``); ``n``
    an int, or a dim (a symbolic ``N``: ``N // 2 + 1``)."""
    it: DimItems[D] = DimItems(**items)  # type: ignore[arg-type]
    dim: D = it.make_dim(n) if isinstance(n, int) else n
    size = it.size_of(dim)
    if size is not None and size < 1:
        raise FftError(f"fft.{name}: the number of points n must be >= 1, got {size}")
    if name == "fftfreq":
        return (dim,)
    if size is not None:
        return (it.make_dim(size // 2 + 1),)
    return (it.combine([dim], lambda e: e[0] // 2 + 1),)
