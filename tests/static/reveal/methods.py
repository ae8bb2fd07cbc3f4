"""Reduction methods on literal shapes: exact shapes and dtypes from the generated overloads."""

from typing import Final, Literal as L

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor

AXIS: Final = 1


def ranks(
    x0: Tensor[tt.float32],
    x1: Tensor[tt.float32, L[5]],
    x2: Tensor[tt.int8, L[2], L[3]],
    x3: Tensor[tt.uint16, L[2], L[3], L[4]],
    x4: Tensor[tt.bool_, L[2], L[3], L[4], L[5]],
) -> None:
    # axis=None and keepdims, every rank
    assert_type(x0.sum(), Tensor[tt.float32])
    assert_type(x1.sum(), Tensor[tt.float32])
    assert_type(x1.sum(keepdims=True), Tensor[tt.float32, L[1]])
    assert_type(x4.sum(None, True), Tensor[tt.int64, L[1], L[1], L[1], L[1]])
    # single axes, positive and negative spellings
    assert_type(x1.sum(0), Tensor[tt.float32])
    assert_type(x1.sum(-1, keepdims=True), Tensor[tt.float32, L[1]])
    assert_type(x2.sum(0), Tensor[tt.int64, L[3]])
    assert_type(x2.sum(-2), Tensor[tt.int64, L[3]])
    assert_type(x2.sum(axis=1, keepdims=True), Tensor[tt.int64, L[2], L[1]])
    assert_type(x3.sum(1), Tensor[tt.uint64, L[2], L[4]])
    assert_type(x3.sum(-2, keepdims=True), Tensor[tt.uint64, L[2], L[1], L[4]])
    assert_type(x3.sum(AXIS), Tensor[tt.uint64, L[2], L[4]])
    assert_type(x4.sum(2), Tensor[tt.int64, L[2], L[3], L[5]])
    assert_type(x4.sum(-3), Tensor[tt.int64, L[2], L[4], L[5]])
    # tuples of axes (sorted; negative aliases folded)
    assert_type(x2.sum((0, 1)), Tensor[tt.int64])
    assert_type(x2.sum((0, -1), keepdims=True), Tensor[tt.int64, L[1], L[1]])
    assert_type(x3.sum((0, 2)), Tensor[tt.uint64, L[3]])
    assert_type(x3.sum((-3, -1)), Tensor[tt.uint64, L[3]])
    assert_type(x3.sum((1,)), Tensor[tt.uint64, L[2], L[4]])
    assert_type(x4.sum((1, 2, 3)), Tensor[tt.int64, L[2]])
    assert_type(x4.sum((0, -1), True), Tensor[tt.int64, L[1], L[3], L[4], L[1]])
    assert_type(x4.sum((0, 1, 2, 3)), Tensor[tt.int64])
    assert_type(x4.sum(()), Tensor[tt.int64, L[2], L[3], L[4], L[5]])
    assert_type(x4.max(()), Tensor[tt.bool_, L[2], L[3], L[4], L[5]])


def unsorted_tuples(
    x2: Tensor[tt.int8, L[2], L[3]],
    x3: Tensor[tt.uint16, L[2], L[3], L[4]],
    x4: Tensor[tt.float32, L[2], L[3], L[4], L[5]],
) -> None:
    # tuples of two axes in any order (negative spellings too), keepdims both ways
    assert_type(x2.sum((1, 0)), Tensor[tt.int64])
    assert_type(x2.max((-1, 0), keepdims=True), Tensor[tt.int8, L[1], L[1]])
    assert_type(x3.sum(axis=(2, 0)), Tensor[tt.uint64, L[3]])
    assert_type(x3.sum((2, 0), keepdims=True), Tensor[tt.uint64, L[1], L[3], L[1]])
    assert_type(x4.sum((3, 1)), Tensor[tt.float32, L[2], L[4]])
    assert_type(x4.norm(2, (1, 0)), Tensor[tt.float32, L[4], L[5]])
    # three and four axes: sorted (either spelling) exact
    assert_type(x3.mean((-3, 1, 2)), Tensor[tt.float64])
    assert_type(x3.any((0, 1, 2), True), Tensor[tt.bool_, L[1], L[1], L[1]])
    assert_type(x4.var(axis=(0, 1, 3)), Tensor[tt.float32, L[4]])
    assert_type(x4.var(axis=(-4, 1, 3), keepdims=True), Tensor[tt.float32, L[1], L[1], L[4], L[1]])
    assert_type(x4.sum((0, 1, 2, 3)), Tensor[tt.float32])
    # three or four axes in another order: the unknown type (UNSORTED_MAX_AXES = 2, the
    # pyright budget), never a wrong exact one
    assert_type(x3.mean((2, -3, 1)), tt.AnyTensor)
    assert_type(x4.min((-1, 2, 0)), tt.AnyTensor)
    assert_type(x4.sum((3, 2, 1, 0)), tt.AnyTensor)
    # a dim named twice is no set of dims: no exact answer
    assert_type(x4.sum((0, 1, 0)), tt.AnyTensor)


def dtype_rules(
    b: Tensor[tt.bool_, L[2], L[3]],
    i: Tensor[tt.int32, L[2], L[3]],
    u: Tensor[tt.uint8, L[2], L[3]],
    f: Tensor[tt.float32, L[2], L[3]],
    d: Tensor[tt.float64, L[2], L[3]],
) -> None:
    # SUM: bool and signed -> int64, unsigned -> uint64, floats kept
    assert_type(b.prod(0), Tensor[tt.int64, L[3]])
    assert_type(i.prod(0), Tensor[tt.int64, L[3]])
    assert_type(u.prod(0), Tensor[tt.uint64, L[3]])
    assert_type(f.prod(0), Tensor[tt.float32, L[3]])
    # FLOAT: bool and ints -> float64, floats kept
    assert_type(b.mean(1), Tensor[tt.float64, L[2]])
    assert_type(u.var(1), Tensor[tt.float64, L[2]])
    assert_type(f.std(1, correction=1), Tensor[tt.float32, L[2]])
    assert_type(d.logsumexp(-1), Tensor[tt.float64, L[2]])
    # SAME
    assert_type(u.max(0), Tensor[tt.uint8, L[3]])
    assert_type(i.min(-1, keepdims=True), Tensor[tt.int32, L[2], L[1]])
    # BOOL and INDEX
    assert_type(f.any(0), Tensor[tt.bool_, L[3]])
    assert_type(i.all(), Tensor[tt.bool_])
    assert_type(f.argmax(1), Tensor[tt.int64, L[2]])
    assert_type(u.argmin(keepdims=True), Tensor[tt.int64, L[1], L[1]])


def norms(x: Tensor[tt.float32, L[8], L[64]], n: Tensor[tt.int16, L[8], L[64]]) -> None:
    assert_type(x.norm(), Tensor[tt.float32])
    assert_type(x.norm(2, -1), Tensor[tt.float32, L[8]])
    assert_type(x.norm(axis=0, keepdims=True), Tensor[tt.float32, L[1], L[64]])
    assert_type(n.norm(1, 1, mode="plain"), Tensor[tt.float64, L[8]])
    assert_type(x.norm_lp_max(2, 1e-6, -1), Tensor[tt.float32, L[8]])
    assert_type(x.norm_lp_sum(axis=(0, 1)), Tensor[tt.float32])
    assert_type(x.norm_lp_power_p_max(2, 0.0, 0, True), Tensor[tt.float32, L[1], L[64]])
    assert_type(n.norm_lp_power_p_sum(axis=-1), Tensor[tt.float64, L[8]])
    assert_type(x.l2_normalize(), Tensor[tt.float32, L[8], L[64]])
    assert_type(n.l2_normalize(0, variant="pytorch"), Tensor[tt.float64, L[8], L[64]])


def unknown(x: Tensor[tt.float32, L[2], L[3]], a: int, k: bool) -> None:
    # non-literal axis or keepdims: the unknown-shape type, never a wrong exact shape
    assert_type(x.sum(a), tt.AnyTensor)
    assert_type(x.sum(0, k), tt.AnyTensor)


def out_buffers(
    x3: Tensor[tt.float32, L[2], L[3], L[4]],
    o: Tensor[tt.float32, L[2], L[4]],
    k: Tensor[tt.float32, L[2], L[1], L[4]],
    f: Tensor[tt.float32, L[4]],
    i: Tensor[tt.int64, L[2], L[4]],
    y: Tensor[tt.float32, tt.Dim, L[4]],
    u: tt.AnyTensor,
) -> None:
    """A call with ``out=`` returns that buffer (the runtime returns it, after checking that its
    shape and dtype are exactly the result's), whatever the receiver."""
    assert_type(x3.sum(1, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(x3.mean(axis=-2, keepdims=True, out=k), Tensor[tt.float32, L[2], L[1], L[4]])
    assert_type(x3.var((0, 1), ddof=1, out=f), Tensor[tt.float32, L[4]])
    assert_type(x3.norm(2, 1, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(x3.argmax(1, out=i), Tensor[tt.int64, L[2], L[4]])
    assert_type(x3.l2_normalize(1, out=x3), Tensor[tt.float32, L[2], L[3], L[4]])
    assert_type(y.max(0, out=f), Tensor[tt.float32, L[4]])
    assert_type(u.sum(0, out=f), Tensor[tt.float32, L[4]])


def optional_out(
    x3: Tensor[tt.float32, L[2], L[3], L[4]], o: Tensor[tt.float32, L[2], L[4]] | None
) -> None:
    """``out=None`` written out keeps the exact answer, and so does a buffer that may be None
    (a wrapper forwarding its own ``out``): the union of both answers, here the same type."""
    assert_type(x3.sum(1, out=None), Tensor[tt.float32, L[2], L[4]])
    assert_type(x3.var(1, ddof=1, out=None), Tensor[tt.float32, L[2], L[4]])
    assert_type(x3.sum(1, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(x3.norm(2, -2, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.mean(x3, 1, out=o), Tensor[tt.float32, L[2], L[4]])
    assert_type(tt.sum(x3, 1, out=None), Tensor[tt.float32, L[2], L[4]])


def norm_keepdims_spellings(x3: Tensor[tt.float32, L[2], L[3], L[4]]) -> None:
    """Every way to pass ``p``/``axis``/``keepdims`` to the norm methods (``p`` comes first
    and has a default)."""
    assert_type(x3.norm(2, 1, True), Tensor[tt.float32, L[2], L[1], L[4]])
    assert_type(x3.norm(2, (0, 2), keepdims=True), Tensor[tt.float32, L[1], L[3], L[1]])
    assert_type(x3.norm(axis=-1, keepdims=True), Tensor[tt.float32, L[2], L[3], L[1]])
    assert_type(x3.norm(p=1, axis=(1, 2), keepdims=True), Tensor[tt.float32, L[2], L[1], L[1]])
    assert_type(x3.norm(keepdims=True), Tensor[tt.float32, L[1], L[1], L[1]])
    assert_type(x3.norm(2, keepdims=True), Tensor[tt.float32, L[1], L[1], L[1]])
    assert_type(x3.norm(2, None, True), Tensor[tt.float32, L[1], L[1], L[1]])
    assert_type(x3.norm(axis=1), Tensor[tt.float32, L[2], L[4]])
    assert_type(x3.norm(2, (0, 1), False), Tensor[tt.float32, L[4]])
    assert_type(x3.norm(2, ()), Tensor[tt.float32, L[2], L[3], L[4]])
    assert_type(x3.norm_lp_max(2, 1e-6, 1, True), Tensor[tt.float32, L[2], L[1], L[4]])
    assert_type(x3.norm_lp_max(axis=-1, keepdims=True), Tensor[tt.float32, L[2], L[3], L[1]])
    assert_type(x3.norm_lp_sum(keepdims=True), Tensor[tt.float32, L[1], L[1], L[1]])
