"""The reduction table: name -> result-dtype rule, identity, axis form and extra parameters."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .dtypes import DTypeRule

__all__ = ["L2_VARIANTS", "NORM_MODES", "REDUCTIONS", "ReductionSpec"]


NORM_MODES: tuple[str, ...] = ("plain", "lp_max", "lp_sum", "power_p_max", "power_p_sum")
L2_VARIANTS: tuple[str, ...] = ("tensorflow", "pytorch", "openvino-add", "openvino-max")


@dataclass(frozen=True)
class ReductionSpec:
    """One row of the reduction table."""

    name: str
    dtype_rule: DTypeRule
    #: identity for an empty reduction, or None when numpy raises (max/min/argmax/argmin)
    identity: float | bool | None
    #: argmax/argmin take one axis, never a tuple
    single_axis: bool = False
    #: l2_normalize keeps the input shape and only reduces internally
    keeps_shape: bool = False
    #: supports ``keepdims``
    keepdims: bool = True
    #: extra keyword parameters (beyond axis/keepdims/out)
    params: tuple[str, ...] = field(default=())
    #: norm mode for the norm_lp_* family
    norm_mode: str | None = None
    doc: str = ""


def _table() -> dict[str, ReductionSpec]:
    s = DTypeRule
    rows = [
        ReductionSpec("sum", s.SUM, 0, doc="sum of elements"),
        ReductionSpec("prod", s.SUM, 1, doc="product of elements"),
        ReductionSpec("mean", s.FLOAT, math.nan, doc="arithmetic mean"),
        ReductionSpec("max", s.SAME, None, doc="maximum (NaN propagates)"),
        ReductionSpec("min", s.SAME, None, doc="minimum (NaN propagates)"),
        ReductionSpec("any", s.BOOL, False, doc="logical or"),
        ReductionSpec("all", s.BOOL, True, doc="logical and"),
        ReductionSpec("var", s.FLOAT, math.nan, params=("correction",), doc="variance"),
        ReductionSpec("std", s.FLOAT, math.nan, params=("correction",), doc="standard deviation"),
        ReductionSpec("argmax", s.INDEX, None, single_axis=True, doc="index of the first maximum"),
        ReductionSpec("argmin", s.INDEX, None, single_axis=True, doc="index of the first minimum"),
        ReductionSpec("logsumexp", s.FLOAT, -math.inf, doc="log(sum(exp(x))), computed stably"),
        ReductionSpec("norm", s.FLOAT, 0.0, params=("p", "eps", "mode"), doc="Lp norm"),
    ]
    for mode in NORM_MODES[1:]:
        rows.append(
            ReductionSpec(
                _norm_method_name(mode),
                s.FLOAT,
                0.0,  # the empty sum of |x|^p, then the mode's eps rule
                params=("p", "eps"),
                norm_mode=mode,
                doc=f"oneDNN norm mode {mode}",
            )
        )
    rows.append(
        ReductionSpec(
            "l2_normalize",
            s.FLOAT,
            None,
            keeps_shape=True,
            keepdims=False,
            params=("eps", "variant"),
            doc="x divided by its L2 norm over axis",
        )
    )
    return {r.name: r for r in rows}


def _norm_method_name(mode: str) -> str:
    """``lp_max -> norm_lp_max``, ``power_p_max -> norm_lp_power_p_max`` (oneDNN's names)."""
    return "norm_" + (mode if mode.startswith("lp_") else "lp_" + mode)


#: name -> spec, for every reduction that takes ``axis``.
REDUCTIONS: dict[str, ReductionSpec] = _table()
