"""numpy ufuncs on Tensors (``Tensor.__array_ufunc__``): one policy, the one the type checkers
agree with.

- A ufunc behind a Python operator (``np.add`` for ``+``, ``np.matmul`` for ``@``, the
  comparisons, the bitwise operators...) runs the Tensor's operator, so ``ndarray + Tensor``
  is a Tensor, as the checkers say (numpy's ndarray operators call the ufunc, which asks the
  Tensor).
- Every other ufunc raises a ``TypeError`` naming the typedtensor function to call
  (``np.tanh(x)``: "call tt.tanh(x)"), or, where typedtensor has none, how to leave the types
  (``np.xxx(x.numpy())``). The checkers reject ``np.tanh(x)`` too: the stub of ``Tensor`` has
  no ``__array__``, so a Tensor is no numpy array-like for them.
- ufunc methods (``np.add.reduce``...) and ``out=``/``where=``/``dtype=`` arguments raise a
  ``TypeError`` naming typedtensor's reduction or the plain call.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._rules.elementwise import BINARY_FUNCTIONS, UNARY_FUNCTIONS

__all__ = ["OPERATOR_UFUNCS", "apply_ufunc", "typedtensor_name"]

#: ufuncs behind Python operators, run as the Tensor operator: name -> (dunder, reflected dunder)
OPERATOR_UFUNCS: dict[str, tuple[str, str]] = {
    "add": ("__add__", "__radd__"),
    "subtract": ("__sub__", "__rsub__"),
    "multiply": ("__mul__", "__rmul__"),
    "divide": ("__truediv__", "__rtruediv__"),  # np.true_divide's __name__
    "floor_divide": ("__floordiv__", "__rfloordiv__"),
    "remainder": ("__mod__", "__rmod__"),
    "power": ("__pow__", "__rpow__"),
    "matmul": ("__matmul__", "__rmatmul__"),
    "less": ("__lt__", "__gt__"),
    "less_equal": ("__le__", "__ge__"),
    "greater": ("__gt__", "__lt__"),
    "greater_equal": ("__ge__", "__le__"),
    "equal": ("__eq__", "__eq__"),
    "not_equal": ("__ne__", "__ne__"),
    "bitwise_and": ("__and__", "__rand__"),
    "bitwise_or": ("__or__", "__ror__"),
    "bitwise_xor": ("__xor__", "__rxor__"),
    "left_shift": ("__lshift__", "__rlshift__"),
    "right_shift": ("__rshift__", "__rrshift__"),
}

#: numpy ufunc name -> typedtensor function, for the ufuncs typedtensor has
_NAMES: dict[str, str] = {
    getattr(np, numpy_name).__name__: name
    for name, (numpy_name, _) in (UNARY_FUNCTIONS | BINARY_FUNCTIONS).items()
}
_NAMES.update(
    {
        "exp": "exp",
        "log": "log",
        "sqrt": "sqrt",
        "absolute": "abs",
        "negative": "negative",
        "maximum": "maximum",
        "minimum": "minimum",
        "isnan": "isnan",
        "isfinite": "isfinite",
        "isinf": "isinf",
        "matmul": "matmul",
        "invert": "bitwise_invert",
    }
)
#: ufunc methods with a typedtensor counterpart: (ufunc, method) -> call to suggest
_METHODS: dict[tuple[str, str], str] = {
    ("add", "reduce"): "tt.sum(x, axis=...)",
    ("multiply", "reduce"): "tt.prod(x, axis=...)",
    ("maximum", "reduce"): "tt.max(x, axis=...)",
    ("minimum", "reduce"): "tt.min(x, axis=...)",
    ("logical_and", "reduce"): "tt.all(x, axis=...)",
    ("logical_or", "reduce"): "tt.any(x, axis=...)",
    ("add", "accumulate"): "tt.cumsum(x, axis=...)",
    ("multiply", "accumulate"): "tt.cumprod(x, axis=...)",
}


def typedtensor_name(ufunc_name: str) -> str | None:
    """The typedtensor function computing numpy ufunc ``ufunc_name`` (``"arctan2"`` ->
    ``"atan2"``), ``None`` where typedtensor has none."""
    return _NAMES.get(ufunc_name)


def apply_ufunc(
    tensor_type: type, ufunc: np.ufunc, method: str, inputs: tuple[Any, ...], kwargs: Any
) -> Any:
    """``Tensor.__array_ufunc__``: the operator's result, or the TypeError of the policy."""
    name = ufunc.__name__
    if method != "__call__":
        hint = _METHODS.get((name, method))
        to_call = f"call {hint}" if hint else f"apply it to x.numpy() (np.{name}.{method})"
        raise TypeError(f"np.{name}.{method} does not take typedtensor Tensors; {to_call}")
    if kwargs:
        raise TypeError(
            f"np.{name} with {', '.join(f'{k}=' for k in kwargs)} does not take typedtensor "
            f"Tensors; call tt.{_NAMES.get(name, name)}(...) without them and use its result"
        )
    operator = OPERATOR_UFUNCS.get(name)
    if operator is not None and len(inputs) == 2:
        left, right = inputs
        if isinstance(left, tensor_type):
            return getattr(left, operator[0])(right)
        reflected = getattr(right, operator[1])(left)
        if reflected is NotImplemented:
            raise TypeError(
                f"np.{name} does not take {type(left).__name__} with a typedtensor Tensor"
            )
        return reflected
    found = _NAMES.get(name)
    if found is None:
        raise TypeError(
            f"typedtensor has no counterpart of np.{name}; apply it to the ndarray and wrap "
            f"the result: tt.asarray(np.{name}(x.numpy()))"
        )
    args = ", ".join("x" if isinstance(i, tensor_type) else "..." for i in inputs)
    raise TypeError(
        f"np.{name} does not take typedtensor Tensors: call tt.{found}({args}), which keeps "
        "the shape and dtype in the static type (numpy's ufuncs would make it an ndarray)"
    )
