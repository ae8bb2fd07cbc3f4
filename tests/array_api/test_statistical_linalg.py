"""The standard's statistical and utility functions and its linear algebra (``matmul``,
``tensordot``, ``vecdot`` and the ``linalg`` extension) against array-api-strict. Floating
reductions run in typedtensor's own engine (numba or numpy, another summation order), so their
values agree to a tolerance scaled by the inputs' magnitude."""

from __future__ import annotations

from typing import Any

import array_api_strict as xs
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._oracle import ULPS, agree, dtypes, tt_dtype, xps

EXAMPLES = settings(max_examples=25)
#: finite values of moderate size (sums and products of a few hundred stay exact-ish)
MODERATE = {"min_value": -8, "max_value": 8, "allow_nan": False, "allow_infinity": False}
SMALL_SHAPES = xps.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)


def _arrays(category: str, shape: Any = SMALL_SHAPES, **elements: Any) -> st.SearchStrategy[Any]:
    def make(name: str) -> st.SearchStrategy[Any]:
        kind = np.dtype(name).kind
        narrowed = elements if kind in "fc" else {}
        return xps.arrays(tt_dtype(name), shape, elements=narrowed or None)

    return dtypes(category).flatmap(make)


def _axes(data: st.DataObject, ndim: int) -> Any:
    kinds = [st.none(), st.just(())]
    if ndim:
        kinds.append(st.integers(-ndim, ndim - 1))
        kinds.append(st.lists(st.integers(0, ndim - 1), unique=True).map(tuple))
    return data.draw(st.one_of(*kinds), label="axis")


@EXAMPLES
@given(x=_arrays("numeric", **MODERATE), keepdims=st.booleans(), data=st.data())
def test_sum_prod(x: Any, keepdims: bool, data: st.DataObject) -> None:
    kw = {"axis": _axes(data, x.ndim), "keepdims": keepdims}
    agree(tt.sum, xs.sum, [x], kw, rtol=1e-5)
    agree(tt.prod, xs.prod, [x], kw, rtol=1e-5)


@EXAMPLES
@given(x=_arrays("real numeric", **MODERATE), keepdims=st.booleans(), data=st.data())
def test_max_min(x: Any, keepdims: bool, data: st.DataObject) -> None:
    axis = _axes(data, x.ndim)
    reduced = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
    if any(x.shape[a] == 0 for a in reduced):
        return  # max/min of an empty axis: undefined in the standard, both raise
    agree(tt.max, xs.max, [x], {"axis": axis, "keepdims": keepdims})
    agree(tt.min, xs.min, [x], {"axis": axis, "keepdims": keepdims})


@EXAMPLES
@given(
    x=_arrays("real floating", **MODERATE),
    keepdims=st.booleans(),
    correction=st.sampled_from([0, 1, 0.5]),
    data=st.data(),
)
def test_mean_var_std(x: Any, keepdims: bool, correction: float, data: st.DataObject) -> None:
    kw = {"axis": _axes(data, x.ndim), "keepdims": keepdims}
    agree(tt.mean, xs.mean, [x], kw, rtol=1e-5)
    agree(tt.var, xs.var, [x], {**kw, "correction": correction}, rtol=1e-4)
    agree(tt.std, xs.std, [x], {**kw, "correction": correction}, rtol=1e-4)


@EXAMPLES
@given(x=_arrays("all"), keepdims=st.booleans(), data=st.data())
def test_all_any(x: Any, keepdims: bool, data: st.DataObject) -> None:
    kw = {"axis": _axes(data, x.ndim), "keepdims": keepdims}
    agree(tt.all, xs.all, [x], kw)
    agree(tt.any, xs.any, [x], kw)


@EXAMPLES
@given(
    x=_arrays("numeric", xps.array_shapes(min_dims=1, max_dims=3, max_side=4), **MODERATE),
    include_initial=st.booleans(),
    data=st.data(),
)
def test_cumulative(x: Any, include_initial: bool, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1)) if x.ndim > 1 else None
    kw = {"axis": axis, "include_initial": include_initial}
    agree(tt.cumulative_sum, xs.cumulative_sum, [x], kw, rtol=1e-5)
    agree(tt.cumulative_prod, xs.cumulative_prod, [x], kw, rtol=1e-5)


@EXAMPLES
@given(
    x=_arrays("numeric", xps.array_shapes(min_dims=1, max_dims=3, max_side=4)),
    n=st.integers(0, 3),
    data=st.data(),
)
def test_diff(x: Any, n: int, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    agree(tt.diff, xs.diff, [x], {"axis": axis, "n": n})


# ------------------------------------------------------------------------ linear algebra
@EXAMPLES
@given(data=st.data())
def test_matmul_tensordot_vecdot(data: st.DataObject) -> None:
    dtype = data.draw(dtypes("numeric"), label="dtype")
    batch = data.draw(xps.array_shapes(min_dims=0, max_dims=2, max_side=3), label="batch")
    m, k, n = (data.draw(st.integers(1, 4)) for _ in range(3))
    elements = MODERATE if np.dtype(dtype).kind in "fc" else {"min_value": 0, "max_value": 3}
    a = data.draw(xps.arrays(tt_dtype(dtype), (*batch, m, k), elements=elements), label="a")
    b = data.draw(xps.arrays(tt_dtype(dtype), (k, n), elements=elements), label="b")
    agree(tt.matmul, xs.matmul, [a, b], rtol=1e-5)
    agree(lambda p, q: p @ q, lambda p, q: p @ q, [a, b], rtol=1e-5)
    agree(tt.matrix_transpose, xs.matrix_transpose, [a])
    agree(tt.tensordot, xs.tensordot, [a, b], {"axes": 1}, rtol=1e-5)
    v = data.draw(xps.arrays(tt_dtype(dtype), (k,), elements=elements), label="v")
    agree(tt.vecdot, xs.vecdot, [a, v], rtol=1e-5)


def _square(data: st.DataObject, spd: bool = False) -> Any:
    """A float (batch of) square matrix; ``spd``: symmetric positive definite."""
    dtype = data.draw(dtypes("real floating"), label="dtype")
    batch = data.draw(xps.array_shapes(min_dims=0, max_dims=1, max_side=3), label="batch")
    n = data.draw(st.integers(1, 4), label="n")
    a = data.draw(xps.arrays(tt_dtype(dtype), (*batch, n, n), elements=MODERATE), label="a")
    if not spd:
        return a
    return tt.matmul(a, tt.matrix_transpose(a)) + n * tt.eye(n, dtype=tt_dtype(dtype))


#: (function name, positional-arguments maker, tolerance) of the linalg extension
LINALG_TOLERANCE = 1e-3  # float32 decompositions, ill-conditioned draws included


@EXAMPLES
@given(data=st.data())
def test_linalg_square(data: st.DataObject) -> None:
    a = _square(data)
    for name in ("det", "inv", "slogdet", "matrix_rank", "eigvalsh", "trace", "diagonal"):
        kw = {}
        if name == "eigvalsh":
            a = tt.matmul(a, tt.matrix_transpose(a))
        agree(getattr(tt.linalg, name), getattr(xs.linalg, name), [a], kw, rtol=LINALG_TOLERANCE)
    agree(tt.linalg.matrix_power, xs.linalg.matrix_power, [a, 2], rtol=LINALG_TOLERANCE)
    agree(tt.linalg.matrix_norm, xs.linalg.matrix_norm, [a], {"ord": "fro"}, rtol=1e-5)
    agree(tt.linalg.vector_norm, xs.linalg.vector_norm, [a], {"ord": 2}, rtol=1e-5)
    spd = _square(data, spd=True)
    for name in ("cholesky", "eigh"):
        agree(getattr(tt.linalg, name), getattr(xs.linalg, name), [spd], rtol=LINALG_TOLERANCE)
    b = data.draw(xps.arrays(spd.dtype, spd.shape[-1:], elements=MODERATE), label="b")
    agree(tt.linalg.solve, xs.linalg.solve, [spd, b[..., None]], rtol=LINALG_TOLERANCE)


@EXAMPLES
@given(data=st.data(), full=st.booleans())
def test_linalg_rectangular(data: st.DataObject, full: bool) -> None:
    dtype = data.draw(dtypes("real floating"), label="dtype")
    m, n = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    a = data.draw(xps.arrays(tt_dtype(dtype), (m, n), elements=MODERATE), label="a")
    agree(tt.linalg.svdvals, xs.linalg.svdvals, [a], rtol=LINALG_TOLERANCE)
    agree(tt.linalg.pinv, xs.linalg.pinv, [a], rtol=LINALG_TOLERANCE)
    mode = "complete" if full else "reduced"
    agree(tt.linalg.qr, xs.linalg.qr, [a], {"mode": mode}, rtol=LINALG_TOLERANCE)
    agree(tt.linalg.svd, xs.linalg.svd, [a], {"full_matrices": full}, rtol=LINALG_TOLERANCE)
    u = data.draw(xps.arrays(tt_dtype(dtype), (3,), elements=MODERATE), label="u")
    w = data.draw(xps.arrays(tt_dtype(dtype), (3,), elements=MODERATE), label="w")
    agree(tt.linalg.cross, xs.linalg.cross, [u, w], rtol=ULPS)
    agree(tt.linalg.outer, xs.linalg.outer, [u, w], rtol=ULPS)
