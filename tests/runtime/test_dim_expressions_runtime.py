"""Dim expressions at run time: ``x.assert_shape`` and ``@tt.shapecheck`` bind symbols from
plain dims and check expression dims (``tt.Mul[L[2], B]``) against the bound sizes."""

from __future__ import annotations

from typing import Literal as L
from typing import TypeVar

import pytest

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
D = TypeVar("D")
N = TypeVar("N")


class Rows(tt.Dim): ...


@pytest.mark.parametrize(
    ("shape", "dims"),
    [
        ((3, 6), (B, tt.Mul[L[2], B])),
        ((3, 4, 7), (B, N, tt.Add[B, N])),
        ((3, 4), (tt.Sub[B, L[1]], B)),  # the symbol bound after the expression
        ((2, 12, 3), (L[2], D, tt.FloorDiv[D, L[4]])),
        ((4, 8), (Rows, tt.Mul[Rows, L[2]])),
        ((10, 2), (D, tt.IntDiv[D, L[4]])),  # a floor division that need not divide
        ((10, 3, 0), (D, tt.IntDiv[D, L[3]], tt.IntDiv[L[3], D])),
    ],
)
def test_assert_shape_accepts_matching_expression_dims(
    shape: tuple[int, ...], dims: tuple[object, ...]
) -> None:
    declared = tuple(2 if d is L[2] else d for d in dims)
    x = tt.zeros(shape)
    assert x.assert_shape(*declared) is x


@pytest.mark.parametrize(
    ("shape", "dims", "message"),
    [
        ((3, 5), (B, tt.Mul[L[2], B]), "dim 1 is 5 but 2 * B = 6 for B = 3"),
        ((3, 4, 8), (B, N, tt.Add[B, N]), "dim 2 is 8 but B + N = 7 for B = 3, N = 4"),
        ((10, 2), (D, tt.FloorDiv[D, L[4]]), "D // 4 is not an exact division for D = 10"),
        ((10, 3), (D, tt.IntDiv[D, L[4]]), "dim 1 is 3 but D // 4 = 2 for D = 10"),
        ((12, 3), (D, tt.IntDiv[D, tt.FloorDiv[D, L[5]]]), "D // 5 is not an exact division"),
        # the canonical forms (5, D) drop the division; the claim is still checked
        ((12, 5), (D, tt.IntDiv[D, tt.FloorDiv[D, L[5]]]), "D // 5 is not an exact division"),
        ((10, 10), (D, tt.Mul[tt.FloorDiv[D, L[4]], L[4]]), "D // 4 is not an exact division"),
        ((10, 4), (D, tt.IntDiv[D, tt.FloorDiv[D, L[5]]]), "dim 1 is 4 but 5 was declared"),
    ],
)
def test_assert_shape_names_the_expression_and_its_value(
    shape: tuple[int, ...], dims: tuple[object, ...], message: str
) -> None:
    with pytest.raises(tt.ShapeError) as info:
        tt.zeros(shape).assert_shape(*dims)
    assert message in str(info.value)


def test_assert_shape_needs_the_symbols_bound() -> None:
    with pytest.raises(TypeError, match="uses B, which no plain dim binds"):
        tt.zeros((6,)).assert_shape(tt.Mul[L[2], B])


@tt.shapecheck
def _halves(x: Tensor[tt.float32, B, tt.Mul[L[2], B]]) -> Tensor[tt.float32, tt.Mul[L[2], B]]:
    return x.sum(0)


def test_shapecheck_checks_expression_dims() -> None:
    assert _halves(tt.zeros((3, 6), tt.float32)).shape == (6,)
    with pytest.raises(tt.ShapeCheckError) as info:
        _halves(tt.zeros((3, 5), tt.float32))
    text = str(info.value)
    assert "expected Tensor[float32, B, 2 * B], got Tensor[float32, 3, 5]" in text
    assert "2*B=6" in text


@tt.shapecheck
def _quarters(x: Tensor[tt.float32, D]) -> Tensor[tt.float32, tt.IntDiv[D, L[4]]]:
    return x[: x.shape[0] // 4]


def test_shapecheck_checks_floor_divisions_that_need_not_divide() -> None:
    assert _quarters(tt.zeros((10,), tt.float32)).shape == (2,)
    assert _quarters(tt.zeros((3,), tt.float32)).shape == (0,)
    with pytest.raises(tt.ShapeCheckError, match="D//4=2"):
        _off_by_one(tt.zeros((10,), tt.float32))


@tt.shapecheck
def _off_by_one(x: Tensor[tt.float32, D]) -> Tensor[tt.float32, tt.IntDiv[D, L[4]]]:
    return x[: x.shape[0] // 4 + 1]
