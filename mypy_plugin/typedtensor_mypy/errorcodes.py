"""The plugin's error codes, defined once: silence one with ``# type: ignore[typedtensor-axis]``."""

from __future__ import annotations

from mypy.errorcodes import ErrorCode

__all__ = ["AXIS", "INDEX", "SHAPE", "SYMBOLIC"]

#: a bad ``axis`` (out of range, duplicated, a tuple for argmax...) or a bad reduction parameter
AXIS = ErrorCode("typedtensor-axis", "Invalid reduction axis or parameter", "typedtensor")
#: incompatible shapes: broadcasting, reduce-to-shape targets, ``out=`` buffers
SHAPE = ErrorCode("typedtensor-shape", "Incompatible tensor shapes or dtypes", "typedtensor")
#: a symbolic dim (TypeVar or ``tt.Dim`` marker) broadcast against a different symbol or a known
#: size other than 1; a sub-code of ``typedtensor-shape`` (ignoring that code ignores this one
#: too), so ``disable_error_code = ["typedtensor-symbolic"]`` turns off just this rule
SYMBOLIC = ErrorCode(
    "typedtensor-symbolic",
    "A symbolic dim broadcast against a different dim",
    "typedtensor",
    sub_code_of=SHAPE,
)
#: a bad index: an int out of range of a known dim, too many indices, two ellipses, a zero step
INDEX = ErrorCode("typedtensor-index", "Invalid tensor index", "typedtensor")
