"""The last step of the norms and of ``l2_normalize``, one formula for every backend and the
dask trees: from the sums of ``|x|^p`` to the norm (``eps`` as the oneDNN ``mode`` says, then
the ``1/p`` root), and from the sums of squares to ``l2_normalize``'s denominator (the
variant's ``eps`` rule). numpy only; callers set numpy's error state and the result dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["l2_denominator", "norm_from_power_sum"]


def norm_from_power_sum(s: Any, p: float, eps: float, mode: str, dtype: Any) -> Any:
    """``(sum |x|^p)^(1/p)`` from ``s = sum |x|^p``: ``lp_max``/``power_p_max`` take
    ``max(s, eps)``, ``lp_sum``/``power_p_sum`` ``s + eps`` (``eps`` in ``dtype``); the
    ``power_p`` modes (and ``p == 1``) skip the root."""
    if mode in ("lp_max", "power_p_max"):
        s = np.maximum(s, np.asarray(eps, dtype=dtype))
    elif mode in ("lp_sum", "power_p_sum"):
        s = s + np.asarray(eps, dtype=dtype)
    if mode.startswith("power_p") or p == 1:
        return s
    if p == 2:
        return np.sqrt(s)
    return s ** (1.0 / p)


def l2_denominator(ss: Any, e: Any, variant: str) -> Any:
    """What ``l2_normalize`` divides by, from the sums of squares ``ss`` and ``eps`` as ``e``
    (a numpy scalar or array of the result's real dtype): TensorFlow and OpenVINO-max
    ``sqrt(max(ss, e))``, PyTorch ``max(sqrt(ss), e)``, OpenVINO-add ``sqrt(ss + e)``."""
    if variant in ("tensorflow", "openvino-max"):
        return np.sqrt(np.maximum(ss, e))
    if variant == "pytorch":
        return np.maximum(np.sqrt(ss), e)
    return np.sqrt(ss + e)  # openvino-add
