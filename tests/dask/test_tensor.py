"""The dask-backed Tensor itself: ``tt.asarray(dask array)`` and ``tt.from_zarr`` are lazy, the
dask collection protocol (``dask.compute``/``persist``/``optimize``, tokenize, pickle),
``compute``/``persist``/``numpy``/``chunks``/``rechunk``, what computes and what does not, and
``import typedtensor`` without dask."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any, TypeVar
from typing import Literal as L

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

from dask.base import tokenize  # noqa: E402

import typedtensor as tt  # noqa: E402
from typedtensor._dask.tensor import DaskTensor  # noqa: E402

from ._lazy import Counted, assert_same, data, exploding  # noqa: E402


def test_import_typedtensor_does_not_import_dask() -> None:
    code = (
        "import sys, typedtensor as tt\n"
        "x = tt.asarray([[1.0, 2.0]])\n"
        "(x + 1).sum(axis=0); tt.exp(x).T.reshape(2, 1); x[0]; tt.cumsum(x, 1); x.chunks\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('dask', 'distributed', 'zarr'))\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_asarray_is_lazy_and_typed() -> None:
    a = data()
    counted = Counted(a, 3)
    t = counted.tensor
    assert isinstance(t, DaskTensor) and isinstance(t, tt.Tensor)
    assert (t.shape, t.dtype, t.ndim, t.size, len(t)) == ((7, 6), tt.float32, 2, 42, 7)
    assert tt.asarray(t) is not t and isinstance(tt.asarray(t), DaskTensor)
    assert tt.asarray(t, dtype=tt.float64).dtype is tt.float64
    checked = tt.tensor(t, shape=(7, None), dtype=tt.float32)
    assert isinstance(checked, DaskTensor)
    with pytest.raises(tt.ShapeError):
        tt.tensor(t, shape=(6, None))
    assert counted.calls == []
    np.testing.assert_array_equal(checked.numpy(), a)


def test_asarray_rejects_unsupported_dtypes_lazily() -> None:
    with pytest.raises(TypeError):
        tt.asarray(da.zeros(3, dtype="datetime64[s]", chunks=2))


def test_repr_does_not_compute() -> None:
    text = repr(exploding((7, 6), chunks=(3, 6)))
    assert text == "Tensor[float32, 7, 6](dask, chunksize=(3, 6), npartitions=3)"


def test_compute_gives_an_in_memory_tensor() -> None:
    a = data()
    counted = Counted(a, 3)
    result = counted.tensor.compute()
    assert type(result) is tt.Tensor and type(result.numpy()) is np.ndarray
    np.testing.assert_array_equal(result.numpy(), a)
    rank0 = tt.asarray(da.from_array(a, chunks=3)).sum()
    assert type(rank0.compute()) is tt.Tensor and rank0.compute().shape == ()


def test_numpy_item_float_bool_compute() -> None:
    a = data()
    t = tt.asarray(da.from_array(a, chunks=3))
    assert type(t.numpy()) is np.ndarray
    np.testing.assert_array_equal(np.asarray(t), a)
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError, match="without computing a copy"):
        np.asarray(t, copy=False)
    total = t.sum(dtype=tt.float64)
    assert total.item() == pytest.approx(float(a.sum(dtype=np.float64)))
    assert float(total) == pytest.approx(total.item())
    assert int(tt.asarray(da.ones((), dtype="int32", chunks=()))) == 1
    assert bool(t[0, 0] == a[0, 0])


@pytest.mark.parametrize("convert", [float, int, bool, lambda t: t.item()])
@pytest.mark.parametrize("shape", [(2, 3), (0,)])
def test_scalar_conversion_errors_without_compute(convert: Any, shape: tuple[int, ...]) -> None:
    with pytest.raises(Exception) as eager:
        convert(tt.zeros(shape, tt.float32))
    with pytest.raises(type(eager.value)) as lazy:
        convert(exploding(shape))
    assert str(lazy.value) == str(eager.value)


def test_dask_compute_and_persist() -> None:
    a = data()
    counted = Counted(a, 3)
    t = counted.tensor
    assert dask.is_dask_collection(t)
    (u, v) = dask.compute(t, t * 2)
    assert type(u) is tt.Tensor and type(v) is tt.Tensor
    np.testing.assert_array_equal(v.numpy(), a * 2)
    (p,) = dask.persist(t)
    assert isinstance(p, DaskTensor)
    computed = len(counted.calls)
    np.testing.assert_array_equal((p + 1).numpy(), a + 1)
    np.testing.assert_array_equal(t.persist().numpy(), a)
    assert len(counted.calls) == computed + 6  # p reused its chunks; t.persist() ran 6 again
    (o,) = dask.optimize(t + 1)
    assert isinstance(o, DaskTensor)
    np.testing.assert_array_equal(o.numpy(), a + 1)


def test_compute_passes_scheduler_options() -> None:
    t = tt.asarray(da.from_array(data(), chunks=3))
    np.testing.assert_array_equal(t.compute(scheduler="threads").numpy(), data())


def test_chunks_and_rechunk() -> None:
    a = data()
    t = tt.asarray(da.from_array(a, chunks=((3, 4), (2, 4))))
    assert t.chunks == ((3, 4), (2, 4))
    r = t.rechunk((2, 6))
    assert isinstance(r, DaskTensor) and r.chunks == ((2, 2, 2, 1), (6,))
    np.testing.assert_array_equal(r.numpy(), a)
    in_memory = tt.asarray(a)
    assert in_memory.chunks == ((7,), (6,))
    assert in_memory.compute() is in_memory and in_memory.persist() is in_memory
    lazy = in_memory.rechunk((4, 3))
    assert isinstance(lazy, DaskTensor) and lazy.chunks == ((4, 3), (3, 3))
    assert_same(lazy.sum(axis=0), in_memory.sum(axis=0))


def test_dask_functions_take_dask_tensors_lazily() -> None:
    """dask's functions that convert their operands with ``da.asarray`` (dask's ufuncs such
    as ``da.exp`` reject a Tensor, as numpy's do: ``__array_ufunc__ = None``)."""
    a = data()
    counted = Counted(a, 3)
    lazy = da.concatenate([counted.tensor, counted.tensor])
    assert isinstance(lazy, da.Array) and counted.calls == []
    assert da.asarray(counted.tensor) is counted.tensor.to_dask_array()  # type: ignore[attr-defined]
    np.testing.assert_array_equal(lazy.compute(), np.concatenate([a, a]))


def test_tokenize_is_stable_and_distinct() -> None:
    arr = da.from_array(data(), chunks=3)
    t = tt.asarray(arr)
    assert tokenize(t) == tokenize(t) == tokenize(tt.asarray(arr))
    assert tokenize(t) != tokenize(t + 1)
    assert tokenize(t + 1) == tokenize(t + 1)  # the same graph, the same name
    assert tokenize(t) != tokenize(arr)


def test_pickle_round_trip() -> None:
    t = tt.asarray(da.from_array(data(), chunks=3)).var(axis=0) + 1
    back = pickle.loads(pickle.dumps(t))
    assert isinstance(back, DaskTensor) and back.shape == t.shape
    np.testing.assert_allclose(back.numpy(), t.numpy())


def test_from_zarr_round_trip(tmp_path: Path) -> None:
    zarr = pytest.importorskip("zarr")
    frames = data((10, 4, 3), np.uint8)
    store = zarr.create_array(store=str(tmp_path / "frames.zarr"), shape=(10, 4, 3),
                              chunks=(4, 4, 3), dtype="uint8")  # fmt: skip
    store[:] = frames
    t = tt.from_zarr(str(tmp_path / "frames.zarr"))
    assert isinstance(t, DaskTensor)
    assert (t.shape, t.dtype, t.chunks) == ((10, 4, 3), tt.uint8, ((4, 4, 2), (4,), (3,)))
    np.testing.assert_array_equal(t.numpy(), frames)
    assert_same(t.mean(axis=0), tt.asarray(frames).mean(axis=0))

    group = zarr.open_group(str(tmp_path / "run.zarr"), mode="w")
    group.create_array("temps", shape=(5,), chunks=(2,), dtype="float32")[:] = np.arange(5)
    temps = tt.from_zarr(str(tmp_path / "run.zarr"), component="temps")
    assert temps.chunks == ((2, 2, 1),)
    np.testing.assert_array_equal(temps.numpy(), np.arange(5, dtype=np.float32))


Rows = TypeVar("Rows")


@tt.shapecheck
def _center(x: tt.Tensor[tt.float32, Rows, L[6]]) -> tt.Tensor[tt.float32, Rows, L[6]]:
    return x - x.mean(axis=0)


def test_shapecheck_reads_shapes_without_compute() -> None:
    center = _center
    assert isinstance(center(exploding((7, 6))), DaskTensor)
    with pytest.raises(tt.ShapeCheckError, match="got Tensor\\[float32, 7, 5\\]"):
        center(exploding((7, 5)))


def test_distributed_client_computes_and_persists_tensors() -> None:
    distributed = pytest.importorskip("distributed")
    a = data()
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:  # fmt: skip
        t = tt.asarray(da.from_array(a, chunks=3))
        kept = client.persist(t)
        assert isinstance(kept, DaskTensor)
        result = client.compute(kept.std(axis=0)).result()
        assert type(result) is tt.Tensor
        assert_same(kept.std(axis=0), tt.asarray(a).std(axis=0))
        np.testing.assert_allclose(result.numpy(), a.std(axis=0), rtol=1e-6)
