"""The methods of ``Tensor`` that call the function modules: shape manipulation (``T``,
``mT``, ``reshape``...), indexing, ``@`` and the reduction family (``_tensor_reductions``).

``_tensor.py`` defines the class and imports none of the modules that construct Tensors
(``manipulation``, ``_indexing``, ``linalg``, the reductions): they import it. This module,
imported by ``typedtensor/__init__.py`` before anything else, imports both sides and installs
the methods on the class, so every import goes one way (docs/architecture.md, "Modules").
The static types of these methods are the generated stubs' (``_tensor.pyi``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from . import manipulation as _manipulation
from ._indexing import getitem as _getitem
from ._indexing import setitem as _setitem
from ._tensor import AnyTensor, Tensor
from ._tensor_reductions import ReductionMethods
from .linalg import matmul as _matmul

__all__ = ["install"]

_object_new = object.__new__
#: ``x.reshape``/``x.transpose`` arguments numpy checks as the rules do (an ndarray shape, say,
#: numpy takes and the rules refuse: those calls take the rules' path)
_SHAPE_OR_AXES_ARG = (int, tuple, list)
#: index items numpy takes as they are (``_indexing._PLAIN``)
_PLAIN_INDEX = frozenset({int, slice, type(None), type(Ellipsis)})


# -------------------------------------------------------------- shape manipulation
def _transposed(self: AnyTensor) -> AnyTensor:
    """All dims reversed: ``(8, 3, 4) -> (4, 3, 8)`` (see ``tt.transpose``)."""
    a = self._data
    if type(a) is np.ndarray:  # nothing to validate: numpy's view, wrapped
        t: AnyTensor = _object_new(Tensor)
        t._data = a.T
        return t
    return _manipulation.transpose(self)


def _matrix_transposed(self: AnyTensor) -> AnyTensor:
    """The last two dims swapped: ``(8, 3, 4) -> (8, 4, 3)``; needs rank >= 2."""
    return _manipulation.matrix_transpose(self)


def transpose(self: AnyTensor, *axes: Any) -> AnyTensor:
    """``x.transpose()`` reverses the dims; ``x.transpose(1, 0)`` / ``((1, 0))`` permutes."""
    a = self._data
    if type(a) is np.ndarray and axes and type(axes[0]) in _SHAPE_OR_AXES_ARG:
        try:  # numpy refuses what the rules refuse (bools, floats, non-permutations)
            t: AnyTensor = _object_new(Tensor)
            t._data = a.transpose(*axes)
            return t
        except (TypeError, ValueError):
            pass  # the rules say why, below
    return _manipulation.transpose_method(self, axes)


def swapaxes(self: AnyTensor, axis1: int, axis2: int) -> AnyTensor:
    """Swap two dims: ``(8, 3, 4).swapaxes(0, -1) -> (4, 3, 8)``."""
    return _manipulation.swapaxes(self, axis1, axis2)


def reshape(self: AnyTensor, *shape: Any) -> AnyTensor:
    """``x.reshape((8, -1))`` or ``x.reshape(8, -1)``: see ``tt.reshape``."""
    a = self._data
    if type(a) is np.ndarray and shape and type(shape[0]) in _SHAPE_OR_AXES_ARG:
        try:  # numpy refuses what the rules refuse (bools, floats, two -1s, the size)
            t: AnyTensor = _object_new(Tensor)
            t._data = a.reshape(*shape)
            return t
        except (TypeError, ValueError):
            pass  # the rules say why, below
    return _manipulation.reshape_method(self, shape)


def squeeze(self: AnyTensor, axis: int | tuple[int, ...] | None = None) -> AnyTensor:
    """Remove size-1 dims (all, or those at ``axis``): see ``tt.squeeze``."""
    return _manipulation.squeeze(self, axis)


# ------------------------------------------------------------ matmul and indexing
def __matmul__(self: AnyTensor, other: object) -> AnyTensor:  # noqa: N807
    """``self @ other``: see ``tt.matmul``."""
    return _matmul(self, other)


def __rmatmul__(self: AnyTensor, other: object) -> AnyTensor:  # noqa: N807
    return _matmul(other, self)


def __getitem__(self: AnyTensor, index: object) -> AnyTensor:  # noqa: N807
    """``x[0, 1:, None]``: numpy's indexing, always a Tensor (rank 0 for a full int index)."""
    a = self._data
    if type(a) is np.ndarray and (type(index) is tuple or type(index) in _PLAIN_INDEX):
        try:  # numpy's index as it is (a Tensor item: numpy reads its ndarray, as _getitem)
            result = a[cast(Any, index)]
        except (IndexError, TypeError, ValueError):
            pass  # _getitem: its own call, the rules' explanation for an IndexError
        else:
            if type(result) is np.ndarray:  # an element: wrap makes it rank 0
                t: AnyTensor = _object_new(Tensor)
                t._data = result
                return t
    return _getitem(self, index)


def __setitem__(self: AnyTensor, index: object, value: object) -> None:  # noqa: N807
    """``x[1:] = value``: ``value`` must broadcast to the indexed shape."""
    _setitem(self, index, value)


def _method(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    fn.__name__ = name
    fn.__qualname__ = f"Tensor.{name}"
    return fn


#: the methods defined here, by their name on ``Tensor``
METHODS: dict[str, object] = {
    "T": property(_method("T", _transposed)),
    "mT": property(_method("mT", _matrix_transposed)),
    **{
        fn.__name__: _method(fn.__name__, fn)
        for fn in (
            transpose,
            swapaxes,
            reshape,
            squeeze,
            __matmul__,
            __rmatmul__,
            __getitem__,
            __setitem__,
        )
    },
}
#: class attributes that are not methods (a class's own bookkeeping: an empty class's
#: ``__dict__``, ``__weakref__``..., and what a class statement adds, by Python version)
_NOT_METHODS = frozenset(vars(type("_Empty", (), {}))) | {
    "__slots__",
    "__annotations__",
    "__firstlineno__",
    "__static_attributes__",
}


def install(cls: type, *families: type, **methods: object) -> None:
    """Set each family class's members (its bases' too, a subclass's winning) and ``methods``
    on ``cls``, which must not define any of them already (a name defined twice is an error,
    not a silent override)."""
    members = {
        name: value
        for family in families
        for klass in reversed(family.__mro__[:-1])  # object's members are not a family's
        for name, value in vars(klass).items()
        if name not in _NOT_METHODS
    }
    members.update(methods)
    clash = sorted(name for name in members if name in vars(cls))
    if clash:
        raise TypeError(f"{cls.__name__} already defines {', '.join(clash)}")
    for name, value in members.items():
        setattr(cls, name, value)


install(Tensor, ReductionMethods, **METHODS)
