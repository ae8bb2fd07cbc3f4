"""``typedtensor precompile`` fills an empty kernel cache so that a following program's first
run compiles nothing: no kernel compiles in its process and no helper process starts
(``_background_compile``). Each case runs in fresh processes with a fresh cache directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from typedtensor._backend.precompile import precompile

#: a bench_cold-style program (float32, 512 KB: serial kernels), then what it compiled
_PROGRAM = """
import numpy as np
from numba.core import event
import typedtensor as tt
from typedtensor._backend import _background_compile as bg

compiled = []


class Listener(event.Listener):
    def on_start(self, e):
        pass

    def on_end(self, e):
        compiled.append(e.data["dispatcher"].py_func.__name__)


event.register("numba:compile", Listener())
a = np.random.default_rng(0).standard_normal((512, 256)).astype(np.float32)
t = tt.asarray(a)
for ax in (None, 0, 1):
    expected = a.sum(ax, dtype=np.float64)
    np.testing.assert_allclose(np.asarray(t.sum(ax)), expected, rtol=1e-5, atol=1e-3)
    t.mean(ax); t.max(ax); t.var(ax); t.std(ax); t.logsumexp(ax); t.norm(2, ax)
    t.argmax(1 if ax is None else ax)
print("compiled", sorted(set(compiled)))
print("helper_started", bool(bg._worker))
"""


def _env(cache: Path) -> dict[str, str]:
    env = {**os.environ, "TYPEDTENSOR_NUMBA_CACHE_DIR": str(cache)}
    for name in (
        "TYPEDTENSOR_NUMBA_PARALLEL",
        "TYPEDTENSOR_NUMBA_BACKGROUND",
        "TYPEDTENSOR_BACKEND",
    ):
        env.pop(name, None)
    return env


def _python(args: list[str], cache: Path, **settings: str) -> list[str]:
    env = {**_env(cache), **settings}
    cmd = [sys.executable, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_precompile_fills_the_cache_so_a_first_run_compiles_nothing(tmp_path: Path) -> None:
    cmd = ["-m", "typedtensor", "precompile", "--dtypes", "float32", "--serial-only"]
    out = _python(cmd, tmp_path)
    assert out[-1].split()[1:3] == ["kernels", "compiled"] and int(out[-1].split()[0]) >= 8, out
    assert any(line.split()[:2] == ["sum", "all"] and "1 kernels compiled" in line for line in out)
    assert _python(["-c", _PROGRAM], tmp_path) == ["compiled []", "helper_started False"]
    again = _python(cmd, tmp_path)  # everything loads from the cache now
    assert again[-1].startswith("0 kernels compiled"), again


def test_without_precompile_the_program_needs_its_kernels_compiled(tmp_path: Path) -> None:
    """The probe above can fail: with an empty cache the same program starts the helper (its
    kernels compile there while numpy's loops and the kernels' twins serve), and with the
    helper off it compiles them in its own process."""
    out = _python(["-c", _PROGRAM], tmp_path / "helper")
    assert out == ["compiled []", "helper_started True"], out
    out = _python(["-c", _PROGRAM], tmp_path / "own", TYPEDTENSOR_NUMBA_BACKGROUND="0")
    assert out[0] != "compiled []" and "'sum_h'" in out[0], out


def test_precompile_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="layouts are"):
        precompile(["sum"], ["float32"], ["diagonal"])
    with pytest.raises(ValueError, match="unknown reductions"):
        precompile(["summ"], ["float32"], ["rows"])
