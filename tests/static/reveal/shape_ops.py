"""Shape operations under pyright: ``.T``, ``.mT``, ``.ndim``, ``transpose``, ``swapaxes``,
``squeeze`` and ``@`` (``stubs/shape_ops.py``, rendered from the rules).

pyright only (excluded in ``mypy.ini``): mypy reads the runtime signatures of these methods
(the unknown shape without the plugin, the exact shape with it). mypy solves a variadic
receiver against the rank patterns as ``Never`` (a wrong exact type), so its view keeps them
out. Exact for ranks 0..4 with the same dtype on both sides of ``@``; the unknown shape for
receivers with a ``*tuple[Any, ...]`` part, ``*Rest`` receivers and anything the patterns
cannot decide (a mismatched inner dim, mixed dtypes, a broadcast batch dim).
"""

from typing import Any, Literal, TypeAlias, TypeVar
from typing import Literal as L

from typing_extensions import TypeVarTuple, Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B")
N = TypeVar("N")
Rest = TypeVarTuple("Rest")
F32: TypeAlias = tt.float32
UnknownF32: TypeAlias = Tensor[F32, Unpack[tuple[Any, ...]]]
Unknown: TypeAlias = Tensor[Any, Unpack[tuple[Any, ...]]]


class Batch(tt.Dim): ...


def transposes(
    x: Tensor[F32, L[8], L[3], L[4]], m: Tensor[tt.int8, L[2], L[3]], v: Tensor[F32, L[5]]
) -> None:
    assert_type(x.T, Tensor[F32, L[4], L[3], L[8]])
    assert_type(x.mT, Tensor[F32, L[8], L[4], L[3]])
    assert_type(m.T, Tensor[tt.int8, L[3], L[2]])
    assert_type(v.T, Tensor[F32, L[5]])
    assert_type(x.transpose(), Tensor[F32, L[4], L[3], L[8]])
    assert_type(x.transpose(1, 0, 2), Tensor[F32, L[3], L[8], L[4]])
    assert_type(x.transpose((2, 0, -2)), Tensor[F32, L[4], L[8], L[3]])
    assert_type(x.transpose(-1, -3, 1), Tensor[F32, L[4], L[8], L[3]])
    assert_type(x.swapaxes(0, -1), Tensor[F32, L[4], L[3], L[8]])
    assert_type(x.swapaxes(axis1=1, axis2=1), Tensor[F32, L[8], L[3], L[4]])
    assert_type(m.swapaxes(0, 1), Tensor[tt.int8, L[3], L[2]])
    # not a permutation, out of range: the runtime raises; the unknown shape, no false error
    assert_type(x.transpose(0, 0, 1), UnknownF32)
    assert_type(x.swapaxes(0, 3), UnknownF32)
    assert_type(v.mT, UnknownF32)  # needs rank >= 2 (the runtime raises)


def ndim(
    x0: Tensor[F32], x3: Tensor[F32, L[8], L[3], L[4]], b: Tensor[F32, B, Unpack[Rest]]
) -> None:
    assert_type(x0.ndim, Literal[0])
    assert_type(x3.ndim, Literal[3])
    assert_type(b.ndim, int)


def squeeze(x: Tensor[F32, L[1], L[3], L[1]], s: Tensor[F32]) -> None:
    assert_type(x.squeeze(0), Tensor[F32, L[3], L[1]])
    assert_type(x.squeeze(-1), Tensor[F32, L[1], L[3]])
    assert_type(x.squeeze((2,)), Tensor[F32, L[1], L[3]])
    assert_type(s.squeeze(), Tensor[F32])
    # axis=None: which dims are 1 is not decided by an overload; a size-3 dim: runtime error
    assert_type(x.squeeze(), UnknownF32)
    assert_type(x.squeeze(1), UnknownF32)


def matmul(
    a: Tensor[F32, L[2], L[3]],
    w: Tensor[F32, L[3], L[4]],
    v: Tensor[F32, L[3]],
    bt: Tensor[F32, L[8], L[2], L[3]],
    bw: Tensor[F32, L[8], L[3], L[4]],
    w5: Tensor[F32, L[5], L[4]],
    w64: Tensor[tt.float64, L[3], L[4]],
    anyd: Tensor[Any, L[2], L[3]],
) -> None:
    assert_type(a @ w, Tensor[F32, L[2], L[4]])
    assert_type(bt @ w, Tensor[F32, L[8], L[2], L[4]])
    assert_type(bt @ bw, Tensor[F32, L[8], L[2], L[4]])
    assert_type(a @ bw, Tensor[F32, L[8], L[2], L[4]])
    assert_type(v @ w, Tensor[F32, L[4]])
    assert_type(a @ v, Tensor[F32, L[2]])
    assert_type(v @ v, Tensor[F32])
    # inner dims differ (the runtime raises), mixed dtypes: the unknown type, no false error
    assert_type(a @ w5, Unknown)
    assert_type(a @ w64, Unknown)
    assert_type(tt.matmul(a, w), Tensor[F32, L[2], L[4]])
    assert_type(tt.matmul(v, bw), Tensor[F32, L[8], L[4]])
    assert_type(tt.matmul(a, w5), Unknown)
    # an Any dtype on either side: the unknown type (the other side's dtype would be a guess)
    assert_type(anyd @ w, Unknown)
    assert_type(w.T @ anyd, Unknown)
    assert_type(tt.matmul(anyd, w), Unknown)


def symbolic(x: Tensor[F32, B, N], y: Tensor[F32, N, L[4]], z: Tensor[F32, Batch, L[3]]) -> None:
    assert_type(x.T, Tensor[F32, N, B])
    assert_type(x @ y, Tensor[F32, B, L[4]])
    assert_type(z.mT, Tensor[F32, L[3], Batch])
    assert_type(z.swapaxes(0, 1), Tensor[F32, L[3], Batch])


def unknown_parts(
    r: Tensor[F32, B, Unpack[Rest]],
    u: Tensor[F32, Unpack[tuple[Any, ...]]],
    g: Tensor[F32, L[2], Unpack[tuple[Any, ...]]],
    w: Tensor[F32, L[3], L[4]],
    d: Tensor[F32, Any, L[3]],
) -> None:
    """A ``*Rest`` or ``*tuple[Any, ...]`` part: the unknown shape (never a fixed rank)."""
    assert_type(r.T, UnknownF32)
    assert_type(u.T, UnknownF32)
    assert_type(g.mT, UnknownF32)
    assert_type(r.transpose(1, 0), UnknownF32)
    assert_type(u.swapaxes(0, 1), UnknownF32)
    assert_type(u.ndim, int)
    assert_type(r @ w, Unknown)
    assert_type(u @ w, Unknown)
    assert_type(w @ u, Unknown)
    # an Any dim is a dim: the rank is known
    assert_type(d.T, Tensor[F32, L[3], Any])
    assert_type(d @ w, Tensor[F32, Any, L[4]])


def class_access(x: Tensor[F32, L[2], L[3]]) -> None:
    assert_type(Tensor.transpose(x, 1, 0), Unknown)
    assert_type(Tensor.swapaxes(x, 0, 1), Unknown)


def functions(
    x: Tensor[tt.int8, L[8], L[1], L[4]],
    a: Tensor[F32, L[2], L[3]],
    r: Tensor[F32, B, Unpack[Rest]],
) -> None:
    """The ``tt.`` functions: flat overload lists on the same patterns (``manipulation.pyi``)."""
    assert_type(tt.transpose(a), Tensor[F32, L[3], L[2]])
    assert_type(tt.transpose(x, (2, 0, 1)), Tensor[tt.int8, L[4], L[8], L[1]])
    assert_type(tt.permute_dims(x, (0, -1, 1)), Tensor[tt.int8, L[8], L[4], L[1]])
    assert_type(tt.swapaxes(x, 0, -1), Tensor[tt.int8, L[4], L[1], L[8]])
    assert_type(tt.squeeze(x, 1), Tensor[tt.int8, L[8], L[4]])
    assert_type(tt.expand_dims(a, 0), Tensor[F32, L[1], L[2], L[3]])
    assert_type(tt.expand_dims(a, (-1,)), Tensor[F32, L[2], L[3], L[1]])
    # a dim that is not 1, a list of axes, a *Rest receiver, reshape: the unknown shape
    assert_type(tt.squeeze(x, 0), Tensor[tt.int8, Unpack[tuple[Any, ...]]])
    assert_type(tt.transpose(a, [1, 0]), UnknownF32)
    assert_type(tt.transpose(r), UnknownF32)
    assert_type(tt.reshape(a, (6,)), UnknownF32)
