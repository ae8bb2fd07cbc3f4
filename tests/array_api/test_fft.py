"""The standard's ``fft`` extension against array-api-strict's: every transform on the dtypes
the standard allows, lengths, axes and norms; shape, dtype and values (to a tolerance: the
transforms sum in floating point)."""

from __future__ import annotations

from typing import Any

import array_api_strict as xs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._oracle import agree, dtypes, tt_dtype, xps

#: transform -> the standard's input category
TRANSFORMS = {
    "fft": "complex floating",
    "ifft": "complex floating",
    "fftn": "complex floating",
    "ifftn": "complex floating",
    "rfft": "real floating",
    "rfftn": "real floating",
    "ihfft": "real floating",
    "irfft": "complex floating",
    "irfftn": "complex floating",
    "hfft": "complex floating",
}
MODERATE = {"min_value": -4, "max_value": 4, "allow_nan": False, "allow_infinity": False}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
@settings(max_examples=20)
@given(data=st.data())
def test_transform(name: str, data: st.DataObject) -> None:
    dtype = data.draw(dtypes(TRANSFORMS[name]), label="dtype")
    shape = data.draw(xps.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    x = data.draw(xps.arrays(tt_dtype(dtype), shape, elements=MODERATE), label="x")
    norm = data.draw(st.sampled_from(["backward", "ortho", "forward"]), label="norm")
    kw: dict[str, Any] = {"norm": norm}
    if name.endswith("n"):
        axes = data.draw(st.permutations(range(x.ndim)), label="axes")
        kw["axes"] = tuple(axes)
        kw["s"] = tuple(data.draw(st.integers(2, 5)) for _ in axes)
    else:
        kw["axis"] = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
        kw["n"] = data.draw(st.one_of(st.none(), st.integers(2, 6)), label="n")
    agree(getattr(tt.fft, name), getattr(xs.fft, name), [x], kw, rtol=1e-4)


@settings(max_examples=20)
@given(n=st.integers(1, 9), d=st.sampled_from([1.0, 0.5, 2.0]), dtype=dtypes("real floating"))
def test_frequencies(n: int, d: float, dtype: str) -> None:
    kw = {"d": d, "dtype": tt_dtype(dtype)}
    agree(tt.fft.fftfreq, xs.fft.fftfreq, [n], kw, rtol=1e-6)
    agree(tt.fft.rfftfreq, xs.fft.rfftfreq, [n], kw, rtol=1e-6)


@settings(max_examples=20)
@given(data=st.data())
def test_shifts(data: st.DataObject) -> None:
    dtype = data.draw(dtypes("numeric"), label="dtype")
    shape = data.draw(xps.array_shapes(min_dims=1, max_dims=3, max_side=5), label="shape")
    x = data.draw(xps.arrays(tt_dtype(dtype), shape), label="x")
    axes = data.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)), label="axes")
    agree(tt.fft.fftshift, xs.fft.fftshift, [x], {"axes": axes})
    agree(tt.fft.ifftshift, xs.fft.ifftshift, [x], {"axes": axes})
