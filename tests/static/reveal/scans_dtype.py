"""Scans and ``dtype=`` under pyright (``stubs/shape_ops.py``, the reductions' dtype rules).

pyright only (excluded in ``mypy.ini``, see ``shape_ops.py``). ``x.cumsum(axis)`` (and
``tt.nancumsum``/``tt.nancumprod``: the same answers) keeps the shape and takes ``sum``'s
dtype rule (int8 -> int64, float32 -> float32, bool -> int64); ``axis=None`` flattens: exact
for rank <= 1, rank 1 with an unknown size above (an overload cannot multiply sizes).
``dtype=<class>`` names the result class; the reductions' ``dtype=`` keeps the class with the
unknown shape (docs/stubs.md: the exact shape measured +7-14% on the benchmark files).
"""

from typing import Any, TypeAlias, TypeVar
from typing import Literal as L

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
Rest = TypeVarTuple("Rest")
F32: TypeAlias = tt.float32


def scans(
    x: Tensor[F32, L[2], L[3]],
    i: Tensor[tt.int8, L[2], L[3]],
    v: Tensor[tt.bool_, L[5]],
    s: Tensor[F32],
    r: Tensor[F32, B, Unpack[Rest]],
) -> None:
    assert_type(x.cumsum(0), Tensor[F32, L[2], L[3]])
    assert_type(x.cumsum(axis=-1), Tensor[F32, L[2], L[3]])
    assert_type(i.cumsum(1), Tensor[tt.int64, L[2], L[3]])
    assert_type(i.cumprod(0), Tensor[tt.int64, L[2], L[3]])
    assert_type(v.cumsum(), Tensor[tt.int64, L[5]])
    assert_type(s.cumsum(), Tensor[F32, L[1]])
    assert_type(x.cumsum(), Tensor[F32, Any])
    assert_type(x.cumsum(0, dtype=tt.float64), Tensor[tt.float64, L[2], L[3]])
    assert_type(i.cumsum(dtype=tt.int8), Tensor[tt.int8, Any])
    assert_type(r.cumsum(0), Tensor[F32, Unpack[tuple[Any, ...]]])
    assert_type(x.cumsum(2), Tensor[Any, Unpack[tuple[Any, ...]]])  # out of range: raises
    assert_type(tt.cumsum(x, 1), Tensor[F32, L[2], L[3]])
    assert_type(tt.cumprod(i, axis=0, dtype=tt.float64), Tensor[tt.float64, L[2], L[3]])
    assert_type(tt.cumsum(v), Tensor[tt.int64, L[5]])
    assert_type(tt.cumulative_sum(x, axis=-1), Tensor[F32, L[2], L[3]])
    assert_type(tt.cumulative_prod(v), Tensor[tt.int64, L[5]])
    # include_initial=True grows the axis by one: the unknown shape (no literal arithmetic)
    assert_type(
        tt.cumulative_sum(x, axis=1, include_initial=True), Tensor[Any, Unpack[tuple[Any, ...]]]
    )
    assert_type(tt.cumulative_sum(x), Tensor[Any, Unpack[tuple[Any, ...]]])  # axis required


def nan_scans(
    x: Tensor[F32, L[2], L[3]],
    i: Tensor[tt.int8, L[2], L[3]],
    u: Tensor[tt.uint16, L[4], L[2], L[3]],
    v: Tensor[tt.bool_, L[5]],
    s: Tensor[F32],
    r: Tensor[F32, B, Unpack[Rest]],
    z: Tensor[F32, Unpack[tuple[Any, ...]]],
) -> None:
    """``tt.nancumsum``/``tt.nancumprod``: cumsum's answers (functions only, as numpy)."""
    assert_type(tt.nancumsum(x, 0), Tensor[F32, L[2], L[3]])
    assert_type(tt.nancumsum(x, axis=-1), Tensor[F32, L[2], L[3]])
    assert_type(tt.nancumprod(i, 1), Tensor[tt.int64, L[2], L[3]])
    assert_type(tt.nancumsum(u, -3), Tensor[tt.uint64, L[4], L[2], L[3]])
    assert_type(tt.nancumprod(u, 2), Tensor[tt.uint64, L[4], L[2], L[3]])
    assert_type(tt.nancumsum(v), Tensor[tt.int64, L[5]])
    assert_type(tt.nancumprod(s), Tensor[F32, L[1]])
    assert_type(tt.nancumsum(s, 0), Tensor[F32, L[1]])
    assert_type(tt.nancumsum(x), Tensor[F32, Any])
    assert_type(tt.nancumprod(x, 0, dtype=tt.float64), Tensor[tt.float64, L[2], L[3]])
    assert_type(tt.nancumsum(i, dtype=tt.int8), Tensor[tt.int8, Any])
    # a TypeVarTuple rest: the function overloads (tt.cumsum's too) give the unknown type
    assert_type(tt.cumsum(r, 0), Tensor[Any, Unpack[tuple[Any, ...]]])
    assert_type(tt.nancumsum(r, 0), Tensor[Any, Unpack[tuple[Any, ...]]])
    assert_type(tt.nancumprod(z, 0), Tensor[F32, Unpack[tuple[Any, ...]]])
    assert_type(tt.nancumsum(x, 2), Tensor[Any, Unpack[tuple[Any, ...]]])  # out of range: raises


def reductions_dtype(x: Tensor[F32, L[2], L[3]]) -> None:
    assert_type(x.sum(0, dtype=tt.float64), Tensor[tt.float64, L[3]])
    assert_type(x.mean(dtype=tt.float64), Tensor[tt.float64])
    assert_type(tt.nansum(x, 0), Tensor[F32, L[3]])
    assert_type(tt.nanmean(x, -1, keepdims=True), Tensor[F32, L[2], L[1]])
    assert_type(tt.count_nonzero(x, 1), Tensor[tt.int64, L[2]])
