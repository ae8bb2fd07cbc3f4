"""Operators numpy rejects for every operand of these dtypes, reported by pyright's poison
overloads (``@deprecated``, ``reportDeprecated = "error"``) as the plugin reports them; each
line carries the expected error's ignore comment: an error that vanishes leaves an unused
ignore, itself an error. Operands of an ``Any`` dtype are never flagged
(``pass/operators_any_dtype.py``)."""

from typing import Any
from typing import Literal as L

from typing_extensions import Unpack

import typedtensor as tt
from typedtensor import Tensor


def bool_subtraction(
    b: Tensor[tt.bool_, L[3]],
    r: Tensor[tt.bool_, Unpack[tuple[Any, ...]]],
    u8: Tensor[tt.uint8, L[3]],
) -> None:
    print(b - b)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    print(b - True)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    print(True - b)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    print(r - b)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    print(1j ^ u8)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    print(u8 ^ 1j)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    print(u8 & 1.5)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    print(2.0 | u8)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
