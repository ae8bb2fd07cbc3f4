"""The standard's creation and manipulation functions against array-api-strict: shape, dtype
and values of every result."""

from __future__ import annotations

from typing import Any

import array_api_strict as xs
import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import typedtensor as tt

from ._oracle import SHAPES, agree, dtypes, tt_dtype, xps, xs_dtype

EXAMPLES = settings(max_examples=25)


# ------------------------------------------------------------------------------ creation
@EXAMPLES
@given(
    start=st.integers(-10, 10),
    stop=st.one_of(st.none(), st.integers(-10, 10)),
    step=st.integers(-4, 4).filter(bool),
    dtype=st.one_of(st.none(), st.sampled_from(["int8", "int64", "float32", "float64"])),
)
def test_arange(start: int, stop: int | None, step: int, dtype: str | None) -> None:
    if dtype is not None and dtype.startswith("int"):
        assume(-100 < start < 100)
    kw = {} if dtype is None else {"dtype": tt_dtype(dtype)}
    args = [start] if stop is None else [start, stop, step]
    agree(tt.arange, xs.arange, args, kw)


@EXAMPLES
@given(
    bounds=st.tuples(st.floats(-8, 8), st.floats(-8, 8)),
    num=st.integers(0, 7),
    endpoint=st.booleans(),
    dtype=st.sampled_from([None, "float32", "float64"]),
)
def test_linspace(bounds: tuple[float, float], num: int, endpoint: bool, dtype: str | None) -> None:
    kw: dict[str, Any] = {"endpoint": endpoint}
    if dtype is not None:
        kw["dtype"] = tt_dtype(dtype)
    agree(tt.linspace, xs.linspace, [*bounds, num], kw, rtol=1e-6)


@EXAMPLES
@given(
    n=st.integers(0, 5),
    m=st.one_of(st.none(), st.integers(0, 5)),
    k=st.integers(-5, 5),
    dtype=dtypes("all"),
)
def test_eye(n: int, m: int | None, k: int, dtype: str) -> None:
    agree(tt.eye, xs.eye, [n, m], {"k": k, "dtype": tt_dtype(dtype)})


@EXAMPLES
@given(shape=SHAPES, dtype=dtypes("all"), data=st.data())
def test_full_zeros_ones_and_likes(shape: Any, dtype: str, data: st.DataObject) -> None:
    value = data.draw(xps.from_dtype(tt_dtype(dtype)), label="fill")
    fill = value.item() if hasattr(value, "item") else value
    kw = {"dtype": tt_dtype(dtype)}
    agree(tt.full, xs.full, [shape, fill], kw)
    agree(tt.zeros, xs.zeros, [shape], kw)
    agree(tt.ones, xs.ones, [shape], kw)
    empty = tt.empty(shape, **kw)  # values arbitrary: shape and dtype only
    assert_empty_like(empty, xs.empty(shape, dtype=xs_dtype(dtype)))
    x = tt.full(shape, fill, **kw)
    agree(tt.zeros_like, xs.zeros_like, [x])
    agree(tt.ones_like, xs.ones_like, [x], {"dtype": tt.float32})
    agree(tt.full_like, xs.full_like, [x, 1])
    assert_empty_like(tt.empty_like(x), xs.empty_like(xs.asarray(x.numpy())))


def assert_empty_like(got: Any, expected: Any) -> None:
    """Shape and dtype of an uninitialised result."""
    e = np.from_dlpack(expected)
    assert got.shape == e.shape and got.numpy().dtype == e.dtype


@EXAMPLES
@given(x=st.deferred(lambda: _matrices()), k=st.integers(-3, 3))
def test_tril_triu(x: Any, k: int) -> None:
    agree(tt.tril, xs.tril, [x], {"k": k})
    agree(tt.triu, xs.triu, [x], {"k": k})


@EXAMPLES
@given(
    sizes=st.lists(st.integers(0, 3), max_size=3),
    dtype=dtypes("numeric"),
    indexing=st.sampled_from(["xy", "ij"]),
    data=st.data(),
)
def test_meshgrid(sizes: list[int], dtype: str, indexing: str, data: st.DataObject) -> None:
    arrays_1d = [data.draw(xps.arrays(tt_dtype(dtype), (n,))) for n in sizes]
    agree(tt.meshgrid, xs.meshgrid, arrays_1d, {"indexing": indexing})


# -------------------------------------------------------------------------- manipulation
@EXAMPLES
@given(data=st.data())
def test_reshape_flip_roll_squeeze_expand(data: st.DataObject) -> None:
    x = data.draw(_any(), label="x")
    n = x.ndim
    agree(tt.reshape, xs.reshape, [x, (-1,)])
    agree(tt.reshape, xs.reshape, [x, (*x.shape, 1)])
    axis = data.draw(st.one_of(st.none(), *([st.integers(-n, n - 1)] if n else [])))
    agree(tt.flip, xs.flip, [x], {"axis": axis})
    shift = data.draw(st.integers(-5, 5))
    agree(tt.roll, xs.roll, [x, shift], {"axis": axis})
    agree(tt.expand_dims, xs.expand_dims, [x], {"axis": data.draw(st.integers(-n - 1, n))})
    ones = tuple(i for i, d in enumerate(x.shape) if d == 1)
    if ones:
        agree(tt.squeeze, xs.squeeze, [x], {"axis": ones})
    if n:
        order = tuple(data.draw(st.permutations(range(n))))
        agree(tt.permute_dims, xs.permute_dims, [x, order])
        src, dst = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
        agree(tt.moveaxis, xs.moveaxis, [x, src, dst])
        agree(tt.unstack, xs.unstack, [x], {"axis": data.draw(st.integers(-n, n - 1))})


@EXAMPLES
@given(data=st.data())
def test_broadcast_to_and_arrays(data: st.DataObject) -> None:
    shapes = data.draw(xps.mutually_broadcastable_shapes(3, max_dims=3, max_side=3))
    dtype = data.draw(dtypes("all"))
    xs_ = [data.draw(xps.arrays(tt_dtype(dtype), s)) for s in shapes.input_shapes]
    agree(tt.broadcast_to, xs.broadcast_to, [xs_[0], shapes.result_shape])
    agree(tt.broadcast_arrays, xs.broadcast_arrays, xs_)


@EXAMPLES
@given(data=st.data())
def test_concat_and_stack(data: st.DataObject) -> None:
    shape = data.draw(xps.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=3))
    dtype = data.draw(dtypes("all"))
    n = len(shape)
    axis = data.draw(st.integers(-n, n - 1))
    parts = []
    for _ in range(data.draw(st.integers(1, 3))):
        one = list(shape)
        one[axis] = data.draw(st.integers(0, 3))
        parts.append(data.draw(xps.arrays(tt_dtype(dtype), tuple(one))))
    agree(tt.concat, xs.concat, [parts], {"axis": axis})
    agree(tt.concat, xs.concat, [parts], {"axis": None})
    same = [data.draw(xps.arrays(tt_dtype(dtype), shape)) for _ in range(len(parts))]
    agree(tt.stack, xs.stack, [same], {"axis": data.draw(st.integers(-n - 1, n))})


@EXAMPLES
@given(data=st.data())
def test_repeat_and_tile(data: st.DataObject) -> None:
    x = data.draw(_any(), label="x")
    n = x.ndim
    repeats = data.draw(st.integers(0, 3))
    axis = data.draw(st.one_of(st.none(), *([st.integers(-n, n - 1)] if n else [])))
    agree(tt.repeat, xs.repeat, [x, repeats], {"axis": axis})
    reps = tuple(data.draw(st.lists(st.integers(0, 2), min_size=0, max_size=3)))
    agree(tt.tile, xs.tile, [x, reps])


def _any() -> st.SearchStrategy[Any]:
    return st.sampled_from(["bool", "int16", "uint8", "float32", "complex128"]).flatmap(
        lambda n: xps.arrays(tt_dtype(n), SHAPES)
    )


def _matrices() -> st.SearchStrategy[Any]:
    shapes = xps.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=4)
    return st.sampled_from(["bool", "int32", "float64"]).flatmap(
        lambda n: xps.arrays(tt_dtype(n), shapes)
    )
