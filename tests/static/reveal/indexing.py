"""Basic indexing under pyright: ints, full slices ``:``, ``None`` and ``...`` (up to three
items, ranks 0..4; ``stubs/shape_ops.py`` renders them from ``index_shape``).

pyright only (excluded in ``mypy.ini``, see ``shape_ops.py``). A partial slice (``1:``) keeps
its dim with an unknown size; integer arrays, masks, a ``bool`` (a mask to numpy, an int to a
type checker), longer indexes and receivers with an unknown part give the unknown shape.
"""

from typing import Any, TypeAlias, TypeVar
from typing import Literal as L

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
Rest = TypeVarTuple("Rest")
F32: TypeAlias = tt.float32
UnknownF32: TypeAlias = Tensor[F32, Unpack[tuple[Any, ...]]]


def basic(x: Tensor[F32, L[2], L[3]], y: Tensor[tt.int64, L[8], L[2], L[3]]) -> None:
    assert_type(x[0], Tensor[F32, L[3]])
    assert_type(x[-1, 0], Tensor[F32])
    assert_type(x[1], UnknownF32)  # other ints: an overload cannot compare them with a size
    assert_type(x[:, 0], Tensor[F32, L[2]])
    assert_type(x[None], Tensor[F32, L[1], L[2], L[3]])
    assert_type(x[..., None], Tensor[F32, L[2], L[3], L[1]])
    assert_type(x[None, :, None], Tensor[F32, L[1], L[2], L[1], L[3]])
    assert_type(x[...], Tensor[F32, L[2], L[3]])
    assert_type(x[:], Tensor[F32, L[2], L[3]])
    assert_type(y[0, :, None], Tensor[tt.int64, L[2], L[1], L[3]])
    assert_type(y[..., 0], Tensor[tt.int64, L[8], L[2]])
    assert_type(y[0, ..., -1], Tensor[tt.int64, L[2]])
    assert_type(y[:, :, 0], Tensor[tt.int64, L[8], L[2]])


def partial_and_unknown(
    x: Tensor[F32, L[2], L[3]],
    s: Tensor[F32],
    b: Tensor[F32, B, L[3]],
    r: Tensor[F32, B, Unpack[Rest]],
    u: Tensor[F32, Unpack[tuple[Any, ...]]],
    i: Tensor[tt.int64, L[2]],
) -> None:
    assert_type(x[1:], Tensor[F32, Any, L[3]])
    assert_type(x[:, ::2], Tensor[F32, L[2], Any])
    assert_type(s[None], Tensor[F32, L[1]])
    assert_type(s[...], Tensor[F32])
    assert_type(b[0], Tensor[F32, L[3]])
    assert_type(b[:, None], Tensor[F32, B, L[1], L[3]])
    assert_type(x[True], UnknownF32)  # a bool index is a mask to numpy
    assert_type(x[i], UnknownF32)
    assert_type(x[0, 0, 0, 0], UnknownF32)  # too many indices: the runtime raises
    assert_type(r[0], UnknownF32)
    assert_type(u[0], UnknownF32)
    assert_type(u[None], UnknownF32)
