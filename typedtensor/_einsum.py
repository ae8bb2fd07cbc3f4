"""``tt.einsum``: Einstein summation with numpy's rules, the result shape from
``_rules.einsum_shape`` (checked before numpy runs) and numpy's ``einsum`` (``optimize=True``)
underneath. Kept out of ``linalg.py`` so that its generated stub stays as it is: pyright sees
the unknown-shape type here, the mypy plugin the exact one."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _rules as rules
from ._arguments import _raise_rule_error
from ._tensor import AnyTensor, Tensor, wrap

__all__ = ["einsum"]


def einsum(subscripts: str, *operands: object) -> AnyTensor:
    """Einstein summation: ``tt.einsum("bij,bjk->bik", x, y)`` of ``(8, 2, 3)`` and
    ``(8, 3, 4)`` is ``(8, 2, 4)``; implicit outputs (``"ij,jk"``), diagonals (``"ii->i"``),
    traces (``"ii"``) and ``...`` as numpy. Raises ``ShapeError`` for dims a letter names
    that differ."""
    if not isinstance(subscripts, str):
        raise TypeError(
            f"einsum subscripts must be a str such as 'ij,jk->ik', got {type(subscripts).__name__}"
        )
    arrays = [_array(x, i) for i, x in enumerate(operands)]
    try:
        rules.einsum_shape(subscripts, [a.shape for a in arrays])
    except rules.RuleError as err:
        _raise_rule_error(err)
    return wrap(np.asarray(np.einsum(subscripts, *arrays, optimize=True)))


def _array(x: object, i: int) -> Any:
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, np.ndarray):
        return x
    raise TypeError(f"einsum operand {i} must be a Tensor or an ndarray, got {type(x).__name__}")
