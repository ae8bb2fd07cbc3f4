"""typedtensor's mypy plugin: ``plugins = ["typedtensor_mypy"]`` under ``[tool.mypy]``.

Computes exact ``Tensor[DType, *Dims]`` result types for reductions with literal ``axis`` /
``keepdims`` (``Tensor[float32, L[8], L[10]]``.sum(axis=-1) is ``Tensor[float32, L[8]]``),
constructors with literal shapes and broadcasting elementwise ops, and reports bad axes
(``typedtensor-axis``) and incompatible shapes (``typedtensor-shape``). Every shape and dtype
answer comes from ``typedtensor._rules``, loaded without importing numpy.
"""

from __future__ import annotations

from mypy.plugin import Plugin

from ._plugin import VERSION, TypedTensorPlugin

__all__ = ["TypedTensorPlugin", "__version__", "plugin"]

__version__ = VERSION


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: ``plugins = ["typedtensor_mypy"]``."""
    return TypedTensorPlugin
