"""Cases only mypy-without-plugin decides (excluded in pyrightconfig.json; see docs/pyright.md).

- Variadic receivers (``Tensor[DT, B, *Rest]``), the rank-polymorphic axis=0 / axis=-1 forms:
  pyright fits an unpacked TypeVarTuple into one dim of a fixed-rank pattern (``*Rest`` becomes
  ``Union[*Rest]``), so its rank dispatch cannot tell a variadic receiver from a fixed rank.
- Rank-0 receivers with an axis: pyright's rank dispatch sends rank 0 to the unknown-rank class
  (an empty shape fits ``*tuple[_UnknownDim, ...]``), so ``keepdims``/``()`` give the unknown
  type and ``axis=0`` is not rejected there.
"""

from typing import Literal as L, TypeVar

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
Rest = TypeVarTuple("Rest")


def first_axis(x: Tensor[tt.float32, B, Unpack[Rest]]) -> Tensor[tt.float32, Unpack[Rest]]:
    assert_type(x.sum(0, keepdims=True), Tensor[tt.float32, L[1], Unpack[Rest]])
    return x.mean(0)


def last_axis(x: Tensor[tt.int16, Unpack[Rest], N]) -> Tensor[tt.float64, Unpack[Rest]]:
    assert_type(x.max(-1), Tensor[tt.int16, Unpack[Rest]])
    assert_type(x.sum(-1, keepdims=True), Tensor[tt.int64, Unpack[Rest], L[1]])
    return x.mean(-1)


def rank0(x0: Tensor[tt.float32]) -> None:
    assert_type(x0.sum(keepdims=True), Tensor[tt.float32])
    assert_type(x0.sum(()), Tensor[tt.float32])
