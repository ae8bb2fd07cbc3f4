# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""Building blocks of every numba kernel family: the constants, SIMD intrinsics (NaN-propagating
max/min, allocation, flat views, prefetch), a vectorisable exp for x <= 0 and the short-row
transpose that lets the vertical task bodies reduce rows of at most ``NARROW`` elements."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic, overload

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
def _extreme_intrinsic(float_name: str, signed_name: str, unsigned_name: str, doc: str) -> Any:
    """An intrinsic ``f(a, b)`` of two values of one type calling an LLVM intrinsic: the
    NaN-propagating float one for floats, the signed or unsigned integer one for ints."""

    def extreme(typingctx: Any, a: Any, b: Any) -> Any:
        if a != b:
            return None
        sig = a(a, b)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            t = args[0].type
            if isinstance(a, types.Float):
                name = float_name
            elif a.signed:
                name = signed_name
            else:
                name = unsigned_name
            fn = builder.module.declare_intrinsic(name, [t], ir.FunctionType(t, [t, t]))
            return builder.call(fn, args)

        return sig, codegen

    extreme.__doc__ = doc
    return intrinsic(extreme)


_vmax = _extreme_intrinsic(
    "llvm.maximum",
    "llvm.smax",
    "llvm.umax",
    "max with NaN propagation (llvm.maximum) for floats, smax/umax for ints: vectorises.",
)
_vmin = _extreme_intrinsic(
    "llvm.minimum",
    "llvm.smin",
    "llvm.umin",
    "min with NaN propagation (llvm.minimum) for floats, smin/umin for ints.",
)


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


@overload(_expneg)  # no fast-math: the range reduction and the polynomial in the written
# order, a rounded product and a rounded sum a step (no fused multiply-add, whose rounding
# numpy cannot reproduce cheaply): the same bits on every CPU, and numpy's float32
# arithmetic gives them too (``logsumexp_twin``; tests/runtime/test_cache_determinism.py)
def _ov_expneg(x: Any) -> Any:
    """Vectorisable exp for x <= 0 (clamped at the underflow edge; NaN maps to a tiny value,
    callers detect NaN rows separately). Taylor polynomial after range reduction: float32
    degree 7 (~2 ulp), float64 degree 13 (~2 ulp)."""
    if isinstance(x, types.Float) and x.bitwidth == 32:
        return _exp_of_nonpositive(_LO32, _L2E32, _HALF32, _LN2HI32, _LN2LO32, _C32)
    if isinstance(x, types.Float):
        return _exp_of_nonpositive(_LO64, _L2E64, 0.5, _LN2HI64, _LN2LO64, _C64)
    return None


def _exp_of_nonpositive(
    lo: Any, l2e: Any, half: Any, ln2hi: Any, ln2lo: Any, taylor: tuple[Any, ...]
) -> Any:
    """``_expneg``'s steps in one precision: ``x`` clamped at ``lo``, ``k = floor(x / ln 2 +
    1/2)``, ``r = x - k ln 2`` in two parts, the polynomial of the ``taylor`` coefficients by
    Horner's rule from the highest, times ``2**k``."""
    degree = len(taylor) - 1

    def impl(x: Any) -> Any:
        x = x if x > lo else lo
        k = np.floor(x * l2e + half)
        r = (x - k * ln2hi) - k * ln2lo
        p = taylor[degree]
        for i in range(degree - 1, -1, -1):
            p = p * r + taylor[i]
        return p * _pow2(k)

    return impl


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
