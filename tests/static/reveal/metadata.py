"""``x.shape``, ``astype``, ``~`` and ``isnan``: the same answers under pyright, mypy without the
plugin and mypy with it (matmul, indexing and ``where`` are plugin-only: see docs/stubs.md)."""

from typing import Any, Literal as L, TypeVar

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")


class Batch(tt.Dim): ...


def metadata(
    x: Tensor[tt.float32, B, L[3]], y: Tensor[tt.int8, Batch], z: Tensor[tt.bool_]
) -> None:
    assert_type(x.shape, tuple[B, L[3]])
    assert_type(x.shape[0], B)
    assert_type(y.shape, tuple[Batch])
    assert_type(z.shape, tuple[()])


def conversions(x: Tensor[tt.float32, B, L[3]], m: Tensor[tt.bool_, B, L[3]], dt: Any) -> None:
    assert_type(x.astype(tt.float64), Tensor[tt.float64, B, L[3]])
    assert_type(x.astype(dt), Tensor[Any, B, L[3]])
    assert_type(tt.astype(x, tt.int8), Tensor[tt.int8, B, L[3]])
    assert_type(tt.isnan(x), Tensor[tt.bool_, B, L[3]])
    assert_type(tt.isfinite(x), Tensor[tt.bool_, B, L[3]])
    assert_type(~m, Tensor[tt.bool_, B, L[3]])
