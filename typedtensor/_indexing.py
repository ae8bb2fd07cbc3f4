"""``x[index]`` and ``x[index] = value`` (numpy's basic and advanced indexing).

numpy does the work and the checking; where numpy rejects an index, the shape rules
(``rules.index_shape``) say why in typedtensor's words (an ``IndexError`` as numpy's); a value
that does not broadcast to the indexed shape is a ``tt.ShapeError`` (a ``ValueError``).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _rules as rules
from ._tensor import AnyTensor, Tensor, _raise_rule_error, wrap

__all__ = ["getitem", "index_items", "setitem"]


def _raw(item: object) -> object:
    """A Tensor inside an index becomes its ndarray (numpy indexes with it; a dask-backed
    Tensor its dask array, not computed)."""
    return item._data if isinstance(item, Tensor) else item


#: index items numpy takes as they are (the common case skips the rewrite below)
_PLAIN = frozenset({int, slice, type(None), type(Ellipsis)})


def _raw_index(index: object) -> Any:
    if type(index) is tuple:
        for i in index:  # a loop, not all(...): ~0.2 us less on x[:, 0]
            if type(i) not in _PLAIN:
                return tuple(_raw(i) for i in index)
        return index
    return _raw(index)


def _item(item: object) -> object:
    """One index item in the rules' terms."""
    if item is None or item is Ellipsis or isinstance(item, slice):
        return item
    if isinstance(item, (bool, np.bool_)):
        return rules.ArrayIndex((), boolean=True)
    if isinstance(item, (int, np.integer)):
        return operator.index(item)
    if isinstance(item, (np.ndarray, list, Tensor)):
        arr: Any = np.asarray(item) if isinstance(item, list) else _raw(item)
        return rules.ArrayIndex(tuple(arr.shape), boolean=arr.dtype == np.bool_)
    return item  # the rule reports it


def index_items(index: object) -> tuple[object, ...]:
    """``index`` as a tuple of the rules' items (ints, slices, None, ..., ``ArrayIndex``)."""
    items = index if isinstance(index, tuple) else (index,)
    return tuple(_item(i) for i in items)


def _explain(shape: tuple[int, ...], index: object) -> None:
    """Raise numpy's exception class with the rules' message if they reject ``index``."""
    try:
        rules.index_shape(shape, index_items(index), make=int, unknown=None)
    except rules.RuleError as err:
        _raise_rule_error(err)


def getitem(x: AnyTensor, index: object) -> AnyTensor:
    """``x[index]`` as a Tensor (an int index on a rank-1 tensor gives a rank-0 Tensor):
    ``(4, 5, 6)[0, 1:, None] -> (4, 1, 6)``."""
    data = x._data  # a dask array for a dask-backed Tensor: dask indexes it lazily
    try:
        result = data[_raw_index(index)]
    except IndexError:
        _explain(data.shape, index)
        raise
    return wrap(result)  # an element (a numpy scalar) becomes a rank-0 Tensor


def setitem(x: AnyTensor, index: object, value: object) -> None:
    """``x[index] = value``, ``value`` (Tensor, ndarray or scalar) broadcast to the indexed
    shape: ``(4, 3)[1:] = (1, 3)`` writes rows 1..3."""
    data = x._data  # a dask array for a dask-backed Tensor: dask assigns lazily
    raw = _raw_index(index)
    v: Any = value._data if isinstance(value, Tensor) else value
    try:
        data[raw] = v
    except IndexError:
        _explain(data.shape, index)
        raise
    except ValueError:
        if isinstance(data, np.ndarray) and not data.flags.writeable:
            raise
        try:
            target = data[raw].shape
            rules.assign_check(target, np.shape(v))
        except rules.RuleError as err:
            _raise_rule_error(err)
        raise
