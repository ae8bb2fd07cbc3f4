"""Axes the overloads can decide are wrong: pyright (reportDeprecated = "error") and mypy
(enable_error_code = deprecated) report them. Each line carries the expected error's ignore
comment; an error that vanishes leaves an unused ignore, itself an error."""

from typing import Final, Literal as L

import typedtensor as tt
from typedtensor import Tensor

BAD: Final = 3


def out_of_range(
    x1: Tensor[tt.float32, L[5]],
    x3: Tensor[tt.int8, L[2], L[3], L[4]],
    x4: Tensor[tt.uint8, L[2], L[3], L[4], L[5]],
) -> None:
    x1.mean(1)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x1.max(-2, keepdims=True)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.sum(3)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.sum(BAD)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.sum(-4)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.argmax(3)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.norm(2, 5)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.l2_normalize(3)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x4.var(4)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x4.std(-5, correction=1)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.sum(3, out=x3)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.var(-4, keepdims=True, out=x3)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]


def duplicates(
    x2: Tensor[tt.float32, L[2], L[3]],
    x3: Tensor[tt.int8, L[2], L[3], L[4]],
    x4: Tensor[tt.uint8, L[2], L[3], L[4], L[5]],
) -> None:
    x2.sum((0, 0))  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.sum((0, -3))  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x3.mean((-1, 2), keepdims=True)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x4.any((1, -3))  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]
    x4.sum((0, 0), out=x4)  # type: ignore[deprecated]  # pyright: ignore[reportDeprecated]


def wrong_types(x: Tensor[tt.float32, L[2], L[3]]) -> None:
    x.argmax((0, 1))  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
    x.sum("0")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]
