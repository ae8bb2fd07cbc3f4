"""``tt.quantile``/``percentile``/``nanquantile``/``nanpercentile`` under pyright (excluded in
``mypy.ini``: mypy reads the runtime signatures, the plugin types these calls).

The shape: ``axis=None`` or one literal axis, ``keepdims`` either way, a scalar ``q`` (the
reduced shape) or a tuple of 1-4 numbers (a leading ``Literal[n]``); a list, Tensor or array
``q`` and a tuple of axes: the unknown shape. The dtype: ``rules.quantile_result_dtype``'s
answer where ``q``'s spelling and a literal ``method=`` decide it, else ``Any``.
"""

from typing import Any
from typing import Literal as L

import numpy as np
from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import AnyTensor, Tensor


def shapes(x: Tensor[tt.float32, L[8], L[3]], v: Tensor[tt.float64, L[5]]) -> None:
    assert_type(tt.quantile(x, 0.5), Tensor[tt.float32])
    assert_type(tt.quantile(x, 0.5, axis=1), Tensor[tt.float32, L[8]])
    assert_type(tt.quantile(x, 0.5, 0), Tensor[tt.float32, L[3]])
    assert_type(tt.quantile(x, 0.5, -1, True), Tensor[tt.float32, L[8], L[1]])
    assert_type(tt.quantile(x, 0.5, axis=-2, keepdims=True), Tensor[tt.float32, L[1], L[3]])
    assert_type(tt.quantile(x, 0.5, keepdims=True), Tensor[tt.float32, L[1], L[1]])
    assert_type(tt.quantile(x, 0.5, None, True), Tensor[tt.float32, L[1], L[1]])
    assert_type(tt.quantile(v, 0.25, axis=0), Tensor[tt.float64])
    # a tuple q of n numbers leads with Literal[n] (numpy: (2, 8) here)
    assert_type(tt.quantile(x, (0.1, 0.9), axis=1), Tensor[tt.float64, L[2], L[8]])
    assert_type(tt.quantile(x, (0.1, 0.5, 0.9)), Tensor[tt.float64, L[3]])
    assert_type(tt.quantile(x, (0.5,), axis=0, keepdims=True), Tensor[tt.float64, L[1], L[1], L[3]])
    assert_type(tt.quantile(x, (0, 0.5, 0.75, 1), -1), Tensor[tt.float64, L[4], L[8]])
    assert_type(tt.percentile(x, (10, 90), axis=1), Tensor[tt.float64, L[2], L[8]])
    # unknown: a list or Tensor q (its length), a tuple of axes, a tuple of 5 numbers
    assert_type(tt.quantile(x, [0.1, 0.9], axis=1), AnyTensor)
    assert_type(tt.quantile(x, tt.asarray([0.1, 0.9]), axis=1), AnyTensor)
    assert_type(tt.quantile(x, 0.5, axis=(0, 1)), AnyTensor)
    assert_type(tt.quantile(x, (0.1, 0.2, 0.3, 0.4, 0.5)), AnyTensor)


def ranks(
    s: Tensor[tt.float64],
    a: Tensor[tt.float16, L[2], L[3], L[4]],
    b: Tensor[tt.float32, L[2], L[3], L[4], L[5]],
) -> None:
    assert_type(tt.quantile(s, 0.5), Tensor[tt.float64])
    assert_type(tt.quantile(s, 0.5, keepdims=True), Tensor[tt.float64])
    assert_type(tt.quantile(a, 0.5, 1), Tensor[tt.float16, L[2], L[4]])
    assert_type(tt.quantile(a, 0.5, -3, keepdims=True), Tensor[tt.float16, L[1], L[3], L[4]])
    assert_type(tt.quantile(b, 0.5, 3), Tensor[tt.float32, L[2], L[3], L[4]])
    assert_type(tt.quantile(b, 0.5, -4), Tensor[tt.float32, L[3], L[4], L[5]])
    assert_type(
        tt.quantile(b, (0.2, 0.8), 2, True), Tensor[tt.float64, L[2], L[2], L[3], L[1], L[5]]
    )


def dtypes(
    f: Tensor[tt.float16, L[4]],
    i: Tensor[tt.int8, L[4]],
    u: Tensor[tt.uint32, L[4]],
    c: Tensor[tt.complex64, L[4]],
    b: Tensor[tt.bool_, L[4]],
    m: str,
    qf: float,
) -> None:
    # a float input with a float scalar q keeps its dtype; ints give float64
    assert_type(tt.quantile(f, 0.5), Tensor[tt.float16])
    assert_type(tt.quantile(i, 0.5), Tensor[tt.float64])
    assert_type(tt.nanquantile(u, 0.5, method="midpoint"), Tensor[tt.float64])
    assert_type(tt.quantile(f, qf), Tensor[tt.float16])
    # picking methods keep the dtype, whatever q is
    assert_type(tt.quantile(i, 1, method="lower"), Tensor[tt.int8])
    assert_type(tt.quantile(f, (0.1, 0.9), method="nearest"), Tensor[tt.float16, L[2]])
    assert_type(tt.percentile(b, 50, method="higher"), Tensor[tt.bool_])
    # an int q in quantile: numpy promotes with it (int8 with q=1 is int8): unknown dtype
    assert_type(tt.quantile(i, 1), Tensor[Any])
    assert_type(tt.quantile(f, (0, 1)), Tensor[Any, L[2]])
    # ... percentile divides q by 100: an int is a float there
    assert_type(tt.percentile(f, 50), Tensor[tt.float16])
    assert_type(tt.nanpercentile(i, (25, 75)), Tensor[tt.float64, L[2]])
    # a bool or numpy scalar q: numpy promotes with its dtype: unknown
    assert_type(tt.percentile(f, True), Tensor[Any])
    assert_type(tt.quantile(f, np.float64(0.5)), Tensor[Any])
    assert_type(tt.quantile(f, np.float32(0.5), method="lower"), Tensor[tt.float16])
    # a tuple of floats gives float64 (numpy: a float64 array q)
    assert_type(tt.quantile(f, (0.5, 0.25)), Tensor[tt.float64, L[2]])
    # complex and bool inputs (numpy raises TypeError): unknown dtype, exact shape
    assert_type(tt.quantile(c, 0.5), Tensor[Any])
    assert_type(tt.quantile(c, 0.5, method="lower"), Tensor[Any])
    assert_type(tt.quantile(b, 0.5), Tensor[Any])
    # a str method (not a literal) or an unknown name: the catch-all
    assert_type(tt.quantile(f, 0.5, method=m), AnyTensor)
    assert_type(tt.quantile(f, 0.5, method="cubic"), AnyTensor)


def gradual(x: AnyTensor, y: Tensor[tt.float32, L[2], Any]) -> None:
    # as the reductions' (tt.median(y, 0)): a receiver partly Any fits several overloads with
    # different results, and pyright answers Any
    assert_type(tt.quantile(y, 0.5, axis=0), Any)
    assert_type(tt.quantile(x, 0.5, axis=1), Any)


def buffers(x: Tensor[tt.float32, L[8], L[3]], o: Tensor[tt.float32, L[8]]) -> None:
    assert_type(tt.quantile(x, 0.5, axis=1, out=o), Tensor[tt.float32, L[8]])
