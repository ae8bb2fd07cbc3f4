"""A reduction's bits do not depend on where its kernel's machine code came from: compiled in
the running process (an empty kernel cache), loaded from the disk cache, or the parallel
variant (issue #35).

numba optimises a helper once on its own and again inside every kernel that links it in;
with LLVM's ``reassoc`` flag the two copies summed in different orders (``x.norm(1, -1)`` of
a (64, 2048) float32 tensor: other last bits in every run after the first). The
order-sensitive kernels now sum in explicit lanes without ``reassoc`` (``_numba/_lanes.py``).
Each case runs in fresh processes sharing one new cache directory: first with the cache empty,
then warm, then warm with the parallel route forced (its kernels compiled in that process);
the results must be the same bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

#: run in a child process: every case's result bytes (hex), as JSON on stdout
_CHILD = r"""
import json, sys
import numpy as np
from typedtensor._backend import _numba as nb
from typedtensor._backend._numba import logsumexp_runs

def run(op, a, axes, **params):
    dt = np.dtype(np.int64) if op.startswith("arg") else a.dtype
    if op == "logsumexp":
        return logsumexp_runs.reduce(a, axes, False, dt)
    return nb.reduce(op, a, axes, False, dt, **params)

rng = np.random.default_rng(35)
rows32 = (rng.standard_normal((256, 4096)) + 3).astype(np.float32)  # 2**20: segments, parallel
cols32 = (rng.standard_normal((1024, 1024)) + 3).astype(np.float32)
nan32 = rows32.copy()
nan32[::7, ::5] = np.nan
cases = {  # one kernel family each: the serial and the parallel variant compile in the test
    "norm1 rows f32": run("norm", rows32, (1,), p=1, eps=0.0, mode="plain"),
    "sum cols f32": run("sum", cols32, (0,)),
    "var rows f32": run("var", rows32, (1,), correction=0.0),
    "logsumexp rows f32": run("logsumexp", rows32, (1,)),
    "nansum rows f32": run("nansum", nan32, (1,)),
}
json.dump({k: np.asarray(v).tobytes().hex() for k, v in cases.items()}, sys.stdout)
"""


def _results(cache: Path, parallel: str) -> dict[str, str]:
    env = {
        **os.environ,
        "TYPEDTENSOR_NUMBA_CACHE": "1",
        "TYPEDTENSOR_NUMBA_CACHE_DIR": str(cache),
        "TYPEDTENSOR_NUMBA_BACKGROUND": "0",
        "TYPEDTENSOR_NUMBA_PARALLEL": parallel,
        "NUMBA_NUM_THREADS": "2",
    }
    done = subprocess.run(  # cwd: the installed typedtensor, not one in the caller's directory
        [sys.executable, "-c", _CHILD],
        env=env,
        cwd=cache,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, str] = json.loads(done.stdout)
    return out


@pytest.mark.slow
def test_first_run_cached_and_parallel_results_are_the_same_bytes(tmp_path: Path) -> None:
    cold = _results(tmp_path, "0")
    assert any(p.suffix == ".nbi" for p in tmp_path.rglob("*")), "the kernel cache stayed empty"
    warm = _results(tmp_path, "0")
    parallel = _results(tmp_path, "1")
    assert len(cold) == 5
    cached = [case for case, bits in cold.items() if warm[case] != bits]
    assert not cached, f"the cached kernels give other bits than the compiled ones: {cached}"
    par = [case for case, bits in cold.items() if parallel[case] != bits]
    assert not par, f"the parallel kernels give other bits: {par}"
