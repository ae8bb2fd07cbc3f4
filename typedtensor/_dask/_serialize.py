"""In-memory Tensors sent between dask.distributed processes as their ndarray's frames.

``client.compute(t)`` of a dask-backed Tensor runs the finalize step of
``__dask_postcompute__`` on a worker, which builds the in-memory Tensor that is then sent to the
client. Pickled (distributed's fallback for a type it does not know), the ndarray inside took
~10 ms more to arrive than the same ndarray sent by distributed's numpy serializer (a 24 MiB
result: 18 ms against 8 ms from a finished future; ``x.sum(axis=1)`` over 384 MiB on a 2-worker
LocalCluster 88 ms against dask.array's 81 ms, 74 ms once registered; ``bench_dask.py``). So a
Tensor travels as its ndarray, in distributed's own ndarray format, and is wrapped again on
arrival: the "dask" serialization family, registered for ``Tensor`` itself (a dask-backed
``DaskTensor`` keeps its pickle path, which sends the graph, not data).

Both sides must know the format: ``register()`` runs when ``typedtensor._dask.tensor`` is
imported (every process that builds or runs typedtensor's dask graphs: the client, and each
worker as it unpickles a task of ours) and when ``typedtensor`` is imported after
``distributed``. A process with neither sends Tensors pickled, as before. The one case left
out: a second client of the same cluster that imported ``typedtensor`` before ``distributed``
and never built a dask-backed Tensor, receiving an in-memory Tensor from a worker that has
registered, cannot decode it (distributed raises a ``TypeError`` naming ``Tensor``);
importing ``typedtensor._dask.tensor`` there registers it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["register"]

_registered = False


def register() -> None:
    """Register the Tensor serializer with distributed, if it is installed (idempotent)."""
    global _registered
    if _registered:
        return
    try:
        from distributed.protocol.numpy import (
            deserialize_numpy_ndarray,
            serialize_numpy_ndarray,
        )
        from distributed.protocol.serialize import dask_deserialize, dask_serialize
    except ImportError:  # the dask extra without distributed: nothing to register
        return

    from .._tensor import Tensor, wrap

    def _serialize_tensor(t: Tensor[Any]) -> tuple[dict[str, Any], list[Any]]:
        if type(t) is not Tensor:  # DaskTensor: pickled (the graph travels, not data)
            raise NotImplementedError
        return serialize_numpy_ndarray(t.numpy())  # type: ignore[no-any-return]

    def _deserialize_tensor(header: dict[str, Any], frames: list[Any]) -> Tensor[Any]:
        return wrap(deserialize_numpy_ndarray(header, frames))

    dask_serialize.register(Tensor)(_serialize_tensor)
    dask_deserialize.register(Tensor)(_deserialize_tensor)
    _registered = True
