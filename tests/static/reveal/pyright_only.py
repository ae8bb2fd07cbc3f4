"""Receivers with an unpacked part where mypy without the plugin answers wrongly (excluded in
``mypy.ini``; the plugin gets them right). Pyright gives the unknown type or the right one.

mypy binds ``self`` of a rank-polymorphic overload before checking it: ``Tensor[DT, B, *Rest]``
against ``Tensor[DT, *_Rest, _DL]`` (axis=-1) binds nothing and returns
``Tensor[DT, *tuple[Never, ...]]``; ``Tensor[DT, *tuple[Any, ...]]`` fits the rank-4 pattern of
``axis=3``.
"""

from typing import Any, TypeVar

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
DT = TypeVar("DT", bound=tt.DType)
Rest = TypeVarTuple("Rest")
Unknown = Tensor[Any, Unpack[tuple[Any, ...]]]
F32Unknown = Tensor[tt.float32, Unpack[tuple[Any, ...]]]


def wrong_side(x: Tensor[tt.float32, B, Unpack[Rest]], y: Tensor[tt.int8, Unpack[Rest], N]) -> None:
    assert_type(x.sum(-1), Unknown)
    assert_type(x.max(-1, keepdims=True), Unknown)
    assert_type(y.sum(0), Unknown)
    assert_type(y.argmin(0), Unknown)


def gradual(
    w: Tensor[tt.float32, Unpack[tuple[Any, ...]]],
    h: Tensor[tt.float32, B, Unpack[tuple[Any, ...]]],
    t: Tensor[tt.float32, Unpack[tuple[Any, ...]], N],
) -> None:
    """Dims partly ``*tuple[Any, ...]``: the dtype is kept, never a fixed rank or an error."""
    assert_type(w.sum(3), F32Unknown)
    assert_type(w.sum(7), F32Unknown)
    assert_type(h.sum(0), F32Unknown)
    assert_type(h.sum(-1), F32Unknown)
    assert_type(h.sum(2), F32Unknown)
    assert_type(t.sum(-1), F32Unknown)
    assert_type(t.sum(0), F32Unknown)


def generic_dtype_sum(x: Tensor[DT, B, Unpack[Rest]]) -> None:
    """A dtype TypeVar with a dtype-dependent result: pyright keeps the shape."""
    assert_type(x.sum(0), Tensor[Any, Unpack[Rest]])
    assert_type(x.sum(1), Unknown)
