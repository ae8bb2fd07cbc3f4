"""Shape and dtype rules of the standard's ``fft`` extension, as numpy 2's ``numpy.fft``
computes them (stdlib only). Transforms of one axis take a length ``n`` (the input's length
along ``axis`` when ``None``); the n-dimensional ones take lengths ``s`` over ``axes``:

- ``fft ifft fftn ifftn``: each transformed dim becomes its length; complex result;
- ``rfft rfftn ihfft``: real input; the (last) transformed dim becomes ``n // 2 + 1``;
- ``irfft irfftn hfft``: real result; the (last) dim becomes ``n``, by default
  ``2 * (m - 1)`` for an input dim ``m``.

The result dtype keeps the input's precision: float16, float32 and complex64 give complex64
(a real result: float32; numpy's ``irfft``/``hfft`` keep float16, as ``irfftn`` over
one axis), the rest complex128 or
float64.
"""

from __future__ import annotations

from .axes import normalize_axes
from .errors import RuleError

__all__ = [
    "COMPLEX_RESULT",
    "REAL_INPUT",
    "REAL_RESULT",
    "FftError",
    "fft_dtype",
    "fft_shape",
    "fftn_shape",
]

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


def _length(name: str, m: int, n: int | None, last: bool) -> int:
    """The output length along one transformed dim of input length ``m``."""
    if n is not None and n < 1:
        raise FftError(f"fft.{name}: the length must be >= 1, got {n}")
    if name in REAL_RESULT and last:
        out = 2 * (m - 1) if n is None else n
        if out < 1:
            raise FftError(
                f"fft.{name} of a dim of length {m} has no output length; give n (or s) >= 1"
            )
        return out
    size = m if n is None else n
    if size < 1:
        raise FftError(f"fft.{name}: the input has 0 points along the transformed axis")
    return size // 2 + 1 if name in _HALF and last else size


def fft_shape(name: str, shape: tuple[int, ...], n: int | None, axis: int) -> tuple[int, ...]:
    """The result shape of a one-axis transform: ``fft`` of (8, 10) with ``n=16`` -> (8, 16),
    ``rfft`` of (8, 10) -> (8, 6), ``irfft`` of (8, 6) -> (8, 10)."""
    (ax,) = normalize_axes(axis, len(shape), single=True)
    out = list(shape)
    out[ax] = _length(name, shape[ax], n, True)
    return tuple(out)


def fftn_shape(
    name: str, shape: tuple[int, ...], s: tuple[int, ...] | None, axes: tuple[int, ...] | None
) -> tuple[int, ...]:
    """The result shape of an n-dimensional transform over ``axes`` (every dim, or the last
    ``len(s)`` when ``None``), lengths ``s``: ``rfftn`` of (4, 6, 8) -> (4, 6, 5)."""
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
    out = list(shape)
    for i, ax in enumerate(normalized):
        last = i == len(normalized) - 1
        out[ax] = _length(name, shape[ax], None if s is None else s[i], last)
    return tuple(out)
