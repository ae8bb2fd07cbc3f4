"""Where a program's first run spends its time: per call and per compiled kernel.

    python benchmarks/cold_profile.py                 # 4 MB float32, empty cache, helper on
    python benchmarks/cold_profile.py --mb 1 --background 0
    python benchmarks/cold_profile.py --precompiled   # ``typedtensor precompile`` first

Runs ``bench_cold.py``'s 24-call mix (sum, mean, max, var, std, logsumexp, norm, argmax over
the whole array, columns and rows) once in a fresh process with an empty
``TYPEDTENSOR_NUMBA_CACHE_DIR``, and prints:

- the start-up: ``import numba``, ``import typedtensor``, and numba's one-time set-up (the
  first compile of a trivial function: LLVM and the typing/lowering registries);
- each call's wall time and the kernels it compiled in the foreground (numba's
  ``numba:compile`` event: a kernel's time includes the helpers it compiles inside it);
- each kernel's compile time, largest first, and the total, with the part spent holding
  numba's LLVM lock (LLVM's optimisation and code generation; the rest is numba's typing
  and lowering).

The machine is shared with other jobs: compile times scale with the share of a core the
compiler gets, so the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
t_numpy = time.perf_counter()
import numba
from numba.core import event as ev
t_numba = time.perf_counter()
init_first = sys.argv[2] == "1"
if init_first:
    numba.njit(lambda v: v + 1)(1)
t_init = time.perf_counter()
import typedtensor as tt
t_tt = time.perf_counter()

compiles = []  # (depth, name, signature, seconds, call index, seconds in LLVM)
stack = []
stack_llvm = []
llvm_total = [0.0]


class LLVMTimer(ev.Listener):
    def on_start(self, event):
        llvm_total.append(time.perf_counter())

    def on_end(self, event):
        llvm_total[0] += time.perf_counter() - llvm_total.pop()


ev.register("numba:llvm_lock", LLVMTimer())
call_index = [-1]


class Listener(ev.Listener):
    def on_start(self, event):
        stack.append(time.perf_counter())
        stack_llvm.append(llvm_total[0])

    def on_end(self, event):
        dt = time.perf_counter() - stack.pop()
        d = event.data["dispatcher"]
        name = f"{d.py_func.__module__.rsplit('.', 1)[-1]}.{d.py_func.__name__}"
        sig = ", ".join(str(a) for a in event.data["args"])
        llvm = llvm_total[0] - stack_llvm.pop()
        compiles.append((len(stack), name, sig, dt, call_index[0], llvm))


ev.register("numba:compile", Listener())

mb = float(sys.argv[1])
n = int(mb * (1 << 20) / 4)
a = np.random.default_rng(0).standard_normal((n // 256, 256)).astype(np.float32)
t = tt.asarray(a)
calls = []
for ax in (None, 0, 1):
    where = {None: "all", 0: "columns", 1: "rows"}[ax]
    calls += [
        (f"sum {where}", lambda ax=ax: t.sum(ax)),
        (f"mean {where}", lambda ax=ax: t.mean(ax)),
        (f"max {where}", lambda ax=ax: t.max(ax)),
        (f"var {where}", lambda ax=ax: t.var(ax)),
        (f"std {where}", lambda ax=ax: t.std(ax)),
        (f"logsumexp {where}", lambda ax=ax: t.logsumexp(ax)),
        (f"norm {where}", lambda ax=ax: t.norm(2, ax)),
        (f"argmax {where}", lambda ax=ax: t.argmax(1 if ax is None else ax)),
    ]
times = []
t_calls = time.perf_counter()
for i, (label, call) in enumerate(calls):
    call_index[0] = i
    s = time.perf_counter()
    call()
    times.append((label, time.perf_counter() - s))
t_end = time.perf_counter()
print(json.dumps({
    "import_numpy": t_numpy - t0, "import_numba": t_numba - t_numpy,
    "numba_init": t_init - t_numba if init_first else None,
    "import_typedtensor": t_tt - t_init, "calls": times, "compiles": compiles,
    "calls_total": t_end - t_calls, "process": t_end - t0,
}))
"""


def profile(
    mb: float, background: str, init_first: bool, cache_dir: str, ahead: str = "1"
) -> dict[str, Any]:
    """Run the instrumented mix once in a fresh process; its measurements as a dict."""
    env = {**os.environ, "TYPEDTENSOR_NUMBA_CACHE_DIR": cache_dir}
    env["TYPEDTENSOR_NUMBA_BACKGROUND"] = background
    env["TYPEDTENSOR_NUMBA_AHEAD"] = ahead
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(mb), "1" if init_first else "0"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def report(r: dict[str, Any], warm: dict[str, Any] | None) -> None:
    """Print one profile (and the warm run's call times) as markdown tables."""
    for key in ("import_numpy", "import_numba", "numba_init", "import_typedtensor"):
        if r[key] is not None:
            again = f" (warm {warm[key]:.3f} s)" if warm and warm[key] is not None else ""
            print(f"- {key}: {r[key]:.3f} s{again}")
    for name, run in (("cold", r), ("warm", warm)):
        if run:
            print(
                f"- {name}: 24 calls {run['calls_total']:.2f} s; process after interpreter "
                f"start {run['process']:.2f} s"
            )
    compiles = r["compiles"]
    top = [c for c in compiles if c[0] == 0]
    print(
        f"- kernels compiled in the foreground: {len(top)} (top level), "
        f"{sum(c[3] for c in top):.2f} s; helpers compiled inside them: {len(compiles) - len(top)}"
    )
    print("\n| call | cold | warm | kernels compiled (s) |\n|---|---|---|---|")
    for i, (label, dt) in enumerate(r["calls"]):
        ks = ", ".join(f"{c[1]} {c[3]:.2f}" for c in top if c[4] == i)
        w = f"{warm['calls'][i][1]:.3f} s" if warm else ""
        print(f"| {label} | {dt:.3f} s | {w} | {ks} |")
    print("\n| kernel | signature | compile | of which LLVM |\n|---|---|---|---|")
    for c in sorted(top, key=lambda c: -c[3]):
        print(f"| {c[1]} | {c[2][:90]} | {c[3]:.2f} s | {c[5]:.2f} s |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--mb", type=float, default=4.0)
    p.add_argument("--background", default="1", help="TYPEDTENSOR_NUMBA_BACKGROUND")
    p.add_argument("--ahead", default="1", help="TYPEDTENSOR_NUMBA_AHEAD")
    p.add_argument("--init-first", action="store_true", help="time numba's set-up on its own")
    p.add_argument("--precompiled", action="store_true", help="run typedtensor precompile first")
    p.add_argument("--warm", action="store_true", help="run again on the now warm cache")
    p.add_argument("--json", action="store_true", help="print the raw measurements")
    args = p.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, cores {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as d:
        if args.precompiled:
            env = {**os.environ, "TYPEDTENSOR_NUMBA_CACHE_DIR": d}
            subprocess.run([sys.executable, "-m", "typedtensor", "precompile"], env=env, check=True)
        r = profile(args.mb, args.background, args.init_first, d, args.ahead)
        w = profile(args.mb, args.background, args.init_first, d, args.ahead) if args.warm else None
    print(json.dumps([r, w])) if args.json else report(r, w)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
