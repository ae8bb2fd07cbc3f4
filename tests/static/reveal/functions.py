"""The functional API ``tt.sum(x, ...)`` and friends: the same overloads as the methods."""

from typing import Literal as L

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor


def functions(
    x2: Tensor[tt.int8, L[2], L[3]],
    x3: Tensor[tt.float32, L[2], L[3], L[4]],
    x4: Tensor[tt.uint32, L[2], L[3], L[4], L[5]],
    a: int,
) -> None:
    assert_type(tt.sum(x2), Tensor[tt.int64])
    assert_type(tt.sum(x2, 0), Tensor[tt.int64, L[3]])
    assert_type(tt.sum(x2, -1, keepdims=True), Tensor[tt.int64, L[2], L[1]])
    assert_type(tt.prod(x4, (1, 3)), Tensor[tt.uint64, L[2], L[4]])
    assert_type(tt.mean(x3, axis=(0, -1)), Tensor[tt.float32, L[3]])
    assert_type(tt.max(x4, 2, True), Tensor[tt.uint32, L[2], L[3], L[1], L[5]])
    assert_type(tt.min(x3), Tensor[tt.float32])
    assert_type(tt.any(x2, 1), Tensor[tt.bool_, L[2]])
    assert_type(tt.all(x4, None, True), Tensor[tt.bool_, L[1], L[1], L[1], L[1]])
    assert_type(tt.var(x2, 0, ddof=1), Tensor[tt.float64, L[3]])
    assert_type(tt.std(x3, -2), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.argmax(x3, 2), Tensor[tt.int64, L[2], L[3]])
    assert_type(tt.argmin(x2), Tensor[tt.int64])
    assert_type(tt.logsumexp(x3, -1), Tensor[tt.float32, L[2], L[3]])
    assert_type(tt.norm(x3, 2, -1), Tensor[tt.float32, L[2], L[3]])
    assert_type(tt.norm_lp_max(x3, 2, 1e-6, 1), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.norm_lp_sum(x2, axis=0), Tensor[tt.float64, L[3]])
    assert_type(tt.norm_lp_power_p_max(x3, axis=(1, 2)), Tensor[tt.float32, L[2]])
    assert_type(tt.norm_lp_power_p_sum(x3, 2, 0.0, -3, True), Tensor[tt.float32, L[1], L[3], L[4]])
    assert_type(tt.l2_normalize(x3, 1), Tensor[tt.float32, L[2], L[3], L[4]])
    assert_type(tt.sum(x3, a), tt.AnyTensor)


def unsorted_tuples(
    x2: Tensor[tt.int8, L[2], L[3]],
    x3: Tensor[tt.float32, L[2], L[3], L[4]],
    x4: Tensor[tt.uint32, L[2], L[3], L[4], L[5]],
) -> None:
    """Tuples of two axes in any order, three sorted, as for the methods."""
    assert_type(tt.sum(x2, (1, 0)), Tensor[tt.int64])
    assert_type(tt.sum(x3, (2, 0)), Tensor[tt.float32, L[3]])
    assert_type(tt.mean(x3, axis=(-1, 0), keepdims=True), Tensor[tt.float32, L[1], L[3], L[1]])
    assert_type(tt.norm(x4, 2, (2, 1)), Tensor[tt.float64, L[2], L[5]])
    assert_type(tt.max(x3, (0, 1, 2)), Tensor[tt.float32])
    assert_type(tt.prod(x4, (0, 1, -1)), Tensor[tt.uint64, L[4]])
    assert_type(tt.all(x4, (0, 2, 3), True), Tensor[tt.bool_, L[1], L[3], L[1], L[1]])
    # three or four axes out of order: the unknown type (UNSORTED_MAX_AXES = 2)
    assert_type(tt.max(x3, (2, 1, 0)), tt.AnyTensor)
    assert_type(tt.prod(x4, (3, 0, 1)), tt.AnyTensor)
    assert_type(tt.all(x4, (-1, 0, 2), True), tt.AnyTensor)
    assert_type(tt.sum(x4, (3, 2, 1, 0)), tt.AnyTensor)


def out_buffers(
    x3: Tensor[tt.float32, L[2], L[3], L[4]],
    o: Tensor[tt.float32, L[2], L[4]],
    i: Tensor[tt.int64, L[2], L[4]],
    u: tt.AnyTensor,
) -> None:
    """``out=`` returns that buffer, as for the methods."""
    assert_type(tt.sum(x3, 1, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.std(x3, axis=-2, ddof=1, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.norm_lp_sum(x3, 2, 1e-6, 1, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.argmin(x3, 1, out=i), Tensor[tt.int64, L[2], L[4]])
    assert_type(tt.l2_normalize(x3, 1, out=x3), Tensor[tt.float32, L[2], L[3], L[4]])
    assert_type(tt.sum(u, 0, out=o), Tensor[tt.float32, L[2], L[4]])


def norm_keepdims_spellings(x3: Tensor[tt.float32, L[2], L[3], L[4]]) -> None:
    """Every way to pass ``p``/``axis``/``keepdims`` to the norms (``p`` comes first and has a
    default, so their overloads are ordered differently from ``tt.sum``'s)."""
    assert_type(tt.norm(x3, 2, 1, True), Tensor[tt.float32, L[2], L[1], L[4]])
    assert_type(tt.norm(x3, 2, (0, 2), keepdims=True), Tensor[tt.float32, L[1], L[3], L[1]])
    assert_type(tt.norm(x3, axis=-1, keepdims=True), Tensor[tt.float32, L[2], L[3], L[1]])
    assert_type(tt.norm(x3, p=1, axis=(1, 2), keepdims=True), Tensor[tt.float32, L[2], L[1], L[1]])
    assert_type(tt.norm(x3, keepdims=True), Tensor[tt.float32, L[1], L[1], L[1]])
    assert_type(tt.norm(x3, 2, keepdims=True), Tensor[tt.float32, L[1], L[1], L[1]])
    assert_type(tt.norm(x3, 2, None, True), Tensor[tt.float32, L[1], L[1], L[1]])
    assert_type(tt.norm(x3, axis=1), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.norm(x3, 2, (0, 1), False), Tensor[tt.float32, L[4]])
    assert_type(tt.norm(x3, 2, ()), Tensor[tt.float32, L[2], L[3], L[4]])
    assert_type(tt.norm(x3, 2, 1, mode="lp_max", eps=1e-6), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.norm_lp_max(x3, 2, 1e-6, 1, True), Tensor[tt.float32, L[2], L[1], L[4]])
    assert_type(tt.norm_lp_max(x3, axis=-1, keepdims=True), Tensor[tt.float32, L[2], L[3], L[1]])
    assert_type(tt.norm_lp_sum(x3, keepdims=True), Tensor[tt.float32, L[1], L[1], L[1]])


def none_keepdims_spellings(x2: Tensor[tt.int8, L[2], L[3]]) -> None:
    """``axis=None`` with ``keepdims=True``, spelled every way (the overloads that serve a
    call without ``axis`` take ``keepdims`` by keyword only)."""
    assert_type(tt.sum(x2, keepdims=True), Tensor[tt.int64, L[1], L[1]])
    assert_type(tt.sum(x2, None, True), Tensor[tt.int64, L[1], L[1]])
    assert_type(tt.max(x2, axis=None, keepdims=True), Tensor[tt.int8, L[1], L[1]])
    assert_type(tt.mean(x2, None, keepdims=True), Tensor[tt.float64, L[1], L[1]])
    assert_type(tt.argmax(x2, keepdims=True), Tensor[tt.int64, L[1], L[1]])
    assert_type(tt.var(x2, keepdims=True, ddof=1), Tensor[tt.float64, L[1], L[1]])
