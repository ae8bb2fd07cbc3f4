"""The Tensor wrapper, constructors, checked casts and elementwise operators."""

from __future__ import annotations

import subprocess
import sys
from typing import Any, TypeVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt

from ._strategies import DTYPES


def test_wraps_without_copy() -> None:
    a = np.arange(6.0).reshape(2, 3)
    x = tt.asarray(a)
    assert x.numpy() is a
    assert np.asarray(x) is a
    assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6 and x.dtype is tt.float64
    assert np.array(x, dtype=np.float32).dtype == np.float32
    assert len(x) == 2


def test_repr_shows_dtype_and_shape() -> None:
    assert repr(tt.zeros((2, 3), tt.int8)).startswith("Tensor[int8, 2, 3](")
    assert repr(tt.asarray(np.float32(1.5))) == "Tensor[float32](1.5)"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("maker", ["zeros", "ones", "empty", "random"])
def test_constructors(dtype: str, maker: str) -> None:
    cls = getattr(tt, dtype + ("_" if dtype == "bool" else ""))
    x = getattr(tt, maker)((2, 0, 3) if maker == "empty" else (2, 3), cls)
    assert x.dtype is cls and x.numpy().dtype == np.dtype(dtype)
    assert x.shape == ((2, 0, 3) if maker == "empty" else (2, 3))
    assert tt.full((4,), 1, dtype=cls).numpy().tolist() == [1] * 4
    assert tt.zeros(3, np.dtype(dtype)).dtype is cls  # numpy dtypes accepted at runtime
    assert tt.zeros(3, dtype).dtype is cls


def test_defaults_and_random_seed() -> None:
    assert tt.zeros((2,)).dtype is tt.float64
    assert tt.arange(4).dtype is tt.int64
    assert tt.full((2,), 1.5).dtype is tt.float64
    a, b = tt.random((5, 4), tt.float32, seed=7), tt.random((5, 4), tt.float32, seed=7)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert tt.random((100,), tt.uint8, seed=1).numpy().max() < 100
    assert set(tt.random((100,), tt.bool_, seed=1).numpy().tolist()) == {True, False}


B = TypeVar("B")


class Batch(tt.Dim):
    """A named batch dim."""


def test_checked_cast() -> None:
    a = np.zeros((4, 3), np.float32)
    assert tt.tensor(a, shape=(4, 3)).numpy() is a
    assert tt.tensor(a, shape=(B, 3), dtype=tt.float32).shape == (4, 3)
    assert tt.tensor(a, shape=(None, Batch)).shape == (4, 3)
    with pytest.raises(tt.ShapeError, match=r"dim 1 is 3 but 5 was declared"):
        tt.tensor(a, shape=(4, 5))
    with pytest.raises(tt.ShapeError, match=r"expected a rank-3 tensor of shape \(4, 3, 1\)"):
        tt.tensor(a, shape=(4, 3, 1))
    with pytest.raises(tt.ShapeError, match="B was bound to 4 by an earlier dim"):
        tt.tensor(a, shape=(B, B))
    with pytest.raises(TypeError, match="expected dtype float64, got float32"):
        tt.tensor(a, shape=(4, 3), dtype=tt.float64)
    # both wrong: the shape bug is reported, not a dtype mismatch whose suggested conversion
    # (tt.asarray(obj, dtype=...)) would hide it
    with pytest.raises(tt.ShapeError, match=r"dim 1 is 3 but 5 was declared"):
        tt.tensor(a, shape=(4, 5), dtype=tt.float64)
    with pytest.raises(TypeError, match="declared dim"):
        tt.tensor(a, shape=(4, "3"))
    with pytest.raises(TypeError, match=r"shape must be a tuple of dims .* got <class"):
        tt.tensor(a, tt.float32)  # type: ignore[call-overload]  # the dtype where the shape goes
    with pytest.raises(TypeError, match="shape must be a tuple of dims"):
        tt.tensor(a, 4)  # type: ignore[call-overload]
    sq = tt.zeros((3, 3))
    assert sq.assert_shape(Batch, Batch) is sq
    with pytest.raises(tt.ShapeError, match="Batch was bound to 3"):
        tt.zeros((3, 4)).assert_shape(Batch, Batch)
    with pytest.raises(TypeError, match=r"cannot be instantiated|no instances"):
        Batch()


def test_scalar_conversions() -> None:
    s = tt.ones((2, 2), tt.int32).sum()
    assert int(s) == 4 and float(s) == 4.0 and bool(s) and s.item() == 4
    with pytest.raises(TypeError, match="len"):
        len(s)


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a**b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
}


@pytest.mark.parametrize("op", sorted(BINARY))
@settings(max_examples=30)
@given(
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4),
    dtypes=st.tuples(
        st.sampled_from(["int32", "float32", "float64", "uint8"]),
        st.sampled_from(["int64", "float32", "int8"]),
    ),
)
def test_binary_ops_match_numpy(op: str, shapes: Any, dtypes: tuple[str, str]) -> None:
    sa, sb = shapes.input_shapes
    rng = np.random.default_rng(0)
    a = (rng.integers(1, 4, sa)).astype(dtypes[0])
    b = (rng.integers(1, 4, sb)).astype(dtypes[1])
    fn = BINARY[op]
    with np.errstate(all="ignore"):
        expected = np.asarray(fn(a, b))
        got = fn(tt.asarray(a), tt.asarray(b))
        mixed = fn(tt.asarray(a), b)  # ndarray operand
    for r in (got, mixed):
        assert isinstance(r, tt.Tensor)
        assert r.shape == expected.shape and r.numpy().dtype == expected.dtype
        np.testing.assert_array_equal(r.numpy(), expected)


@pytest.mark.parametrize("scalar", [2, 2.5, True])
def test_scalars_on_either_side(scalar: Any) -> None:
    x = tt.asarray(np.array([1, 2, 3], np.float32))
    for fn in BINARY.values():
        with np.errstate(all="ignore"):
            left, right = fn(x, scalar), fn(scalar, x)
            el, er = fn(x.numpy(), scalar), fn(scalar, x.numpy())
        assert left.numpy().dtype == np.asarray(el).dtype
        np.testing.assert_array_equal(left.numpy(), el)
        np.testing.assert_array_equal(right.numpy(), er)


def test_unary_and_functions() -> None:
    a = np.array([[-1.0, 4.0], [9.0, -16.0]], np.float32)
    x = tt.asarray(a)
    np.testing.assert_array_equal((-x).numpy(), -a)
    np.testing.assert_array_equal(abs(x).numpy(), np.abs(a))
    np.testing.assert_array_equal(tt.abs(x).numpy(), np.abs(a))
    np.testing.assert_array_equal(tt.negative(x).numpy(), -a)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(tt.sqrt(x).numpy(), np.sqrt(a))
        np.testing.assert_array_equal(tt.log(x).numpy(), np.log(a))
    np.testing.assert_array_equal(tt.exp(x).numpy(), np.exp(a))
    assert tt.exp(tt.arange(3, tt.int32)).dtype is tt.float64
    np.testing.assert_array_equal(tt.maximum(x, 0).numpy(), np.maximum(a, 0))
    np.testing.assert_array_equal(tt.minimum(0.5, x).numpy(), np.minimum(0.5, a))
    with pytest.raises(TypeError, match="takes Tensors"):
        tt.exp("x")  # type: ignore[arg-type]


def test_softmax_and_layer_norm_compose(backend: str) -> None:
    a = np.random.default_rng(2).standard_normal((8, 10)).astype(np.float32)
    x = tt.asarray(a)
    with tt.use_backend(backend):
        softmax = tt.exp(x - x.logsumexp(axis=-1, keepdims=True))
        mu, sd = x.mean(axis=-1, keepdims=True), x.std(axis=-1, keepdims=True)
        ln = (x - mu) / (sd + 1e-5)
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(softmax.numpy(), e / e.sum(axis=-1, keepdims=True), rtol=1e-5)
    ref = (a - a.mean(-1, keepdims=True)) / (a.std(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(ln.numpy(), ref, rtol=1e-4, atol=1e-5)
    assert softmax.shape == ln.shape == (8, 10) and softmax.dtype is tt.float32


def test_backend_selection() -> None:
    default = tt.get_backend()
    with tt.use_backend("numpy"):
        assert tt.get_backend() == "numpy"
    assert tt.get_backend() == default
    code = "import typedtensor as tt; print(tt.get_backend())"
    env_out = subprocess.run(
        [sys.executable, "-c", code],
        env={"TYPEDTENSOR_BACKEND": "numpy", "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert env_out.stdout.strip() == "numpy"


def test_import_does_not_import_numba() -> None:
    code = (
        "import sys, typedtensor as tt\n"
        "x = tt.ones((3, 4))\n"
        "heavy = [m for m in ('numba', 'llvmlite', 'mypy') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
