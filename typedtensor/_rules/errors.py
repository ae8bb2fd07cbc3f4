"""Rule violations: plain exceptions carrying data (``RuleError`` and subclasses).

The runtime re-raises them as numpy's ``AxisError``/``ValueError``/``TypeError``; the mypy
plugin maps them to error codes.
"""

from __future__ import annotations

__all__ = [
    "AssignShapeError",
    "AxisRangeError",
    "AxisTypeError",
    "BroadcastError",
    "DTypeArgumentError",
    "DuplicateAxisError",
    "EinsumSubscriptsError",
    "EmptyReductionError",
    "IndexFormError",
    "IndexRangeError",
    "MatmulShapeError",
    "PermutationError",
    "ReduceToShapeError",
    "RuleError",
    "ScanAxisError",
    "ShapeMismatchError",
    "SliceStepError",
    "SymbolicBroadcastError",
    "SymbolicIndexError",
    "valid_axes_text",
]


class RuleError(Exception):
    """Base of every rule violation; ``str(err)`` is the user-facing message."""


class AxisRangeError(RuleError):
    """An axis is outside ``-ndim..ndim-1``."""

    def __init__(self, axis: int, ndim: int) -> None:
        self.axis = axis
        self.ndim = ndim
        super().__init__(
            f"axis {axis} is out of range for a rank-{ndim} tensor; {valid_axes_text(ndim)}"
        )


class DuplicateAxisError(RuleError):
    """Two axis spellings name the same dim."""

    def __init__(self, first: int, second: int, dim: int, ndim: int) -> None:
        self.first = first
        self.second = second
        self.dim = dim
        self.ndim = ndim
        if first == second:
            text = f"axis {first} is repeated"
        else:
            text = f"axes {first} and {second} both refer to dim {dim} of a rank-{ndim} tensor"
        super().__init__(f"{text}; each axis may appear once")


class AxisTypeError(RuleError):
    """The axis argument has the wrong type (or a tuple where a single axis is required)."""


class BroadcastError(RuleError):
    """Two shapes cannot be broadcast together."""

    def __init__(self, position: int, left: object, right: object, message: str) -> None:
        self.position = position
        self.left = left
        self.right = right
        super().__init__(message)


class SymbolicBroadcastError(BroadcastError):
    """A symbolic dim meets a different symbol or a known size other than 1: the broadcast
    fails for most sizes the symbol can take, so it is rejected (the plugin reports it under
    its own error code)."""


class DTypeArgumentError(RuleError):
    """A ``dtype=`` the reduction cannot compute in (an integer dtype for ``var``/``std``, for
    ``nanmean`` of float input): numpy raises ``TypeError`` for some of these and returns
    truncated answers for the rest."""


class EmptyReductionError(RuleError):
    """A reduction without an identity (max, min, argmax, the norm with ``p=-inf``...) over
    zero elements: numpy raises ``ValueError``."""


class ReduceToShapeError(RuleError):
    """The target of a reduce-to-shape is not the source with some dims set to 1."""


class ScanAxisError(RuleError):
    """A scan that needs an explicit axis (``cumulative_sum`` of a rank-2+ tensor) got none."""


class EinsumSubscriptsError(RuleError):
    """``einsum`` subscripts that do not parse (a character that is no label, a second
    ``->``) or do not fit the operands (a term per operand, a label per dim, output labels
    found in the inputs); numpy raises ``ValueError``."""


class MatmulShapeError(RuleError):
    """``a @ b`` whose inner dims differ, whose batch dims do not broadcast, or with a rank-0
    operand. ``problem`` says what (without the shapes), ``hint`` how to fix it; ``symbolic``
    when a symbolic dim is what does not fit."""

    def __init__(self, problem: str, shapes: str, hint: str, symbolic: bool = False) -> None:
        self.problem = problem
        self.hint = hint
        self.symbolic = symbolic
        super().__init__(f"{problem} ({shapes}); {hint}")


class IndexRangeError(RuleError):
    """An int index outside ``-size..size-1`` of a dim of known size."""

    def __init__(self, index: int, dim: int, size: int) -> None:
        self.index = index
        self.dim = dim
        self.size = size
        valid = f"valid indices are {-size}..{size - 1}" if size else "the dim is empty"
        super().__init__(f"index {index} is out of range for dim {dim} of size {size}; {valid}")


class IndexFormError(RuleError):
    """An index numpy rejects whatever the sizes: too many indices, two ellipses, an item of
    an unsupported type, a boolean mask whose shape does not match."""


class SymbolicIndexError(IndexFormError):
    """A boolean mask whose dim is a symbol where the indexed dim is another symbol or a size
    (or the reverse): it matches only for some sizes (the symbolic rule)."""


class SliceStepError(RuleError):
    """A slice with step 0."""


class AssignShapeError(RuleError):
    """``x[index] = value`` where ``value`` does not broadcast to the indexed shape."""


class PermutationError(RuleError):
    """Axes that should name every dim once (``transpose``) or pair up (``moveaxis``) do not."""


class ShapeMismatchError(RuleError):
    """A shape that does not fit a manipulation (reshape, squeeze, concatenate, stack, split,
    broadcast_to, ``mT``); ``symbolic`` when a symbolic dim is what does not fit (it would fail
    for most sizes the symbol can take)."""

    def __init__(self, message: str, symbolic: bool = False) -> None:
        self.symbolic = symbolic
        super().__init__(message)


def valid_axes_text(ndim: int) -> str:
    """``'valid axes are -3..2'``, or the rank-0 explanation."""
    if ndim == 0:
        return "a rank-0 tensor has no axes (use axis=None or axis=())"
    return f"valid axes are {-ndim}..{ndim - 1}"
