"""Runtime exception types (the rules module raises plain ``RuleError``s; these wrap them)."""

from __future__ import annotations

import numpy as np

__all__ = ["AxisError", "ShapeError"]


class AxisError(np.exceptions.AxisError):
    """An axis is out of range for the tensor's rank (a numpy ``AxisError``).

    Also an ``IndexError`` and a ``ValueError``, as numpy's is.
    """

    def __init__(self, message: str, axis: int | None = None, ndim: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.axis = axis
        self.ndim = ndim

    def __str__(self) -> str:
        return self.message


class ShapeError(ValueError):
    """A runtime shape differs from the declared one, or two shapes cannot broadcast."""
