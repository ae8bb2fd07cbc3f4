"""Linear algebra: ``matmul`` (also ``a @ b``) and ``einsum``, numpy's semantics and BLAS.

A 1-D operand is promoted (``(n,)`` as ``(1, n)`` on the left, ``(n, 1)`` on the right) and the
added dim removed; batch dims (all but the last two) broadcast; the inner dims must be equal.
The result dtype is numpy's promotion of the operand dtypes (``bool @ bool`` is bool).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _rules as rules
from ._dask import is_dask_array
from ._tensor import AnyTensor, Tensor, _raise_rule_error, wrap

__all__ = ["einsum", "matmul"]


def _operand(x: object, side: str, fn: str = "matmul") -> Any:
    if isinstance(x, Tensor):
        return x._data  # a dask array for a dask-backed Tensor: np.matmul builds its graph
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (bool, int, float, np.generic)):
        return np.asarray(x)  # rank 0 (matmul's rule rejects it, as numpy does)
    raise TypeError(f"{fn} takes Tensors or ndarrays, got {type(x).__name__} as the {side} operand")


def matmul(a: object, b: object) -> AnyTensor:
    """Matrix product with numpy's ``matmul`` rules: ``(8, 2, 3) @ (3, 4) -> (8, 2, 4)``,
    ``(3,) @ (3, 4) -> (4,)``, ``(3,) @ (3,) -> ()``. Mismatched inner dims raise
    ``tt.ShapeError`` naming both; an ndarray operand gives a Tensor."""
    da, db = _operand(a, "left"), _operand(b, "right")
    try:
        result = np.matmul(da, db)
    except ValueError:  # numpy's check failed: say why in the rule's words
        try:
            rules.matmul_shape(da.shape, db.shape)
        except rules.RuleError as err:
            _raise_rule_error(err)
        raise
    if is_dask_array(result):  # dask sums blocked int/bool products in int64: numpy's dtype
        result = result.astype(
            np.matmul(np.ones((1, 1), da.dtype), np.ones((1, 1), db.dtype)).dtype
        )
    return wrap(result)


def einsum(subscripts: str, *operands: object) -> AnyTensor:
    """Einstein summation with numpy's subscripts (``optimize=True``): ``einsum("bhtd,bhsd->bhts",
    q, k)`` of ``(2, 4, 8, 16)`` and ``(2, 4, 10, 16)`` is ``(2, 4, 8, 10)``; the implicit form
    (``"ij,jk"``), diagonals (``"ii->i"``) and ``...`` broadcasting as numpy's. Dims a label
    joins must be equal or 1 (``tt.ShapeError`` naming both otherwise); subscripts that do not
    fit the operands raise ``ValueError``. The dtype is numpy's promotion of the operands'."""
    if not isinstance(subscripts, str):
        raise TypeError(
            f"einsum takes the subscripts string first, got {type(subscripts).__name__}; write "
            "tt.einsum('ij,jk->ik', a, b)"
        )
    arrays = [_operand(x, f"#{i}", "einsum") for i, x in enumerate(operands)]
    try:
        rules.einsum_shape(subscripts, [a.shape for a in arrays])
    except rules.RuleError as err:
        _raise_rule_error(err)
    if any(is_dask_array(a) for a in arrays):
        import dask.array as dask_array

        return wrap(dask_array.einsum(subscripts, *arrays))
    return wrap(np.asarray(np.einsum(subscripts, *arrays, optimize=True)))


# issue #33: numpy's linalg functions (``tt.linalg.inv``...) and products, in their own module
from ._linalg_ext import *  # noqa: E402, F403
from ._linalg_ext import __all__ as _linalg_ext_names  # noqa: E402
from .manipulation import matrix_transpose  # noqa: E402

__all__ += [*_linalg_ext_names, "matrix_transpose"]
