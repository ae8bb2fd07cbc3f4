"""matmul, indexing (``x[...]``, ``x[...] = v``), ``where``, ``astype``, bool operators and
``isnan/isfinite/isinf`` against numpy: results (shape, dtype, values), errors (numpy's class or
a subclass), inputs never modified, every layout."""

from __future__ import annotations

import itertools
import operator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from typedtensor import _rules as rules
from typedtensor._indexing import index_items

from ._strategies import DTYPES, arrays

SETTINGS = settings(max_examples=150, deadline=None)
#: typedtensor's own dtypes (the shape rules' table), as numpy dtypes
NP_DTYPES = [np.dtype(d) for d in DTYPES]


def _sample(dtype: np.dtype[Any], shape: tuple[int, ...], seed: int = 0) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _same(result: tt.AnyTensor, expected: Any) -> None:
    expected = np.asarray(expected)
    assert isinstance(result, tt.Tensor)
    assert result.shape == expected.shape
    assert result.numpy().dtype == expected.dtype
    np.testing.assert_array_equal(result.numpy(), expected)


def _raises_like(expected: BaseException, call: Any) -> None:
    """``call()`` raises ``type(expected)`` or a subclass of it."""
    with pytest.raises(type(expected)):
        call()


# ------------------------------------------------------------------------------------ matmul
@pytest.mark.parametrize(("a", "b"), list(itertools.product(NP_DTYPES, repeat=2)), ids=str)
def test_matmul_every_dtype_pair(a: np.dtype[Any], b: np.dtype[Any]) -> None:
    x, y = _sample(a, (2, 3, 4)), _sample(b, (4, 5), seed=1)
    try:
        expected = np.matmul(x, y)
    except TypeError as err:  # numpy has no loop for the pair
        _raises_like(err, lambda: tt.asarray(x) @ tt.asarray(y))
        return
    result = tt.asarray(x) @ tt.asarray(y)
    assert result.numpy().dtype == expected.dtype
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-5)
    if a.name in rules.DTYPE_NAMES and b.name in rules.DTYPE_NAMES:
        assert result.numpy().dtype.name == rules.promote(a.name, b.name)


@st.composite
def _matmul_shapes(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    side = st.integers(0, 3)
    n, m, k = draw(side), draw(side), draw(side)
    batch = draw(st.lists(side, max_size=3))
    left_batch = [draw(st.sampled_from([d, 1])) for d in batch]
    right_batch = [draw(st.sampled_from([d, 1])) for d in batch][draw(st.integers(0, len(batch))) :]
    a: tuple[int, ...] = (*left_batch, n, k) if draw(st.booleans()) else (k,)
    b: tuple[int, ...] = (*right_batch, k, m) if draw(st.booleans()) else (k,)
    if draw(st.integers(0, 4)) == 0:  # sometimes a mismatch (inner or batch)
        b = (*b[:-2], k + 1, m) if len(b) >= 2 else (k + 1,)
    return a, b


@SETTINGS
@given(_matmul_shapes(), st.sampled_from(["C", "F", "negative", "readonly"]))
def test_matmul_shapes_against_numpy(
    shapes: tuple[tuple[int, ...], tuple[int, ...]], layout: str
) -> None:
    x, y = _sample(np.dtype("float64"), shapes[0]), _sample(np.dtype("float64"), shapes[1], 1)
    if layout == "F":
        x, y = np.asfortranarray(x), np.asfortranarray(y)
    elif layout == "negative" and x.ndim:
        x = np.ascontiguousarray(x[::-1])[::-1]
    elif layout == "readonly":
        x.flags.writeable = False
    before = (x.copy(), y.copy())
    try:
        expected = np.matmul(x, y)
    except ValueError as err:
        _raises_like(err, lambda: tt.matmul(tt.asarray(x), tt.asarray(y)))
        with pytest.raises(tt.ShapeError):  # typedtensor's class, with its message
            tt.asarray(x) @ tt.asarray(y)
        return
    result = tt.matmul(tt.asarray(x), y)  # an ndarray operand works too
    assert result.shape == expected.shape
    assert result.shape == rules.matmul_shape(x.shape, y.shape)
    np.testing.assert_allclose(result.numpy(), expected)
    np.testing.assert_array_equal(x, before[0])
    np.testing.assert_array_equal(y, before[1])


def test_matmul_errors_and_operands() -> None:
    a, b = tt.zeros((2, 3)), tt.zeros((4, 5))
    with pytest.raises(tt.ShapeError, match=r"last dim is 3 but the right operand's second"):
        a @ b
    with pytest.raises(ValueError, match="rank 0"):
        a @ tt.zeros(())
    with pytest.raises(ValueError, match="rank 0"):
        a @ 2  # type: ignore[operator]
    with pytest.raises(ValueError, match="rank 0"):
        2 @ a  # type: ignore[operator]
    with pytest.raises(ValueError):
        tt.zeros((2, 2, 3)) @ tt.zeros((3, 3, 4))  # batch 2 vs 3
    with pytest.raises(TypeError):
        tt.matmul(a, "x")
    left = np.ones((5, 2)) @ a  # ndarray @ Tensor: Tensor.__rmatmul__
    assert isinstance(left, tt.Tensor) and left.shape == (5, 3)
    right = a @ np.ones((3, 4))
    assert isinstance(right, tt.Tensor) and right.shape == (2, 4)
    vv = tt.ones((3,)) @ tt.ones((3,))
    assert isinstance(vv, tt.Tensor) and vv.shape == () and float(vv) == 3.0


# ---------------------------------------------------------------------------------- indexing
_ITEMS: list[Any] = [
    0,
    -1,
    2,
    -3,
    slice(None),
    slice(1, None),
    slice(None, None, -1),
    slice(-10, 2),
    slice(3, 0, -2),
    None,
    Ellipsis,
    np.array([0, 1]),
    np.array([[0], [-1]]),
    np.array(True),
    [0, 0, 1],
    tt.asarray(np.array([1, 0])),  # a Tensor as an integer array
]


def _numpy_index(index: Any) -> Any:
    """The index numpy is given: Tensors replaced by their arrays."""
    if isinstance(index, tuple):
        return tuple(i.numpy() if isinstance(i, tt.Tensor) else i for i in index)
    return index.numpy() if isinstance(index, tt.Tensor) else index


@st.composite
def _indices(draw: st.DrawFn) -> Any:
    items = draw(st.lists(st.sampled_from(_ITEMS), max_size=4))
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


@SETTINGS
@given(arrays(min_rank=0, max_rank=5), _indices())
def test_getitem_against_numpy(case: Any, index: Any) -> None:
    data = case.array
    before = data.copy()
    x = tt.asarray(data)
    try:
        expected = data[_numpy_index(index)]
    except (IndexError, ValueError, TypeError) as err:
        _raises_like(err, lambda: x[index])
        return
    result = x[index]
    _same(result, expected)
    np.testing.assert_array_equal(data, before)
    got = rules.index_shape(data.shape, index_items(index), make=int, unknown=None)
    assert got is not None and len(got) == expected.ndim
    assert all(g is None or g == w for g, w in zip(got, expected.shape, strict=True)), (
        got,
        expected.shape,
    )


def test_index_shape_rule_exhaustive() -> None:
    """Every combination of up to 3 items on a few shapes: the rule's shape equals numpy's
    (data-dependent sizes are ``None``), or both reject the index."""
    shapes = [(4, 5, 6), (3,), (0, 2), (1, 1, 1), (), (2, 3)]
    items = [
        0,
        -1,
        3,
        slice(None),
        slice(1, None),
        slice(None, None, -2),
        slice(-10, 2),
        None,
        Ellipsis,
        np.array([0, 0]),
        np.array([[0], [0]]),
        np.array(True),
        np.array([True, False]),
    ]
    checked = 0
    for shape in shapes:
        data = np.zeros(shape)
        for n in range(4):
            for index in itertools.product(items, repeat=n):
                has_array = any(isinstance(i, np.ndarray) for i in index)
                parsed = tuple(
                    rules.ArrayIndex(i.shape, i.dtype == bool) if isinstance(i, np.ndarray) else i
                    for i in index
                )
                try:
                    want: tuple[int, ...] | None = data[index].shape
                except IndexError:
                    want = None
                try:
                    got = rules.index_shape(shape, parsed, make=int, unknown=None)
                except rules.RuleError:
                    got = None
                if want is None and has_array:
                    continue  # array values out of range: data-dependent, numpy's check
                if want is None or got is None:
                    assert want is None and got is None, (shape, index, want, got)
                    continue
                assert len(got) == len(want), (shape, index, want, got)
                assert all(g is None or g == w for g, w in zip(got, want, strict=True)), (
                    shape,
                    index,
                )
                checked += 1
    assert checked > 2000


def test_getitem_errors_and_rank0() -> None:
    x = tt.asarray(np.arange(24).reshape(2, 3, 4))
    with pytest.raises(IndexError, match=r"index 2 is out of range for dim 0 of size 2"):
        x[2]
    with pytest.raises(IndexError, match=r"index -5 is out of range for dim 2 of size 4"):
        x[0, 0, -5]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(ValueError, match="step cannot be zero"):
        x[::0]
    with pytest.raises(IndexError):
        x[np.array([True, False, True])]  # mask of the wrong length
    with pytest.raises(IndexError):
        x["a"]  # type: ignore[index]
    scalar = x[1, 2, 3]
    assert isinstance(scalar, tt.Tensor) and scalar.shape == () and int(scalar) == 23
    mask = x > 20
    assert x[mask].shape == (3,) and x[tt.asarray(np.array([1, 0]))].shape == (2, 3, 4)


@SETTINGS
@given(
    arrays(min_rank=1, max_rank=4), _indices(), st.sampled_from(["scalar", "same", "row", "bad"])
)
def test_setitem_against_numpy(case: Any, index: Any, kind: str) -> None:
    data = np.array(case.array)  # a writable copy
    index = _numpy_index(index)
    try:
        target = data[index].shape
    except (IndexError, ValueError, TypeError):
        return
    if kind == "scalar":
        value: Any = data.flat[0] if data.size else 0
    elif kind == "same":
        value = np.ones(target, dtype=data.dtype)
    elif kind == "row":
        value = np.zeros(target[-1:], dtype=data.dtype)
    else:
        value = np.zeros((*target[:-1], target[-1] + 2) if target else (2,), dtype=data.dtype)
    expected = data.copy()
    x = tt.asarray(data.copy())
    try:
        expected[index] = value
    except (IndexError, ValueError) as err:
        _raises_like(err, lambda: operator.setitem(x, index, tt.asarray(value)))
        return
    x[index] = tt.asarray(value) if isinstance(value, np.ndarray) else value
    np.testing.assert_array_equal(x.numpy(), expected)


def test_setitem_errors() -> None:
    x = tt.zeros((4, 3))
    with pytest.raises(tt.ShapeError, match=r"value of shape \(2,\) to an indexed shape \(4, 3\)"):
        x[:] = tt.zeros((2,))
    with pytest.raises(IndexError, match="index 7 is out of range"):
        x[7] = 1.0
    frozen = np.zeros((2, 2))
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        tt.asarray(frozen)[0] = 1.0
    x[1:3] = tt.ones((1, 3))
    np.testing.assert_array_equal(x.numpy()[:, 0], [0, 1, 1, 0])


def test_assign_check_rule() -> None:
    rules.assign_check((4, 3), (3,))
    rules.assign_check((4, 3), (1, 1, 3))
    for bad in [(2,), (2, 4, 3), (4, 1, 3)]:
        with pytest.raises(rules.AssignShapeError):
            rules.assign_check((4, 3), bad)


# ------------------------------------------------------------------ where, astype, bool ops
@pytest.mark.parametrize(("a", "b"), list(itertools.product(NP_DTYPES, repeat=2)), ids=str)
def test_where_every_dtype_pair(a: np.dtype[Any], b: np.dtype[Any]) -> None:
    cond = _sample(np.dtype(bool), (3, 1), 2)
    x, y = _sample(a, (4,)), _sample(b, (3, 4), 1)
    _same(tt.where(tt.asarray(cond), tt.asarray(x), tt.asarray(y)), np.where(cond, x, y))
    if a.name in rules.DTYPE_NAMES and b.name in rules.DTYPE_NAMES:
        assert np.where(cond, x, y).dtype.name == rules.promote(a.name, b.name)


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
@pytest.mark.parametrize("scalar", [True, 2, 1.5])
def test_where_python_scalars(dtype: np.dtype[Any], scalar: Any) -> None:
    cond = _sample(np.dtype(bool), (2, 3))
    x = _sample(dtype, (3,))
    _same(tt.where(tt.asarray(cond), tt.asarray(x), scalar), np.where(cond, x, scalar))
    _same(tt.where(tt.asarray(cond), scalar, tt.asarray(x)), np.where(cond, scalar, x))
    _same(tt.where(tt.asarray(cond), scalar, 0), np.where(cond, scalar, 0))


def test_where_errors() -> None:
    with pytest.raises(tt.ShapeError):
        tt.where(tt.zeros((2,), tt.bool_), tt.zeros((3,)), 0.0)
    with pytest.raises(TypeError):
        tt.where(tt.zeros((2,), tt.bool_), "a", 0.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("a", "b"), list(itertools.product(NP_DTYPES, repeat=2)), ids=str)
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_astype_every_pair(a: np.dtype[Any], b: np.dtype[Any]) -> None:
    data = _sample(a, (2, 0, 3)) if a == b else _sample(a, (2, 3))
    data.flags.writeable = False
    cls = tt.asarray(np.zeros((), b)).dtype
    with np.errstate(all="ignore"):
        expected = data.astype(b)
        _same(tt.astype(tt.asarray(data), cls), expected)
        _same(tt.asarray(data).astype(b.name), expected)


_BITWISE = [operator.and_, operator.or_, operator.xor]


@pytest.mark.parametrize(("a", "b"), list(itertools.product(NP_DTYPES, repeat=2)), ids=str)
@pytest.mark.parametrize("op", _BITWISE, ids=lambda f: f.__name__)
def test_bitwise_every_dtype_pair(a: np.dtype[Any], b: np.dtype[Any], op: Any) -> None:
    x, y = _sample(a, (2, 3)), _sample(b, (3,), 1)
    try:
        expected = op(x, y)
    except TypeError as err:
        _raises_like(err, lambda: op(tt.asarray(x), tt.asarray(y)))
        return
    _same(op(tt.asarray(x), tt.asarray(y)), expected)
    _same(op(tt.asarray(x), y), expected)  # an ndarray operand


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_invert_and_scalars_and_float_checks(dtype: np.dtype[Any]) -> None:
    data = _sample(dtype, (2, 3))
    x = tt.asarray(data)
    for call, ref in [
        (lambda: ~x, lambda: ~data),
        (lambda: x & 1, lambda: data & 1),
        (lambda: True | x, lambda: True | data),
        (lambda: x ^ 2.5, lambda: data ^ 2.5),
    ]:
        try:
            expected = ref()
        except TypeError as err:
            _raises_like(err, call)
            continue
        _same(call(), expected)
    with np.errstate(all="ignore"):
        for fn, ref_fn in [(tt.isnan, np.isnan), (tt.isfinite, np.isfinite), (tt.isinf, np.isinf)]:
            try:
                expected = ref_fn(data)
            except TypeError as err:
                _raises_like(err, lambda fn=fn: fn(x))  # type: ignore[misc]
                continue
            _same(fn(x), expected)


def test_isnan_family_values() -> None:
    data = np.array([[np.nan, np.inf], [-np.inf, 1.0]], dtype=np.float32)
    x = tt.asarray(data)
    _same(tt.isnan(x), [[True, False], [False, False]])
    _same(tt.isinf(x), [[False, True], [True, False]])
    _same(tt.isfinite(x), [[False, False], [False, True]])


@st.composite
def _three_way(draw: st.DrawFn) -> tuple[Any, Any, Any]:
    """A condition, x and y whose shapes broadcast together (or, sometimes, do not)."""
    base = draw(arrays(min_rank=0, max_rank=5))
    shape = base.array.shape
    others = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, base_shape=shape, max_dims=5, min_side=0)
    )
    x_shape, y_shape = others.input_shapes
    if draw(st.integers(0, 5)) == 0 and y_shape:
        y_shape = (*y_shape[:-1], y_shape[-1] + 2)
    x = _sample(np.dtype(draw(st.sampled_from(DTYPES))), x_shape, 1)
    y = _sample(np.dtype(draw(st.sampled_from(DTYPES))), y_shape, 2)
    return base.array.astype(bool), x, y


@SETTINGS
@given(_three_way())
def test_where_shapes_and_layouts(operands: tuple[Any, Any, Any]) -> None:
    cond, x, y = operands
    cond.flags.writeable = False  # read-only inputs work and are never modified
    before = [cond.copy(), x.copy(), y.copy()]
    try:
        expected = np.where(cond, x, y)
    except ValueError as err:
        _raises_like(err, lambda: tt.where(tt.asarray(cond), tt.asarray(x), tt.asarray(y)))
        return
    _same(tt.where(tt.asarray(cond), tt.asarray(x), tt.asarray(y)), expected)
    for arr, old in zip((cond, x, y), before, strict=True):
        np.testing.assert_array_equal(arr, old)


@SETTINGS
@given(_three_way(), st.sampled_from(_BITWISE))
def test_bitwise_shapes_and_layouts(operands: tuple[Any, Any, Any], op: Any) -> None:
    mask, x, _ = operands
    layouts = [mask, np.asfortranarray(mask), mask[::-1] if mask.ndim else mask]
    for m in layouts:
        try:
            expected = op(m, x)
        except (ValueError, TypeError) as err:
            _raises_like(err, lambda m=m: op(tt.asarray(m), tt.asarray(x)))
            continue
        _same(op(tt.asarray(m), tt.asarray(x)), expected)
        _same(~tt.asarray(m), ~m)
