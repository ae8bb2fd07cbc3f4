"""typedtensor: tensors whose dtype and shape are part of the static type.

``Tensor[tt.float32, Literal[8], Literal[10]]``; reductions (``sum mean max min prod any all var
std argmax argmin logsumexp norm l2_normalize reduce_to``) as methods and functions, with
numpy's result shapes and dtypes. Enable the mypy plugin ``typedtensor_mypy`` for exact result
types. Backends are imported on first use: ``import typedtensor`` does not import numba.
"""

from __future__ import annotations

from ._backend import get_backend, set_backend, use_backend
from ._creation import arange, asarray, empty, full, ones, random, tensor, zeros
from ._dtypes import (
    DType,
    Floating,
    Integer,
    Number,
    SignedInteger,
    UnsignedInteger,
    bool_,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._errors import AxisError, ShapeError
from ._shapecheck import ShapeCheckError, shapecheck
from ._tensor import AnyTensor, Axis, Dim, L2Variant, NormMode, Tensor
from .elementwise import abs, exp, log, maximum, minimum, negative, sqrt
from .reductions import (
    all,
    any,
    argmax,
    argmin,
    l2_normalize,
    logsumexp,
    max,
    mean,
    min,
    norm,
    norm_lp_max,
    norm_lp_power_p_max,
    norm_lp_power_p_sum,
    norm_lp_sum,
    prod,
    reduce_to,
    std,
    sum,
    sum_to,
    var,
)

__version__ = "0.1.0"

__all__ = [
    "AnyTensor",
    "Axis",
    "AxisError",
    "DType",
    "Dim",
    "Floating",
    "Integer",
    "L2Variant",
    "NormMode",
    "Number",
    "ShapeCheckError",
    "ShapeError",
    "SignedInteger",
    "Tensor",
    "UnsignedInteger",
    "__version__",
    "abs",
    "all",
    "any",
    "arange",
    "argmax",
    "argmin",
    "asarray",
    "bool_",
    "empty",
    "exp",
    "float32",
    "float64",
    "full",
    "get_backend",
    "int16",
    "int32",
    "int64",
    "int8",
    "l2_normalize",
    "log",
    "logsumexp",
    "max",
    "maximum",
    "mean",
    "min",
    "minimum",
    "negative",
    "norm",
    "norm_lp_max",
    "norm_lp_power_p_max",
    "norm_lp_power_p_sum",
    "norm_lp_sum",
    "ones",
    "prod",
    "random",
    "reduce_to",
    "set_backend",
    "shapecheck",
    "sqrt",
    "std",
    "sum",
    "sum_to",
    "tensor",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "use_backend",
    "var",
    "zeros",
]
