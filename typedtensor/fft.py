"""The Array API standard's ``fft`` extension (``tt.fft.fft``...) on ``numpy.fft``: numpy's
values, the shapes and dtypes of ``typedtensor._rules.fft`` (checked before numpy runs, so a
bad length or axis says what is wrong), Tensors in and out.

>>> import typedtensor as tt
>>> tt.fft.rfft(tt.ones((8, 10), tt.float32)).shape  # (8, 10) -> (8, 6), complex64
(8, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from typing_extensions import TypeVar, TypeVarTuple, Unpack

from ._arguments import _check_device, _raise_rule_error
from ._dtypes import DType, as_dtype_class, dtype_class_of
from ._rules import RuleError
from ._rules import fft as rules
from ._tensor import AnyTensor, Tensor, wrap

__all__ = [
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
]

Norm = Literal["backward", "ortho", "forward"]
#: ``fftshift``'s operand (rank >= 1: numpy's roll fails on rank 0): its type is the result's
_DT = TypeVar("_DT", bound=DType)
_D = TypeVar("_D")
_Shape = TypeVarTuple("_Shape")
_NORMS = ("backward", "ortho", "forward")


def _data(x: object, name: str) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"tt.fft.{name} takes a Tensor, got {type(x).__name__}")
    return x._data


def _checked(
    name: str, data: Any, norm: object, count: int, shape_rule: Any, *args: Any
) -> np.dtype[Any]:
    """Validate a call by the rules (shape and dtype) of a transform over ``count`` axes; the
    result's numpy dtype."""
    if norm not in _NORMS:
        raise ValueError(f"fft.{name}: norm must be one of {', '.join(_NORMS)}, got {norm!r}")
    try:
        shape_rule(name, data.shape, *args)
    except RuleError as err:
        _raise_rule_error(err)
    dtype = rules.fft_dtype(name, dtype_class_of(data.dtype).name, count)
    return as_dtype_class(dtype).numpy_dtype


def _one_axis(name: str, x: object, n: int | None, axis: int, norm: Norm) -> AnyTensor:
    data = _data(x, name)
    dtype = _checked(name, data, norm, 1, rules.fft_shape, n, axis)
    result = getattr(np.fft, name)(data, n=n, axis=axis, norm=norm)
    return wrap(result.astype(dtype, copy=False))


def _n_axes(
    name: str, x: object, s: Sequence[int] | None, axes: Sequence[int] | None, norm: Norm
) -> AnyTensor:
    data = _data(x, name)
    s_t = None if s is None else tuple(s)
    axes_t = None if axes is None else tuple(axes)
    count = len(axes_t) if axes_t is not None else len(s_t) if s_t is not None else data.ndim
    dtype = _checked(name, data, norm, count, rules.fftn_shape, s_t, axes_t)
    if axes_t is None and s_t is not None:  # the last len(s) axes, as numpy 2 asks it spelled
        axes_t = tuple(range(data.ndim - count, data.ndim))
    result = getattr(np.fft, name)(data, s=s_t, axes=axes_t, norm=norm)
    return wrap(result.astype(dtype, copy=False))


def fft(x: AnyTensor, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Any:
    """The discrete Fourier transform along ``axis``: (8, 10) -> (8, 10) complex (``n=16``:
    (8, 16), zero-padded)."""
    return _one_axis("fft", x, n, axis, norm)


def ifft(x: AnyTensor, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Any:
    """The inverse of ``fft``: (8, 10) -> (8, 10) complex."""
    return _one_axis("ifft", x, n, axis, norm)


def rfft(x: AnyTensor, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Any:
    """The transform of real input, the non-negative frequencies: (8, 10) -> (8, 6) complex."""
    return _one_axis("rfft", x, n, axis, norm)


def irfft(x: AnyTensor, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Any:
    """The inverse of ``rfft``, real: (8, 6) -> (8, 10) (``n`` gives an odd length)."""
    return _one_axis("irfft", x, n, axis, norm)


def hfft(x: AnyTensor, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Any:
    """The transform of a Hermitian-symmetric signal, real: (8, 6) -> (8, 10)."""
    return _one_axis("hfft", x, n, axis, norm)


def ihfft(x: AnyTensor, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Any:
    """The inverse of ``hfft`` (real input): (8, 10) -> (8, 6) complex."""
    return _one_axis("ihfft", x, n, axis, norm)


def fftn(
    x: AnyTensor,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Norm = "backward",
) -> Any:
    """The n-dimensional transform over ``axes`` (all by default): (4, 6, 8) -> (4, 6, 8)."""
    return _n_axes("fftn", x, s, axes, norm)


def ifftn(
    x: AnyTensor,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Norm = "backward",
) -> Any:
    """The inverse of ``fftn``: (4, 6, 8) -> (4, 6, 8) complex."""
    return _n_axes("ifftn", x, s, axes, norm)


def rfftn(
    x: AnyTensor,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Norm = "backward",
) -> Any:
    """The n-dimensional transform of real input: (4, 6, 8) -> (4, 6, 5) complex."""
    return _n_axes("rfftn", x, s, axes, norm)


def irfftn(
    x: AnyTensor,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: Norm = "backward",
) -> Any:
    """The inverse of ``rfftn``, real: (4, 6, 5) -> (4, 6, 8)."""
    return _n_axes("irfftn", x, s, axes, norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    """The sample frequencies of an ``n``-point ``fft``: ``fftfreq(4)`` -> (4,) float64
    ``[0, 0.25, -0.5, -0.25]`` (``dtype`` a real floating dtype)."""
    return _frequencies(np.fft.fftfreq, n, d, dtype, device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    """The sample frequencies of an ``n``-point ``rfft``: ``rfftfreq(4)`` -> (3,) float64."""
    return _frequencies(np.fft.rfftfreq, n, d, dtype, device)


def _frequencies(fn: Any, n: int, d: float, dtype: Any, device: Any) -> AnyTensor:
    _check_device(device)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"the number of points n must be an int >= 1, got {n!r}")
    result = fn(int(n), d)
    if dtype is not None:
        result = result.astype(as_dtype_class(dtype).numpy_dtype)
    return wrap(result)


def fftshift(
    x: Tensor[_DT, _D, Unpack[_Shape]], /, *, axes: int | Sequence[int] | None = None
) -> Tensor[_DT, _D, Unpack[_Shape]]:
    """The zero frequency moved to the center of ``axes`` (all by default): shape and dtype
    kept, (8, 10) -> (8, 10)."""
    return wrap(np.fft.fftshift(_shiftable(x, "fftshift"), axes=axes))


def ifftshift(
    x: Tensor[_DT, _D, Unpack[_Shape]], /, *, axes: int | Sequence[int] | None = None
) -> Tensor[_DT, _D, Unpack[_Shape]]:
    """The inverse of ``fftshift``: shape and dtype kept."""
    return wrap(np.fft.ifftshift(_shiftable(x, "ifftshift"), axes=axes))


def _shiftable(x: object, name: str) -> Any:
    data = _data(x, name)
    if data.ndim == 0:  # numpy's roll fails with an unpacking error
        raise ValueError(f"fft.{name} needs a tensor of rank >= 1, got rank 0")
    return data
