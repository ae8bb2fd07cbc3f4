"""pyright's view of ``tt.fft`` (overloads rendered from ``rules.fft`` by
``stubs/_render_fft.py``): numpy's result dtypes from the dtype tables, the rank kept, the
transformed dim exact where a pattern names it (``fft``/``ifft``/``fftn`` at the default
length), ``Any`` where it is computed; the poison overloads for what numpy rejects (a
vanished error leaves an unused ``pyright: ignore``, itself an error). pyright only
(``mypy.ini`` excludes it): mypy reads the runtime signatures, the plugin types them
(``tests/typecheck/test_fft.yml``)."""

from typing import Any, TypeVar
from typing import Literal as L

from typing_extensions import Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
Unknown = Tensor[Any, Unpack[tuple[Any, ...]]]


def transforms(
    a: Tensor[tt.float32, L[8], L[10]],
    c: Tensor[tt.complex128, B, L[5]],
    i: Tensor[tt.int16, L[4], L[6], L[8]],
    h: Tensor[tt.float16, L[4], L[6]],
    u: Tensor[tt.float64, Unpack[tuple[Any, ...]]],
    w: Tensor[Any, L[3]],
    n: int,
) -> None:
    assert_type(tt.fft.fft(a), Tensor[tt.complex64, L[8], L[10]])
    assert_type(tt.fft.ifft(c, axis=0), Tensor[tt.complex128, B, L[5]])
    assert_type(tt.fft.rfft(a), Tensor[tt.complex64, L[8], Any])
    assert_type(tt.fft.rfft(a, n=7, axis=0), Tensor[tt.complex64, Any, L[10]])
    assert_type(tt.fft.irfft(c), Tensor[tt.float64, B, Any])
    assert_type(tt.fft.hfft(c), Tensor[tt.float64, B, Any])
    assert_type(tt.fft.ihfft(i, axis=1), Tensor[tt.complex128, Any, Any, Any])
    assert_type(tt.fft.fft(c, n=n), Tensor[tt.complex128, B, Any])
    assert_type(tt.fft.fftn(i), Tensor[tt.complex128, L[4], L[6], L[8]])
    assert_type(tt.fft.rfftn(i), Tensor[tt.complex128, L[4], L[6], Any])
    assert_type(tt.fft.ifftn(i, axes=(0, 2)), Tensor[tt.complex128, Any, Any, Any])
    assert_type(tt.fft.irfftn(a), Tensor[tt.float32, L[8], Any])
    assert_type(tt.fft.irfftn(h), Unknown)  # float16: float16 over one axis, else float32
    assert_type(tt.fft.fft(u), Tensor[tt.complex128, Unpack[tuple[Any, ...]]])
    assert_type(tt.fft.fft(w), Unknown)  # an Any dtype: no poison, no guess
    assert_type(tt.fft.fftshift(c), Tensor[tt.complex128, B, L[5]])


def frequencies(n: int) -> None:
    assert_type(tt.fft.fftfreq(8), Tensor[tt.float64, L[8]])
    assert_type(tt.fft.fftfreq(8, dtype=tt.float32), Tensor[tt.float32, L[8]])
    assert_type(tt.fft.rfftfreq(9), Tensor[tt.float64, Any])
    assert_type(tt.fft.fftfreq(n), Tensor[tt.float64, Any])


def rejected(c: Tensor[tt.complex64, L[3], L[4]], e: Tensor[tt.float32, L[3], L[0]]) -> None:
    tt.fft.rfft(c)  # pyright: ignore[reportDeprecated]
    tt.fft.rfftn(c)  # pyright: ignore[reportDeprecated]
    tt.fft.fft(tt.ones((), tt.float32))  # pyright: ignore[reportDeprecated]
    tt.fft.fft(e)  # pyright: ignore[reportDeprecated]
    tt.fft.fftn(e)  # pyright: ignore[reportDeprecated]
    tt.fft.irfft(tt.ones((3, 1), tt.float32))  # pyright: ignore[reportDeprecated]
    tt.fft.irfft(tt.ones((1, 3), tt.float32), axis=0)  # pyright: ignore[reportDeprecated]
