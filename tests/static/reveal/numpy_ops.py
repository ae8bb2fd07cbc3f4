"""pyright's view of ``tt.linalg.svd qr solve`` and ``tt.dot`` (overloads rendered from
``rules.linalg_ext`` by ``stubs/_render_linalg_ext.py``): exact dims where a pattern can name
them (a square receiver's ``min(M, N)``, batch dims, shared inner dims), ``Any`` where it
cannot (``min(M, N)`` of two dims), numpy's linalg dtypes; the poison overloads for what numpy
rejects (a vanished error leaves an unused ``pyright: ignore``, itself an error). pyright
only (``mypy.ini`` excludes it): mypy reads the runtime signatures, the plugin types them
(``tests/typecheck/test_numpy_ops_shapes.yml``)."""

from typing import Any, TypeVar
from typing import Literal as L

from typing_extensions import Unpack, assert_type

import typedtensor as tt
from typedtensor import Tensor
from typedtensor._results import EighResult, QRResult, SlogdetResult, SVDResult

B = TypeVar("B")
Unknown = Tensor[Any, Unpack[tuple[Any, ...]]]


def decompositions(
    a: Tensor[tt.float32, L[4], L[3]],
    b: Tensor[tt.int8, L[2], L[3], L[3]],
    c: Tensor[tt.complex64, B, L[5], L[5]],
    flag: bool,
) -> None:
    assert_type(
        tt.linalg.svd(a),
        SVDResult[
            Tensor[tt.float32, L[4], L[4]], Tensor[tt.float32, Any], Tensor[tt.float32, L[3], L[3]]
        ],
    )
    assert_type(
        tt.linalg.svd(a, False),
        SVDResult[
            Tensor[tt.float32, L[4], Any], Tensor[tt.float32, Any], Tensor[tt.float32, Any, L[3]]
        ],
    )
    assert_type(
        tt.linalg.svd(a, full_matrices=flag),
        SVDResult[
            Tensor[tt.float32, L[4], Any], Tensor[tt.float32, Any], Tensor[tt.float32, Any, L[3]]
        ],
    )
    assert_type(tt.linalg.svd(a, compute_uv=False), Tensor[tt.float32, Any])
    assert_type(tt.linalg.svd(b, False, False), Tensor[tt.float64, L[2], L[3]])
    assert_type(
        tt.linalg.svd(c),
        SVDResult[
            Tensor[tt.complex64, B, L[5], L[5]],
            Tensor[tt.float32, B, L[5]],
            Tensor[tt.complex64, B, L[5], L[5]],
        ],
    )
    assert_type(
        tt.linalg.qr(a), QRResult[Tensor[tt.float32, L[4], Any], Tensor[tt.float32, Any, L[3]]]
    )
    assert_type(
        tt.linalg.qr(a, "complete"),
        QRResult[Tensor[tt.float32, L[4], L[4]], Tensor[tt.float32, L[4], L[3]]],
    )
    assert_type(tt.linalg.qr(a, "r"), Tensor[tt.float32, Any, L[3]])
    # the named results' fields: the items' exact types (issue #33)
    assert_type(tt.linalg.svd(c).U, Tensor[tt.complex64, B, L[5], L[5]])
    assert_type(tt.linalg.svd(c).S, Tensor[tt.float32, B, L[5]])
    assert_type(tt.linalg.svd(a, False).Vh, Tensor[tt.float32, Any, L[3]])
    assert_type(tt.linalg.qr(a, "complete").Q, Tensor[tt.float32, L[4], L[4]])
    assert_type(tt.linalg.qr(b).R, Tensor[tt.float64, L[2], L[3], L[3]])
    u, s, vh = tt.linalg.svd(c)
    assert_type(s, Tensor[tt.float32, B, L[5]])
    assert_type(
        tt.linalg.qr(b),
        QRResult[Tensor[tt.float64, L[2], L[3], L[3]], Tensor[tt.float64, L[2], L[3], L[3]]],
    )


def eigh_and_slogdet(
    a: Tensor[tt.float32, L[3], L[3]],
    c: Tensor[tt.complex64, B, L[5], L[5]],
    i: Tensor[tt.int8, L[2], L[2]],
    h: Tensor[tt.float16, L[2], L[2]],
    w: Tensor[Any, L[3], L[3]],
) -> None:
    r = tt.linalg.eigh(a)
    assert_type(r, EighResult[Tensor[tt.float32, L[3]], Tensor[tt.float32, L[3], L[3]]])
    assert_type(r.eigenvalues, Tensor[tt.float32, L[3]])
    assert_type(r[1], Tensor[tt.float32, L[3], L[3]])
    values, vectors = tt.linalg.eigh(c)
    assert_type(values, Tensor[tt.float32, B, L[5]])  # real eigenvalues of complex input
    assert_type(tt.linalg.eigh(c).eigenvectors, Tensor[tt.complex64, B, L[5], L[5]])
    assert_type(tt.linalg.eigh(i).eigenvalues, Tensor[tt.float64, L[2]])
    assert_type(tt.linalg.slogdet(c), SlogdetResult[Tensor[tt.complex64, B], Tensor[tt.float32, B]])
    assert_type(tt.linalg.slogdet(i).logabsdet, Tensor[tt.float64])
    assert_type(tt.linalg.eigh(w), EighResult[Unknown, Unknown])  # an Any dtype: no guess
    tt.linalg.eigh(h)  # pyright: ignore[reportDeprecated]
    tt.linalg.slogdet(h)  # pyright: ignore[reportDeprecated]
    tt.linalg.eigh(a[0])  # pyright: ignore[reportDeprecated]
    tt.linalg.slogdet(tt.ones((), tt.float32))  # pyright: ignore[reportDeprecated]
    tt.linalg.eigh(tt.ones((3, 4), tt.float32))  # pyright: ignore[reportCallIssue, reportArgumentType]


def solve_and_dot(
    a: Tensor[tt.float32, L[4], L[3]],
    b: Tensor[tt.int8, L[2], L[3], L[3]],
    v: Tensor[tt.float32, L[3]],
    s: Tensor[tt.float32],
    m: Tensor[tt.float32, L[3], L[3]],
    u: Tensor[tt.float32, Unpack[tuple[Any, ...]]],
) -> None:
    assert_type(tt.linalg.solve(b, tt.ones((3,), tt.int8)), Tensor[tt.float64, L[2], L[3]])
    assert_type(tt.linalg.solve(b, b), Tensor[tt.float64, L[2], L[3], L[3]])
    assert_type(
        tt.linalg.solve(m, tt.ones((7, 3, 2), tt.float32)), Tensor[tt.float32, L[7], L[3], L[2]]
    )
    assert_type(tt.linalg.solve(b, v), Unknown)  # two dtypes: numpy's promotion is not tabled
    assert_type(tt.dot(a, v), Tensor[tt.float32, L[4]])
    assert_type(tt.dot(v, a.mT), Tensor[tt.float32, L[4]])
    assert_type(tt.dot(v, v), Tensor[tt.float32])
    assert_type(tt.dot(m, tt.ones((2, 3, 5), tt.float32)), Tensor[tt.float32, L[3], L[2], L[5]])
    assert_type(tt.dot(s, a), Tensor[tt.float32, L[4], L[3]])
    assert_type(tt.dot(u, v), Unknown)  # an unknown rank: never a guess
    assert_type(tt.dot(a, a), Unknown)  # misaligned: numpy raises; pyright cannot name it


def rearranging(
    a: Tensor[tt.float32, L[4], L[3]], v: Tensor[tt.int8, B], z: Tensor[Any, L[4], L[3]]
) -> None:
    assert_type(tt.pad(a, 1), Tensor[tt.float32, Any, Any])
    assert_type(tt.repeat(a, 2, axis=1), Tensor[tt.float32, L[4], Any])
    assert_type(tt.repeat(a, [1, 2, 1, 1], axis=-2), Tensor[tt.float32, Any, L[3]])
    assert_type(tt.repeat(v, 3), Tensor[tt.int8, Any])
    assert_type(tt.tile(a, 2), Tensor[tt.float32, L[4], Any])
    assert_type(tt.tile(v, (2, 1)), Tensor[tt.int8, Any, Any])  # a count 1: not a pattern
    assert_type(tt.hstack([a, a]), Unknown)  # a list: its element type is the union
    # tuples: the rank and the dims the join leaves alone, the joined size Any (overloads
    # cannot add literals) but a count of rows or scalars (issue #33)
    assert_type(tt.hstack((a, tt.ones((4, 5), tt.float32))), Tensor[tt.float32, L[4], Any])
    assert_type(tt.vstack((a, a, a)), Tensor[tt.float32, Any, L[3]])
    assert_type(tt.vstack((v, v)), Tensor[tt.int8, L[2], B])
    assert_type(tt.hstack((v, v, v)), Tensor[tt.int8, Any])
    assert_type(tt.hstack((tt.ones((), tt.int8), tt.ones((), tt.int8))), Tensor[tt.int8, L[2]])
    assert_type(tt.vstack((tt.ones((), tt.int8),) * 2), Unknown)  # not a tuple display
    assert_type(tt.hstack((a, tt.ones((5, 3), tt.float32))), Unknown)  # 4 vs 5: numpy raises
    assert_type(tt.hstack((a, tt.ones((4, 3), tt.float64))), Unknown)  # two dtypes
    assert_type(tt.hstack((a, z)), Unknown)  # an Any dtype: no guess


def rejected(
    v: Tensor[tt.float32, L[3]],
    h: Tensor[tt.float16, L[3], L[3]],
    w: Tensor[Any, L[3], L[4]],
) -> None:
    tt.linalg.svd(v)  # pyright: ignore[reportDeprecated]
    tt.linalg.qr(tt.ones((), tt.float32))  # pyright: ignore[reportDeprecated]
    tt.linalg.svd(h)  # pyright: ignore[reportDeprecated]
    tt.linalg.solve(h, h)  # pyright: ignore[reportDeprecated]
    assert_type(tt.linalg.svd(w), Any)  # an Any dtype: no poison, no guess
