"""The hand-written part of ``typedtensor.reductions``: ``_t`` (a Tensor, or ``tt.asarray`` of
anything else), which every generated forwarder calls, and ``reduce_to``/``sum_to``, which take
a target shape rather than the table's ``axis`` (not ``rules.REDUCTIONS`` rows).
``reductions.py`` itself is generated from the table (``python -m stubs.generate``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._creation import asarray
from ._tensor import AnyTensor, Tensor

#: re-exported by the generated ``reductions.py``, at the end of its ``__all__``
__all__ = ["reduce_to", "sum_to"]


def _t(x: Any) -> AnyTensor:
    return x if isinstance(x, Tensor) else asarray(x)


def reduce_to(
    x: AnyTensor, shape: Sequence[int], op: str = "sum", *, out: AnyTensor | None = None
) -> AnyTensor:
    """Reduce to ``shape`` (each dim kept or 1): ``tt.reduce_to(x, (1, 3, 1, 1), "mean")``."""
    return _t(x).reduce_to(shape, op, out=out)


def sum_to(x: AnyTensor, shape: Sequence[int], *, out: AnyTensor | None = None) -> AnyTensor:
    """Sum to ``shape``: ``tt.sum_to(x, (1, 3, 1, 1))`` on (8, 3, 32, 32) -> (1, 3, 1, 1)."""
    return _t(x).sum_to(shape, out=out)
