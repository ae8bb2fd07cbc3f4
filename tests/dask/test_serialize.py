"""Computed Tensors sent from a worker to the client as ndarray frames (``_dask/_serialize.py``):
a ``SentTensor`` on the wire, a plain ``Tensor`` on arrival, in any receiving process; every
other Tensor keeps the pickle path. The worker-process path end to end is in
``test_cluster.py`` (the ``cluster`` tier); an in-process cluster is here."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor._tensor import Tensor

distributed_protocol = pytest.importorskip("distributed.protocol")

from typedtensor._dask._serialize import SentTensor, for_the_client  # noqa: E402


def _sent(array: np.ndarray[Any, Any]) -> SentTensor:
    sent: SentTensor = object.__new__(SentTensor)
    sent._data = array
    return sent


def _wire(obj: object) -> tuple[dict[str, Any], list[bytes]]:
    header, frames = distributed_protocol.serialize(obj)
    return header, [bytes(f) for f in frames]  # as they come off the wire


@pytest.mark.parametrize(
    "array",
    [
        np.arange(12, dtype=np.float32).reshape(3, 4),
        np.arange(12, dtype=np.int64).reshape(3, 4).T,  # not contiguous
        np.arange(24, dtype=np.float64).reshape(2, 3, 4)[:, ::2, 1:],  # strided view
        np.zeros((0, 5), dtype=np.uint8),
        np.array(3.5, dtype=np.float16),  # rank 0
        np.array([True, False]),
        np.array([1 + 2j, 3 - 4j], dtype=np.complex64),
    ],
    ids=["float32", "transposed", "strided", "empty", "rank0", "bool", "complex64"],
)
def test_a_sent_tensor_travels_as_ndarray_frames_and_arrives_as_a_tensor(
    array: np.ndarray[Any, Any],
) -> None:
    header, frames = _wire(_sent(array))
    assert header["serializer"] == "dask"
    back = distributed_protocol.deserialize(header, frames)
    assert type(back) is Tensor
    result = back.numpy()
    assert result.dtype == array.dtype and result.shape == array.shape
    np.testing.assert_array_equal(result, array)
    assert result.flags.writeable  # a computed result can be written to, as numpy's is


def test_other_tensors_keep_the_pickle_path() -> None:
    import dask.array as da

    plain = tt.asarray(np.arange(6.0))
    header, frames = _wire(plain)
    assert header["serializer"] == "pickle"
    np.testing.assert_array_equal(
        distributed_protocol.deserialize(header, frames).numpy(), plain.numpy()
    )
    lazy = tt.asarray(da.arange(10, chunks=5))  # the graph travels, never computed to send
    header, frames = _wire(lazy)
    assert header["serializer"] == "pickle"
    back = distributed_protocol.deserialize(header, frames)
    assert type(back).__name__ == "DaskTensor"
    np.testing.assert_array_equal(back.numpy(), np.arange(10))


def test_outside_a_worker_the_result_is_returned_as_it_is() -> None:
    t = tt.asarray(np.ones(3))
    assert for_the_client(t) is t


def test_a_process_that_never_touched_dask_tensors_decodes_a_sent_tensor(tmp_path: Path) -> None:
    message = tmp_path / "message.pickle"
    message.write_bytes(pickle.dumps(_wire(_sent(np.arange(5, dtype=np.int32) * 3))))
    code = (
        "import pickle, sys, typedtensor, distributed\n"
        "from distributed.protocol import deserialize\n"
        "header, frames = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "t = deserialize(header, frames)\n"
        "print(type(t).__name__, t.numpy().dtype, t.numpy().tolist())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(message)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "Tensor int32 [0, 3, 6, 9, 12]"


def test_plain_import_imports_neither_dask_nor_distributed() -> None:
    code = "import sys, typedtensor\nprint('distributed' in sys.modules, 'dask' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


def test_an_in_process_cluster_hands_over_a_plain_tensor() -> None:
    import dask.array as da
    from distributed import Client, LocalCluster

    x = da.from_array(np.arange(24.0).reshape(6, 4), chunks=(2, 4))
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        got = client.compute(tt.asarray(x).sum(axis=0)).result()
    assert type(got) is Tensor
    np.testing.assert_array_equal(got.numpy(), np.arange(24.0).reshape(6, 4).sum(axis=0))
