"""``tt.fft`` against ``numpy.fft``: every transform on ranks 1..4, every dtype numpy takes,
C/F/strided/read-only inputs, lengths ``n``/``s``, ``axes`` and ``norm``; the rules'
shape and dtype (``_rules.fft``) equal numpy's result's; errors numpy's classes; inputs never
modified."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt
from typedtensor._rules import fft as rules

from ._strategies import Case, arrays

ONE_AXIS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_AXES = ("fftn", "ifftn", "rfftn", "irfftn")
#: numpy's fft takes every dtype but float16's complex part and bool's; the real-input
#: transforms refuse complex (a TypeError both ways)
DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64"]
DTYPES += ["complex64", "complex128"]
LAYOUTS = ["C", "F", "negative", "strided", "broadcast"]  # broadcast views are read-only


def _compare(got: Any, expected: np.ndarray[Any, Any]) -> None:
    assert isinstance(got, tt.Tensor)
    assert got.shape == expected.shape and got.numpy().dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, atol=1e-5)


def _both(tt_call: Any, np_call: Any, a: np.ndarray[Any, Any]) -> None:
    """The same answer, or numpy's exception class (ValueError, TypeError, AxisError)."""
    before = a.copy()
    try:
        expected = np_call(a)
    except (ValueError, TypeError, IndexError) as err:
        with pytest.raises(type(err) if not isinstance(err, IndexError) else IndexError):
            tt_call(tt.asarray(a))
        return
    _compare(tt_call(tt.asarray(a)), expected)
    np.testing.assert_array_equal(a, before)


@settings(max_examples=120, deadline=None)
@given(
    name=st.sampled_from(ONE_AXIS),
    case=arrays(DTYPES, min_rank=1, max_rank=4, specials=False, layouts=LAYOUTS),
    data=st.data(),
)
def test_one_axis_transforms(name: str, case: Case, data: st.DataObject) -> None:
    a = case.array
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1), label="axis")
    n = data.draw(st.one_of(st.none(), st.integers(0, 9)), label="n")
    norm = data.draw(st.sampled_from(["backward", "ortho", "forward"]), label="norm")
    _both(
        lambda t: getattr(tt.fft, name)(t, n=n, axis=axis, norm=norm),
        lambda x: getattr(np.fft, name)(x, n=n, axis=axis, norm=norm),
        a,
    )


@settings(max_examples=100, deadline=None)
@given(
    name=st.sampled_from(N_AXES),
    case=arrays(DTYPES, min_rank=1, max_rank=4, specials=False, layouts=LAYOUTS),
    data=st.data(),
)
def test_n_axes_transforms(name: str, case: Case, data: st.DataObject) -> None:
    a = case.array
    axes = data.draw(
        st.one_of(st.none(), st.permutations(range(a.ndim)).flatmap(_prefixes)), label="axes"
    )
    count = a.ndim if axes is None else len(axes)
    s = data.draw(
        st.one_of(st.none(), st.lists(st.integers(1, 6), min_size=count, max_size=count)),
        label="s",
    )
    np_axes = axes  # the standard's default for s without axes, spelled out as numpy 2 asks
    if axes is None and s is not None:
        np_axes = tuple(range(a.ndim - len(s), a.ndim))
    _both(
        lambda t: getattr(tt.fft, name)(t, s=s, axes=axes),
        lambda x: getattr(np.fft, name)(x, s=s, axes=np_axes),
        a,
    )


def _prefixes(order: list[int]) -> st.SearchStrategy[tuple[int, ...]]:
    return st.integers(1, len(order)).map(lambda k: tuple(order[:k]))


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(ONE_AXIS + N_AXES),
    dtype=st.sampled_from(DTYPES),
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple),
)
def test_rules_give_numpys_shape_and_dtype(name: str, dtype: str, shape: Any) -> None:
    a = np.ones(shape, dtype)
    try:
        expected = getattr(np.fft, name)(a)
    except (TypeError, ValueError) as err:
        with pytest.raises(type(err)):
            _rule(name, dtype, shape)
        return
    assert _rule(name, dtype, shape) == (expected.shape, expected.dtype.name)


def _rule(name: str, dtype: str, shape: tuple[int, ...]) -> tuple[tuple[int, ...], str]:
    try:
        out = (
            rules.fft_shape(name, shape, None, -1)
            if name in ONE_AXIS
            else rules.fftn_shape(name, shape, None, None)
        )
    except rules.FftError as err:
        raise ValueError(str(err)) from None
    return out, rules.fft_dtype(name, dtype, 1 if name in ONE_AXIS else len(shape))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
@pytest.mark.parametrize("d", [1.0, 0.25])
@pytest.mark.parametrize("dtype", [None, tt.float32, tt.float64])
def test_frequencies(n: int, d: float, dtype: Any) -> None:
    for name in ("fftfreq", "rfftfreq"):
        expected = getattr(np.fft, name)(n, d)
        if dtype is not None:
            expected = expected.astype(dtype.numpy_dtype)
        _compare(getattr(tt.fft, name)(n, d=d, dtype=dtype), expected)


@settings(max_examples=40, deadline=None)
@given(case=arrays(min_rank=0, max_rank=4, layouts=LAYOUTS), data=st.data())
def test_shifts(case: Case, data: st.DataObject) -> None:
    a = case.array
    axes = data.draw(
        st.one_of(st.none(), *([st.integers(-a.ndim, a.ndim - 1)] if a.ndim else [])),
        label="axes",
    )
    for name in ("fftshift", "ifftshift"):
        if a.ndim == 0:  # numpy fails unpacking; typedtensor says why
            with pytest.raises(ValueError, match="rank >= 1"):
                getattr(tt.fft, name)(tt.asarray(a), axes=axes)
            continue
        got = getattr(tt.fft, name)(tt.asarray(a), axes=axes)
        expected = getattr(np.fft, name)(a, axes=axes)
        assert got.numpy().dtype == expected.dtype
        np.testing.assert_array_equal(got.numpy(), expected)


def test_errors_say_what_is_wrong() -> None:
    x = tt.ones((4, 6), tt.float32)
    with pytest.raises(ValueError, match="length must be >= 1, got 0"):
        tt.fft.fft(x, n=0)
    with pytest.raises(tt.AxisError, match="axis 2 is out of range"):
        tt.fft.rfft(x, axis=2)
    with pytest.raises(TypeError, match="takes real input, got complex64"):
        tt.fft.rfft(tt.fft.fft(x))
    with pytest.raises(ValueError, match="no output length"):
        tt.fft.irfft(tt.ones((1,)))
    with pytest.raises(ValueError, match="s has 3 lengths for a rank-2 tensor"):
        tt.fft.fftn(x, s=(2, 3, 4))
    with pytest.raises(ValueError, match="repeat an axis"):
        tt.fft.fftn(x, axes=(0, -2))
    for name in ("rfftn", "irfftn"):  # numpy: IndexError "list index out of range"
        with pytest.raises(ValueError, match=f"fft.{name} needs an axis to transform"):
            getattr(tt.fft, name)(tt.ones((), tt.float64))
    with pytest.raises(ValueError, match="norm must be one of"):
        tt.fft.ifft(x, norm="bogus")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n must be an int >= 1"):
        tt.fft.fftfreq(0)
    with pytest.raises(TypeError, match="takes a Tensor"):
        tt.fft.fft(np.ones(3))  # type: ignore[arg-type]


def test_round_trips_and_namespace() -> None:
    x = tt.asarray(np.arange(12.0).reshape(3, 4))
    np.testing.assert_allclose(tt.fft.irfftn(tt.fft.rfftn(x), s=x.shape).numpy(), x.numpy())
    np.testing.assert_allclose(tt.fft.ifft(tt.fft.fft(x)).numpy().real, x.numpy())
    assert x.__array_namespace__().fft is tt.fft
