"""Receivers with an unpacked part (``*Rest``, ``*tuple[Any, ...]``) and rank 0, both checkers.

Each call gets an exact answer or the unknown type ``Tensor[..., *tuple[Any, ...]]``; never a
fixed-rank answer, a ``Never`` dim, or an axis error. What each checker answers exactly:

- the functions (``tt.sum(x, 0)``): the rank-polymorphic ``axis=0`` / ``axis=-1`` forms, both
  checkers;
- the methods under pyright: the same (``pyright_only.py``);
- the methods under mypy without the plugin: ``axis=None`` and ``axis=()`` only (mypy binds a
  method's ``self`` pattern without checking the solution: ``Tensor[DT, *_Rest, _DL]`` on
  ``Tensor[DT, B, *Rest]`` gave ``Tensor[DT, *tuple[Never, ...]]``, see
  ``stubs/_render_forms.py:mypy_method_forms``).

Regressions pinned here (each assertion failed on the stubs of commit 18b37c1): mypy gave
``x.sum(-1)`` on ``Tensor[DT, B, *Rest]`` and ``y.sum(0)`` on ``Tensor[DT, *Rest, N]`` a
``*tuple[Never, ...]`` shape, and a fixed rank to literal axes on receivers with a
``*tuple[Any, ...]`` part (``w.sum(3)`` was ``Tensor[float32, Any, Any, Any]``, ``a.sum(1)``
``Tensor[Any, Any]``); pyright gave ``x.l2_normalize()`` the type
``Tensor[float32, B, Union[*Rest]]``.
"""

from typing import Any, TypeVar
from typing import Literal as L

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

A = TypeVar("A")
B = TypeVar("B")
N = TypeVar("N")
DT = TypeVar("DT", bound=tt.DType)
Rest = TypeVarTuple("Rest")
Unknown = Tensor[Any, Unpack[tuple[Any, ...]]]
F32Unknown = Tensor[tt.float32, Unpack[tuple[Any, ...]]]


def head_known(x: Tensor[tt.float32, B, Unpack[Rest]]) -> None:
    """``Tensor[DT, B, *Rest]``: axis 0 is B, every other axis is unknown."""
    assert_type(x.sum(()), Tensor[tt.float32, B, Unpack[Rest]])
    assert_type(x.sum(), Tensor[tt.float32])
    # axis 1 or 2 is in *Rest: unknown, and no axis error (x may have rank 3)
    assert_type(x.sum(1), Unknown)
    assert_type(x.sum(2), Unknown)
    assert_type(x.max(1), Unknown)
    assert_type(x.mean((0, 1)), Unknown)
    # the last dim is in *Rest
    assert_type(x.sum(-1), Unknown)
    assert_type(x.max(-1, keepdims=True), Unknown)
    assert_type(x.argmin(-1), Unknown)
    assert_type(x.l2_normalize(), Unknown)
    assert_type(x.l2_normalize(1), Unknown)
    assert_type(tt.sum(x, 0), Tensor[tt.float32, Unpack[Rest]])
    assert_type(tt.sum(x, 0, keepdims=True), Tensor[tt.float32, L[1], Unpack[Rest]])
    assert_type(tt.argmax(x, 0), Tensor[tt.int64, Unpack[Rest]])
    assert_type(tt.sum(x, 2), Unknown)
    assert_type(tt.sum(x, -1), Unknown)


def out_buffer(x: Tensor[tt.float32, B, Unpack[Rest]], o: Tensor[tt.float32, Unpack[Rest]]) -> None:
    """``out=`` returns the buffer on these receivers too (and on any axis: no axis error)."""
    assert_type(x.sum(0, out=o), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.mean(2, out=o), Tensor[tt.float32, Unpack[Rest]])
    assert_type(tt.max(x, 0, out=o), Tensor[tt.float32, Unpack[Rest]])


def generic_dtype(x: Tensor[DT, B, Unpack[Rest]]) -> None:
    assert_type(x.max(2), Unknown)
    assert_type(x.max(-1), Unknown)
    assert_type(tt.min(x, 0), Tensor[DT, Unpack[Rest]])


def tail_known(y: Tensor[tt.int16, Unpack[Rest], N]) -> None:
    """``Tensor[DT, *Rest, N]``: axis -1 is N, the first dim is in *Rest."""
    assert_type(y.sum(0), Unknown)
    assert_type(y.argmin(0), Unknown)
    assert_type(y.sum(0, keepdims=True), Unknown)
    assert_type(y.sum(-2), Unknown)
    assert_type(y.sum(1), Unknown)
    assert_type(y.mean((0, -1)), Unknown)
    assert_type(y.l2_normalize(0), Unknown)
    assert_type(tt.sum(y, -1), Tensor[tt.int64, Unpack[Rest]])
    assert_type(tt.sum(y, -1, keepdims=True), Tensor[tt.int64, Unpack[Rest], L[1]])
    assert_type(tt.sum(y, 0), Unknown)


def both_known(x: Tensor[tt.float32, A, Unpack[Rest], B]) -> None:
    assert_type(x.sum(1), Unknown)
    assert_type(x.sum(-2), Unknown)
    assert_type(tt.sum(x, 1), Unknown)
    assert_type(tt.sum(x, 0), Tensor[tt.float32, Unpack[Rest], B])
    assert_type(tt.max(x, -1, keepdims=True), Tensor[tt.float32, A, Unpack[Rest], L[1]])


def leading_pair(x: Tensor[tt.float32, A, B, Unpack[Rest]]) -> None:
    """Two known dims, then *Rest: the last dim is still unknown."""
    assert_type(x.sum(-1), Unknown)
    assert_type(x.sum(1), Unknown)
    assert_type(x.sum((0, 1)), Unknown)
    assert_type(x.sum(-1, keepdims=True), Unknown)
    assert_type(tt.sum(x, -1), Unknown)


def only_variadic(x: Tensor[tt.float32, Unpack[Rest]]) -> None:
    """``Tensor[DT, *Rest]``: any rank, even 0; only axis=None and () are known."""
    assert_type(x.sum(), Tensor[tt.float32])
    assert_type(x.sum(()), Tensor[tt.float32, Unpack[Rest]])
    assert_type(x.sum(0), Unknown)
    assert_type(x.sum(1), Unknown)
    assert_type(x.max(-1), Unknown)
    assert_type(tt.max(x, 1), Unknown)


def unknown_rank(x: Tensor[tt.float32, Unpack[tuple[Any, ...]]], a: tt.AnyTensor) -> None:
    """``Tensor[DT, *tuple[Any, ...]]``: the dtype is known, the shape is not."""
    assert_type(x.sum(), Tensor[tt.float32])
    assert_type(x.sum(0), F32Unknown)
    assert_type(x.mean(-1), F32Unknown)
    assert_type(x.sum(3), F32Unknown)
    assert_type(x.sum(1), F32Unknown)
    assert_type(x.sum(7), F32Unknown)
    assert_type(x.sum((0, 1)), F32Unknown)
    assert_type(x.max(2, keepdims=True), F32Unknown)
    assert_type(x.l2_normalize(2), F32Unknown)
    assert_type(a.sum(0), Unknown)
    assert_type(a.sum(1), Unknown)
    assert_type(a.var((0, 2)), Unknown)
    assert_type(a.max(), Tensor[Any])


def gradual(
    h: Tensor[tt.float32, B, Unpack[tuple[Any, ...]]],
    t: Tensor[tt.float32, Unpack[tuple[Any, ...]], N],
    ht: Tensor[tt.float32, A, Unpack[tuple[Any, ...]], B],
) -> None:
    """Dims partly ``*tuple[Any, ...]``: the dtype is kept, never a fixed rank or an error."""
    assert_type(h.sum(0), F32Unknown)
    assert_type(h.sum(-1), F32Unknown)
    assert_type(h.sum(2), F32Unknown)
    assert_type(h.sum((1, 2)), F32Unknown)
    assert_type(t.sum(-1), F32Unknown)
    assert_type(t.sum(0), F32Unknown)
    assert_type(t.sum(1), F32Unknown)
    assert_type(ht.sum(1), F32Unknown)
    assert_type(ht.mean(3, keepdims=True), F32Unknown)


def rank0(x0: Tensor[tt.float32]) -> None:
    assert_type(x0.sum(keepdims=True), Tensor[tt.float32])
    assert_type(x0.sum(()), Tensor[tt.float32])


def fixed_any_dims(d: Tensor[tt.float32, Any, L[3]]) -> None:
    """An ``Any`` dim in a fixed-rank receiver is just an unknown size: the rank is known."""
    assert_type(d.sum(1), Tensor[tt.float32, Any])
    assert_type(d.sum(0, keepdims=True), Tensor[tt.float32, L[1], L[3]])
    assert_type(d.sum(-1), Tensor[tt.float32, Any])
