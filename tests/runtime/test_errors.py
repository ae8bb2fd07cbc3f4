"""Bad input gets a clear exception of numpy's type, never a crash or a wrong answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import typedtensor as tt

AXIS_OPS = [
    "sum", "prod", "mean", "max", "min", "any", "all", "var", "std", "logsumexp", "norm",
    "norm_lp_max", "norm_lp_sum", "norm_lp_power_p_max", "norm_lp_power_p_sum",
]  # fmt: skip


@pytest.mark.parametrize("op", [*AXIS_OPS, "argmax", "argmin"])
@pytest.mark.parametrize("axis", [3, -4, 10])
def test_out_of_range_axis(backend: str, op: str, axis: int) -> None:
    x = tt.ones((2, 3, 4))
    with tt.use_backend(backend), pytest.raises(np.exceptions.AxisError) as info:
        getattr(x, op)(axis=axis)
    assert isinstance(info.value, tt.AxisError)
    assert str(info.value) == (
        f"axis {axis} is out of range for a rank-3 tensor; valid axes are -3..2"
    )
    assert info.value.axis == axis and info.value.ndim == 3
    with pytest.raises(tt.AxisError):
        getattr(tt, op)(x, axis=axis)


@pytest.mark.parametrize("op", AXIS_OPS)
def test_out_of_range_in_tuple(op: str) -> None:
    with pytest.raises(tt.AxisError, match="axis -5 is out of range for a rank-3 tensor"):
        getattr(tt.ones((2, 3, 4)), op)(axis=(0, -5))


@pytest.mark.parametrize("op", [*AXIS_OPS, "argmax"])
def test_rank_0_rejects_every_int_axis(op: str) -> None:
    x = tt.asarray(np.float64(2.0))
    for axis in (0, -1):
        with pytest.raises(tt.AxisError, match="rank-0 tensor has no axes"):
            getattr(x, op)(axis=axis)
    assert getattr(x, op)(axis=None).shape == ()


@pytest.mark.parametrize("op", AXIS_OPS)
def test_duplicate_axes(op: str) -> None:
    x = tt.ones((2, 3, 4))
    with pytest.raises(ValueError, match="axes 0 and -3 both refer to dim 0 of a rank-3 tensor"):
        getattr(x, op)(axis=(0, -3))
    with pytest.raises(ValueError, match="axis 1 is repeated"):
        getattr(x, op)(axis=(1, 1))


@pytest.mark.parametrize("bad", [1.5, "0", True, [0, 1], (0, "1"), object()])
def test_wrong_axis_type(bad: Any) -> None:
    with pytest.raises(TypeError, match="axis must be"):
        tt.ones((2, 3)).sum(axis=bad)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmax_rejects_tuple(op: str) -> None:
    with pytest.raises(TypeError, match="single axis"):
        getattr(tt.ones((2, 3)), op)(axis=(0, 1))


def test_keepdims_must_be_bool() -> None:
    with pytest.raises(TypeError, match="keepdims must be a bool"):
        tt.ones((2, 3)).sum(axis=0, keepdims=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("op", ["max", "min", "argmax", "argmin"])
def test_empty_without_identity(backend: str, op: str) -> None:
    x = tt.zeros((3, 0))
    with tt.use_backend(backend):
        with pytest.raises(ValueError, match=f"{op} of an empty reduction"):
            getattr(x, op)(axis=1)
        # reducing a non-empty axis of an empty tensor is fine, as in numpy
        assert getattr(x, op)(axis=0).shape == (0,)


def test_empty_with_identity(backend: str) -> None:
    x = tt.zeros((3, 0), tt.int32)
    with tt.use_backend(backend):
        assert x.sum(axis=1).numpy().tolist() == [0, 0, 0]
        assert x.prod(axis=1).numpy().tolist() == [1, 1, 1]
        assert x.any(axis=1).numpy().tolist() == [False] * 3
        assert x.all(axis=1).numpy().tolist() == [True] * 3
        assert np.isnan(x.mean(axis=1).numpy()).all()
        assert (x.logsumexp(axis=1).numpy() == -np.inf).all()
        assert (x.norm(axis=1).numpy() == 0).all()


def test_broadcast_error_names_shapes_and_dim() -> None:
    a, b = tt.ones((10, 20)), tt.ones((30,))
    msg = r"cannot broadcast dim 20 with dim 30 at position -1: shapes \(10, 20\) and \(30,\)"
    with pytest.raises(tt.ShapeError, match=msg):
        a + b
    with pytest.raises(ValueError, match="cannot broadcast"):  # ShapeError is a ValueError
        tt.maximum(a, b)
    with pytest.raises(tt.ShapeError, match=r"shapes \(30,\) and \(10, 20\)"):
        b * a


@pytest.mark.parametrize(
    ("call", "exc", "pattern"),
    [
        (lambda x: x.var(correction=-1), ValueError, "correction must be >= 0"),
        (lambda x: x.std(correction=1, ddof=1), TypeError, "not both"),
        (lambda x: x.norm(2, eps=1e-3), ValueError, "eps is used by the oneDNN norm modes"),
        (lambda x: x.norm(np.inf, mode="lp_max", eps=1.0), ValueError, "finite p > 0"),
        (lambda x: x.norm(2, mode="l3"), ValueError, "unknown norm mode"),
        (lambda x: x.norm("fro"), TypeError, "p must be a real number"),
        (lambda x: x.norm_lp_sum(2, -1.0), ValueError, "eps must be >= 0"),
        (lambda x: x.l2_normalize(variant="keras"), ValueError, "unknown l2_normalize variant"),
        (lambda x: x.reduce_to((1, 3), "argmax"), ValueError, "reduce_to op must be one of"),
        (lambda x: x.sum_to((3, 3)), tt.ShapeError, r"target dim 3 at position -2 is neither 1"),
        (lambda x: x.sum_to((1, 2, 3)), tt.ShapeError, "more dims"),
        (lambda x: x.sum_to((1, "3")), TypeError, "shape entries must be ints"),
        (lambda x: x.astype("float128"), TypeError, "not supported"),
        (lambda x: x + "a", TypeError, "unsupported operand"),
    ],
)
def test_bad_parameters(call: Any, exc: type[Exception], pattern: str) -> None:
    with pytest.raises(exc, match=pattern):
        call(tt.ones((2, 3)))


def test_out_mismatch() -> None:
    x = tt.ones((2, 3), tt.float32)
    with pytest.raises(tt.ShapeError, match=r"out= has shape \(2,\) but sum produces shape \(3,\)"):
        x.sum(axis=0, out=tt.zeros((2,), tt.float32))
    with pytest.raises(TypeError, match="out= has dtype float64 but sum produces float32"):
        x.sum(axis=0, out=tt.zeros((3,), tt.float64))
    with pytest.raises(TypeError, match="out= must be a typedtensor Tensor"):
        x.sum(axis=0, out=np.zeros(3, np.float32))  # type: ignore[arg-type]


def test_unsupported_dtypes() -> None:
    for dtype in (np.longdouble, np.clongdouble, "datetime64[s]", "U3", object):
        with pytest.raises(TypeError, match="not supported"):
            tt.asarray(np.zeros(2, dtype=dtype))
    with pytest.raises(TypeError, match="dtype family"):
        tt.zeros((2,), tt.Floating)
    with pytest.raises(TypeError, match="dtype family"):
        tt.zeros((2,), tt.ComplexFloating)
    with pytest.raises(TypeError, match="markers and cannot be instantiated"):
        tt.float32()


@pytest.mark.parametrize("op", [*AXIS_OPS, "argmax", "argmin", "l2_normalize"])
def test_inputs_never_modified(backend: str, op: str) -> None:
    a = np.random.default_rng(0).standard_normal((4, 5))
    before = a.copy()
    with tt.use_backend(backend):
        getattr(tt.asarray(a), op)(axis=-1)
    np.testing.assert_array_equal(a, before)


def test_unknown_backend() -> None:
    with pytest.raises(ValueError, match="unknown typedtensor backend 'cuda'"):
        tt.set_backend("cuda")
    with pytest.raises(ValueError, match="unknown typedtensor backend"):
        with tt.use_backend("jax"):
            pass
