"""The standard's searching, sorting and set functions against array-api-strict: indices,
orders (stable, descending), data-dependent shapes."""

from __future__ import annotations

from typing import Any

import array_api_strict as xs
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._oracle import SHAPES, agree, dtypes, tt_dtype, xps

EXAMPLES = settings(max_examples=30)


def _arrays(category: str, shape: Any = SHAPES, **elements: Any) -> st.SearchStrategy[Any]:
    return dtypes(category).flatmap(
        lambda n: xps.arrays(tt_dtype(n), shape, elements=elements or None)
    )


def _axis(data: st.DataObject, ndim: int) -> int | None:
    if not ndim:
        return None
    return data.draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1)), label="axis")


@EXAMPLES
@given(x=_arrays("real numeric"), keepdims=st.booleans(), data=st.data())
def test_argmax_argmin(x: Any, keepdims: bool, data: st.DataObject) -> None:
    axis = _axis(data, x.ndim)
    if x.size == 0 or (axis is not None and x.shape[axis] == 0):
        return  # the standard leaves an empty reduction undefined; both raise (numpy's)
    agree(tt.argmax, xs.argmax, [x], {"axis": axis, "keepdims": keepdims})
    agree(tt.argmin, xs.argmin, [x], {"axis": axis, "keepdims": keepdims})


@EXAMPLES
@given(x=_arrays("all", xps.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4)))
def test_nonzero(x: Any) -> None:
    agree(tt.nonzero, xs.nonzero, [x])


@EXAMPLES
@given(x=_arrays("all"), keepdims=st.booleans(), data=st.data())
def test_count_nonzero(x: Any, keepdims: bool, data: st.DataObject) -> None:
    agree(tt.count_nonzero, xs.count_nonzero, [x], {"axis": _axis(data, x.ndim)})
    agree(tt.count_nonzero, xs.count_nonzero, [x], {"keepdims": keepdims})


@EXAMPLES
@given(data=st.data())
def test_where(data: st.DataObject) -> None:
    shapes = data.draw(xps.mutually_broadcastable_shapes(3, max_dims=3, max_side=3))
    cond_shape, s1, s2 = shapes.input_shapes
    condition = data.draw(xps.arrays(tt.bool, cond_shape), label="condition")
    dtype = data.draw(dtypes("all"), label="dtype")
    x1 = data.draw(xps.arrays(tt_dtype(dtype), s1), label="x1")
    x2 = data.draw(xps.arrays(tt_dtype(dtype), s2), label="x2")
    agree(tt.where, xs.where, [condition, x1, x2])


@EXAMPLES
@given(
    x1=_arrays("real numeric", (6,), allow_nan=False),
    side=st.sampled_from(["left", "right"]),
    data=st.data(),
)
def test_searchsorted(x1: Any, side: str, data: st.DataObject) -> None:
    sorted_x1 = tt.sort(x1)
    shape = data.draw(xps.array_shapes(min_dims=0, max_dims=2, max_side=3), label="shape")
    x2 = data.draw(xps.arrays(x1.dtype, shape), label="x2")
    agree(tt.searchsorted, xs.searchsorted, [sorted_x1, x2], {"side": side})


@EXAMPLES
@given(
    x=_arrays("real numeric", xps.array_shapes(min_dims=1, max_dims=3, max_side=5)),
    descending=st.booleans(),
    data=st.data(),
)
def test_sort_argsort(x: Any, descending: bool, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    kw = {"axis": axis, "descending": descending}
    agree(tt.sort, xs.sort, [x], kw)
    agree(tt.argsort, xs.argsort, [x], kw)  # stable by default: the same order of ties
    agree(tt.argsort, xs.argsort, [x], {**kw, "stable": True})


@EXAMPLES
@given(x=_arrays("real numeric", xps.array_shapes(min_dims=0, max_dims=3, max_side=4)))
def test_unique(x: Any) -> None:
    agree(tt.unique_values, xs.unique_values, [x])
    agree(tt.unique_counts, xs.unique_counts, [x])
    agree(tt.unique_inverse, xs.unique_inverse, [x])
    agree(tt.unique_all, xs.unique_all, [x])


@EXAMPLES
@given(data=st.data())
def test_take_and_take_along_axis(data: st.DataObject) -> None:
    x = data.draw(_arrays("all", xps.array_shapes(min_dims=1, max_dims=3, max_side=4)))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = x.shape[axis]
    if n == 0:
        return
    count = data.draw(st.integers(0, 5), label="count")
    idx = tt.asarray(data.draw(st.lists(st.integers(-n, n - 1), min_size=count, max_size=count)))
    agree(tt.take, xs.take, [x, tt.astype(idx, tt.int64)], {"axis": axis})
    along_shape = list(x.shape)
    along_shape[axis] = count
    along = data.draw(
        xps.arrays(tt.int64, tuple(along_shape), elements={"min_value": 0, "max_value": n - 1})
    )
    agree(tt.take_along_axis, xs.take_along_axis, [x, along], {"axis": axis})
