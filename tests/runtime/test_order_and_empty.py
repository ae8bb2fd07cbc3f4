"""Two wrong answers of issue #19, on every backend against numpy.

- ``prod`` of floats whose partial products overflow and underflow: numpy multiplies one element
  after the other in memory order, so ``[1e300, 1e-300, ...]`` is 1; a product reassociated
  into SIMD lanes multiplied ``inf`` by ``0`` and gave NaN. The numba kernel now keeps numpy's
  order wherever a partial product could leave the normal range.
- ``norm(p=-inf)`` (the minimum of ``|x|``) over zero elements: numpy raises ``ValueError``
  (no identity); it returned ``inf``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt

from ._strategies import axis_spellings

Array = np.ndarray[Any, Any]


def _np_prod(a: Array, axis: Any, keepdims: bool = False) -> Array:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(np.prod(a, axis=axis, keepdims=keepdims))


def _same_prod(got: Array, want: Array, n: int) -> None:
    """Equal class by class (NaN, +-inf, +-0 exactly; finite values within the rounding of a
    different association order of ``n`` products). A NaN's sign bit is not compared: IEEE 754
    leaves it unspecified (x86's ``inf * 0`` gives a negative NaN, a NaN operand keeps its own
    sign), so it depends on which NaN a product met first."""
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_array_equal(got == 0, want == 0)
    number = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[number]), np.signbit(want[number]))
    eps = float(np.finfo(got.dtype).eps)
    fin = np.isfinite(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=4 * eps * max(n, 1), atol=0)


def _prod(x: Array, backend: str, axis: Any = None, keepdims: bool = False) -> Array:
    with tt.use_backend(backend), np.errstate(all="ignore"):
        return tt.asarray(x).prod(axis=axis, keepdims=keepdims).numpy()


@pytest.mark.parametrize("n", [2, 16, 17, 64, 80, 1000, 5000])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_prod_alternating_extremes(backend: str, n: int, dtype: str) -> None:
    big = 1e300 if dtype == "float64" else 1e30
    x = np.array([big, 1 / big] * (n // 2), dtype=dtype)
    want = _np_prod(x, None)
    assert np.isfinite(want) and want != 0  # numpy's order never leaves the range here
    _same_prod(_prod(x, backend), want, n)
    # reversed memory order (numpy does not flip it) and a strided view
    _same_prod(_prod(x[::-1], backend), _np_prod(x[::-1], None), n)
    _same_prod(_prod(x[::2], backend), _np_prod(x[::2], None), n)


def test_prod_overflow_then_underflow_is_nan_only_where_numpy_says(backend: str) -> None:
    # sequential: 1e300 * 1e300 = inf, then inf * 1e-300 ... = inf (never NaN)
    x = np.array([1e300] * 40 + [1e-300] * 40)
    _same_prod(_prod(x, backend), _np_prod(x, None), 80)
    # sequential: 1e-300 * 1e-300 = 0, then 0 * 1e300 ... = 0
    _same_prod(_prod(x[::-1], backend), _np_prod(x[::-1], None), 80)
    # a zero after an overflow: inf * 0 = NaN in numpy's order too
    y = np.array([1e300] * 40 + [0.0] + [1.0] * 40)
    assert np.isnan(_np_prod(y, None))
    _same_prod(_prod(y, backend), _np_prod(y, None), 81)
    # zeros with signs: -0.0 after finite negatives
    z = np.array([-2.0, 0.0] + [-1.0] * 100 + [-0.0] + [3.0] * 30)
    _same_prod(_prod(z, backend), _np_prod(z, None), z.size)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("where", [5, 100, 300, 700])  # in the overflowing block or after it
def test_prod_after_an_overflow_follows_numpy(backend: str, dtype: str, where: int) -> None:
    """Once numpy's running product is infinite only the signs of the rest change it, unless
    a zero (inf * 0: NaN) or a NaN comes: rows of 1,000 that overflow in their first
    elements, with negative values, an infinity, a zero or a NaN at ``where``."""
    big = 1e300 if dtype == "float64" else 1e30
    row = np.random.default_rng(where).standard_normal(1000) * 1.5
    row[:3] = big
    rows = np.tile(row, (6, 1))
    rows[1, where] = -np.inf
    rows[2, where] = 0.0
    rows[3, where] = np.nan
    rows[4, where:] = np.abs(rows[4, where:])
    rows[5, where] = -0.0
    x = rows.astype(dtype)
    want = _np_prod(x, 1)
    assert np.isinf(want[[0, 1, 4]]).all() and np.isnan(want[[2, 3, 5]]).all()
    _same_prod(_prod(x, backend, 1), want, 1000)
    from typedtensor._backend import _numba as nb

    with np.errstate(all="ignore"):  # the kernels themselves (the router sends 48 KB to numpy)
        got = nb.reduce("prod", x, (1,), False, np.dtype(dtype))
        whole = nb.reduce("prod", x[1], (0,), False, np.dtype(dtype))
    assert got is not None and whole is not None
    _same_prod(got, want, 1000)
    _same_prod(whole, _np_prod(x[1], None), 1000)


@pytest.mark.parametrize("seed", range(8))
def test_prod_standard_normal_500_2_1(backend: str, seed: int) -> None:
    # the case: a long product drifting to 1e-300 and below (subnormal, then 0)
    x = np.random.default_rng(seed).standard_normal((500, 2, 1)) * 0.02
    for axis in (None, 0, (0, 1)):
        _same_prod(_prod(x, backend, axis), _np_prod(x, axis), 1000)


@pytest.mark.parametrize("layout", ["C", "F", "T", "rows"])
def test_prod_large_layouts(backend: str, layout: str) -> None:
    # past the numba backend's parallel threshold, rows and columns, every reduced axis
    rng = np.random.default_rng(7)
    base = np.where(rng.random((600, 512)) < 0.5, 1e150, 1e-150) * rng.choice([-1.0, 1.0])
    x = {"C": base, "F": np.asfortranarray(base), "T": base.T, "rows": base[:, :300]}[layout]
    for axis in (None, 0, 1, -1):
        _same_prod(_prod(x, backend, axis), _np_prod(x, axis), x.size)


_EXTREMES = [1e300, -1e300, 1e-300, -1e-300, 1e200, 1e-200, 2.0, 0.5, -1.0, 0.0, -0.0]


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_prod_extremes_property(backend: str, data: st.DataObject) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=40))
    specials = data.draw(st.booleans())
    pool = _EXTREMES + ([np.inf, -np.inf, np.nan] if specials else [])
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.sampled_from(pool)))
    if x.ndim and data.draw(st.booleans()):
        x = x[::-1]
    axis = data.draw(axis_spellings(x.ndim))
    keepdims = data.draw(st.booleans())
    _same_prod(_prod(x, backend, axis, keepdims), _np_prod(x, axis, keepdims), x.size)


@pytest.mark.parametrize("shape, axis", [((0,), None), ((3, 0), 1), ((0, 4), 0), ((2, 0, 3), (1,))])
def test_norm_minus_inf_of_nothing_raises(backend: str, shape: tuple[int, ...], axis: Any) -> None:
    x = tt.zeros(shape)
    with pytest.raises(ValueError):  # numpy: zero-size array to reduction ... no identity
        np.linalg.norm(np.zeros(shape), -np.inf, axis=axis)
    with tt.use_backend(backend):
        with pytest.raises(ValueError, match=r"norm with p=-inf .* of an empty reduction"):
            x.norm(-np.inf, axis=axis)
        with pytest.raises(ValueError, match="empty reduction"):
            tt.norm(x, -np.inf, axis=axis, keepdims=True)


def test_norm_of_nothing_where_numpy_has_an_identity(backend: str) -> None:
    x = tt.zeros((3, 0))
    with tt.use_backend(backend):
        for p in (np.inf, 2, 1, 0.5, 0):
            want = np.linalg.norm(np.zeros((3, 0)), p, axis=1)
            np.testing.assert_array_equal(x.norm(p, axis=1).numpy(), want)
        # reducing a non-empty axis of an empty tensor is fine with p=-inf
        assert x.norm(-np.inf, axis=0).shape == (0,)


@pytest.mark.parametrize(
    ("shape", "axis"),
    [((3000, 8), 1), ((3000, 3), 1), ((64, 3000), 0), ((5, 70000), 1), ((70000, 5), 0)],
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_numba_prod_kernels_keep_numpys_order(
    shape: tuple[int, int], axis: int, dtype: str
) -> None:
    """The numba kernels themselves (below the size the router sends to them too): short rows
    (transposed blocks), long rows (guarded blocks), columns; half the elements overflow or
    underflow numpy's sequential product."""
    from typedtensor._backend import _numba as nb

    big = 1e300 if dtype == "float64" else 1e30
    a = np.where(np.random.default_rng(3).random(shape) < 0.5, big, 1 / big).astype(dtype)
    with np.errstate(all="ignore"):
        got = nb.reduce("prod", a, (axis,), False, np.dtype(dtype))
    assert got is not None  # the kernel ran, not the numpy fallback
    want = _np_prod(a, axis)
    assert np.isinf(want).any() and (want == 0).any()
    _same_prod(got, want, shape[axis])
