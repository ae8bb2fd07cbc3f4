"""The in-place operators (``x += y``, ``x @= y``...) with the Array API standard's semantics:
they write the result into ``x``'s own buffer, which keeps ``x``'s shape and dtype; an operand
that would change either is an error (numpy would broadcast ``x`` away or cast silently), and
a read-only ``x`` raises numpy's ValueError. A dask-backed ``x`` (immutable, lazy) falls back to
``x = x + y``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import ShapeError

__all__ = ["inplace_operator"]

#: the operands passed to numpy as they are (a Tensor gives its ndarray)
_SCALAR_OR_ARRAY = (bool, int, float, complex, np.bool_, np.number, np.ndarray)


def inplace_operator(fn: np.ufunc, symbol: str, tensor_base: type) -> Any:
    """The method ``x.__i<op>__(y)`` for the ufunc ``fn`` (``np.add`` for ``+=``): ``fn(x, y,
    out=x, casting="safe")`` (an operand that promotes ``x``'s dtype is refused before anything
    is written), after checking that ``y`` broadcasts to ``x``'s shape; ``tensor_base`` is the
    class whose instances give their ``_data``."""

    def operator(self: Any, other: object) -> Any:
        data = self._data
        if type(data) is not np.ndarray:
            return NotImplemented  # dask: Python falls back to x = x <op> y
        if isinstance(other, tensor_base):
            other_data: Any = other._data  # type: ignore[attr-defined]
        elif isinstance(other, _SCALAR_OR_ARRAY):
            other_data = other
        else:
            return NotImplemented
        if not data.flags.writeable:
            raise ValueError(
                f"x {symbol} y writes into x, which is read-only (a read-only array or view); "
                f"copy it first (x = tt.asarray(x, copy=True)) or write x = x {symbol[:-1]} y"
            )
        other_shape = getattr(other_data, "shape", ())
        if fn is not np.matmul and other_shape != data.shape:
            _check_broadcasts_to(data.shape, other_shape, symbol)
        try:
            fn(data, other_data, out=data, casting="safe")
        except TypeError:  # numpy's loop would cast: say which dtype x would get
            _raise_dtype_change(fn, data, other_data, symbol)
            raise
        except ValueError:
            if fn is np.matmul:
                _raise_matmul_shape(data, other_data)
            raise
        return self

    operator.__name__ = f"__i{fn.__name__}__"
    operator.__doc__ = f"``x {symbol} y``: the result written into ``x`` (shape and dtype kept)."
    return operator


def _check_broadcasts_to(shape: tuple[int, ...], other: tuple[int, ...], symbol: str) -> None:
    try:
        result = np.broadcast_shapes(shape, other)
    except ValueError:
        result = None
    if result != shape:
        raise ShapeError(
            f"x {symbol} y: y of shape {other} does not broadcast to x's shape {shape} (an "
            f"in-place operator keeps x's shape); write x = x {symbol[:-1]} y for a new tensor"
        )


def _raise_dtype_change(fn: np.ufunc, data: Any, other: Any, symbol: str) -> None:
    """The TypeError for an operand that promotes ``x``'s dtype; numpy's own error (``bool -
    bool``) is re-raised by the caller when the plain operation fails too."""
    weak = type(other) if type(other) in (int, float, complex) else np.asarray(other).dtype
    try:
        new = fn.resolve_dtypes((data.dtype, weak, None))[-1]
    except (TypeError, ValueError):
        return
    if new == data.dtype:
        return
    raise TypeError(
        f"x {symbol} y would change x's dtype from {data.dtype.name} to {new.name} (the "
        f"operands promote to {new.name}); an in-place operator keeps x's dtype: give y "
        f"x's dtype {data.dtype.name} (tt.astype) or write x = x {symbol[:-1]} y"
    ) from None


def _raise_matmul_shape(data: Any, other: Any) -> None:
    raise ShapeError(
        f"x @= y: x of shape {data.shape} times y of shape {np.shape(other)} is not of x's "
        "shape (an in-place operator keeps x's shape: y must be (..., n, n) for x (..., m, n)); "
        "write x = x @ y for a new tensor"
    ) from None
