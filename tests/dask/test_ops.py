"""Operations on dask-backed Tensors: elementwise ops, broadcasting, shape ops, indexing,
matmul, scans (the NaN-aware ones on NaN-heavy inputs too) and the reduction wiring build lazy
graphs (nothing computes) whose results equal
the in-memory Tensor's (numpy's) answers over uneven, 1-element and 0-size chunks; invalid calls
raise the in-memory exception class and message at graph construction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

da = pytest.importorskip("dask.array")

import typedtensor as tt  # noqa: E402
from typedtensor import AnyTensor  # noqa: E402
from typedtensor._dask.tensor import DaskTensor  # noqa: E402

from ._lazy import LAYOUTS, Counted, assert_same, data, exploding  # noqa: E402

Op = Callable[[AnyTensor], Any]

ELEMENTWISE: dict[str, Op] = {
    "add": lambda x: x + 1.5,
    "rsub": lambda x: 2 - x,
    "mul": lambda x: x * x,
    "truediv": lambda x: x / 3,
    "pow": lambda x: x**2,
    "neg": lambda x: -x,
    "pos": lambda x: +x,
    "abs": lambda x: abs(x),
    "lt": lambda x: x < 0.1,
    "eq": lambda x: x == x,
    "ne": lambda x: x != 0.5,
    "exp": tt.exp,
    "log": lambda x: tt.log(abs(x) + 1),
    "sqrt": lambda x: tt.sqrt(abs(x)),
    "negative": tt.negative,
    "tt.abs": tt.abs,
    "maximum": lambda x: tt.maximum(x, 0.0),
    "minimum_broadcast": lambda x: tt.minimum(x, x[:1]),
    "where": lambda x: tt.where(x > 0, x, 0.0),
    "isnan": tt.isnan,
    "isfinite": tt.isfinite,
    "isinf": tt.isinf,
    "astype": lambda x: x.astype(tt.float64),
    "tt.astype_int": lambda x: tt.astype(x * 3, tt.int32),
    "broadcast_column": lambda x: x - x[:, :1],
    "broadcast_row": lambda x: x * x[0],
    "invert_bool": lambda x: ~(x > 0),
    "and_or_xor": lambda x: ((x > 0) & (x < 1)) | ((x > 0) ^ (x < -1)),
    "int_bitwise": lambda x: ~tt.astype(x * 4, tt.int16) & 6,
}

SHAPE_OPS: dict[str, Op] = {
    "T": lambda x: x.T,
    "mT": lambda x: x.mT,
    "transpose": lambda x: x.transpose(1, 0),
    "permute_dims": lambda x: tt.permute_dims(x, (1, 0)),
    "swapaxes": lambda x: x.swapaxes(0, -1),
    "moveaxis": lambda x: tt.moveaxis(tt.expand_dims(x, 0), 0, -1),
    "reshape_uneven": lambda x: x.reshape(6, 7),
    "reshape_split": lambda x: x.reshape((7, 2, 3)),
    "reshape_flat": lambda x: x.reshape(-1),
    "expand_dims": lambda x: tt.expand_dims(x, (0, -1)),
    "squeeze": lambda x: tt.expand_dims(x, 1).squeeze(1),
    "concatenate": lambda x: tt.concatenate([x, x[:, :2]], axis=1),
    "concatenate_none": lambda x: tt.concatenate([x, x], axis=None),
    "stack": lambda x: tt.stack([x, x + 1], axis=-1),
    "broadcast_to": lambda x: tt.broadcast_to(x[:, :1], (2, 7, 6)),
    "matmul": lambda x: x @ x.T,
    "matmul_vector": lambda x: x @ x[0],
    "matmul_batched": lambda x: tt.stack([x, x]) @ x.T,
    "getitem_basic": lambda x: x[1:, None, ::2],
    "getitem_int": lambda x: x[2],
    "getitem_element": lambda x: x[-1, -2],
    "getitem_ellipsis": lambda x: x[..., 1],
    "getitem_int_array": lambda x: x[np.array([0, 3, 3, -1])],
    "getitem_list": lambda x: x[[1, 2], 1:],
    "getitem_bool_rows": lambda x: x[np.array([True, False, True, True, False, False, True])],
    "cumsum": lambda x: tt.cumsum(x, 1),
    "cumsum_flat": lambda x: x.cumsum(),
    "cumprod": lambda x: x.cumprod(0),
    "cumsum_dtype": lambda x: tt.cumsum(x, 0, dtype=tt.float64),
    "cumulative_sum_initial": lambda x: tt.cumulative_sum(x, axis=0, include_initial=True),
    "cumulative_prod_initial": lambda x: tt.cumulative_prod(x, axis=1, include_initial=True),
    "nancumsum": lambda x: tt.nancumsum(x, 1),
    "nancumsum_flat": lambda x: tt.nancumsum(x),
    "nancumprod": lambda x: tt.nancumprod(x, axis=-2),
    "nancumsum_dtype": lambda x: tt.nancumsum(x, 0, dtype=tt.float64),
}

REDUCTIONS: dict[str, Op] = {
    "sum": lambda x: x.sum(axis=0),
    "sum_dtype": lambda x: x.sum(axis=1, dtype=tt.float64),
    "tt.sum": lambda x: tt.sum(x, axis=(0, 1), keepdims=True),
    "prod": lambda x: x.prod(axis=1),
    "mean": lambda x: x.mean(),
    "var": lambda x: x.var(axis=0, correction=1),
    "std": lambda x: tt.std(x, axis=-1, keepdims=True),
    "max": lambda x: x.max(axis=1),
    "min": lambda x: x.min(),
    "any": lambda x: (x > 1).any(axis=0),
    "all": lambda x: (x > -3).all(),
    "argmax": lambda x: x.argmax(axis=0),
    "argmin": lambda x: tt.argmin(x),
    "logsumexp": lambda x: x.logsumexp(axis=1),
    "norm": lambda x: x.norm(1, axis=0),
    "norm_lp_max": lambda x: x.norm_lp_max(2, 1e-3, axis=1),
    "l2_normalize": lambda x: x.l2_normalize(axis=1),
    "reduce_to": lambda x: x.reduce_to((1, 6), "mean"),
    "sum_to": lambda x: x.sum_to((6,)),
    "nansum": lambda x: tt.nansum(x, axis=1),
    "count_nonzero": lambda x: tt.count_nonzero(x > 0, axis=0),
    "broadcast_softmax": lambda x: tt.exp(x - x.max(axis=-1, keepdims=True)),
}


@pytest.mark.parametrize("layout", LAYOUTS, ids=["uneven", "one_element", "zero_size"])
@pytest.mark.parametrize("name", [*ELEMENTWISE, *SHAPE_OPS, *REDUCTIONS])
def test_lazy_result_equals_in_memory(name: str, layout: Any) -> None:
    op = {**ELEMENTWISE, **SHAPE_OPS, **REDUCTIONS}[name]
    shape, chunks = layout
    a = data(shape)
    counted = Counted(a, chunks)
    lazy = op(counted.tensor)
    assert isinstance(lazy, DaskTensor), type(lazy)
    assert counted.calls == [], "building the graph computed chunks"
    assert_same(lazy, op(tt.asarray(a)))
    assert counted.calls  # computing it did


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # float16 overflows to inf, as numpy
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.float16])
def test_matmul_keeps_numpy_dtype(dtype: Any) -> None:
    """dask's blocked matmul sums int and bool products in int64; the result has numpy's
    dtype (int8 wraps as numpy's does: the same residues)."""
    a = (data((5, 7), np.int64, seed=3) * 40).astype(dtype)
    x = tt.asarray(da.from_array(a, chunks=2))
    assert_same(x.T @ x, tt.asarray(a).T @ tt.asarray(a))
    assert_same(x[0] @ x.T, tt.asarray(a)[0] @ tt.asarray(a).T)


def test_split_is_lazy() -> None:
    a = data((6, 4))
    counted = Counted(a, ((4, 2), (3, 1)))
    parts = tt.split(counted.tensor, 3, axis=0)
    assert all(isinstance(p, DaskTensor) for p in parts) and counted.calls == []
    for lazy, eager in zip(parts, tt.split(tt.asarray(a), 3, axis=0), strict=True):
        assert_same(lazy, eager)


def test_setitem_is_lazy_and_keeps_the_values() -> None:
    a = data()
    t = tt.asarray(da.from_array(a.copy(), chunks=3))
    t[1:3] = 5.0
    t[0] = tt.asarray(np.arange(6, dtype=np.float32))
    assert isinstance(t, DaskTensor)
    expected = a.copy()
    expected[1:3] = 5.0
    expected[0] = np.arange(6)
    np.testing.assert_array_equal(t.numpy(), expected)


def test_dask_backed_index_and_value() -> None:
    a = data()
    t = tt.asarray(da.from_array(a.copy(), chunks=3))
    rows = tt.asarray(da.from_array(np.array([6, 0, 2]), chunks=2))
    picked = t[rows]
    assert isinstance(picked, DaskTensor) and picked.shape == (3, 6)
    np.testing.assert_array_equal(picked.numpy(), a[[6, 0, 2]])
    t[1:3] = tt.asarray(da.from_array(np.ones((2, 6), np.float32), chunks=1))
    expected = a.copy()
    expected[1:3] = 1
    np.testing.assert_array_equal(t.numpy(), expected)
    in_memory = tt.asarray(a.copy())
    in_memory[0] = t[2]  # writing into memory computes the value
    np.testing.assert_array_equal(in_memory.numpy()[0], np.ones(6))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("dask", "tensor"),
        ("tensor", "dask"),
        ("dask", "ndarray"),
        ("ndarray", "dask"),
        ("dask", "scalar"),
        ("scalar", "dask"),
        ("dask", "dask_array"),
    ],
)
def test_mixed_operands_give_dask_tensors(left: str, right: str) -> None:
    a, b = data((4, 3), seed=1), data((3,), seed=2)
    kinds: dict[str, Callable[[Any], Any]] = {
        "dask": lambda v: tt.asarray(da.from_array(v, chunks=2)),
        "tensor": tt.asarray,
        "ndarray": lambda v: v,
        "scalar": lambda v: 2.5,
        "dask_array": lambda v: da.from_array(v, chunks=2),
    }
    x, y = kinds[left](a), kinds[right](b)
    for op in (lambda p, q: p + q, lambda p, q: p * q, lambda p, q: p < q):
        result = op(x, y)
        assert isinstance(result, DaskTensor)
        ea = a if left != "scalar" else 2.5
        eb = b if right != "scalar" else 2.5
        np.testing.assert_allclose(result.numpy(), op(np.asarray(ea), np.asarray(eb)))


def test_every_operator_goes_through_the_dask_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tensor's operators are one function each; DaskTensor replaces every one of them with a
    call of its ``_binary`` (dask operands, dtype checks at graph construction)."""
    from typedtensor._tensor import Tensor

    operators = [n for n, op in vars(Tensor).items() if hasattr(op, "binary_ufunc")]
    assert len(operators) == 30  # with // % << >> and their reflected forms (issue #33)
    seen = []
    checked = DaskTensor._binary
    monkeypatch.setattr(
        DaskTensor,
        "_binary",
        lambda self, o, fn, r=False: seen.append(fn) or checked(self, o, fn, r),
    )
    x = tt.asarray(da.from_array(np.arange(6, dtype=np.int64).reshape(2, 3), chunks=2))
    for name in operators:
        result = getattr(x, name)(3)
        assert isinstance(result, DaskTensor), name
        assert seen.pop() is getattr(Tensor, name).binary_ufunc, name


def test_mixed_functions_give_dask_tensors() -> None:
    a = data((4, 3))
    x, t = tt.asarray(da.from_array(a, chunks=2)), tt.asarray(a)
    results = {
        "maximum": (tt.maximum(t, x), np.maximum(a, a)),
        "where": (tt.where(x > 0, t, a[0]), np.where(a > 0, a, a[0])),
        "concatenate": (tt.concatenate([t, x]), np.concatenate([a, a])),
        "stack": (tt.stack([x, t], axis=1), np.stack([a, a], axis=1)),
        "matmul": (t.T @ x, a.T @ a),
        "rmatmul": (a.T @ x, a.T @ a),
    }
    for name, (lazy, expected) in results.items():
        assert isinstance(lazy, DaskTensor), name
        np.testing.assert_allclose(lazy.numpy(), expected, rtol=1e-6, err_msg=name)


#: invalid calls: each raises in memory; the same on a dask-backed tensor, before any compute
ERRORS: dict[str, Op] = {
    "broadcast": lambda x: x + tt.asarray(np.ones(4, np.float32)),
    "broadcast_reflected": lambda x: np.ones((2, 4), np.float32) * x,
    "maximum_broadcast": lambda x: tt.maximum(x, np.ones(4)),
    "where_broadcast": lambda x: tt.where(x > 0, np.ones(4), 0.0),
    "invert_float": lambda x: ~x,
    "and_float": lambda x: x & x,
    "and_float_broadcast": lambda x: x & np.ones(4, np.float32),
    "int_negative_power": lambda x: tt.astype(x, tt.int32) ** -1,
    "bool_subtract": lambda x: (x > 0) - (x < 0),
    "bool_negative": lambda x: -(x > 0),
    "bool_negative_function": lambda x: tt.negative(x > 0),
    "reduce_axis": lambda x: x.sum(axis=2),
    "reduce_duplicate_axes": lambda x: x.mean(axis=(0, -2)),
    "reduce_axis_type": lambda x: x.max(axis=1.0),  # type: ignore[arg-type]
    "reduce_keepdims_type": lambda x: x.sum(keepdims=1),  # type: ignore[arg-type]
    "argmax_tuple": lambda x: x.argmax(axis=(0, 1)),  # type: ignore[arg-type]
    "var_correction": lambda x: x.var(correction=-1),
    "norm_eps_plain": lambda x: x.norm(2, eps=1.0),
    "norm_mode_p": lambda x: x.norm(-1, mode="lp_max"),
    "l2_variant": lambda x: x.l2_normalize(variant="numpy"),  # type: ignore[arg-type]
    "reduce_to_shape": lambda x: x.reduce_to((3,)),
    "reduce_to_op": lambda x: x.reduce_to((1, 6), "argmax"),
    "dtype_name": lambda x: x.sum(dtype="float128"),
    "astype_name": lambda x: x.astype("float128"),
    "transpose_axes": lambda x: x.transpose(0, 0),
    "swapaxes_range": lambda x: x.swapaxes(0, 5),
    "reshape_size": lambda x: x.reshape(5, 5),
    "squeeze_not_one": lambda x: x.squeeze(0),
    "expand_dims_range": lambda x: tt.expand_dims(x, 4),
    "concatenate_dims": lambda x: tt.concatenate([x, x[:, :2]], axis=0),
    "stack_shapes": lambda x: tt.stack([x, x[1:]]),
    "split_sections": lambda x: tt.split(x, 2),
    "broadcast_to_shape": lambda x: tt.broadcast_to(x, (7, 5)),
    "matmul_inner": lambda x: x @ x,
    "matmul_batch": lambda x: tt.stack([x, x, x]) @ tt.stack([x.T, x.T]),
    "index_range": lambda x: x[9],
    "index_negative_range": lambda x: x[:, -7],
    "index_too_many": lambda x: x[0, 0, 0],
    "index_bool_shape": lambda x: x[np.ones(3, bool)],
    "index_float": lambda x: x[1.5],  # type: ignore[index]
    "cumsum_axis": lambda x: tt.cumsum(x, axis=3),
    "cumulative_sum_no_axis": lambda x: tt.cumulative_sum(x),
    "nancumsum_axis": lambda x: tt.nancumsum(x, axis=2),
    "nancumprod_axis": lambda x: tt.nancumprod(x, -3),
    "nancumsum_tuple_axis": lambda x: tt.nancumsum(x, (0,)),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_at_graph_construction(name: str) -> None:
    op = ERRORS[name]
    with pytest.raises(Exception) as eager:
        op(tt.asarray(np.zeros((7, 6), np.float32)))
    with pytest.raises(type(eager.value)) as lazy:
        op(exploding((7, 6)))
    assert type(lazy.value) is type(eager.value)
    assert str(lazy.value) == str(eager.value)


def test_empty_reductions_raise_at_graph_construction() -> None:
    ops: list[Op] = [
        lambda x: x.max(axis=0),
        lambda x: x.argmin(axis=0),
        lambda x: x.norm(float("-inf"), axis=0),
    ]
    for op in ops:
        with pytest.raises(ValueError) as eager:
            op(tt.zeros((0, 3), tt.float32))
        with pytest.raises(ValueError) as lazy:
            op(exploding((0, 3)))
        assert type(lazy.value) is type(eager.value)
        assert str(lazy.value) == str(eager.value)
    assert exploding((0, 3)).sum(axis=0).shape == (3,)  # sums of nothing are fine


def test_setitem_shape_error_as_in_memory() -> None:
    with pytest.raises(ValueError) as eager:
        tt.zeros((7, 6), tt.float32)[1:3] = np.ones(4)
    with pytest.raises(type(eager.value)) as lazy:
        exploding((7, 6))[1:3] = np.ones(4)
    assert str(lazy.value) == str(eager.value)


def test_out_is_rejected() -> None:
    x, out = exploding((7, 6)), tt.zeros((6,), tt.float32)
    for op in (
        lambda: x.sum(axis=0, out=out),
        lambda: x.reduce_to((6,), out=out),
        lambda: tt.cumsum(x, 0, out=out),
        lambda: tt.nancumsum(x, 0, out=out),
    ):
        with pytest.raises(TypeError, match="out= is not supported for dask-backed tensors"):
            op()


def test_unknown_sizes_are_rejected_without_compute() -> None:
    x = exploding((7, 6))
    with pytest.raises(ValueError, match="unknown dim sizes"):
        x[x > 0]
    arr = da.from_array(data(), chunks=3)
    with pytest.raises(ValueError, match="compute_chunk_sizes"):
        tt.asarray(arr[arr > 0])
    known = arr[arr > 0].compute_chunk_sizes()
    assert tt.asarray(known).shape == (int((data() > 0).sum()),)


@st.composite
def _chunked(draw: st.DrawFn, shape: tuple[int, ...], seed: int) -> tuple[Any, AnyTensor]:
    """An array of ``shape`` and a dask-backed Tensor of it in random chunks (0-size ones too)."""
    chunks = []
    for n in shape:
        sizes: list[int] = []
        while sum(sizes) < n:
            sizes.append(draw(st.integers(0 if sizes else 1, n - sum(sizes))))
        chunks.append(tuple(sizes) or (0,))
    a = data(shape, seed=seed)
    return a, tt.asarray(da.from_array(a, chunks=tuple(chunks)))


@settings(max_examples=60, deadline=None)
@given(st.data(), hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=5))
def test_broadcasting_over_random_chunks(draw: st.DataObject, shapes: Any) -> None:
    (a, x), (b, y) = (draw.draw(_chunked(s, i)) for i, s in enumerate(shapes.input_shapes))
    results = {
        "add": (x + y, a + b),
        "mul_mixed": (x * tt.asarray(b), a * b),
        "maximum": (tt.maximum(x, y), np.maximum(a, b)),
        "where": (tt.where(x > 0, x, y), np.where(a > 0, a, b)),
    }
    for name, (lazy, expected) in results.items():
        assert isinstance(lazy, DaskTensor) and lazy.shape == shapes.result_shape, name
        np.testing.assert_allclose(lazy.numpy(), expected, rtol=1e-6, err_msg=name)


def test_split_every_from_dask_config() -> None:
    dask = pytest.importorskip("dask")
    a = data((64, 3))
    x = tt.asarray(da.from_array(a, chunks=(1, 3)))
    default = x.var(axis=0)
    with dask.config.set(split_every=2):
        binary = x.var(axis=0)
    assert len(dict(binary.__dask_graph__())) > len(dict(default.__dask_graph__()))  # type: ignore[attr-defined]
    for lazy in (default, binary):
        assert_same(lazy, tt.asarray(a).var(axis=0))


@pytest.mark.parametrize(
    "name", [n for n in tt.reductions.__all__ if n not in ("reduce_to", "sum_to")]
)
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_every_reduction_function_is_lazy(name: str, axis: int | None) -> None:
    a = data((7, 6))
    a[1, 2] = np.nan  # the nan* functions skip it; the others propagate it
    if axis is None and name in ("l2_normalize",):
        axis = 1
    counted = Counted(a, ((3, 4), (2, 4)))
    fn = getattr(tt, name)
    lazy = fn(counted.tensor, axis=axis)
    assert isinstance(lazy, DaskTensor) and counted.calls == []
    assert_same(lazy, fn(tt.asarray(a), axis=axis))


def test_dask_backed_out_of_an_in_memory_reduction_is_rejected() -> None:
    x, out = tt.ones((3, 2)), tt.asarray(da.zeros((2,), chunks=1))
    with pytest.raises(TypeError, match="out= must be an in-memory Tensor"):
        x.sum(axis=0, out=out)
    with pytest.raises(TypeError, match="out= must be an in-memory Tensor"):
        tt.cumsum(x, 0, out=tt.asarray(da.zeros((3, 2), chunks=1)))


@pytest.mark.parametrize("op", ["nancumsum", "nancumprod"])
@settings(max_examples=40, deadline=None)
@given(draw=st.data())
def test_nan_scans_equal_numpy(op: str, draw: st.DataObject) -> None:
    """NaN-heavy inputs with an all-NaN slice, ranks 0..3 over random chunks (0-size and
    1-element ones included), every axis, ``dtype=``; ints and bool scan as cumsum/cumprod:
    lazily built, then numpy's values, shape and dtype."""
    dtype = draw.draw(st.sampled_from(["float32", "float64", "int16", "uint8", "bool"]))
    shape = draw.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    rng = np.random.default_rng(draw.draw(st.integers(0, 2**16), label="seed"))
    a = np.asarray((rng.standard_normal(shape) * 2).astype(dtype))
    if dtype.startswith("float") and a.size:
        a[rng.random(shape) < draw.draw(st.sampled_from([0.3, 0.9]), label="density")] = np.nan
        if a.ndim:  # an all-NaN slice of the last axis
            a[..., draw.draw(st.integers(0, shape[-1] - 1), label="all-NaN index")] = np.nan
    axis = draw.draw(st.sampled_from([None, *range(-max(a.ndim, 1), max(a.ndim, 1))]))
    chunks = tuple(
        draw.draw(st.sampled_from([n or 1, 1, max(n // 2, 1), (0, n) if n else 1])) for n in shape
    )
    target = draw.draw(st.sampled_from([None, None, "float64", tt.float32, np.dtype("int64")]))
    counted = Counted(a, chunks)
    lazy = getattr(tt, op)(counted.tensor, axis, target)
    assert isinstance(lazy, DaskTensor) and counted.calls == []
    with np.errstate(all="ignore"):
        want = getattr(np, op)(a, axis=axis, dtype=getattr(target, "numpy_dtype", target))
    got = lazy.compute().numpy()
    assert got.dtype == want.dtype and got.shape == want.shape, (a.shape, chunks, axis)
    if got.dtype.kind == "f":
        tol = 1e-5 if got.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", ["cumsum", "nancumsum", "cumprod"])
@pytest.mark.parametrize(
    ("shape", "chunks"),
    [((0, 3), (1, 2)), ((3, 0), (2, 1)), ((2, 0, 3), (1, 1, 2)), ((4, 0), ((2, 0, 2), (0,)))],
)
def test_scans_flatten_empty_arrays(op: str, shape: tuple[int, ...], chunks: Any) -> None:
    # axis=None of an empty rank >= 2 array: dask's reshape cannot flatten it; numpy gives (0,)
    a = np.zeros(shape, np.float32)
    got = getattr(tt, op)(tt.asarray(da.from_array(a, chunks=chunks))).compute().numpy()
    want = getattr(np, op)(a)
    assert got.shape == want.shape == (0,) and got.dtype == want.dtype
    initial = tt.cumulative_sum(
        tt.asarray(da.from_array(a[..., :0].ravel(), chunks=1)), include_initial=True
    )
    np.testing.assert_array_equal(initial.compute().numpy(), np.zeros(1, np.float32))
