"""The protocol methods of ``Tensor`` that need no other typedtensor module: the Array API
standard's attributes (``__array_namespace__``, ``device``, ``to_device``, ``__dlpack__``),
Python's conversions (``__float__``, ``__index__``, ``__len__``...) and the in-place operators
(``_inplace``). ``Tensor`` (``_tensor.py``) inherits them; this module imports nothing that
imports ``_tensor``, so the class has no import circle (docs/architecture.md, "Modules")."""

from __future__ import annotations

from operator import index as _index
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

from ._inplace import inplace_operator as _inplace_operator

__all__ = ["ProtocolMethods", "TensorBase"]


class TensorBase:
    """The non-generic base of ``Tensor``, used in operand annotations (see ``Operand``)."""

    __slots__ = ()


class ProtocolMethods(TensorBase):
    """The Array API attributes, Python's conversions and the in-place operators of ``Tensor``."""

    __slots__ = ()
    _data: npt.NDArray[Any]

    # ------------------------------------------------- the Array API standard's attributes
    def __array_namespace__(self, *, api_version: str | None = None) -> Any:
        """The Array API namespace of Tensors: the ``typedtensor`` module (standard 2024.12)."""
        if api_version not in (None, "2024.12", "2023.12", "2022.12", "2021.12"):
            raise ValueError(f"typedtensor implements the Array API 2024.12, not {api_version!r}")
        import typedtensor

        return typedtensor

    @property
    def device(self) -> str:
        """The device holding the elements: always ``"cpu"``."""
        return "cpu"

    def to_device(self, device: Any, *, stream: Any = None) -> Self:
        """``self`` for the ``"cpu"`` device (the only one); other devices raise."""
        if device != "cpu":
            raise ValueError(f"typedtensor tensors live on the 'cpu' device, got {device!r}")
        return self

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: Any = None,
        copy: bool | None = None,
    ) -> Any:
        """The DLPack capsule of the elements (numpy's), for ``from_dlpack`` consumers."""
        return self._data.__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
        )

    def __dlpack_device__(self) -> tuple[Any, int]:
        """The DLPack device: CPU."""
        return self._data.__dlpack_device__()

    # ------------------------------------------------------------ Python's conversions
    def __index__(self) -> int:
        return _index(self._data)

    def __complex__(self) -> complex:
        return complex(self._data)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        if dtype is None and not copy:
            return self._data
        return np.array(self._data, dtype=dtype, copy=True if copy else None)

    def item(self) -> Any:
        """The single element as a Python scalar (``x.sum().item()``)."""
        return self._data.item()

    def __float__(self) -> float:
        return float(self._data)

    def __int__(self) -> int:
        return int(self._data)

    def __bool__(self) -> bool:
        return bool(self._data)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a rank-0 tensor")
        return int(self._data.shape[0])

    # ------------------------------- in-place: x's buffer, shape and dtype kept (_inplace)
    __iadd__ = _inplace_operator(np.add, "+=", TensorBase)
    __isub__ = _inplace_operator(np.subtract, "-=", TensorBase)
    __imul__ = _inplace_operator(np.multiply, "*=", TensorBase)
    __itruediv__ = _inplace_operator(np.true_divide, "/=", TensorBase)
    __ifloordiv__ = _inplace_operator(np.floor_divide, "//=", TensorBase)
    __imod__ = _inplace_operator(np.remainder, "%=", TensorBase)
    __ipow__ = _inplace_operator(np.power, "**=", TensorBase)
    __iand__ = _inplace_operator(np.bitwise_and, "&=", TensorBase)
    __ior__ = _inplace_operator(np.bitwise_or, "|=", TensorBase)
    __ixor__ = _inplace_operator(np.bitwise_xor, "^=", TensorBase)
    __ilshift__ = _inplace_operator(np.left_shift, "<<=", TensorBase)
    __irshift__ = _inplace_operator(np.right_shift, ">>=", TensorBase)
    __imatmul__ = _inplace_operator(np.matmul, "@=", TensorBase)
