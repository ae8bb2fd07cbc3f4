"""Every program in examples/ runs to completion on every backend and prints its checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.py"))


def test_examples_exist() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {
        "channel_stats",
        "embeddings",
        "softmax",
        "layer_norm",
        "tosa_pipeline",
        "sensor_table",
    } <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs(backend: str, path: Path) -> None:
    env = {**os.environ, "TYPEDTENSOR_BACKEND": backend}
    proc = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=env, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == f"{path.stem}: ok", proc.stdout
    assert len(lines) >= 3  # each example reports what it computed, not just "ok"
