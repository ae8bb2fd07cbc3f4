"""The named results of ``tt.linalg.eig`` and ``tt.unique_*`` (issue #33), under pyright and mypy
without the plugin: the runtime signatures' shapes (the dtype unknown: only the plugin computes
it, ``tests/typecheck/test_numpy_ops_shapes.yml``), and each field typed as its item, so
``tt.linalg.eigh(a).eigenvalues`` is the ``w`` of ``w, v = tt.linalg.eigh(a)``. ``svd`` and
``qr``: pyright's overloads, in ``numpy_ops.py``."""

from typing import Any, TypeVar
from typing import Literal as L

from typing_extensions import assert_type

import typedtensor as tt
from typedtensor import Tensor
from typedtensor._results import EigResult, UniqueAllResult

B = TypeVar("B")


def named_results(c: Tensor[tt.complex64, B, L[5], L[5]]) -> None:
    assert_type(tt.linalg.eig(c), EigResult[Tensor[Any, B, L[5]], Tensor[Any, B, L[5], L[5]]])
    assert_type(tt.linalg.eig(c).eigenvalues, Tensor[Any, B, L[5]])
    w, v = tt.linalg.eig(c)
    assert_type(v, Tensor[Any, B, L[5], L[5]])
    assert_type(tt.linalg.eig(c)[0], Tensor[Any, B, L[5]])


def set_functions(a: Tensor[tt.float32, L[3], L[4]], b: Tensor[tt.int8, B]) -> None:
    assert_type(
        tt.unique_all(a),
        UniqueAllResult[
            Tensor[tt.float32, Any],
            Tensor[tt.int64, Any],
            Tensor[tt.int64, L[3], L[4]],
            Tensor[tt.int64, Any],
        ],
    )
    assert_type(tt.unique_inverse(b).inverse_indices, Tensor[tt.int64, B])
    assert_type(tt.unique_counts(b).values, Tensor[tt.int8, Any])
    values, counts = tt.unique_counts(a)
    assert_type(counts, Tensor[tt.int64, Any])
