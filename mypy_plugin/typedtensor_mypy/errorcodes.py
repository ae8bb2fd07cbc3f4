"""The plugin's error codes, defined once: silence one with ``# type: ignore[typedtensor-axis]``."""

from __future__ import annotations

from mypy.errorcodes import ErrorCode

__all__ = ["AXIS", "INDEX", "SHAPE"]

#: a bad ``axis`` (out of range, duplicated, a tuple for argmax...) or a bad reduction parameter
AXIS = ErrorCode("typedtensor-axis", "Invalid reduction axis or parameter", "typedtensor")
#: incompatible shapes: broadcasting, reduce-to-shape targets, ``out=`` buffers
SHAPE = ErrorCode("typedtensor-shape", "Incompatible tensor shapes or dtypes", "typedtensor")
#: a bad index: an int out of range of a known dim, too many indices, two ellipses, a zero step
INDEX = ErrorCode("typedtensor-index", "Invalid tensor index", "typedtensor")
