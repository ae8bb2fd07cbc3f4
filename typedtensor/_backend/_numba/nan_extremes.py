# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""nanmax and nanmin kernels (dispatched by ``nan_reductions``): one streaming pass at memory
speed, numpy's ``fmax.reduce`` answer.

The NaN-skipping step is ``m = x if x > m else m`` (``<`` for min): x86's ``maxps(x, m)``
exactly, one instruction a vector, a NaN ``x`` keeps ``m``. Accumulators start at ``-inf``
(``+inf``), so a slice whose answer is ``-inf`` is either all NaN or holds a ``-inf``: only
such slices are read a second time (``_has_number``) to tell the two apart, so an all-NaN
slice gives NaN and ordinary data costs one pass.

- Rows (the reduced run is contiguous): ``_run_max``/``_run_min`` are LLVM-level loops (numba
  does not vectorise a select-reduction without ``nnan``, which would break the NaN skipping):
  four 64-byte vector accumulators, each load preceded by a prefetch ``PF_DIST`` bytes ahead.
  One thread streams ~27 GB/s, numpy's ``fmax.reduce`` 19-26 GB/s (64 MB, float32/float64).
- Columns (a strided reduced axis, contiguous inner run): rows stream into a block of ``wb``
  accumulators (SIMD across the block; beyond the caches each row is prefetched by chunks, as
  the plain max does).

The zero sign of a ``0.0``/``-0.0`` tie is not specified: numpy's own answer changes with the
slice length and layout.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from ._cache import kernel
from ._primitives import FM, PF_CH, PF_DIST, _prefetch

__all__ = ["nanext_columns", "nanext_columns_par", "nanext_rows", "nanext_rows_par"]

_UNROLL = 4  # 64-byte vector accumulators in the row loop
_SHORT = 64  # shorter rows: a scalar loop (the vector loop's lane fold costs ~100 cycles)


def _streaming_extreme(pred: str, start: float) -> Any:
    """An intrinsic ``run(xs)``: the NaN-skipping max (``pred`` ``">"``) or min (``"<"``) of
    the C-contiguous 1-D float array ``xs``, ``start`` (-inf/+inf) when it holds no number."""

    @intrinsic
    def run(typingctx: Any, xs: Any) -> Any:
        if not (
            isinstance(xs, types.Array)
            and xs.ndim == 1
            and xs.layout == "C"
            and isinstance(xs.dtype, types.Float)
        ):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            from numba.core import cgutils as _cgutils
            from numba.np import arrayobj as _arrayobj

            cgutils: Any = _cgutils
            arrayobj: Any = _arrayobj
            t = context.get_value_type(xs.dtype)
            size = context.get_abi_sizeof(t)
            intp = context.get_value_type(types.intp)
            i8p = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            lanes = 64 // size
            step = lanes * _UNROLL
            vt = ir.VectorType(t, lanes)
            ary = arrayobj.make_array(xs)(context, builder, args[0])
            data = ary.data
            n = cgutils.unpack_tuple(builder, ary.shape, 1)[0]
            nv = builder.mul(builder.sdiv(n, ir.Constant(intp, step)), ir.Constant(intp, step))
            accs = [
                cgutils.alloca_once_value(builder, ir.Constant(vt, [start] * lanes))
                for _ in range(_UNROLL)
            ]
            fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            prefetch = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
            pf_args = [ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)]

            def fold(a: Any, b: Any) -> Any:  # b if b (pred) a else a: maxps(b, a)
                return builder.select(builder.fcmp_ordered(pred, b, a), b, a)

            zero, one = ir.Constant(intp, 0), ir.Constant(intp, 1)
            with cgutils.for_range_slice(builder, zero, nv, ir.Constant(intp, step), intp) as (
                i,
                _,
            ):
                for u in range(_UNROLL):
                    p = builder.gep(data, [builder.add(i, ir.Constant(intp, u * lanes))])
                    ahead = builder.gep(builder.bitcast(p, i8p), [ir.Constant(intp, PF_DIST)])
                    builder.call(prefetch, [ahead, *pf_args])
                    x = builder.load(builder.bitcast(p, vt.as_pointer()), align=size)
                    builder.store(fold(builder.load(accs[u]), x), accs[u])
            acc = builder.load(accs[0])
            for u in range(1, _UNROLL):
                acc = fold(acc, builder.load(accs[u]))
            res = cgutils.alloca_once_value(builder, ir.Constant(t, start))
            for k in range(lanes):
                e = builder.extract_element(acc, ir.Constant(i32, k))
                builder.store(fold(builder.load(res), e), res)
            with cgutils.for_range_slice(builder, nv, n, one, intp) as (i, _):
                e = builder.load(builder.gep(data, [i]))
                builder.store(fold(builder.load(res), e), res)
            return builder.load(res)

        return xs.dtype(xs), codegen

    return run


_run_max = _streaming_extreme(">", float("-inf"))
_run_min = _streaming_extreme("<", float("inf"))


@njit(fastmath=FM, inline="always")
def _has_number(xs: Any) -> bool:
    for k in range(xs.shape[0]):
        if xs[k] == xs[k]:
            return True
    return False


@njit(fastmath=FM, inline="always")
def _row_task(x: Any, ext: Any, ismax: bool, t: int) -> None:
    ns = ext.shape[1]
    o, s = t // ns, t % ns
    n = x.shape[1]
    xs = x[o, s * n // ns : (s + 1) * n // ns]
    start = -np.inf if ismax else np.inf
    if xs.shape[0] < _SHORT:  # the vector loop's fixed cost (its lane fold) would dominate
        m = start
        if ismax:
            for k in range(xs.shape[0]):
                m = xs[k] if xs[k] > m else m
        else:
            for k in range(xs.shape[0]):
                m = xs[k] if xs[k] < m else m
    else:
        m = _run_max(xs) if ismax else _run_min(xs)
    if m == start and not _has_number(xs):
        m = np.nan
    ext[o, s] = m


@kernel(fastmath=FM)
def nanext_rows(x: Any, ext: Any, ismax: bool) -> None:
    """ext[o, s] = max (min) of the non-NaNs of segment s of row o of x (O, R), NaN if none."""
    for t in range(x.shape[0] * ext.shape[1]):
        _row_task(x, ext, ismax, t)


@kernel(fastmath=FM, parallel=True)
def nanext_rows_par(x: Any, ext: Any, ismax: bool) -> None:
    """nanext_rows over (row, segment) tasks in parallel."""
    for t in prange(x.shape[0] * ext.shape[1]):
        _row_task(x, ext, ismax, np.int64(t))


@njit(fastmath=FM, inline="always")
def _fold_row(acc: Any, xr: Any, ismax: bool, pf: bool) -> None:
    """acc = the NaN-skipping max (min) of acc and xr, elementwise; with ``pf`` (arrays beyond
    the caches) rows of PF_CH bytes or more by chunks, each preceded by prefetches PF_DIST
    bytes ahead (the next rows)."""
    w = xr.shape[0]
    if not pf or w * xr.itemsize < PF_CH:
        if ismax:
            for j in range(w):
                acc[j] = xr[j] if xr[j] > acc[j] else acc[j]
        else:
            for j in range(w):
                acc[j] = xr[j] if xr[j] < acc[j] else acc[j]
        return
    ch = PF_CH // xr.itemsize
    d = PF_DIST // xr.itemsize
    line = 64 // xr.itemsize
    for c in range(0, w, ch):
        c1 = min(c + ch, w)
        for q in range(c + d, c1 + d, line):
            _prefetch(xr, q)
        a = acc[c:c1]  # slices: a loop over range(c, c1) does not vectorise
        b = xr[c:c1]
        if ismax:
            for j in range(c1 - c):
                a[j] = b[j] if b[j] > a[j] else a[j]
        else:
            for j in range(c1 - c):
                a[j] = b[j] if b[j] < a[j] else a[j]


@njit(fastmath=FM, inline="always")
def _columns_task(x: Any, ext: Any, ismax: bool, wb: int, pf: bool, t: int) -> None:
    ns, w = ext.shape[1], x.shape[2]
    nb = -(-w // wb)
    o = t // (ns * nb)
    s = (t // nb) % ns
    j0 = (t % nb) * wb
    j1 = min(j0 + wb, w)
    r0, r1 = s * x.shape[1] // ns, (s + 1) * x.shape[1] // ns
    acc = ext[o, s, j0:j1]
    start = -np.inf if ismax else np.inf
    for j in range(j1 - j0):
        acc[j] = start
    for k in range(r0, r1):
        _fold_row(acc, x[o, k, j0:j1], ismax, pf)
    unsure = False
    for j in range(j1 - j0):
        unsure |= acc[j] == start
    if not unsure:
        return
    # some column's answer is -inf (+inf): all NaN or a real -inf? A second pass tells.
    seen = np.zeros(j1 - j0, np.bool_)
    for k in range(r0, r1):
        xr = x[o, k, j0:j1]
        for j in range(j1 - j0):
            seen[j] |= xr[j] == xr[j]
    for j in range(j1 - j0):
        if not seen[j]:
            acc[j] = np.nan


@kernel(fastmath=FM)
def nanext_columns(x: Any, ext: Any, ismax: bool, wb: int, pf: bool) -> None:
    """ext[o, s, j] = max (min) of the non-NaNs of row segment s of column j of x (O, R, I),
    NaN if none; (outer, segment, block of ``wb`` columns) tasks, ``pf``: prefetch; serial."""
    for t in range(x.shape[0] * ext.shape[1] * -(-x.shape[2] // wb)):
        _columns_task(x, ext, ismax, wb, pf, t)


@kernel(fastmath=FM, parallel=True)
def nanext_columns_par(x: Any, ext: Any, ismax: bool, wb: int, pf: bool) -> None:
    """nanext_columns over its tasks in parallel."""
    for t in prange(x.shape[0] * ext.shape[1] * -(-x.shape[2] // wb)):
        _columns_task(x, ext, ismax, wb, pf, np.int64(t))
