"""The helper process of ``_background_compile``: reads plans and kernel signatures from
stdin, one JSON job a line after its key, compiles them into the disk cache and writes each
key to stdout when done (``python -m typedtensor._backend._compile_worker``; it ends at the
end of its input).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import numpy as np


def _compile_plan(job: dict[str, Any]) -> None:
    """Run one plan on a zero array of its layout, once per route: its kernels compile into
    the disk cache."""
    from numpy.lib.stride_tricks import as_strided

    from ._routing import runner
    from ._thread_policy import PARALLEL_FROM_ELEMENTS

    shape, strides, itemsize = tuple(job["shape"]), tuple(job["strides"]), job["itemsize"]
    in_dtype = np.dtype(job["input_dtype"])
    span = itemsize + sum((n - 1) * s for n, s in zip(shape, strides, strict=True))
    a = as_strided(np.zeros(span // in_dtype.itemsize + 1, in_dtype), shape, strides)
    routes = ["0", "1"] if int(np.prod(shape)) >= PARALLEL_FROM_ELEMENTS else ["0"]
    for route in routes:
        os.environ["TYPEDTENSOR_NUMBA_PARALLEL"] = route
        run = runner(
            "numba",
            job["op"],
            shape,
            strides,
            itemsize,
            tuple(job["axes"]),
            job["keepdims"],
            np.dtype(job["dtype"]),
            in_dtype,
        )
        run(a, dict(job["params"]))


def _compile_kernel(job: dict[str, Any]) -> None:
    """Compile one kernel for one signature (pickled numba types) into the disk cache."""
    import base64
    import importlib
    import pickle

    module, _, name = job["kernel"].partition(":")
    kernel = getattr(importlib.import_module(module), name)
    kernel.compile(pickle.loads(base64.b64decode(job["sig"])))


def main() -> None:
    """The helper process: compile each plan read from stdin, write its key when done."""
    for line in sys.stdin:
        key, _, text = line.strip().partition(" ")
        try:
            job = json.loads(text)
            _compile_kernel(job) if "kernel" in job else _compile_plan(job)
        except Exception:  # the foreground keeps numpy's runner for this plan
            continue
        print(key, flush=True)


if __name__ == "__main__":
    main()
