# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""numba kernels on the canonical forms (imported only by the numba backend).

Every reduction arrives here C-contiguous and canonical: ``x`` of shape ``(O, R, I)`` reduced
over ``R``. ``I == 1`` runs the horizontal kernel on the 2-D view ``(O, R)`` (a contiguous run per
output); ``I > 1`` the vertical kernel (a block of ``I`` accumulators, rows streamed). Work is
split into tasks (output row or column block, times a segment of ``R``) writing partial results
that the dispatcher combines when a row was split. Each kernel has a serial and a parallel
(``prange``) entry point over the same task body, so small arrays never compile parallel code.

This file is self-contained on purpose: numba's ``cache=True`` keys on this file's content only,
so every jitted helper a kernel calls lives here (see ``_cache.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic, overload

from ._cache import kernel

FM = {"reassoc", "nsz", "contract"}  # never nnan/ninf: NaN and inf keep numpy's semantics
CH = 2048  # horizontal chunk (elements) accumulated in the input dtype inside SIMD lanes
VB = 64  # vertical block of rows: two-pass logsumexp, blocked vertical sums
VBS = 256  # vertical block of rows for the shifted one-pass var
NARROW = 16  # rows this short are transposed by blocks and reduced with the vertical code
PF_MIN = 1 << 24  # max/min over this many bytes or more (beyond the caches) stream rows of
PF_CH = 512  # ... this many bytes or more in chunks of this many bytes,
PF_DIST = 8192  # ... each chunk prefetching the lines this many bytes ahead

# op codes of the accumulate family; PRODF is the float product in numpy's order (``_h_prodf``)
SUM, PROD, SUMABS, SUMSQ, SUMPOW, NNZ, PRODF = 0, 1, 2, 3, 4, 5, 6
# blocks of the float product (float64, float32), multiplied in SIMD lanes where the bounds
# allow it: long enough to pay for the check, short enough that the bounds of typical data
# (|x| ~ N(0, 1): 2^-280 per 256) stay in range
PB64, PB32 = 256, 128


# ----------------------------------------------------------------------------- intrinsics
@intrinsic
def _vmax(typingctx: Any, a: Any, b: Any) -> Any:
    """max with NaN propagation (llvm.maximum) for floats, smax/umax for ints: vectorises."""
    if a != b:
        return None
    sig = a(a, b)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        t = args[0].type
        if isinstance(a, types.Float):
            name = "llvm.maximum"
        elif a.signed:
            name = "llvm.smax"
        else:
            name = "llvm.umax"
        fn = builder.module.declare_intrinsic(name, [t], ir.FunctionType(t, [t, t]))
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _vmin(typingctx: Any, a: Any, b: Any) -> Any:
    """min with NaN propagation (llvm.minimum) for floats, smin/umin for ints."""
    if a != b:
        return None
    sig = a(a, b)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        t = args[0].type
        if isinstance(a, types.Float):
            name = "llvm.minimum"
        elif a.signed:
            name = "llvm.smin"
        else:
            name = "llvm.umin"
        fn = builder.module.declare_intrinsic(name, [t], ir.FunctionType(t, [t, t]))
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _empty(typingctx: Any, shape: Any, like: Any) -> Any:
    """``np.empty(shape, dtype)`` (C order) allocated straight from numba's NRT; ``like`` is an
    array's ``dtype``, a numpy scalar class or a value of the item type.
    numba's own ``np.empty``/``np.full``/``.copy()`` are jitted helpers whose environments
    import ``numba.np.arrayobj`` and numba's unicode support when a cached kernel loads in a
    new process: ~20 ms of the first call."""
    dim_types: tuple[Any, ...] = (shape,)
    if isinstance(shape, types.BaseTuple):
        dim_types = tuple(getattr(shape, "types", ()))
    if not dim_types or not all(isinstance(t, types.Integer) for t in dim_types):
        return None
    nd = len(dim_types)
    if isinstance(like, types.DType):  # x.dtype
        item = like.dtype
    elif isinstance(like, types.NumberClass):  # np.float64
        item = like.instance_type
    else:  # a scalar of the item type
        item = like
    if not isinstance(item, (types.Integer, types.Float, types.Boolean)):
        return None
    arrty = types.Array(item, nd, "C")
    sig = arrty(shape, like)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        from numba.core import cgutils as _cgutils
        from numba.np import arrayobj as _arrayobj

        cgutils: Any = _cgutils
        arrayobj: Any = _arrayobj
        intp = context.get_value_type(types.intp)
        parts = [args[0]]
        if isinstance(shape, types.BaseTuple):
            parts = cgutils.unpack_tuple(builder, args[0], nd)
        dims = [
            context.cast(builder, v, t, types.intp) for v, t in zip(parts, dim_types, strict=True)
        ]
        itemsize = context.get_abi_sizeof(context.get_data_type(item))
        strides = [ir.Constant(intp, itemsize)]
        for d in reversed(dims[1:]):
            strides.append(builder.mul(strides[-1], d))
        strides.reverse()
        nbytes = builder.mul(strides[0], dims[0])
        align = context.get_preferred_array_alignment(item)
        meminfo = context.nrt.meminfo_alloc_aligned(builder, nbytes, align)
        data = context.nrt.meminfo_data(builder, meminfo)
        ary = arrayobj.make_array(arrty)(context, builder)
        arrayobj.populate_array(
            ary,
            data=builder.bitcast(data, context.get_data_type(item).as_pointer()),
            shape=cgutils.pack_array(builder, dims, ty=intp),
            strides=cgutils.pack_array(builder, strides, ty=intp),
            itemsize=ir.Constant(intp, itemsize),
            meminfo=meminfo,
        )
        return ary._getvalue()

    return sig, codegen


@intrinsic
def _flat(typingctx: Any, a: Any) -> Any:
    """A 1-D view of the C-contiguous array ``a`` (``a.reshape(-1)`` without numba's jitted
    shape check, whose environment imports ``numba.np.arrayobj`` when a cached kernel loads)."""
    if not isinstance(a, types.Array) or a.layout != "C":
        return None
    flat = a.copy(ndim=1)
    sig = flat(a)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        from numba.core import cgutils as _cgutils
        from numba.core import imputils as _imputils
        from numba.np import arrayobj as _arrayobj

        cgutils: Any = _cgutils
        arrayobj: Any = _arrayobj
        imputils: Any = _imputils
        src = arrayobj.make_array(a)(context, builder, args[0])
        dst = arrayobj.make_array(flat)(context, builder)
        arrayobj.populate_array(
            dst,
            data=src.data,
            shape=cgutils.pack_array(builder, [src.nitems]),
            strides=cgutils.pack_array(builder, [src.itemsize]),
            itemsize=src.itemsize,
            meminfo=src.meminfo,
            parent=src.parent,
        )
        return imputils.impl_ret_borrowed(context, builder, flat, dst._getvalue())

    return sig, codegen


@intrinsic
def _prefetch(typingctx: Any, a: Any, i: Any) -> Any:
    """Hint the cache line holding ``a[i]`` of the 1-D array ``a`` into the caches
    (``llvm.prefetch``: never faults, out-of-range addresses included)."""
    if not isinstance(a, types.Array) or a.ndim != 1 or not isinstance(i, types.Integer):
        return None
    sig = types.void(a, i)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        from numba.core import cgutils as _cgutils
        from numba.np import arrayobj as _arrayobj

        cgutils: Any = _cgutils
        arrayobj: Any = _arrayobj
        ary = arrayobj.make_array(a)(context, builder, args[0])
        idx = context.cast(builder, args[1], i, types.intp)
        stride = cgutils.unpack_tuple(builder, ary.strides, 1)[0]
        i8p = ir.IntType(8).as_pointer()
        ptr = builder.gep(builder.bitcast(ary.data, i8p), [builder.mul(idx, stride)])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        # read, high locality (all cache levels), data cache
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _as(typingctx: Any, like: Any, v: Any) -> Any:
    """``v`` converted to the type of ``like`` (numpy's cast), whatever the two types are."""
    sig = like(like, v)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.cast(builder, args[1], signature.args[1], signature.args[0])

    return sig, codegen


@intrinsic
def _pow2(typingctx: Any, k: Any) -> Any:
    """2**k for an integral-valued float k in the normal range, built from exponent bits."""
    if not isinstance(k, types.Float):
        return None
    sig = k(k)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ft = args[0].type
        if k.bitwidth == 32:
            it, bias, shift = ir.IntType(32), 127, 23
        else:
            it, bias, shift = ir.IntType(64), 1023, 52
        i = builder.fptosi(args[0], it)
        i = builder.add(i, ir.Constant(it, bias))
        i = builder.shl(i, ir.Constant(it, shift))
        return builder.bitcast(i, ft)

    return sig, codegen


# ----------------------------------------------------------------------------- exp(x), x <= 0
_L2E32 = np.float32(1.4426950408889634)
_LN2HI32 = np.float32(0.693359375)
_LN2LO32 = np.float32(-2.12194440e-4)
_LO32 = np.float32(-87.0)
_HALF32 = np.float32(0.5)
_C32 = tuple(np.float32(1.0 / math.factorial(i)) for i in range(8))

_L2E64 = 1.4426950408889634
_LN2HI64 = 0.6931471803691238
_LN2LO64 = 1.9082149292705877e-10
_LO64 = -708.0
_C64 = tuple(1.0 / math.factorial(i) for i in range(14))


def _expneg(x: Any) -> Any:  # pragma: no cover - typing stub, replaced by the overload
    raise NotImplementedError


@overload(_expneg, fastmath=FM)
def _ov_expneg(x: Any) -> Any:
    """Vectorisable exp for x <= 0 (clamped at the underflow edge; NaN maps to a tiny value,
    callers detect NaN rows separately). Taylor polynomial after range reduction: float32
    degree 7 (~1 ulp), float64 degree 13 (~2 ulp)."""
    if isinstance(x, types.Float) and x.bitwidth == 32:

        def impl32(x: Any) -> Any:
            x = x if x > _LO32 else _LO32
            k = np.floor(x * _L2E32 + _HALF32)
            r = (x - k * _LN2HI32) - k * _LN2LO32
            c = _C32
            p = c[7]
            p = p * r + c[6]
            p = p * r + c[5]
            p = p * r + c[4]
            p = p * r + c[3]
            p = p * r + c[2]
            p = p * r + c[1]
            p = p * r + c[0]
            return p * _pow2(k)

        return impl32
    if isinstance(x, types.Float):

        def impl64(x: Any) -> Any:
            x = x if x > _LO64 else _LO64
            k = np.floor(x * _L2E64 + 0.5)
            r = (x - k * _LN2HI64) - k * _LN2LO64
            c = _C64
            p = c[13]
            p = p * r + c[12]
            p = p * r + c[11]
            p = p * r + c[10]
            p = p * r + c[9]
            p = p * r + c[8]
            p = p * r + c[7]
            p = p * r + c[6]
            p = p * r + c[5]
            p = p * r + c[4]
            p = p * r + c[3]
            p = p * r + c[2]
            p = p * r + c[1]
            p = p * r + c[0]
            return p * _pow2(k)

        return impl64
    return None


@njit(inline="always")
def _full(n: int, v: Any) -> Any:
    """``np.full(n, v)`` through ``_empty``."""
    a = _empty(n, v)
    for i in range(n):
        a[i] = v
    return a


@njit(inline="always")
def _copy(v: Any) -> Any:
    """A fresh copy of the 1-D array ``v`` through ``_empty``."""
    a = _empty(v.shape[0], v.dtype)
    for i in range(v.shape[0]):
        a[i] = v[i]
    return a


# ----------------------------------------------------------------------------- narrow rows
@njit(fastmath=FM, inline="always")
def _tr_n(flat: Any, b: Any, w: int, n: int) -> None:
    # called with a constant n: LLVM unrolls k and vectorises i with interleaved loads
    for i in range(w):
        for k in range(n):
            b[k * w + i] = flat[i * n + k]


@njit(fastmath=FM, inline="always")
def _tr(x: Any, r0: int, r1: int) -> Any:
    """Rows [r0, r1) of a short-row x (O, R) transposed into a fresh (1, R, r1 - r0) block, so
    that the vertical task bodies (SIMD across the rows) reduce it from cache."""
    n = x.shape[1]
    w = r1 - r0
    buf = _empty((1, n, w), x.dtype)
    flat = _flat(x)[r0 * n : r1 * n]
    b = _flat(buf)
    if n == 2:
        _tr_n(flat, b, w, 2)
    elif n == 3:
        _tr_n(flat, b, w, 3)
    elif n == 4:
        _tr_n(flat, b, w, 4)
    else:  # measured faster than the unrolled form from 5 on
        for k in range(n):
            for i in range(w):
                b[k * w + i] = flat[i * n + k]
    return buf


# ----------------------------------------------------------------------------- accumulate
# zc: chunk accumulator (type and identity), zt: total accumulator (type and identity).
@njit(fastmath=FM, inline="always")
def _c_sum(seg: Any, zc: Any) -> Any:
    s = zc
    for i in range(seg.shape[0]):
        s += seg[i]
    return s


@njit(fastmath=FM, inline="always")
def _h_sum(row: Any, zc: Any, zt: Any) -> Any:
    n = row.shape[0]
    if n <= CH:  # one chunk: no slice (keeps short rows cheap)
        return zt + _as(zt, _c_sum(row, zc))
    tot = zt
    for ci in range((n + CH - 1) // CH):  # a step range would divide per row
        c0 = ci * CH
        tot += _as(zt, _c_sum(row[c0 : min(c0 + CH, n)], zc))
    return tot


@njit(fastmath=FM, inline="always")
def _c_prod(seg: Any, zc: Any) -> Any:
    s = zc
    for i in range(seg.shape[0]):
        s *= _as(zc, seg[i])
    return s


@njit(fastmath=FM, inline="always")
def _h_prod(row: Any, zc: Any, zt: Any) -> Any:
    n = row.shape[0]
    if n <= CH:  # one chunk: no slice (keeps short rows cheap)
        return zt * _as(zt, _c_prod(row, zc))
    tot = zt
    for ci in range((n + CH - 1) // CH):  # a step range would divide per row
        c0 = ci * CH
        tot *= _as(zt, _c_prod(row[c0 : min(c0 + CH, n)], zc))
    return tot


@njit(inline="always")
def _seq_prod(seg: Any, tot: Any) -> Any:
    """``tot * seg[0] * seg[1] * ...`` in this order, numpy's, so the partial products overflow
    and underflow exactly where numpy's do. A callee's own fastmath flags do not protect it
    (numba applies the caller's flags to the code it links in), so the loop is kept out of
    SIMD lanes by its early exit: LLVM does not vectorise a loop that can leave early. The
    exit is exact: a NaN total stays NaN whatever it is multiplied by."""
    for i in range(seg.shape[0]):
        tot *= _as(tot, seg[i])
        if tot != tot:
            break
    return tot


@njit(fastmath=FM, inline="always")
def _c_prod_bounds(seg: Any, zc: Any) -> Any:
    """(product in SIMD lanes, U, L): U = prod max(|x|, 1) and L = prod min(|x|, 1) bound
    every partial product of ``seg`` in any order; a NaN element makes U and L NaN. All three
    in the chunk type (float32 keeps 8 lanes: 2.6x faster than float64 bounds)."""
    s = zc
    one = _as(zc, 1)
    u = one
    lo = one
    for i in range(seg.shape[0]):
        v = _as(zc, seg[i])
        s *= v
        a = abs(v)
        u *= a if not (a <= one) else one
        lo *= a if not (a >= one) else one
    return s, u, lo


@njit(fastmath=FM, inline="always")
def _sign_prod(seg: Any) -> float:
    s = 1.0
    for i in range(seg.shape[0]):
        s *= math.copysign(1.0, seg[i])
    return s


@njit(fastmath=FM, inline="always")
def _h_prodf(row: Any, zt: Any, big: float) -> Any:
    """Product of a float row with numpy's result where numpy's sequential order overflows or
    underflows (``[1e300, 1e-300, ...]``: lanes would multiply inf by 0). Blocks of PB64/PB32
    elements
    are multiplied in SIMD lanes when the bounds U, L of ``_c_prod_bounds`` show that neither
    the lanes nor any prefix product of numpy's order (running total times a prefix of the
    block) can leave [1/big, big]; otherwise the block runs sequentially (``_seq_prod``). A
    zero total times finite elements only changes sign."""
    n = row.shape[0]
    if n <= 16:
        return _seq_prod(row, zt)
    small = 1.0 / big
    pb = PB64 if big > 1e300 else PB32  # big is 2^1020 for float64, 2^124 for float32
    tot = zt
    for bi in range((n + pb - 1) // pb):
        b0 = bi * pb
        seg = row[b0 : min(b0 + pb, n)]
        s, u32, lo32 = _c_prod_bounds(seg, zt)
        u, lo, t = np.float64(u32), np.float64(lo32), abs(np.float64(tot))
        if u <= big and lo >= small and t * u <= big and t * lo >= small:
            tot *= s
        elif tot == 0 and u <= 1.7976931348623157e308:  # finite elements: 0 stays 0
            tot *= _as(tot, _sign_prod(seg))
        else:
            tot = _seq_prod(seg, tot)
    return tot


@njit(fastmath=FM, inline="always")
def _c_sumabs(seg: Any, zc: Any) -> Any:
    s = zc
    for i in range(seg.shape[0]):
        s += abs(_as(zc, seg[i]))
    return s


@njit(fastmath=FM, inline="always")
def _h_sumabs(row: Any, zc: Any, zt: Any) -> Any:
    n = row.shape[0]
    if n <= CH:  # one chunk: no slice (keeps short rows cheap)
        return zt + _as(zt, _c_sumabs(row, zc))
    tot = zt
    for ci in range((n + CH - 1) // CH):  # a step range would divide per row
        c0 = ci * CH
        tot += _as(zt, _c_sumabs(row[c0 : min(c0 + CH, n)], zc))
    return tot


@njit(fastmath=FM, inline="always")
def _c_sumsq(seg: Any, zc: Any) -> Any:
    s = zc
    for i in range(seg.shape[0]):
        v = _as(zc, seg[i])
        s += v * v
    return s


@njit(fastmath=FM, inline="always")
def _h_sumsq(row: Any, zc: Any, zt: Any) -> Any:
    n = row.shape[0]
    if n <= CH:  # one chunk: no slice (keeps short rows cheap)
        return zt + _as(zt, _c_sumsq(row, zc))
    tot = zt
    for ci in range((n + CH - 1) // CH):  # a step range would divide per row
        c0 = ci * CH
        tot += _as(zt, _c_sumsq(row[c0 : min(c0 + CH, n)], zc))
    return tot


@njit(fastmath=FM, inline="always")
def _h_sumpow(row: Any, p: float, zc: Any, zt: Any) -> Any:
    tot = zt
    for i in range(row.shape[0]):
        tot += _as(zt, abs(_as(zc, row[i])) ** _as(zc, p))
    return tot


@njit(fastmath=FM, inline="always")
def _h_nnz(row: Any) -> Any:
    cnt = 0
    for i in range(row.shape[0]):
        cnt += 1 if row[i] != 0 else 0
    return cnt


@njit(fastmath=FM)
def _acc_h_task(x: Any, part: Any, op: int, p: float, zc: Any, zt: Any, t: int, ns: int,
                rb: int) -> None:  # fmt: skip
    # rows [r0, r1) of segment s; the op branch sits outside the row loop and each row is
    # handed to a branch-free function as a slice (keeps numba's refcounting out of the loop)
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    if op == PRODF:  # floats: numpy's overflow and underflow; p is the bound ``big``
        for r in range(r0, r1):
            part[r, s] = _h_prodf(x[r, lo:hi], zt, p)
    elif hi - lo <= 16 and op != SUMPOW:  # short rows: direct indexing, no slices
        for r in range(r0, r1):
            a = zt
            for k in range(lo, hi):
                v = _as(zc, x[r, k])
                if op == SUM:
                    a += _as(zt, v)
                elif op == PROD:
                    a *= _as(zt, v)
                elif op == SUMABS:
                    a += _as(zt, abs(v))
                elif op == SUMSQ:
                    a += _as(zt, v * v)
                else:
                    a += _as(zt, 1) if v != 0 else _as(zt, 0)
            part[r, s] = a
    elif op == SUM:
        for r in range(r0, r1):
            part[r, s] = _h_sum(x[r, lo:hi], zc, zt)
    elif op == PROD:
        for r in range(r0, r1):
            part[r, s] = _h_prod(x[r, lo:hi], zc, zt)
    elif op == SUMABS:
        for r in range(r0, r1):
            part[r, s] = _h_sumabs(x[r, lo:hi], zc, zt)
    elif op == SUMSQ:
        for r in range(r0, r1):
            part[r, s] = _h_sumsq(x[r, lo:hi], zc, zt)
    elif op == SUMPOW:
        for r in range(r0, r1):
            part[r, s] = _h_sumpow(x[r, lo:hi], p, zc, zt)
    else:
        for r in range(r0, r1):
            part[r, s] = _h_nnz(x[r, lo:hi])


@kernel()
def acc_h(x: Any, part: Any, op: int, p: float, zc: Any, zt: Any, rb: int) -> None:
    """part[r, s] = op-accumulate of segment s of row r of x (R, N); serial."""
    ns = part.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _acc_h_task(x, part, op, p, zc, zt, t, ns, rb)


@kernel(parallel=True)
def acc_h_par(x: Any, part: Any, op: int, p: float, zc: Any, zt: Any, rb: int) -> None:
    """acc_h over (row, segment) tasks in parallel."""
    ns = part.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _acc_h_task(x, part, op, p, zc, zt, t, ns, rb)


@njit(fastmath=FM)
def _acc_v_block(x: Any, o: int, r0: int, r1: int, j0: int, j1: int, acc: Any, op: int, p: float,
                 zc: Any) -> None:  # fmt: skip
    w = j1 - j0
    zt = acc[0]
    for j in range(w):
        acc[j] = _as(zt, 1) if op == PROD else _as(zt, 0)
    if op == SUM and w >= 64 and r1 - r0 >= VB:
        # blocks of VB rows summed 4 at a time in the chunk type (float32 stays 8 lanes wide),
        # each block total added to the float64 accumulators: numpy's speed, better accuracy
        ac = _full(w, zc)
        for b0 in range(r0, r1, VB):
            b1 = min(b0 + VB, r1)
            for j in range(w):
                ac[j] = zc
            r = b0
            while r + 4 <= b1:
                xa = x[o, r, j0:j1]
                xb = x[o, r + 1, j0:j1]
                xc = x[o, r + 2, j0:j1]
                xd = x[o, r + 3, j0:j1]
                for j in range(w):
                    ac[j] += (_as(zc, xa[j]) + _as(zc, xb[j])) + (_as(zc, xc[j]) + _as(zc, xd[j]))
                r += 4
            for rr in range(r, b1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    ac[j] += _as(zc, xr[j])
            for j in range(w):
                acc[j] += _as(zt, ac[j])
    elif op == SUM:  # narrow or short blocks: 4 rows per pass straight into the accumulators
        r = r0
        while r + 4 <= r1:
            xa = x[o, r, j0:j1]
            xb = x[o, r + 1, j0:j1]
            xc = x[o, r + 2, j0:j1]
            xd = x[o, r + 3, j0:j1]
            for j in range(w):
                acc[j] += (_as(zt, xa[j]) + _as(zt, xb[j])) + (_as(zt, xc[j]) + _as(zt, xd[j]))
            r += 4
        for rr in range(r, r1):
            xr = x[o, rr, j0:j1]
            for j in range(w):
                acc[j] += _as(zt, xr[j])
    elif op == PROD:
        for r in range(r0, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] *= _as(zt, xr[j])
    else:
        for r in range(r0, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] += _as(zt, 1) if xr[j] != 0 else _as(zt, 0)


@njit(fastmath=FM)
def _nrm_v_block(x: Any, o: int, r0: int, r1: int, j0: int, j1: int, acc: Any, op: int, p: float,
                 zc: Any) -> None:  # fmt: skip
    """The norm family (SUMABS, SUMSQ, SUMPOW) of ``_acc_v_block``: its own kernels, so a
    sum compiles without the norm loops (half the cold compile)."""
    w = j1 - j0
    zt = acc[0]
    for j in range(w):
        acc[j] = _as(zt, 0)
    if op == SUMABS:
        if w > 4096:  # accumulators in L2: 4 rows per pass halves their traffic
            r = r0
            while r + 4 <= r1:
                xa = x[o, r, j0:j1]
                xb = x[o, r + 1, j0:j1]
                xc = x[o, r + 2, j0:j1]
                xd = x[o, r + 3, j0:j1]
                for j in range(w):
                    acc[j] += (abs(_as(zt, xa[j])) + abs(_as(zt, xb[j]))) + (
                        abs(_as(zt, xc[j])) + abs(_as(zt, xd[j]))
                    )
                r += 4
            for rr in range(r, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    acc[j] += abs(_as(zt, xr[j]))
        else:  # accumulators in L1: row by row (measured faster than unrolled)
            for rr in range(r0, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    acc[j] += abs(_as(zt, xr[j]))
    elif op == SUMSQ:
        if w > 4096:  # accumulators in L2: 4 rows per pass halves their traffic
            r = r0
            while r + 4 <= r1:
                xa = x[o, r, j0:j1]
                xb = x[o, r + 1, j0:j1]
                xc = x[o, r + 2, j0:j1]
                xd = x[o, r + 3, j0:j1]
                for j in range(w):
                    va = _as(zt, xa[j])
                    vb = _as(zt, xb[j])
                    vc = _as(zt, xc[j])
                    vd = _as(zt, xd[j])
                    acc[j] += (va * va + vb * vb) + (vc * vc + vd * vd)
                r += 4
            for rr in range(r, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    v = _as(zt, xr[j])
                    acc[j] += v * v
        else:  # accumulators in L1: row by row (measured faster than unrolled)
            for rr in range(r0, r1):
                xr = x[o, rr, j0:j1]
                for j in range(w):
                    v = _as(zt, xr[j])
                    acc[j] += v * v
    else:
        for r in range(r0, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] += _as(zt, abs(_as(zc, xr[j])) ** _as(zc, p))


@njit(fastmath=FM, inline="always")
def _v_span(x: Any, t: int, ns: int, wb: int) -> Any:
    """Task t of a vertical kernel on x (O, R, I): (o, s, r0, r1, j0, j1), i.e. outer index,
    segment of R and its rows, column block."""
    _, nr, ni = x.shape
    nb = (ni + wb - 1) // wb
    o = t // (ns * nb)
    rem = t - o * ns * nb
    s = rem // nb
    b = rem - s * nb
    j0 = b * wb
    return o, s, (s * nr) // ns, ((s + 1) * nr) // ns, j0, min(ni, j0 + wb)


@njit(fastmath=FM)
def _acc_v_task(x: Any, part: Any, op: int, p: float, zc: Any, t: int, ns: int, wb: int) -> None:
    o, s, r0, r1, j0, j1 = _v_span(x, t, ns, wb)
    _acc_v_block(x, o, r0, r1, j0, j1, part[o, s, j0:j1], op, p, zc)


@njit(fastmath=FM)
def _nrm_v_task(x: Any, part: Any, op: int, p: float, zc: Any, t: int, ns: int, wb: int) -> None:
    o, s, r0, r1, j0, j1 = _v_span(x, t, ns, wb)
    _nrm_v_block(x, o, r0, r1, j0, j1, part[o, s, j0:j1], op, p, zc)


@kernel()
def acc_v(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """part[o, s, j] = op-accumulate over segment s of axis 1 of x (O, R, I); serial."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _acc_v_task(x, part, op, p, zc, t, ns, wb)


@kernel(parallel=True)
def acc_v_par(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """acc_v over (outer, segment, column block) tasks in parallel."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _acc_v_task(x, part, op, p, zc, t, ns, wb)


@kernel()
def nrm_v(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """acc_v for the norm family (SUMABS, SUMSQ, SUMPOW); serial."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _nrm_v_task(x, part, op, p, zc, t, ns, wb)


@kernel(parallel=True)
def nrm_v_par(x: Any, part: Any, op: int, p: float, zc: Any, wb: int) -> None:
    """nrm_v in parallel."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _nrm_v_task(x, part, op, p, zc, t, ns, wb)


# ----------------------------------------------------------------------------- max / min
@njit(fastmath=FM, inline="always")
def _c_max(seg: Any) -> Any:
    m = seg[0]
    for i in range(seg.shape[0]):
        m = _vmax(m, seg[i])
    return m


@njit(fastmath=FM, inline="always")
def _c_min(seg: Any) -> Any:
    m = seg[0]
    for i in range(seg.shape[0]):
        m = _vmin(m, seg[i])
    return m


@njit(fastmath=FM, inline="always")
def _h_ext(row: Any, ismax: bool, pf: bool) -> Any:
    """max (min) of a row, NaN propagating; with ``pf`` (the caller's choice, for arrays of
    PF_MIN bytes or more) rows of PF_CH bytes or more go by chunks of PF_CH bytes, each
    preceded by prefetches PF_DIST bytes ahead (past the row's end: the next rows)."""
    n = row.shape[0]
    if not pf or n * row.itemsize < PF_CH:
        return _c_max(row) if ismax else _c_min(row)
    # The NaN-propagating max costs ~4 instructions a vector, so fewer loads fit the core's
    # out-of-order window than in a sum, and one thread streamed ~26-31 GB/s against the
    # sum's ~39 (numpy's max ~31); with the prefetches ~36-44 GB/s (rows of 128 float32 up to
    # 2^20) from memory. Shorter rows lose by it, and so do arrays in cache (~40-55 GB/s
    # against ~85-120: a horizontal reduction per chunk).
    m = row[0]
    d = PF_DIST // row.itemsize
    line = 64 // row.itemsize
    ch = PF_CH // row.itemsize
    for c in range(0, n, ch):
        c1 = min(c + ch, n)
        for q in range(c + d, c1 + d, line):
            _prefetch(row, q)
        if ismax:  # per chunk, outside the vectorised loops
            m = _vmax(m, _c_max(row[c:c1]))
        else:
            m = _vmin(m, _c_min(row[c:c1]))
    return m


@njit(fastmath=FM)
def _ext_h_task(x: Any, part: Any, ismax: bool, t: int, ns: int, rb: int, pf: bool) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    for r in range(r0, r1):
        part[r, s] = _h_ext(x[r, lo:hi], ismax, pf)


@kernel()
def ext_h(x: Any, part: Any, ismax: bool, rb: int, pf: bool) -> None:
    """part[r, s] = max (or min) of segment s of row r, NaN propagating; serial."""
    ns = part.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _ext_h_task(x, part, ismax, t, ns, rb, pf)


@kernel(parallel=True)
def ext_h_par(x: Any, part: Any, ismax: bool, rb: int, pf: bool) -> None:
    """ext_h in parallel."""
    ns = part.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _ext_h_task(x, part, ismax, t, ns, rb, pf)


@njit(fastmath=FM, inline="always")
def _vrow_ext(acc: Any, xr: Any, ismax: bool) -> None:
    """acc = max (min) of acc and xr elementwise, NaN propagating, by chunks of PF_CH bytes,
    each preceded by prefetches PF_DIST bytes ahead of it: in a block of whole rows that is
    the next rows (one thread ~28 -> ~33-37 GB/s, as _h_ext)."""
    w = xr.shape[0]
    ch = PF_CH // xr.itemsize
    d = PF_DIST // xr.itemsize
    line = 64 // xr.itemsize
    for c in range(0, w, ch):
        c1 = min(c + ch, w)
        for q in range(c + d, c1 + d, line):
            _prefetch(xr, q)
        a = acc[c:c1]  # slices: a loop over range(c, c1) did not vectorise
        b = xr[c:c1]
        if ismax:
            for j in range(c1 - c):
                a[j] = _vmax(a[j], b[j])
        else:
            for j in range(c1 - c):
                a[j] = _vmin(a[j], b[j])


@njit(fastmath=FM)
def _ext_v_task(x: Any, part: Any, ismax: bool, t: int, ns: int, wb: int, pf: bool) -> None:
    o, s, r0, r1, j0, j1 = _v_span(x, t, ns, wb)
    acc = part[o, s, j0:j1]
    w = j1 - j0
    x0 = x[o, r0, j0:j1]
    for j in range(w):
        acc[j] = x0[j]
    if pf and w * x.itemsize >= PF_CH:  # rows of a chunk or more: prefetched (_vrow_ext)
        for r in range(r0 + 1, r1):
            _vrow_ext(acc, x[o, r, j0:j1], ismax)
    elif ismax:
        for r in range(r0 + 1, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] = _vmax(acc[j], xr[j])
    else:
        for r in range(r0 + 1, r1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] = _vmin(acc[j], xr[j])


@kernel()
def ext_v(x: Any, part: Any, ismax: bool, wb: int, pf: bool) -> None:
    """part[o, s, j] = max (or min) over segment s of axis 1 of x (O, R, I); serial."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _ext_v_task(x, part, ismax, t, ns, wb, pf)


@kernel(parallel=True)
def ext_v_par(x: Any, part: Any, ismax: bool, wb: int, pf: bool) -> None:
    """ext_v in parallel."""
    ns = part.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _ext_v_task(x, part, ismax, t, ns, wb, pf)


# ----------------------------------------------------------------------------- argmax / argmin
@njit(fastmath=FM, inline="always")
def _find_first(seg: Any, m: Any, c0: int) -> Any:
    """First index of the NaN (m is NaN) or of m in a chunk whose max (min) is m."""
    if m != m:
        for i in range(seg.shape[0]):
            if seg[i] != seg[i]:
                return c0 + i
    for i in range(seg.shape[0]):
        if seg[i] == m:
            return c0 + i
    return c0


@njit(fastmath=FM, inline="always")
def _h_arg(row: Any, ismax: bool) -> Any:
    """(value, first index) of the max (min) of a row; the first NaN wins, as numpy. One
    vectorised max (min) pass per L1 chunk; the chunk is searched again only when it beats the
    best so far."""
    n = row.shape[0]
    c1 = min(CH, n)
    seg = row[0:c1]
    best = _c_max(seg) if ismax else _c_min(seg)
    bi = _find_first(seg, best, 0)
    if best != best:
        return best, bi
    for ci in range(1, (n + CH - 1) // CH):
        c0 = ci * CH
        seg = row[c0 : min(c0 + CH, n)]
        m = _c_max(seg) if ismax else _c_min(seg)
        if m != m:
            return m, _find_first(seg, m, c0)
        if (m > best) if ismax else (m < best):
            best = m
            bi = _find_first(seg, m, c0)
    return best, bi


@njit(fastmath=FM)
def _arg_h_task(x: Any, pval: Any, pidx: Any, ismax: bool, t: int, ns: int, rb: int) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    for r in range(r0, r1):
        v, k = _h_arg(x[r, lo:hi], ismax)
        pval[r, s] = v
        pidx[r, s] = lo + k


@kernel()
def arg_h(x: Any, pval: Any, pidx: Any, ismax: bool, rb: int) -> None:
    """First index of the max (min) of each row segment, NaN first; serial."""
    ns = pval.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _arg_h_task(x, pval, pidx, ismax, t, ns, rb)


@kernel(parallel=True)
def arg_h_par(x: Any, pval: Any, pidx: Any, ismax: bool, rb: int) -> None:
    """arg_h in parallel."""
    ns = pval.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _arg_h_task(x, pval, pidx, ismax, t, ns, rb)


@njit(fastmath=FM)
def _arg_v_task(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, t: int, ns: int,
                wb: int) -> None:  # fmt: skip
    o, s, r0, r1, j0, j1 = _v_span(x, t, ns, wb)
    w = j1 - j0
    best = pval[o, s, j0:j1]
    bidx = _full(w, zi)  # float-typed running index: the select vectorises
    x0 = x[o, r0, j0:j1]
    for j in range(w):
        best[j] = x0[j]
    one = _as(zi, 1)
    rf = zi
    nan = 0
    if ismax:
        for r in range(r0 + 1, r1):
            rf += one
            xr = x[o, r, j0:j1]
            for j in range(w):
                v = xr[j]
                c = v > best[j]
                best[j] = v if c else best[j]
                bidx[j] = rf if c else bidx[j]
                nan += 1 if v != v else 0
    else:
        for r in range(r0 + 1, r1):
            rf += one
            xr = x[o, r, j0:j1]
            for j in range(w):
                v = xr[j]
                c = v < best[j]
                best[j] = v if c else best[j]
                bidx[j] = rf if c else bidx[j]
                nan += 1 if v != v else 0
    out = pidx[o, s, j0:j1]
    for j in range(w):
        out[j] = r0 + np.int64(bidx[j])
    if nan:  # rare: redo the columns holding a NaN, the first NaN wins
        for j in range(w):
            if best[j] != best[j]:
                continue
            for r in range(r0, r1):
                v = x[o, r, j0 + j]
                if v != v:
                    best[j] = v
                    out[j] = r
                    break


@kernel()
def arg_v(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, wb: int) -> None:
    """First index along axis 1 of the max (min) of x (O, R, I) per segment; serial."""
    ns = pval.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _arg_v_task(x, pval, pidx, ismax, zi, t, ns, wb)


@kernel(parallel=True)
def arg_v_par(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, wb: int) -> None:
    """arg_v in parallel."""
    ns = pval.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _arg_v_task(x, pval, pidx, ismax, zi, t, ns, wb)


# ----------------------------------------------------------------------------- var (mean, M2)
@njit(fastmath=FM, inline="always")
def _c_var(seg: Any) -> Any:
    k = seg.shape[0]
    sm = 0.0
    for i in range(k):
        sm += np.float64(seg[i])
    mc = sm / k
    q = 0.0
    for i in range(k):
        d = np.float64(seg[i]) - mc
        q += d * d
    return mc, q


@njit(fastmath=FM, inline="always")
def _h_var(row: Any) -> Any:
    """(mean, M2) of a row: two passes per L1-resident chunk, chunks merged with Chan's rule."""
    n = row.shape[0]
    if n <= CH:
        return _c_var(row)
    cnt = 0.0
    mean = 0.0
    m2 = 0.0
    for ci in range((n + CH - 1) // CH):  # a step range would divide per row
        c0 = ci * CH
        c1 = min(c0 + CH, n)
        mc, q = _c_var(row[c0:c1])
        k = c1 - c0
        nt = cnt + k
        delta = mc - mean
        mean += delta * (k / nt)
        m2 += q + delta * delta * (cnt * k / nt)
        cnt = nt
    return mean, m2


@njit(fastmath=FM)
def _var_h_task(x: Any, pmean: Any, pm2: Any, t: int, ns: int, rb: int) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    for r in range(r0, r1):
        mean, m2 = _h_var(x[r, lo:hi])
        pmean[r, s] = mean
        pm2[r, s] = m2


@kernel()
def var_h(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """Per row segment: mean and sum of squared deviations (chunked two-pass, Chan merge)."""
    ns = pmean.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _var_h_task(x, pmean, pm2, t, ns, rb)


@kernel(parallel=True)
def var_h_par(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """var_h in parallel."""
    ns = pmean.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _var_h_task(x, pmean, pm2, t, ns, rb)


@njit(fastmath=FM)
def _var_v_task(x: Any, pmean: Any, pm2: Any, t: int, ns: int, wb: int) -> None:
    o, s, r0, r1, j0, j1 = _v_span(x, t, ns, wb)
    w = j1 - j0
    mean = pmean[o, s, j0:j1]
    m2 = pm2[o, s, j0:j1]
    # one pass: per block of VBS rows, sums of (x - shift) and their squares, the shift being
    # the running mean (the first row for the first block); blocks merged with Chan's rule
    s1 = _full(w, 0.0)
    s2 = _full(w, 0.0)
    x0 = x[o, r0, j0:j1]
    for j in range(w):
        mean[j] = np.float64(x0[j])
        m2[j] = 0.0
    cnt = 0.0
    for b0 in range(r0, r1, VBS):
        b1 = min(b0 + VBS, r1)
        k = b1 - b0
        for j in range(w):
            s1[j] = 0.0
            s2[j] = 0.0
        r = b0
        if w > 1024:  # accumulators in L2: 4 rows per pass over them
            while r + 4 <= b1:
                xa = x[o, r, j0:j1]
                xb = x[o, r + 1, j0:j1]
                xc = x[o, r + 2, j0:j1]
                xd = x[o, r + 3, j0:j1]
                for j in range(w):
                    m = mean[j]
                    da = np.float64(xa[j]) - m
                    db = np.float64(xb[j]) - m
                    dc = np.float64(xc[j]) - m
                    dd = np.float64(xd[j]) - m
                    s1[j] += (da + db) + (dc + dd)
                    s2[j] += (da * da + db * db) + (dc * dc + dd * dd)
                r += 4
        for rr in range(r, b1):
            xr = x[o, rr, j0:j1]
            for j in range(w):
                d = np.float64(xr[j]) - mean[j]
                s1[j] += d
                s2[j] += d * d
        nt = cnt + k
        f = cnt / nt
        for j in range(w):
            dm = s1[j] / k  # block mean minus the shift
            q = s2[j] - s1[j] * dm  # block M2
            mean[j] += dm * (k / nt)
            m2[j] += q + dm * dm * (k * f)
        cnt = nt


@kernel()
def var_v(x: Any, pmean: Any, pm2: Any, wb: int) -> None:
    """Per column of x (O, R, I) and segment of R: mean and M2 (blocked two-pass); serial."""
    ns = pmean.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _var_v_task(x, pmean, pm2, t, ns, wb)


@kernel(parallel=True)
def var_v_par(x: Any, pmean: Any, pm2: Any, wb: int) -> None:
    """var_v in parallel."""
    ns = pmean.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _var_v_task(x, pmean, pm2, t, ns, wb)


# ----------------------------------------------------------------------------- logsumexp
# Partial state (M, S): the result is M + log(S). NaN -> (nan, 1), +inf -> (inf, 1),
# all -inf -> (-inf, 0).
@njit(fastmath=FM, inline="always")
def _c_lse(seg: Any, mc: Any, z0: Any) -> Any:
    acc = z0
    for i in range(seg.shape[0]):
        acc += _expneg(_as(z0, seg[i]) - mc)
    return acc


@njit(fastmath=FM, inline="always")
def _lse_step(seg: Any, big: float, tot: float, posinf: bool, z0: Any) -> Any:
    """Fold one chunk into the running (max, sum): returns (nan seen, big, tot, posinf)."""
    mf = np.float64(_c_max(seg))
    if mf != mf:
        return True, big, tot, posinf
    if posinf or mf == -np.inf:
        return False, big, tot, posinf
    if mf == np.inf:
        return False, big, tot, True
    if mf > big:
        tot *= math.exp(big - mf)
        big = mf
    tot += np.float64(_c_lse(seg, _as(z0, big), z0))
    return False, big, tot, posinf


@njit(fastmath=FM, inline="always")
def _h_lse(row: Any, z0: Any) -> Any:
    """(M, S) of a row in one pass: chunk max, rescale, polynomial exp summed in z0's type."""
    n = row.shape[0]
    big = -np.inf
    tot = 0.0
    posinf = False
    if n <= CH:
        nan, big, tot, posinf = _lse_step(row, big, tot, posinf, z0)
        if nan:
            return np.nan, 1.0
    else:
        for ci in range((n + CH - 1) // CH):  # a step range would divide per row
            c0 = ci * CH
            nan, big, tot, posinf = _lse_step(row[c0 : min(c0 + CH, n)], big, tot, posinf, z0)
            if nan:
                return np.nan, 1.0
    if posinf:
        return np.inf, 1.0
    return big, tot


@njit(fastmath=FM)
def _lse_h_task(x: Any, pm: Any, ps: Any, z0: Any, t: int, ns: int, rb: int) -> None:
    blk = t // ns
    s = t - blk * ns
    n = x.shape[1]
    lo = (s * n) // ns
    hi = ((s + 1) * n) // ns
    r0 = blk * rb
    r1 = min(x.shape[0], r0 + rb)
    for r in range(r0, r1):
        m, q = _h_lse(x[r, lo:hi], z0)
        pm[r, s] = m
        ps[r, s] = q


@kernel()
def lse_h(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """Per row segment: online (max, sum exp(x - max)) in one pass; serial."""
    ns = pm.shape[1]
    for t in range(-(-x.shape[0] // rb) * ns):
        _lse_h_task(x, pm, ps, z0, t, ns, rb)


@kernel(parallel=True)
def lse_h_par(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """lse_h in parallel."""
    ns = pm.shape[1]
    for t in prange(-(-x.shape[0] // rb) * ns):
        _lse_h_task(x, pm, ps, z0, t, ns, rb)


@njit(fastmath=FM)
def _lse_v_task(x: Any, pm: Any, ps: Any, z0: Any, t: int, ns: int, wb: int) -> None:
    o, s, r0, r1, j0, j1 = _v_span(x, t, ns, wb)
    w = j1 - j0
    big = pm[o, s, j0:j1]  # running max (float64)
    tot = ps[o, s, j0:j1]
    colmax = _copy(x[o, r0, j0:j1])  # NaN-propagating running max: the special cases
    bigc = _full(w, z0)  # the running max in the compute type, for the exp pass
    acc = _full(w, z0)
    for j in range(w):
        big[j] = -np.inf
        tot[j] = 0.0
    for b0 in range(r0, r1, VB):
        b1 = min(b0 + VB, r1)
        for r in range(b0, b1):
            xr = x[o, r, j0:j1]
            for j in range(w):
                colmax[j] = _vmax(colmax[j], xr[j])
        for j in range(w):  # rescale where the max grew (NaN/inf columns are fixed at the end)
            m = np.float64(colmax[j])
            if m > big[j]:
                if tot[j] != 0.0:  # nothing to rescale before the first finite block
                    tot[j] *= math.exp(big[j] - m)
                big[j] = m
            bigc[j] = _as(z0, big[j])
            acc[j] = z0
        for r in range(b0, b1):  # the block again, from cache
            xr = x[o, r, j0:j1]
            for j in range(w):
                acc[j] += _expneg(_as(z0, xr[j]) - bigc[j])
        for j in range(w):
            tot[j] += np.float64(acc[j])
    for j in range(w):
        c = np.float64(colmax[j])
        if c != c:
            big[j] = np.nan
            tot[j] = 1.0
        elif c == np.inf:
            big[j] = np.inf
            tot[j] = 1.0
        elif c == -np.inf:
            big[j] = -np.inf
            tot[j] = 0.0


@kernel()
def lse_v(x: Any, pm: Any, ps: Any, z0: Any, wb: int) -> None:
    """Per column of x (O, R, I): blocked (max, sum exp) state; serial."""
    ns = pm.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in range(x.shape[0] * ns * nb):
        _lse_v_task(x, pm, ps, z0, t, ns, wb)


@kernel(parallel=True)
def lse_v_par(x: Any, pm: Any, ps: Any, z0: Any, wb: int) -> None:
    """lse_v in parallel."""
    ns = pm.shape[1]
    nb = (x.shape[2] + wb - 1) // wb
    for t in prange(x.shape[0] * ns * nb):
        _lse_v_task(x, pm, ps, z0, t, ns, wb)


# ----------------------------------------------------------------------------- narrow rows
# x (O, R) with R <= NARROW, reduced over R: blocks of rb rows are transposed (``_tr``) and
# reduced by the vertical task bodies, SIMD across rows. Separate entry points, so the
# horizontal kernels do not compile this code; ``z`` (an int64 zero, not a literal) makes the
# vertical task calls share the vertical kernels' compiled signatures.
@njit(fastmath=FM, inline="always")
def _n_span(x: Any, t: int, rb: int) -> Any:
    """Rows [r0, r1) of narrow task t, their count, and an int64 zero that is not a literal."""
    r0 = t * rb
    r1 = min(x.shape[0], r0 + rb)
    return r0, r1, r1 - r0, t - t


@njit(fastmath=FM)
def _acc_n_task(x: Any, part: Any, op: int, p: float, zc: Any, t: int, rb: int,
                norm: Any) -> None:  # fmt: skip
    # ``norm`` None: the sum family; True: the norm family. numba prunes the other branch at
    # compile time (an ``is None`` test on an argument), so each family compiles on its own.
    r0, r1, w, z = _n_span(x, t, rb)
    acc = _empty((1, 1, w), part.dtype)
    if norm is None:
        _acc_v_task(_tr(x, r0, r1), acc, op, p, zc, z, z + 1, w)
    else:
        _nrm_v_task(_tr(x, r0, r1), acc, op, p, zc, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        part[r0 + i] = acc[0, 0, i]


@kernel()
def acc_n(x: Any, part: Any, op: int, p: float, zc: Any, rb: int, norm: Any) -> None:
    """part[r] = op-accumulate of the short row r of x (O, R); ``norm``: None for the sum
    family (SUM, PROD, NNZ), True for the norm family; serial."""
    for t in range(-(-x.shape[0] // rb)):
        _acc_n_task(x, part, op, p, zc, t, rb, norm)


@kernel(parallel=True)
def acc_n_par(x: Any, part: Any, op: int, p: float, zc: Any, rb: int, norm: Any) -> None:
    """acc_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _acc_n_task(x, part, op, p, zc, t, rb, norm)


@njit(fastmath=FM)
def _ext_n_task(x: Any, part: Any, ismax: bool, t: int, rb: int) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    acc = _empty((1, 1, w), part.dtype)
    _ext_v_task(_tr(x, r0, r1), acc, ismax, z, z + 1, w, False)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        part[r0 + i] = acc[0, 0, i]


@kernel()
def ext_n(x: Any, part: Any, ismax: bool, rb: int) -> None:
    """part[r] = max (or min) of the short row r of x (O, R), NaN propagating; serial."""
    for t in range(-(-x.shape[0] // rb)):
        _ext_n_task(x, part, ismax, t, rb)


@kernel(parallel=True)
def ext_n_par(x: Any, part: Any, ismax: bool, rb: int) -> None:
    """ext_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _ext_n_task(x, part, ismax, t, rb)


@njit(fastmath=FM)
def _arg_n_task(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, t: int, rb: int) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    bv = _empty((1, 1, w), pval.dtype)
    bi = _empty((1, 1, w), pidx.dtype)
    _arg_v_task(_tr(x, r0, r1), bv, bi, ismax, zi, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        pval[r0 + i] = bv[0, 0, i]
        pidx[r0 + i] = bi[0, 0, i]


@kernel()
def arg_n(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, rb: int) -> None:
    """First index of the max (min) of each short row of x (O, R), NaN first; serial."""
    for t in range(-(-x.shape[0] // rb)):
        _arg_n_task(x, pval, pidx, ismax, zi, t, rb)


@kernel(parallel=True)
def arg_n_par(x: Any, pval: Any, pidx: Any, ismax: bool, zi: Any, rb: int) -> None:
    """arg_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _arg_n_task(x, pval, pidx, ismax, zi, t, rb)


@njit(fastmath=FM)
def _var_n_task(x: Any, pmean: Any, pm2: Any, t: int, rb: int) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    bm = _empty((1, 1, w), np.float64)
    b2 = _empty((1, 1, w), np.float64)
    _var_v_task(_tr(x, r0, r1), bm, b2, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        pmean[r0 + i] = bm[0, 0, i]
        pm2[r0 + i] = b2[0, 0, i]


@kernel()
def var_n(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """Mean and M2 of each short row of x (O, R); serial."""
    for t in range(-(-x.shape[0] // rb)):
        _var_n_task(x, pmean, pm2, t, rb)


@kernel(parallel=True)
def var_n_par(x: Any, pmean: Any, pm2: Any, rb: int) -> None:
    """var_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _var_n_task(x, pmean, pm2, t, rb)


@njit(fastmath=FM)
def _lse_n_task(x: Any, pm: Any, ps: Any, z0: Any, t: int, rb: int) -> None:
    r0, r1, w, z = _n_span(x, t, rb)
    bm = _empty((1, 1, w), np.float64)
    bs = _empty((1, 1, w), np.float64)
    _lse_v_task(_tr(x, r0, r1), bm, bs, z0, z, z + 1, w)
    for i in range(w):  # a loop: a slice assignment costs seconds of compile
        pm[r0 + i] = bm[0, 0, i]
        ps[r0 + i] = bs[0, 0, i]


@kernel()
def lse_n(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """(max, sum exp) state of each short row of x (O, R); serial."""
    for t in range(-(-x.shape[0] // rb)):
        _lse_n_task(x, pm, ps, z0, t, rb)


@kernel(parallel=True)
def lse_n_par(x: Any, pm: Any, ps: Any, z0: Any, rb: int) -> None:
    """lse_n over blocks of rows in parallel."""
    for t in prange(-(-x.shape[0] // rb)):
        _lse_n_task(x, pm, ps, z0, t, rb)


# ----------------------------------------------------------------------------- scaling pass
@njit(fastmath={"nsz", "contract"})
def _scale_task(x: Any, d: Any, out: Any, ni: int, t: int, ns: int, rb: int) -> None:
    nr = x.shape[1] // ni
    blk = t // ns
    s = t - blk * ns
    r0 = (s * nr) // ns
    r1 = ((s + 1) * nr) // ns
    o0 = blk * rb
    o1 = min(x.shape[0], o0 + rb)
    z = out[0, 0]
    if ni == 1 and ns == 1:  # whole short rows: direct indexing, no per-row slices
        for o in range(o0, o1):
            dv = d[o, 0]
            for k in range(nr):
                out[o, k] = _as(z, x[o, k]) / dv
    elif ni == 1:
        for o in range(o0, o1):
            dv = d[o, 0]
            xo = x[o, r0:r1]
            oo = out[o, r0:r1]
            for k in range(xo.shape[0]):
                oo[k] = _as(z, xo[k]) / dv
    else:
        for o in range(o0, o1):
            do = d[o]
            for r in range(r0, r1):
                xr = x[o, r * ni : (r + 1) * ni]
                orow = out[o, r * ni : (r + 1) * ni]
                for j in range(ni):
                    orow[j] = _as(z, xr[j]) / do[j]


@kernel()
def scale(x: Any, d: Any, out: Any, ni: int, rb: int) -> None:
    """out[o, r*I + j] = x[o, r*I + j] / d[o, j] (x, out (O, R*I), d (O, I)); serial."""
    for t in range(-(-x.shape[0] // rb)):
        _scale_task(x, d, out, ni, t, 1, rb)


@kernel(parallel=True)
def scale_par(x: Any, d: Any, out: Any, ni: int, ns: int, rb: int) -> None:
    """scale over (block of outer rows, segment of R) tasks in parallel."""
    for t in prange(-(-x.shape[0] // rb) * ns):
        _scale_task(x, d, out, ni, t, ns, rb)
