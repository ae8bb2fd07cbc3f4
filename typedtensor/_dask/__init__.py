"""dask-backed Tensors: ``tt.asarray(dask_array)``, ``tt.from_zarr(path)`` (issue #21).

Representation: a ``DaskTensor`` (``typedtensor/_dask/tensor.py``) is a runtime subclass of
``Tensor`` whose ``_data`` is a ``dask.array.Array`` instead of an ndarray. Its static type is
the plain ``Tensor[DType, *Dims]`` (``isinstance(t, tt.Tensor)`` is true), so every typed API
applies unchanged. Elementwise, broadcasting and shape operations run the in-memory code, which
validates with the shape rules and then calls numpy functions that dispatch to dask
(``__array_ufunc__``/``__array_function__``): the result is a lazy dask array, and ``wrap``
turns it into a ``DaskTensor``. Reductions go to ``typedtensor._dask.reductions.reduce_dask``
(tree reductions with typedtensor's kernels).

This package does not import dask when ``typedtensor`` is imported: ``is_dask_array`` looks in
``sys.modules`` (an object cannot be a dask array unless ``dask.array`` is already imported),
and the functions below import ``.tensor`` (which imports dask) on their first call.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._tensor import AnyTensor

__all__ = ["from_dask", "from_numpy", "from_zarr", "is_dask_array"]


def is_dask_array(x: object) -> bool:
    """Whether ``x`` is a ``dask.array.Array``, without importing dask."""
    dask_array = sys.modules.get("dask.array")
    return dask_array is not None and isinstance(x, dask_array.Array)


def from_dask(array: Any, dtype: object = None) -> AnyTensor:
    """A lazy Tensor over a ``dask.array.Array`` (no compute): ``tt.asarray(da.zeros((8, 3)))``
    -> a dask-backed (8, 3) float64 Tensor; ``dtype=`` converts lazily."""
    from .tensor import from_dask_array

    return from_dask_array(array, dtype)


def from_numpy(array: Any, chunks: Any = "auto", **kwargs: Any) -> AnyTensor:
    """A lazy Tensor over an ndarray in ``chunks`` (``dask.array.from_array``): ``(8, 3)`` in
    ``chunks=(4, 3)`` -> chunks ``((4, 4), (3,))``. ``Tensor.rechunk`` of an in-memory tensor."""
    import dask.array as da

    return from_dask(da.from_array(array, chunks=chunks, **kwargs))


def from_zarr(url: Any, component: str | None = None, **kwargs: Any) -> AnyTensor:
    """A lazy dask-backed Tensor over a zarr array on disk or in an object store, through
    ``dask.array.from_zarr`` (``chunks=``, ``storage_options=`` and the rest pass through):
    ``tt.from_zarr("frames.zarr")`` of a (10000, 64, 64) uint8 store -> a (10000, 64, 64)
    uint8 Tensor, chunked as stored. Needs ``pip install 'shapetyped[dask]'``."""
    try:
        import dask.array as da
    except ImportError as err:  # pragma: no cover - the dask extra is not installed
        raise ImportError(
            "tt.from_zarr needs dask and zarr: pip install 'shapetyped[dask]'"
        ) from err
    return from_dask(da.from_zarr(url, component=component, **kwargs))
