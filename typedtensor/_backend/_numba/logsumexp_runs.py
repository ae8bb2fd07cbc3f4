"""logsumexp's numba code paths (``_backend/logsumexp_family.py`` names them in its
``Routes``): ``reduce``, the numba backend's function (any layout, serial or parallel
kernels), and ``direct``, the plan-bound serial kernels' builder (``direct.direct_runner``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _kernels as kern
from ._canonical import _canon, _finish, _rest, _split
from ._stages import _WB_2PASS, _combine_lse, _lse_merge, _rb, _segments, _stage_lse

__all__ = ["direct", "reduce"]

Array = npt.NDArray[Any]
_Finish = Callable[[Array, dict[str, Any]], Array]
_Block = tuple[int, int, int]


def reduce(a: Array, axes: tuple[int, ...], keepdims: bool, dtype: Any) -> Array:
    """The numba backend's logsumexp: (max, sum of exp(x - max)) per reduced group, merged."""
    c = _canon(a, axes)
    groups = c.groups
    k, o, r, i = _split(groups)
    z0 = np.float32(0) if a.dtype == np.float32 else np.float64(0)
    m, s = _stage_lse(c.b.reshape(o, r, i), z0)
    groups = _rest(groups, k)
    if any(red for _, red in groups):
        shp = [g for g, _ in groups]
        rax = tuple(j for j, (_, red) in enumerate(groups) if red)
        m, s = _lse_merge(m.reshape(shp), s.reshape(shp), rax)
    with np.errstate(invalid="ignore", divide="ignore"):
        res = m + np.log(s)
    return _finish(c, a, axes, keepdims, dtype, res)


def _logsumexp_parts(o: int, r: int, i: int, z0: Any) -> Callable[[Array], tuple[Array, Array]]:
    """``_stages._stage_lse``'s serial path: (max, sum of exp(x - max)), with the backend's
    row segments."""
    if i == 1:
        ns = _segments(o, r, 1, o * r, 1 << 14)
        rb = _rb(r, ns)

        def rows(x: Array) -> tuple[Array, Array]:
            pm: Array = np.empty((o, ns))
            ps: Array = np.empty((o, ns))
            kern.lse_h(x.reshape(o, r), pm, ps, z0, rb)
            return _combine_lse(pm.reshape(o, ns, 1), ps.reshape(o, ns, 1))

        return rows
    wb = min(i, _WB_2PASS)
    ns = _segments(o, r, -(-i // wb), o * r * i, 64)

    def columns(x: Array) -> tuple[Array, Array]:
        pm: Array = np.empty((o, ns, i))
        ps: Array = np.empty((o, ns, i))
        kern.lse_v(x.reshape(o, r, i), pm, ps, z0, wb)
        return _combine_lse(pm, ps)

    return columns


def direct(block: _Block, kdt: np.dtype[Any], dtype: np.dtype[Any], n: int) -> _Finish:
    """The plan-bound serial kernels of one ``(O, R, I)`` block (``direct.direct_runner``)."""
    parts = _logsumexp_parts(*block, np.float32(0) if kdt == np.float32 else np.float64(0))

    def finish(x: Array, params: dict[str, Any]) -> Array:
        m, s = parts(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (m + np.log(s)).astype(dtype, copy=False)

    return finish
