"""Why kernels are not compiled in a background thread: numba's compiler enters
``warnings.catch_warnings`` (process-wide state) for every typing constraint, so a compile in
another thread changes which warnings the foreground records.

    python benchmarks/warnings_thread_race.py

The foreground records numpy's "All-NaN slice encountered" warning in a loop, under
``warnings.catch_warnings(record=True)`` (what ``pytest.warns`` does), and counts the rounds
that did not record exactly one warning: first alone, then while a thread compiles numba
functions. It prints the counts and whether the process's warning filters came back as they
were. A helper process (``typedtensor/_backend/_background_compile.py``) shares none of it.
"""

from __future__ import annotations

import threading
import time
import warnings

import numba
import numpy as np

ALL_NAN = np.full(8, np.nan, np.float32)


def _compile_forever(stop: threading.Event) -> None:
    i = 0
    while not stop.is_set():
        src = f"def f{i}(x):\n    s = 0.0\n    for v in x:\n        s += v * {i}\n    return s\n"
        scope: dict[str, object] = {}
        exec(src, scope)
        numba.njit(scope[f"f{i}"])(np.ones(3))  # compiles: type inference, catch_warnings
        i += 1


def _rounds(seconds: float) -> tuple[int, int]:
    wrong = total = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            np.nanmax(ALL_NAN)
        total += 1
        wrong += sum(1 for w in caught if "All-NaN" in str(w.message)) != 1
    return wrong, total


def main() -> None:
    filters = list(warnings.filters)
    wrong, total = _rounds(2.0)
    print(f"alone:               {wrong} of {total} rounds recorded other than one warning")
    stop = threading.Event()
    thread = threading.Thread(target=_compile_forever, args=(stop,), daemon=True)
    thread.start()
    wrong, total = _rounds(10.0)
    stop.set()
    thread.join()
    print(f"while a thread compiles: {wrong} of {total} rounds recorded other than one warning")
    print(f"warning filters restored: {warnings.filters == filters}")
    for entry in warnings.filters[: len(warnings.filters) - len(filters)]:
        print(f"  left behind: {entry[0]!r} for {entry[2].__name__}")


if __name__ == "__main__":
    main()
