"""In-memory Tensors in distributed's "dask" serialization family (``_dask/_serialize.py``):
the ndarray's own frames, wrapped again on arrival; dask-backed Tensors keep their pickle path.
The end-to-end path (a worker's result reaching the client) is in ``test_cluster.py``."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import typedtensor as tt
from typedtensor._tensor import Tensor

distributed_protocol = pytest.importorskip("distributed.protocol")

import typedtensor._dask.tensor  # noqa: E402  (registers the serializer)


def _roundtrip(obj: object) -> tuple[str, object]:
    header, frames = distributed_protocol.serialize(obj)
    frames = [bytes(f) for f in frames]  # as they come off the wire
    return header["serializer"], distributed_protocol.deserialize(header, frames)


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
def test_tensor_travels_as_ndarray_frames(array: np.ndarray) -> None:
    t = tt.asarray(array)
    serializer, back = _roundtrip(t)
    assert serializer == "dask"
    assert type(back) is Tensor
    result = back.numpy()  # type: ignore[attr-defined]
    assert result.dtype == array.dtype and result.shape == array.shape
    np.testing.assert_array_equal(result, array)
    assert result.flags.writeable  # a computed result can be written to, as numpy's is
    assert t.numpy() is array  # the input is untouched


def test_dask_backed_tensor_is_pickled_not_computed() -> None:
    import dask.array as da

    lazy = tt.asarray(da.arange(10, chunks=5))
    serializer, back = _roundtrip(lazy)
    assert serializer == "pickle"
    assert type(back).__name__ == "DaskTensor"
    np.testing.assert_array_equal(back.numpy(), np.arange(10))  # type: ignore[attr-defined]


def test_registered_when_typedtensor_is_imported_after_distributed() -> None:
    code = (
        "import distributed, typedtensor, numpy as np\n"
        "from distributed.protocol import serialize\n"
        "print(serialize(typedtensor.asarray(np.ones(3)))[0]['serializer'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "dask"


def test_not_registered_by_plain_import() -> None:
    code = "import sys, typedtensor\nprint('distributed' in sys.modules, 'dask' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"
