"""A program's first run: while the kernels' numpy twins serve its first order-dependent
reductions, the helper process compiles the common kernels ahead of need
(``typedtensor/_backend/_compile_ahead.py``). Each case runs in fresh processes with empty
kernel caches."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from typedtensor._backend import _compile_ahead as ahead

_PROGRAM = """
import json, sys, time
import numpy as np
from numba.core import event
import typedtensor as tt
from typedtensor._backend import _background_compile as bg
from typedtensor._backend import kernel_twins

depth, compiled = [0], []

class Count(event.Listener):
    def on_start(self, ev):
        depth[0] += 1
    def on_end(self, ev):
        depth[0] -= 1
        if depth[0] == 0:
            compiled.append(ev.data["dispatcher"].py_func.__name__)

event.register("numba:compile", Count())
twins_ran = []
for name, twin in list(kernel_twins.TWINS.items()):
    def spy(*args, _twin=twin, _name=name):
        twins_ran.append(_name)
        return _twin(*args)
    kernel_twins.TWINS[name] = spy
a = np.random.default_rng(5).standard_normal((512, 512)).astype(np.float32)  # 1 MB
t = tt.asarray(a)
out = {"sum": np.asarray(t.sum()).tolist()}
out["first_compiled"] = list(compiled)
out["first_twins"] = list(twins_ran)
if sys.argv[1] == "wait":
    out["queued"] = sorted(k for k in bg._submitted if k.startswith("ahead:"))  # sent, by key
    deadline = time.monotonic() + 600
    while any(bg.job_state(k) != "done" for k in bg._submitted):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    del compiled[:], twins_ran[:]
out["var0"] = np.asarray(t.var(axis=0)).tolist()
out["std1"] = np.asarray(t.std(axis=1)).tolist()
out["lse1"] = np.asarray(t.logsumexp(axis=1)).tolist()
out["lse0"] = np.asarray(t.logsumexp(axis=0)).tolist()
out["norm0"] = np.asarray(t.norm(axis=0)).tolist()
out["mean0"] = np.asarray(t.mean(axis=0)).tolist()
out["later_compiled"] = list(compiled)
out["later_twins"] = list(twins_ran)
print(json.dumps(out))
"""


def _run(mode: str, cache: Path, background: bool) -> dict[str, object]:
    env = {**os.environ, "TYPEDTENSOR_NUMBA_CACHE_DIR": str(cache)}
    for name in ("TYPEDTENSOR_NUMBA_PARALLEL", "TYPEDTENSOR_BACKEND", "TYPEDTENSOR_NUMBA_AHEAD"):
        env.pop(name, None)
    env["TYPEDTENSOR_NUMBA_BACKGROUND"] = "1" if background else "0"
    r = subprocess.run(
        [sys.executable, "-c", _PROGRAM, mode],
        capture_output=True,
        text=True,
        env=env,
        timeout=1200,
    )
    assert r.returncode == 0, r.stderr
    result: dict[str, object] = json.loads(r.stdout.splitlines()[-1])
    return result


@pytest.mark.slow
def test_the_helper_compiles_the_next_kernels_while_the_twins_serve(tmp_path: Path) -> None:
    """The first sum is served by its kernels' numpy twins (nothing compiles in the
    foreground) and queues every step of float32 before its own plan; once the helper has
    done them, var, std, logsumexp, the norm and the mean over rows and columns run kernels
    it compiled (no twin runs, none compiles in the foreground), and every result has the
    bits of a run whose kernels all compiled in the foreground."""
    ahead_run = _run("wait", tmp_path / "ahead", background=True)
    assert ahead_run["first_compiled"] == [], "the twins serve the first sum"
    assert ahead_run["first_twins"] == ["sum_h"]
    assert ahead_run["queued"] == sorted(ahead.step_key(s, "float32") for s in ahead.STEPS)
    assert ahead_run["later_compiled"] == []
    assert ahead_run["later_twins"] == [], "the later calls run the kernels"
    foreground = _run("now", tmp_path / "foreground", background=False)
    assert foreground["first_compiled"], "without the helper the first sum compiles"
    assert foreground["later_compiled"], "without the helper the later calls compile"
    for key in ("sum", "var0", "std1", "lse1", "lse0", "norm0", "mean0"):
        assert ahead_run[key] == foreground[key], key


def test_each_plan_maps_to_the_step_of_its_kernels() -> None:
    assert ahead.step_of("mean", "full") == "sums_rows"
    assert ahead.step_of("norm", "rows") == "norm_rows"
    assert ahead.step_of("norm", "columns") == "norm_columns"
    assert ahead.step_of("std", "columns") == "var_columns"
    assert ahead.step_of("logsumexp", "rows") == "logsumexp_rows"
    assert ahead.step_of("prod", "rows") is None  # no step: it compiles in the foreground
    assert ahead.step_of("sum", "short_rows") is None
    for step, (op, layout) in ahead.STEPS.items():
        where = {"all": "full"}.get(layout, layout)
        assert ahead.step_of(op, where) == step


@pytest.mark.parametrize(
    ("setting", "background", "expected"),
    [("1", "1", True), ("0", "1", False), ("off", "1", False), ("1", "0", False)],
)
def test_switches(
    setting: str, background: str, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``TYPEDTENSOR_NUMBA_AHEAD=0`` turns compiling ahead off, and so does the helper's own
    switch; off, a plan's run is its kernels' run itself."""
    monkeypatch.delenv("TYPEDTENSOR_NUMBA_PARALLEL", raising=False)
    monkeypatch.delenv("TYPEDTENSOR_NUMBA_CACHE", raising=False)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_AHEAD", setting)
    monkeypatch.setenv("TYPEDTENSOR_NUMBA_BACKGROUND", background)
    assert ahead.enabled() is expected

    def kernel_run(a: npt.NDArray[Any], params: dict[str, Any]) -> npt.NDArray[Any]:
        return a

    run = ahead.compile_ahead(kernel_run, "sum", "rows", np.dtype("float32"))
    assert (run is kernel_run) is not expected


def test_while_waiting_the_foreground_compiles_a_step_still_queued(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plan waiting for the step the helper has begun takes the next queued step back
    (``skip``) and compiles it itself with ``precompile``; that step then counts as compiled
    and is not withdrawn again."""
    from typedtensor._backend import _background_compile as bg
    from typedtensor._backend import precompile as precompile_module

    waited = ahead.step_key("var_rows", "float32")
    queued = ahead.step_key("logsumexp_rows", "float32")
    states = {waited: "started", queued: "queued"}
    skipped: list[str] = []
    compiled: list[tuple[list[str], list[str], list[str], bool]] = []

    def fake_precompile(
        ops: list[str], dtypes: list[str], layouts: list[str], serial_only: bool = False
    ) -> list[object]:
        compiled.append((ops, dtypes, layouts, serial_only))
        states[waited] = "done"  # the helper finishes its step meanwhile
        return []

    monkeypatch.setattr(bg, "job_state", lambda key: states.get(key))
    monkeypatch.setattr(bg, "skip", skipped.append)
    monkeypatch.setattr(bg, "helper_alive", lambda: True)
    monkeypatch.setattr(precompile_module, "precompile", fake_precompile)
    monkeypatch.setattr(ahead, "_sent", {queued: ("logsumexp", "all", "float32")})
    monkeypatch.setattr(ahead, "_taken", set())

    assert ahead._helper_compiled(waited) is True
    assert skipped == [queued]
    assert compiled == [(["logsumexp"], ["float32"], ["all"], True)]
    assert ahead._helper_compiled(queued) is True  # taken: compiled here, not withdrawn again
    assert skipped == [queued] and len(compiled) == 1
