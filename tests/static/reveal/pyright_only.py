"""Variadic receivers where pyright's methods are exact and mypy without the plugin gives the
unknown type (excluded in ``mypy.ini``; the plugin and the ``tt.`` functions are exact).

Pyright resolves ``x.sum(0)`` through the descriptor: the receiver's dims packed into a callable
type split exactly (``Callable[[B, *Rest], None]`` fits ``Callable[[_D0, *_Rest], None]`` and no
fixed rank). mypy binds a method's ``self`` pattern without checking the solution, so its
overloads have no rank-polymorphic forms (see ``variadic.py``).
"""

from typing import Any, TypeVar
from typing import Literal as L

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
DT = TypeVar("DT", bound=tt.DType)
Rest = TypeVarTuple("Rest")
Unknown = Tensor[Any, Unpack[tuple[Any, ...]]]


def head_known(x: Tensor[tt.float32, B, Unpack[Rest]]) -> Tensor[tt.float32, Unpack[Rest]]:
    assert_type(x.sum(0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.sum(0, keepdims=True), Tensor[tt.float32, L[1], Unpack[Rest]])
    assert_type(x.max(0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.var(0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.argmax(0), Tensor[tt.int64, Unpack[Rest]])
    assert_type(x.any(0), Tensor[tt.bool_, Unpack[Rest]])
    assert_type(x.norm(2, 0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.l2_normalize(0), Tensor[tt.float32, B, Unpack[Rest]])
    return x.mean(0)


def generic_dtype(x: Tensor[DT, B, Unpack[Rest]]) -> Tensor[DT, Unpack[Rest]]:
    """A dtype TypeVar is kept by ``max``/``min``; a dtype-dependent result loses the dtype."""
    assert_type(x.min(0), Tensor[DT, Unpack[Rest]])
    assert_type(x.sum(0), Tensor[Any, Unpack[Rest]])
    assert_type(x.sum(1), Unknown)
    return x.max(0)


def tail_known(x: Tensor[tt.int16, Unpack[Rest], N]) -> Tensor[tt.float64, Unpack[Rest]]:
    assert_type(x.max(-1), Tensor[tt.int16, Unpack[Rest]])
    assert_type(x.sum(-1), Tensor[tt.int64, Unpack[Rest]])
    assert_type(x.sum(-1, keepdims=True), Tensor[tt.int64, Unpack[Rest], L[1]])
    assert_type(x.l2_normalize(), Tensor[tt.float64, Unpack[Rest], N])
    return x.mean(-1)


def both_known(x: Tensor[tt.float32, B, Unpack[Rest], N]) -> None:
    assert_type(x.sum(0), Tensor[tt.float32, Unpack[Rest], N])
    assert_type(x.sum(-1), Tensor[tt.float32, B, Unpack[Rest]])
    assert_type(x.max(-1, keepdims=True), Tensor[tt.float32, B, Unpack[Rest], L[1]])


def above_max_rank(x: Tensor[tt.float32, L[2], L[3], L[4], L[5], L[6]]) -> None:
    """Rank 5: the polymorphic forms (mypy without the plugin: unknown)."""
    assert_type(x.sum(0), Tensor[tt.float32, L[3], L[4], L[5], L[6]])
    assert_type(x.max(-1), Tensor[tt.float32, L[2], L[3], L[4], L[5]])
    assert_type(x.sum(2), Unknown)


def unbound_method(x: Tensor[tt.float32, L[2], L[3]]) -> None:
    """Through the class the descriptor is the unbound method: the runtime signature, the
    unknown shape (mypy without the plugin reads the flat overloads: exact)."""
    assert_type(Tensor.sum(x, 1), Unknown)
    assert_type(Tensor.argmax(x, axis=0), Unknown)


def any_dim_against_literal_one(
    a: Tensor[tt.float64, L[1], L[3]],
    b: Tensor[tt.float64, Any, L[3]],
    c: Tensor[tt.float64, Any, L[3]],
    k: Tensor[tt.float64, L[4], L[1]],
    m: Tensor[tt.float64, L[4], Any],
    v: Tensor[tt.float64, L[1]],
    n: Tensor[tt.float64, Any, L[1]],
) -> None:
    # a literal 1 against an Any dim: the run-time dim is the Any one (a - b can be (5, 3))
    assert_type(a - b, Any)
    assert_type(a + b, Any)
    assert_type(a == b, Any)
    assert_type(k - m, Any)
    assert_type(v * b, Unknown)
    # a rank-1 receiver's 1 against a longer operand with an Any dim (was ``(1, Never)``)
    assert_type(v == n, Unknown)
    assert_type(v - n, Unknown)
    # sound precision stays: an Any dim against a literal 3, or against the same Any
    assert_type(b - a, Tensor[tt.float64, Any, L[3]])
    assert_type(c - b, Tensor[tt.float64, Any, L[3]])
    assert_type(m - k, Tensor[tt.float64, L[4], Any])


def rank0_receiver_against_ones(
    b: Tensor[tt.uint64],
    v4: Tensor[tt.uint64, L[1], L[1]],
    a: Tensor[Any, L[1]],
    m: Tensor[tt.uint64, L[2], L[3]],
) -> None:
    # a rank-0 receiver against an operand of 1s (was ``(Never, Never)``: a form that needs
    # receiver dims matched it first)
    assert_type(b + v4, Tensor[tt.uint64, L[1], L[1]])
    assert_type(b != v4, Tensor[tt.bool_, L[1], L[1]])
    assert_type(b < v4, Tensor[tt.bool_, L[1], L[1]])
    assert_type(b == a, Tensor[tt.bool_, L[1]])
    assert_type(b * m, Tensor[tt.uint64, L[2], L[3]])
    assert_type(m * b, Tensor[tt.uint64, L[2], L[3]])


def any_dim_in_functions(
    a: Tensor[tt.float64, L[1], L[3]],
    b: Tensor[tt.float64, Any, L[3]],
    x: Tensor[tt.float64, L[1], L[2], L[3]],
    y: Tensor[tt.float64, Any, L[3], L[4]],
    w: Tensor[tt.float64, L[1], L[3], L[4]],
) -> None:
    # an Any dim after a literal 1 in the first operand: the run-time dim is the Any one
    assert_type(tt.maximum(a, b), Unknown)
    assert_type(tt.minimum(a, b), Unknown)
    assert_type(tt.where(a, b, a), Unknown)
    assert_type(tt.where(a, a, b), Unknown)
    assert_type(tt.where(a, b, 2.5), Unknown)
    assert_type(x @ y, Unknown)
    assert_type(tt.matmul(x, y), Unknown)
    # sound precision stays: the Any first (it is the result's), literal shapes
    assert_type(tt.maximum(b, a), Tensor[tt.float64, Any, L[3]])
    assert_type(tt.where(b, a, 2.5), Tensor[tt.float64, Any, L[3]])
    assert_type(tt.maximum(a, a), Tensor[tt.float64, L[1], L[3]])
    assert_type(x @ w, Tensor[tt.float64, L[1], L[2], L[4]])
    assert_type(tt.matmul(x, w), Tensor[tt.float64, L[1], L[2], L[4]])


def any_dtype_receiver(q: Tensor[Any, L[2], L[2]], z: Tensor[tt.int8, L[2], L[2]]) -> None:
    # the receiver's dtype decides the result's: unknown here, whatever the operand's
    assert_type(q - z, Tensor[Any, L[2], L[2]])
    assert_type(q / z, Tensor[Any, L[2], L[2]])
    assert_type(q & z, Tensor[Any, L[2], L[2]])
    assert_type(q + z, Tensor[Any, L[2], L[2]])
    assert_type(q - tt.zeros((), tt.int8), Tensor[Any, L[2], L[2]])
    assert_type(z - z, Tensor[tt.int8, L[2], L[2]])


def any_dtype_receiver_minus_bool(
    v: Unknown,
    w: Tensor[Any, L[1], Unpack[tuple[Any, ...]]],
    q: Tensor[Any, L[1], L[3]],
    m: Tensor[tt.bool_, Any],
    mb: Tensor[tt.bool_, Any, L[3]],
    bb: Tensor[tt.bool_, L[1], L[3]],
) -> None:
    # an Any-dtype receiver minus a bool_ tensor is no bool - bool error (pyright reported the
    # poison overload's deprecation here, and typed the call Any); the unknown shape: the
    # receiver's L[1] may broadcast against the operand's Any
    assert_type(v - m, Unknown)
    assert_type(w - m, Unknown)
    assert_type(q - mb, Unknown)
    assert_type(q - bb, Unknown)
    assert_type(q - True, Tensor[Any, L[1], L[3]])
    # a bool_ receiver minus a bool_ tensor is still the error, Any dims or not (mypy without
    # the plugin does not flag these: fail/operators.py has the cases both checkers report)
    print(m - m)  # pyright: ignore[reportDeprecated]
    print(mb - bb)  # pyright: ignore[reportDeprecated]
    print(bb - bb)  # pyright: ignore[reportDeprecated]


def unknown_rank_keepdims(u: Tensor[tt.complex64, Unpack[tuple[Any, ...]]]) -> None:
    # axis=None, keepdims=True on an unknown rank: every dim 1, the rank unknown (the tt.
    # functions gave the rank-0 form's Tensor[bool_]; found by the 3 x 300 fuzz)
    assert_type(tt.any(u, keepdims=True), Tensor[tt.bool_, Unpack[tuple[L[1], ...]]])
    assert_type(tt.sum(u, None, True), Tensor[tt.complex64, Unpack[tuple[L[1], ...]]])
    assert_type(tt.norm(u, 2, None, True), Tensor[tt.float32, Unpack[tuple[L[1], ...]]])
    r6 = tt.zeros((3, 3, 3, 3, 1, 1), tt.int8)
    assert_type(tt.max(r6, keepdims=True), Tensor[tt.int8, Unpack[tuple[L[1], ...]]])


def unknown_rank_operands(u: Tensor[tt.float32, Unpack[tuple[Any, ...]]]) -> None:
    # a tensor-tensor operator on unknown ranks: the unknown-shape Tensor, not plain Any
    assert_type(u + u, Unknown)
    assert_type(u < u, Unknown)
    r5 = tt.zeros((2, 2, 2, 2, 2), tt.float32)
    assert_type(r5 + r5, Unknown)
    assert_type(r5 + 1, Tensor[tt.float32, Unpack[tuple[Any, ...]]])
