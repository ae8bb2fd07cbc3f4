"""numpy interop: typedtensor's dtype classes are numpy dtype-likes, numpy ufuncs on Tensors
run typedtensor's functions (or raise a TypeError naming what to call), numpy scalars are
operands as numpy's own (NEP 50: not weak)."""

from __future__ import annotations

import numpy as np
import pytest

import typedtensor as tt
from typedtensor._dtypes import _ALL

FAMILIES = [tt.DType, tt.Number, tt.Integer, tt.SignedInteger, tt.UnsignedInteger]
FAMILIES += [tt.Floating, tt.ComplexFloating]


@pytest.mark.parametrize("cls", _ALL, ids=lambda c: c.__name__)
def test_dtype_classes_are_numpy_dtype_likes(cls: type[tt.DType]) -> None:
    assert np.dtype(cls) == cls.numpy_dtype
    assert cls.dtype == cls.numpy_dtype
    assert np.zeros(3, dtype=cls).dtype == cls.numpy_dtype
    assert np.asarray([1, 0], dtype=cls).dtype == cls.numpy_dtype
    assert np.ones((2, 2)).astype(cls).dtype == cls.numpy_dtype
    assert np.dtype(cls.__name__.rstrip("_")) == np.dtype(cls)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda c: c.__name__)
def test_dtype_families_are_no_numpy_dtype(family: type[tt.DType]) -> None:
    with pytest.raises(TypeError, match=r"dtype family, not a concrete dtype.*float32"):
        np.dtype(family)
    with pytest.raises(TypeError, match="dtype family"):
        np.zeros(3, dtype=family)
    with pytest.raises(TypeError, match="dtype family"):
        tt.zeros((2,), dtype=family)
