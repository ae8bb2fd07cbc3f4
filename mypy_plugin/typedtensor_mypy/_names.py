"""Every full name the plugin hooks or builds, in one place."""

from __future__ import annotations

from typing import Final

from ._rules import rules

PKG: Final = "typedtensor"
PKG_PREFIX: Final = "typedtensor."
TENSOR: Final = "typedtensor._tensor.Tensor"
TENSOR_BASE: Final = "typedtensor._tensor.TensorBase"
DIM: Final = "typedtensor._tensor.Dim"
#: ``tt.IntDiv[P, Q]``: ``P // Q`` with no claim that ``Q`` divides (``tt.FloorDiv`` is exact)
INT_DIV: Final = "typedtensor._dims.IntDiv"
#: the dim expression classes (``tt.Add[A, B]``...) -> the operator they spell
DIM_EXPRESSIONS: Final = {
    "typedtensor._dims.Add": "+",
    "typedtensor._dims.Sub": "-",
    "typedtensor._dims.Mul": "*",
    "typedtensor._dims.FloorDiv": "//",
    INT_DIV: "//",
}
#: operator -> class (``//``: the exact ``tt.FloorDiv``)
DIM_EXPRESSION_CLASSES: Final = {
    op: name for name, op in DIM_EXPRESSIONS.items() if name != INT_DIV
}
DTYPES_MODULE: Final = "typedtensor._dtypes"
REDUCTIONS_MODULE: Final = "typedtensor.reductions"
SCANS_MODULE: Final = "typedtensor.scans"
CREATION_MODULE: Final = "typedtensor._creation"
ELEMENTWISE_MODULE: Final = "typedtensor.elementwise"
LINALG_MODULE: Final = "typedtensor.linalg"
MANIPULATION_MODULE: Final = "typedtensor.manipulation"
ELLIPSIS: Final = "builtins.ellipsis"
SLICE: Final = "builtins.slice"
LIST: Final = "builtins.list"
NDARRAY: Final = "numpy.ndarray"
NP_INTEGER: Final = "numpy.integer"
TUPLE: Final = "builtins.tuple"
#: the standard's named results (``EighResult``...), generic NamedTuples in ``_results.pyi``
RESULTS_MODULE: Final = "typedtensor._results"
INT: Final = "builtins.int"
FLOAT: Final = "builtins.float"
COMPLEX: Final = "builtins.complex"
BOOL: Final = "builtins.bool"
OBJECT: Final = "builtins.object"

#: the name appended to ``options.always_true``: ``if TYPEDTENSOR_MYPY_PLUGIN:`` blocks in
#: stubs are taken (and their ``else`` skipped) when the plugin is on
ALWAYS_TRUE_NAME: Final = "TYPEDTENSOR_MYPY_PLUGIN"

#: dtype families, most specific first (used to summarise an unknown concrete dtype)
DTYPE_FAMILIES: Final = (
    "typedtensor._dtypes.Floating",
    "typedtensor._dtypes.ComplexFloating",
    "typedtensor._dtypes.SignedInteger",
    "typedtensor._dtypes.UnsignedInteger",
    "typedtensor._dtypes.Integer",
    "typedtensor._dtypes.Number",
    "typedtensor._dtypes.DType",
)


def dtype_class_fullname(numpy_name: str) -> str:
    """``"bool" -> "typedtensor._dtypes.bool_"``, ``"float32" -> "typedtensor._dtypes.float32"``."""
    return f"{DTYPES_MODULE}.{'bool_' if numpy_name == 'bool' else numpy_name}"


def dtype_numpy_name(class_fullname: str) -> str | None:
    """Inverse of ``dtype_class_fullname``; ``None`` for anything else (families, other types)."""
    module, _, cls = class_fullname.rpartition(".")
    if module != DTYPES_MODULE:
        return None
    name = "bool" if cls == "bool_" else cls
    return name if name in _concrete_names() else None


def _concrete_names() -> tuple[str, ...]:
    return rules.DTYPE_NAMES


#: binary operator dunders of Tensor -> (kind for the dtype rule, reflected)
BINARY_DUNDERS: Final = {
    "__add__": ("add", False),
    "__radd__": ("add", True),
    "__sub__": ("subtract", False),
    "__rsub__": ("subtract", True),
    "__mul__": ("multiply", False),
    "__rmul__": ("multiply", True),
    "__truediv__": ("true_divide", False),
    "__rtruediv__": ("true_divide", True),
    "__pow__": ("power", False),
    "__rpow__": ("power", True),
    "__lt__": ("compare", False),
    "__le__": ("compare", False),
    "__gt__": ("compare", False),
    "__ge__": ("compare", False),
    "__eq__": ("compare", False),
    "__ne__": ("compare", False),
}

#: in-place operator dunders of Tensor -> the operator's symbol
INPLACE_DUNDERS: Final = {
    "__iadd__": "+=",
    "__isub__": "-=",
    "__imul__": "*=",
    "__itruediv__": "/=",
    "__ifloordiv__": "//=",
    "__imod__": "%=",
    "__ipow__": "**=",
    "__iand__": "&=",
    "__ior__": "|=",
    "__ixor__": "^=",
    "__ilshift__": "<<=",
    "__irshift__": ">>=",
    "__imatmul__": "@=",
}

#: creation functions whose first argument is a shape
SHAPE_CONSTRUCTORS: Final = ("zeros", "ones", "empty", "full", "random")

#: bitwise / logical operator dunders of Tensor (bool and integer dtypes) -> reflected
BITWISE_DUNDERS: Final = {
    "__and__": False,
    "__rand__": True,
    "__or__": False,
    "__ror__": True,
    "__xor__": False,
    "__rxor__": True,
}
