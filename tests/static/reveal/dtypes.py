"""float16 / complex reductions and ``dtype=``: exact dtypes from the generated overloads.

``dtype=`` naming a typedtensor class gives that class: with the exact shape under pyright for
the ``tt.`` functions and the methods' ``axis=None`` / one-int-axis forms (``dtype_shapes.py``;
the shape unknown under mypy without the plugin, so only the dtype is asserted here; the mypy
plugin is exact); a numpy dtype or a name gives
the unknown tensor, and so does an integer class for ``var``/``std`` (they compute only in a
float or complex dtype). ``var/std/norm`` of complex are real, ``abs()`` of complex is real.
"""

from typing import Literal as L

import numpy as np
from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import AnyTensor, Tensor


def new_dtypes(
    h: Tensor[tt.float16, L[2], L[3]],
    c: Tensor[tt.complex64, L[4], L[5]],
    z: Tensor[tt.complex128, L[6]],
) -> None:
    assert_type(h.sum(0), Tensor[tt.float16, L[3]])
    assert_type(h.mean(-1), Tensor[tt.float16, L[2]])
    assert_type(tt.var(h, 1), Tensor[tt.float16, L[2]])
    assert_type(c.sum(1), Tensor[tt.complex64, L[4]])
    assert_type(tt.prod(c, 0, keepdims=True), Tensor[tt.complex64, L[1], L[5]])
    assert_type(c.mean(), Tensor[tt.complex64])
    assert_type(c.var(0), Tensor[tt.float32, L[5]])
    assert_type(tt.std(c, -1), Tensor[tt.float32, L[4]])
    assert_type(c.norm(2, -1), Tensor[tt.float32, L[4]])
    assert_type(tt.norm_lp_max(c, 2, 1e-6, 0), Tensor[tt.float32, L[5]])
    assert_type(z.norm(1), Tensor[tt.float64])
    assert_type(c.max(0), Tensor[tt.complex64, L[5]])
    assert_type(c.argmax(1), Tensor[tt.int64, L[4]])
    assert_type(c.logsumexp(-1), Tensor[tt.complex64, L[4]])
    # abs() of complex is real at run time (complex64 -> float32): the _ElementwiseDTypes
    # table's real-dtype slot (an Any dtype matches it as Any, not float32)
    assert_type(abs(c), Tensor[tt.float32, L[4], L[5]])
    assert_type(abs(h), Tensor[tt.float16, L[2], L[3]])
    assert_type(tt.abs(z), Tensor[tt.float64, L[6]])


def abs_of_unknown(a: AnyTensor) -> None:
    assert_type(abs(a), AnyTensor)  # not float32: the complex overload answers Any
    assert_type(tt.abs(a), AnyTensor)


def dtype_argument(x: Tensor[tt.float32, L[2], L[3]]) -> None:
    assert_type(x.sum(dtype=tt.float64).dtype, type[tt.float64])
    assert_type(x.sum(1, dtype=tt.float16).dtype, type[tt.float16])
    assert_type(tt.mean(x, 0, dtype=tt.float64).dtype, type[tt.float64])
    assert_type(x.prod(0, True, dtype=tt.int64).dtype, type[tt.int64])
    assert_type(tt.var(x, 0, ddof=1, dtype=tt.float64).dtype, type[tt.float64])
    assert_type(x.std(dtype=tt.complex128).dtype, type[tt.complex128])
    assert_type(tt.nanstd(x, 1, dtype=tt.float16).dtype, type[tt.float16])
    assert_type(x.mean(0, dtype=tt.complex64).dtype, type[tt.complex64])
    assert_type(x.sum(0, dtype=np.float64), AnyTensor)
    assert_type(tt.sum(x, 0, dtype="float64"), AnyTensor)
    # mean/var/std compute only in a float or complex dtype (an integer or bool class is an
    # error: fail/dtypes.py); a numpy float type or a name goes to the catch-all
    assert_type(tt.nanmean(x, 1, dtype=tt.float64).dtype, type[tt.float64])
    assert_type(x.mean(0, dtype=np.float64), AnyTensor)
    assert_type(tt.var(x, dtype="float32"), AnyTensor)
    # without dtype= the exact answer stays
    assert_type(x.sum(0), Tensor[tt.float32, L[3]])
    assert_type(tt.mean(x, 1, keepdims=True), Tensor[tt.float32, L[2], L[1]])


def inexact_dtype_likes(x: Tensor[tt.float32, L[2], L[3]]) -> None:
    # the spellings of a float or complex dtype that the catch-all of mean/var/std takes
    assert_type(x.var(0, dtype=np.dtype(np.float64)), AnyTensor)
    assert_type(tt.std(x, dtype=np.complex64), AnyTensor)
    assert_type(x.mean(dtype=float), AnyTensor)
    assert_type(tt.nanvar(x, 1, dtype=complex), AnyTensor)
