"""``typedtensor shapes`` prints dim expressions as Python arithmetic (with the real plugin)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from typedtensor import _cli

SOURCE = """\
from typing import Literal as L, TypeVar

import typedtensor as tt
from typedtensor import Tensor

B = TypeVar("B", bound=int)
N = TypeVar("N", bound=int)
D = TypeVar("D", bound=int)


def f(
    x: Tensor[tt.float32, B, L[10]], y: Tensor[tt.float32, N, L[5]], z: Tensor[tt.float32, B, D]
) -> None:
    r = x.reshape(-1, 5)
    j = tt.concatenate([r, y])
    h = z.reshape(z.shape[0], 8, -1)
    s = tt.split(z, 4, axis=1)[0]
    w = tt.zeros((2 * (z.shape[1] // 4) - 1,))
"""


@pytest.mark.slow
def test_shapes_prints_expression_dims_as_arithmetic(tmp_path: Path) -> None:
    (tmp_path / "exprs.py").write_text(SOURCE)
    out, err = io.StringIO(), io.StringIO()
    code = _cli.shapes(
        [str(tmp_path / "exprs.py")],
        ["--cache-dir", str(tmp_path / ".mypy_cache"), "--config-file", ""],
        out=out,
        err=err,
    )
    text = out.getvalue()
    assert code == 0, text + err.getvalue()
    assert "#   r: Tensor[float32, 2 * B, 5]" in text
    assert "#   j: Tensor[float32, 2 * B + N, 5]" in text
    assert "#   h: Tensor[float32, B, 8, D // 8]" in text
    assert "#   s: Tensor[float32, B, D // 4]" in text
    # D // 4 computed as a value (tt.IntDiv, no claim that 4 divides D) prints as arithmetic
    assert "#   w: Tensor[float64, 2 * (D // 4) - 1]" in text
