"""The cluster tier: typedtensor's dask reductions on a real ``distributed.LocalCluster`` with
worker processes. Skipped by default (``-m "not cluster"`` in pyproject's addopts); run with
``pytest -m cluster tests/dask/test_cluster.py``.

- results: the graphs pickle to the workers, the workers import numba and compile (or load
  from the shared disk cache) the kernels themselves, and the answers equal numpy's;
- fault: a worker process killed while a slow graph runs; the nanny restarts it, the
  scheduler reruns the lost tasks and the result is still right;
- out of core: a reduction over a lazily generated array several times larger than the
  workers' memory limit completes, with every worker's RSS below that limit throughout.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import typedtensor as tt  # noqa: E402

pytestmark = pytest.mark.cluster

#: each worker's memory limit in the out-of-core test (the array is 8x this)
MEMORY_LIMIT = 512 * 2**20


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            memory_limit=MEMORY_LIMIT,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def _worker_numba_state() -> dict[str, Any]:
    import sys

    state: dict[str, Any] = {"numba": "numba" in sys.modules, "compiled": []}
    if state["numba"]:
        from typedtensor._backend._numba import _kernels as kern

        for name in ("var_v", "var_h", "lse_v", "lse_h", "acc_h", "acc_v", "nrm_v"):
            if getattr(kern, name).signatures:
                state["compiled"].append(name)
        from typedtensor._backend._numba._cache import CACHE, CACHE_DIR

        state["cache"] = CACHE_DIR if CACHE else None
    return state


def test_results_on_worker_processes_equal_numpy(client: Any) -> None:
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((2048, 768)) * 3 + 10).astype(np.float32)  # 6 MB, 1.5 MB chunks
    darr = client.persist(da.from_array(a, chunks=(512, 768)))
    t = tt.asarray(darr)
    lazy = {
        "var": t.var(axis=0, correction=1),
        "std": t.std(axis=1),
        "logsumexp": t.logsumexp(axis=0),
        "norm": t.norm(2, axis=(0, 1)),
        "mean": t.mean(axis=0),
        "argmax": t.argmax(axis=0),
    }
    got = dict(zip(lazy, client.gather(client.compute(list(lazy.values()))), strict=True))
    a64 = a.astype(np.float64)
    m = a64.max(axis=0)
    want = {
        "var": a64.var(axis=0, ddof=1),
        "std": a64.std(axis=1),
        "logsumexp": np.log(np.exp(a64 - m).sum(axis=0)) + m,
        "norm": np.sqrt((a64 * a64).sum()),
        "mean": a64.mean(axis=0),
        "argmax": np.argmax(a, axis=0),
    }
    for name, value in got.items():
        assert type(value) is tt.Tensor, name  # sent as ndarray frames, rebuilt as a Tensor
        result = value.numpy()
        assert result.shape == want[name].shape, name
        if name == "argmax":
            np.testing.assert_array_equal(result, want[name])
        else:
            assert result.dtype == np.float32, name
            np.testing.assert_allclose(result, want[name], rtol=2e-5, err_msg=name)
    for state in client.run(_worker_numba_state).values():
        assert state["numba"], "the workers import numba on their first chunk"
        assert {"var_v", "lse_v"} <= set(state["compiled"]), state  # compiled in the worker
        if state["cache"] is not None:  # every worker process reads and fills one disk cache
            from typedtensor._backend._numba._cache import CACHE_DIR

            assert state["cache"] == CACHE_DIR
            cached = {p.name.split(".")[1].split("-")[0] for p in Path(CACHE_DIR).glob("*.nbi")}
            assert {"var_v", "lse_v"} <= cached, cached


def test_a_killed_worker_is_restarted_and_the_result_is_still_right(client: Any) -> None:
    a = np.random.default_rng(2).standard_normal((64, 1000))
    slow = da.from_array(a, chunks=(4, 1000)).map_blocks(
        lambda block: (time.sleep(0.25), block)[1], dtype=a.dtype
    )
    future = client.compute(tt.asarray(slow).var(axis=0))
    deadline = time.monotonic() + 30
    while not any(client.processing().values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # some chunks done, others running
    assert not future.done()
    pids = client.run(os.getpid)
    victim = min(pids.values())
    os.kill(victim, signal.SIGKILL)
    result = future.result(timeout=120)
    np.testing.assert_allclose(result.numpy(), a.var(axis=0), rtol=1e-12)
    client.wait_for_workers(2, timeout=60)
    new_pids = set(client.run(os.getpid).values())
    assert victim not in new_pids and len(new_pids) == 2  # the nanny started a new process


def _rss() -> int:
    import psutil

    return int(psutil.Process().memory_info().rss)


def test_a_reduction_over_an_array_larger_than_memory_completes_with_bounded_memory(
    client: Any,
) -> None:
    rows, cols = 2**21, 256  # float64: 4 GiB, generated chunk by chunk on the workers
    x = da.random.default_rng(3).random((rows, cols), chunks=(2**14, cols))  # 32 MiB chunks
    assert x.nbytes >= 8 * MEMORY_LIMIT
    t = tt.asarray(x)
    future = client.compute([t.var(axis=0), t.mean(axis=0), t.max(axis=0)])
    peak = 0
    while not future[0].done() or not future[1].done() or not future[2].done():
        peak = max(peak, *client.run(_rss).values())
        time.sleep(0.2)
    var, mean, top = (f.result().numpy() for f in future)
    # uniform on [0, 1): mean 1/2, variance 1/12; 2M samples a column: errors ~2e-4
    np.testing.assert_allclose(mean, 0.5, atol=2e-3)
    np.testing.assert_allclose(var, 1 / 12, atol=1e-3)
    assert ((top > 0.999) & (top < 1.0)).all()
    print(f"out-of-core: 4 GiB reduced, worker RSS peak {peak / 2**20:.0f} MiB")  # for -s runs
    assert 0 < peak < MEMORY_LIMIT, f"worker RSS peaked at {peak / 2**20:.0f} MiB"
