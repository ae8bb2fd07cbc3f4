"""The numba kernels, by family (imported only by the numba backend).

Every reduction arrives C-contiguous and canonical: ``x`` of shape ``(O, R, I)`` reduced over
``R``. ``I == 1`` runs the horizontal kernel on the 2-D view ``(O, R)`` (a contiguous run per
output); ``I > 1`` the vertical kernel (a block of ``I`` accumulators, rows streamed); short rows
(``R <= NARROW``) the ``*_n`` kernels, which transpose blocks of rows in cache and reuse the
vertical task bodies. Work is split into tasks (output row or column block, times a segment of
``R``) writing partial results that the dispatcher combines when a row was split. Each kernel
has a serial and a parallel (``prange``) entry point over the same task body, so small arrays
never compile parallel code.

Families: ``sums`` (sum, product, |x|, x**2, |x|**p, nonzero counts: ``acc_*``, ``nrm_v``;
the sum and the sum of squares of rows alone: ``sum_h``, ``sumsq_h``),
``extremes`` (max/min: ``ext_*``), ``argextremes`` (argmax/argmin: ``arg_*``; float rows in the
explicit 512-bit vectors of ``simd_argextremes``), ``variance``
(``var_*``), ``logsumexp`` (``lse_*``), ``scaling`` (l2_normalize's second pass: ``scale``);
shared building blocks in ``_primitives``. The disk cache is keyed on a hash of every module of
this package (``_cache.py``), so a change in a helper module recompiles the kernels using it.
"""

from __future__ import annotations

from ._primitives import NARROW, NNZ, PF_MIN, PROD, PRODF, SUM, SUMABS, SUMPOW, SUMSQ
from .argextremes import arg_h, arg_h_par, arg_n, arg_n_par, arg_rows, arg_v, arg_v_par
from .extremes import ext_h, ext_h_par, ext_n, ext_n_par, ext_v, ext_v_par
from .logsumexp import lse_h, lse_h_par, lse_n, lse_n_par, lse_v, lse_v_par
from .scaling import scale, scale_par
from .sums import (
    acc_h,
    acc_h_par,
    acc_n,
    acc_n_par,
    acc_v,
    acc_v_par,
    nrm_v,
    nrm_v_par,
    sum_h,
    sum_h_par,
    sumsq_h,
    sumsq_h_par,
)
from .variance import var_h, var_h_par, var_n, var_n_par, var_v, var_v_par

__all__ = [
    "NARROW",
    "NNZ",
    "PF_MIN",
    "PROD",
    "PRODF",
    "SUM",
    "SUMABS",
    "SUMPOW",
    "SUMSQ",
    "acc_h",
    "acc_h_par",
    "acc_n",
    "acc_n_par",
    "acc_v",
    "acc_v_par",
    "arg_h",
    "arg_h_par",
    "arg_n",
    "arg_n_par",
    "arg_rows",
    "arg_v",
    "arg_v_par",
    "ext_h",
    "ext_h_par",
    "ext_n",
    "ext_n_par",
    "ext_v",
    "ext_v_par",
    "lse_h",
    "lse_h_par",
    "lse_n",
    "lse_n_par",
    "lse_v",
    "lse_v_par",
    "nrm_v",
    "nrm_v_par",
    "scale",
    "scale_par",
    "sum_h",
    "sum_h_par",
    "sumsq_h",
    "sumsq_h_par",
    "var_h",
    "var_h_par",
    "var_n",
    "var_n_par",
    "var_v",
    "var_v_par",
]
