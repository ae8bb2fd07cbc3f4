"""The single source of truth for shape and dtype rules, one module per family.

Stdlib only: this package is imported by the runtime, by the mypy plugin (which must not import
numpy or numba; it loads this package from its files without importing ``typedtensor``) and by
the stub generator. Every rule is generic over the *dim item*: the runtime passes ints, the
plugin passes mypy types, the stub generator passes names. Where a rule needs to know a dim's
size, the caller passes ``size_of`` (``None`` for a symbolic or unknown dim).

Families (named after the Array API standard's categories): ``axes``, ``broadcast``,
``dtypes``, ``reduction_table`` and ``statistical`` (reductions), ``manipulation``, ``linalg``,
``indexing``; rule violations are the plain exceptions of ``errors``. Modules inside this
package import each other relatively, never ``typedtensor``.
"""

from __future__ import annotations

from .axes import normalize_axes, reduce_shape
from .broadcast import broadcast_shapes, reduce_to_shape
from .dimexpr import DimExpr, FloorDivAtom, Symbol
from .dimexpr_relations import Relation, never_divides, relation
from .dtypes import (
    DTYPE_NAMES,
    BinaryRule,
    DTypeRule,
    binary_dtype,
    promote,
    promote_scalar,
    real_dtype,
    result_dtype,
    unary_float_dtype,
)
from .einsum import ELLIPSIS, EinsumSubscripts, einsum_shape, parse_subscripts
from .elementwise import (  # issue #33: the standard's elementwise functions by name
    BINARY_FUNCTIONS,
    REAL_PART_FUNCTIONS,
    UNARY_FUNCTIONS,
    elementwise_binary_dtype,
    elementwise_unary_dtype,
)
from .errors import (
    AssignShapeError,
    AxisRangeError,
    AxisTypeError,
    BroadcastError,
    DTypeArgumentError,
    DuplicateAxisError,
    EinsumSubscriptsError,
    EmptyReductionError,
    IndexFormError,
    IndexRangeError,
    MatmulShapeError,
    PermutationError,
    ReduceToShapeError,
    RuleError,
    ScanAxisError,
    ShapeMismatchError,
    SliceStepError,
    SymbolicBroadcastError,
    SymbolicIndexError,
    valid_axes_text,
)
from .indexing import (
    ArrayIndex,
    UnknownInt,
    UnknownSlice,
    assign_check,
    index_shape,
    slice_length,
)
from .joining import broadcast_to_shape, concat_shape, split_shape, stack_shape
from .linalg import matmul_shape
from .manipulation import (
    expand_dims_shape,
    matrix_transpose_order,
    moveaxis_order,
    permute_shape,
    reshape_shape,
    single_axis,
    squeeze_shape,
    swapaxes_order,
    transpose_order,
)
from .quantiles import (
    DISCRETE_QUANTILE_METHODS,
    QUANTILE_FUNCTIONS,
    QUANTILE_METHODS,
    QuantileMethodError,
    check_quantile_method,
    quantile_result_dtype,
)
from .reduction_table import L2_VARIANTS, NORM_MODES, REDUCTIONS, Arg, ReductionSpec
from .statistical import (
    MOMENTS,
    SCANS,
    VARIANCES,
    check_dtype_argument,
    check_nonempty,
    rank0_axis,
    reduction_identity,
    scan_shape,
)

__all__ = [
    "DISCRETE_QUANTILE_METHODS",
    "QUANTILE_FUNCTIONS",
    "QUANTILE_METHODS",
    "QuantileMethodError",
    "check_quantile_method",
    "quantile_result_dtype",
    "MOMENTS",
    "BINARY_FUNCTIONS",
    "REAL_PART_FUNCTIONS",
    "UNARY_FUNCTIONS",
    "elementwise_binary_dtype",
    "elementwise_unary_dtype",
    "VARIANCES",
    "ArrayIndex",
    "AssignShapeError",
    "AxisRangeError",
    "AxisTypeError",
    "BinaryRule",
    "BroadcastError",
    "DTYPE_NAMES",
    "DTypeRule",
    "DimExpr",
    "FloorDivAtom",
    "Relation",
    "Symbol",
    "relation",
    "never_divides",
    "DuplicateAxisError",
    "DTypeArgumentError",
    "ELLIPSIS",
    "EinsumSubscripts",
    "EinsumSubscriptsError",
    "EmptyReductionError",
    "IndexFormError",
    "IndexRangeError",
    "L2_VARIANTS",
    "MatmulShapeError",
    "NORM_MODES",
    "PermutationError",
    "REDUCTIONS",
    "ReduceToShapeError",
    "Arg",
    "ReductionSpec",
    "RuleError",
    "SCANS",
    "ScanAxisError",
    "ShapeMismatchError",
    "SliceStepError",
    "SymbolicBroadcastError",
    "SymbolicIndexError",
    "UnknownInt",
    "UnknownSlice",
    "assign_check",
    "binary_dtype",
    "broadcast_shapes",
    "broadcast_to_shape",
    "check_dtype_argument",
    "check_nonempty",
    "rank0_axis",
    "concat_shape",
    "einsum_shape",
    "expand_dims_shape",
    "index_shape",
    "matmul_shape",
    "matrix_transpose_order",
    "moveaxis_order",
    "normalize_axes",
    "parse_subscripts",
    "permute_shape",
    "promote",
    "promote_scalar",
    "real_dtype",
    "reduce_shape",
    "reduce_to_shape",
    "reduction_identity",
    "reshape_shape",
    "result_dtype",
    "scan_shape",
    "single_axis",
    "slice_length",
    "split_shape",
    "squeeze_shape",
    "stack_shape",
    "swapaxes_order",
    "transpose_order",
    "unary_float_dtype",
    "valid_axes_text",
]
