# mypy: disable-error-code="call-arg,var-annotated,import-untyped"
"""The first index of the max (min) of a contiguous float row in explicit 512-bit vectors.

numba's vectoriser cannot keep an index beside a running max, so a row's argmax was a
vectorised max pass and a scalar search for its first occurrence (~4x numpy's SIMD argmax
over rows of 256 float32). These intrinsics emit the loop numpy's own kernels use: per lane a
running best value and its index (``x > best`` selects both, so each lane keeps its first
occurrence), two chains of accumulators for independent dependency chains, and at the end the
smallest index among the lanes holding the best value, which is the row's first occurrence.
A NaN never wins ``x > best``, so the loop also sums the row: a NaN sum (a NaN in the row, or
both infinities) returns ``NAN_SEEN`` and the caller's scalar search answers (numpy's argmax
returns the first NaN).
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

#: bytes in one vector (AVX-512; LLVM splits the vectors on narrower machines)
VECTOR_BYTES = 64
#: independent accumulators in the main loop
_CHAINS = 2
#: returned when a NaN was seen (the caller searches for the first one)
NAN_SEEN = -1
#: returned for a dtype or a row the vectors do not take (the caller runs the scalar path)
NOT_TAKEN = -2


def simd_lanes(itemsize: int) -> int:
    """Elements in one vector of a dtype of ``itemsize`` bytes."""
    return VECTOR_BYTES // itemsize


def _arg_extreme_intrinsic(ismax: bool) -> Any:
    def arg_extreme(typingctx: Any, row: Any) -> Any:
        if not isinstance(row, types.Array) or row.ndim != 1:
            return None
        sig = types.intp(row)
        if not isinstance(row.dtype, types.Float):

            def not_taken(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                return ir.Constant(ir.IntType(64), NOT_TAKEN)

            return sig, not_taken

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            # numba's lowering modules, imported when a kernel compiles: a process that loads
            # cached kernels never imports them (tests/runtime/test_numba_runtime.py)
            from numba.core import cgutils
            from numba.np import arrayobj

            return _emit_arg_extreme(context, builder, row, args[0], ismax, cgutils, arrayobj)

        return sig, codegen

    arg_extreme.__doc__ = (
        f"First index of the {'max' if ismax else 'min'} of a contiguous 1-D float row of at "
        f"least one vector and fewer than 2**31 elements (the caller checks all three); "
        f"NAN_SEEN when the row's sum is NaN, NOT_TAKEN for other dtypes."
    )
    return intrinsic(arg_extreme)


class _Vectors:
    """IR helpers for vectors of ``lanes`` elements of a row's dtype, with i32 indices."""

    def __init__(self, context: Any, builder: Any, row: Any, ary: Any, cgutils: Any) -> None:
        self.b = builder
        self.cgutils = cgutils
        self.lanes = simd_lanes(row.dtype.bitwidth // 8)
        self.align = row.dtype.bitwidth // 8
        self.fty = context.get_value_type(row.dtype)
        self.vty = ir.VectorType(self.fty, self.lanes)
        self.i32 = ir.IntType(32)
        self.ity = ir.VectorType(self.i32, self.lanes)
        self.mty = ir.VectorType(ir.IntType(1), self.lanes)
        self.data = ary.data
        self.iota = ir.Constant(self.ity, [ir.Constant(self.i32, j) for j in range(self.lanes)])

    def load(self, offset: Any) -> Any:
        ptr = self.b.bitcast(self.b.gep(self.data, [offset]), self.vty.as_pointer())
        return self.b.load(ptr, align=self.align)

    def splat(self, value: Any, vty: Any) -> Any:
        undef = ir.Constant(vty, ir.Undefined)
        one = self.b.insert_element(undef, value, ir.Constant(self.i32, 0))
        return self.b.shuffle_vector(one, undef, ir.Constant(self.ity, None))

    def indices(self, offset: Any) -> Any:
        """The row indices of the vector loaded at ``offset``."""
        return self.b.add(self.splat(self.b.trunc(offset, self.i32), self.ity), self.iota)

    def reduce(self, name: str, vty: Any, elty: Any, suffix: str, value: Any, **kw: Any) -> Any:
        fnty = ir.FunctionType(elty, [vty])
        name = f"llvm.vector.reduce.{name}.{suffix}"
        fn = self.cgutils.get_or_insert_function(self.b.module, fnty, name)
        return self.b.call(fn, [value], **kw)


def _emit_arg_extreme(
    context: Any, builder: Any, row: Any, arg: Any, ismax: bool, cgutils: Any, arrayobj: Any
) -> Any:
    ary = arrayobj.make_array(row)(context, builder, arg)
    n = cgutils.unpack_tuple(builder, ary.shape, 1)[0]
    v = _Vectors(context, builder, row, ary, cgutils)
    i64 = n.type
    lanes = ir.Constant(i64, v.lanes)
    better = ">" if ismax else "<"

    # every chain starts from the first vector: a duplicate lane ties and the smallest index
    # wins; the first vector is summed once
    first = v.load(ir.Constant(i64, 0))
    best = [cgutils.alloca_once_value(builder, first) for _ in range(_CHAINS)]
    where = [cgutils.alloca_once_value(builder, v.iota) for _ in range(_CHAINS)]
    zero = ir.Constant(v.vty, None)
    total = [cgutils.alloca_once_value(builder, first if c == 0 else zero) for c in range(_CHAINS)]

    def step(chain: int, offset: Any, indices: Any = None) -> None:
        x = v.load(offset)
        b = builder.load(best[chain])
        take = builder.fcmp_ordered(better, x, b)
        builder.store(builder.select(take, x, b), best[chain])
        at = v.indices(offset) if indices is None else indices
        builder.store(builder.select(take, at, builder.load(where[chain])), where[chain])
        builder.store(builder.fadd(builder.load(total[chain]), x), total[chain])

    # main loop: _CHAINS vectors a step while they fit, then one vector a step, then the last
    # vector (overlapping the previous ones) when the row is not a whole number of vectors
    block = ir.Constant(i64, v.lanes * _CHAINS)
    blocks_end = builder.add(lanes, builder.mul(builder.sdiv(builder.sub(n, lanes), block), block))
    # the indices of the main loop's vectors: one vector a chain, advanced by a block a step
    at = [cgutils.alloca_once_value(builder, v.indices(ir.Constant(i64, (1 + c) * v.lanes)))
          for c in range(_CHAINS)]  # fmt: skip
    advance = ir.Constant(v.ity, [ir.Constant(v.i32, v.lanes * _CHAINS)] * v.lanes)
    with cgutils.for_range_slice(builder, lanes, blocks_end, block, i64) as (i, _):
        for chain in range(_CHAINS):
            indices = builder.load(at[chain])
            step(chain, builder.add(i, ir.Constant(i64, chain * v.lanes)), indices)
            builder.store(builder.add(indices, advance), at[chain])
    vectors_end = builder.mul(builder.sdiv(n, lanes), lanes)
    with cgutils.for_range_slice(builder, blocks_end, vectors_end, lanes, i64) as (i, _):
        step(0, i)
    with builder.if_then(builder.icmp_signed("!=", vectors_end, n)):
        step(0, builder.sub(n, lanes))

    b0, w0 = builder.load(best[0]), builder.load(where[0])
    for chain in range(1, _CHAINS):
        bc, wc = builder.load(best[chain]), builder.load(where[chain])
        tie = builder.and_(builder.fcmp_ordered("==", bc, b0), builder.icmp_signed("<", wc, w0))
        take = builder.or_(builder.fcmp_ordered(better, bc, b0), tie)
        b0, w0 = builder.select(take, bc, b0), builder.select(take, wc, w0)
    fsuffix = f"v{v.lanes}f{row.dtype.bitwidth}"
    # no NaN reaches the lanes' best unless the row has one (then the result is NAN_SEEN);
    # infinities may (nnan only)
    extreme = v.reduce("fmax" if ismax else "fmin", v.vty, v.fty, fsuffix, b0,
                       fastmath=("nnan", "nsz"))  # fmt: skip
    holds = builder.fcmp_ordered("==", b0, v.splat(extreme, v.vty))
    never = ir.Constant(v.ity, [ir.Constant(v.i32, 2**31 - 1)] * v.lanes)
    first_index = v.reduce("smin", v.ity, v.i32, f"v{v.lanes}i32", builder.select(holds, w0, never))
    sums = builder.load(total[0])
    for chain in range(1, _CHAINS):
        sums = builder.fadd(sums, builder.load(total[chain]))
    nan = builder.fcmp_unordered("uno", sums, sums)
    seen = v.reduce("or", v.mty, ir.IntType(1), f"v{v.lanes}i1", nan)
    return builder.select(seen, ir.Constant(i64, NAN_SEEN), builder.sext(first_index, i64))


simd_argmax = _arg_extreme_intrinsic(True)
simd_argmin = _arg_extreme_intrinsic(False)
