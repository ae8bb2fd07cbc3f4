"""``dtype=`` of an integer or bool type on ``mean``/``var``/``std`` and their NaN-aware forms
(issue #30): numpy's answers there overflow, truncate or raise, so no overload takes it, as
the plugin and the runtime reject it. Each line carries the expected error's ignore comment;
an error that vanishes leaves an unused ignore, itself an error."""

from typing import Any, Literal as L

from typing_extensions import Unpack

import numpy as np

import typedtensor as tt
from typedtensor import Tensor


def integer_dtype_on_inexact_reductions(
    x: Tensor[tt.float32, L[2], L[3]],
    u: Tensor[tt.float64, Unpack[tuple[Any, ...]]],
    a: tt.AnyTensor,
) -> None:
    x.mean(0, dtype=tt.int8)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    x.mean(dtype=tt.bool_)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    tt.mean(x, 1, dtype=tt.int64)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    tt.nanmean(x, dtype=tt.uint8)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    x.var(0, dtype=tt.int8)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    tt.std(x, dtype=tt.int64)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    tt.nanvar(x, 1, dtype=tt.bool_)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    u.std(1, keepdims=True, dtype=tt.uint16)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    a.var(dtype=np.int32)  # type: ignore[type-var]  # pyright: ignore[reportCallIssue, reportArgumentType]
    tt.nanstd(u, dtype=np.dtype(np.int8))  # type: ignore[arg-type]  # pyright: ignore[reportCallIssue, reportArgumentType]
    x.var(0, dtype=tt.int8, out=x)  # type: ignore[arg-type]  # pyright: ignore[reportCallIssue, reportArgumentType]
