"""``dtype=`` naming a dtype class keeps the exact shape of the ``tt.`` functions under pyright
(excluded in ``mypy.ini``: mypy without the plugin gives the named class with the shape
unknown, see ``dtypes.py``; the plugin is exact). The methods keep the exact shape for
``axis=None`` and one literal int axis (their call classes' ``dtype=`` twins, issue #30); a
tuple of axes with ``dtype=`` gives the named class with the shape unknown (twins for every
form cost pyright too much: docs/stubs.md).

The ``tt.`` functions' shape overloads take ``dtype: type[_XD] | None = None`` with a PEP 696
default (the rule's result dtype when ``dtype`` is omitted or None). ``var``/``std`` take only
float or complex classes, and so do ``mean``/``nanmean`` (issue #30): an integer class is the
unknown type (the plugin and the runtime reject it).
"""

from typing import Any
from typing import Literal as L

import numpy as np
from typing_extensions import Unpack, assert_type

import typedtensor as tt
from typedtensor import AnyTensor, Tensor


def functions(x: Tensor[tt.float32, L[2], L[3]], u: Tensor[tt.uint8, L[5]]) -> None:
    assert_type(tt.mean(x, 0, dtype=tt.float64), Tensor[tt.float64, L[3]])
    assert_type(tt.sum(x, (0, 1), True, dtype=tt.int64), Tensor[tt.int64, L[1], L[1]])
    assert_type(tt.prod(x, -1, dtype=tt.complex64), Tensor[tt.complex64, L[2]])
    assert_type(tt.var(x, 0, ddof=1, dtype=tt.float64), Tensor[tt.float64, L[3]])
    assert_type(tt.std(x, axis=1, keepdims=True, dtype=tt.float64), Tensor[tt.float64, L[2], L[1]])
    assert_type(tt.nanmean(u, 0, dtype=tt.float32), Tensor[tt.float32])
    assert_type(tt.nansum(u, dtype=tt.uint8), Tensor[tt.uint8])
    assert_type(tt.nanstd(x, 1, dtype=tt.float16), Tensor[tt.float16, L[2]])
    assert_type(tt.sum(x, 0, dtype=None), Tensor[tt.float32, L[3]])
    # an integer or bool class on mean/var/std matches no overload: fail/dtypes.py
    assert_type(tt.sum(x, 0, dtype="float64"), AnyTensor)
    assert_type(tt.sum(x, 0, dtype=np.float64), AnyTensor)


def complex_mean(c: Tensor[tt.complex64, L[4], L[2]]) -> None:
    # mean's rule result of a complex receiver is complex (the default of dtype=)
    assert_type(tt.mean(c, 1), Tensor[tt.complex64, L[4]])
    assert_type(tt.nanmean(c, 0, dtype=tt.complex128), Tensor[tt.complex128, L[2]])


def methods(
    x: Tensor[tt.float32, L[2], L[3]],
    u: Tensor[tt.uint8, L[5]],
    w: Tensor[tt.int8, L[1], L[2], L[3], L[4], L[5]],
) -> None:
    assert_type(x.sum(1, dtype=tt.float64), Tensor[tt.float64, L[2]])
    assert_type(x.sum(dtype=tt.float64), Tensor[tt.float64])
    assert_type(x.sum(axis=None, keepdims=True, dtype=tt.int32), Tensor[tt.int32, L[1], L[1]])
    assert_type(x.prod(0, True, dtype=tt.int64), Tensor[tt.int64, L[1], L[3]])
    assert_type(x.prod(-1, dtype=tt.complex64), Tensor[tt.complex64, L[2]])
    assert_type(x.mean(0, dtype=tt.complex64), Tensor[tt.complex64, L[3]])
    assert_type(x.mean(-1, keepdims=True, dtype=tt.float64), Tensor[tt.float64, L[2], L[1]])
    assert_type(x.var(0, ddof=1, dtype=tt.float64), Tensor[tt.float64, L[3]])
    assert_type(x.std(dtype=tt.complex128), Tensor[tt.complex128])
    assert_type(u.sum(0, dtype=tt.uint8), Tensor[tt.uint8])
    assert_type(w.sum(0, dtype=tt.int64), Tensor[tt.int64, L[2], L[3], L[4], L[5]])
    assert_type(w.mean(-1, dtype=tt.float32), Tensor[tt.float32, L[1], L[2], L[3], L[4]])
    # dtype=None spelled out: the unknown type for the methods (the functions keep the shape)
    assert_type(x.sum(0, dtype=None), AnyTensor)
    # a tuple of axes: the named class, the shape unknown (no twins for the tuple forms)
    assert_type(x.sum((0, 1), dtype=tt.float64), Tensor[tt.float64, Unpack[tuple[Any, ...]]])
    assert_type(x.mean((1, 0), dtype=tt.float64), Tensor[tt.float64, Unpack[tuple[Any, ...]]])
    # mean/var/std take only float or complex classes (fail/dtypes.py); a numpy dtype or a
    # name: unknown
    assert_type(x.sum(0, dtype=np.float64), AnyTensor)
    assert_type(x.sum(1, dtype="float64"), AnyTensor)
