"""The standard's call forms that numpy-style typedtensor lacked: ``arange(start, stop, step)``,
``device=`` on the creation functions, ``copy=`` on ``asarray``/``astype``/``reshape``, the
named results (``eigh(x).eigenvalues``), ``__dlpack__``'s keywords and the inspection dtypes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import typedtensor as tt


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((5,), {}),
        ((0,), {}),
        ((1, 7), {}),
        ((1, 7, 2), {}),
        ((7, 1, -2), {}),
        ((7, 1), {}),
        ((0.0, 1.0, 0.25), {}),
        ((0, 1, 0.3), {}),
        ((-3.5,), {}),
        ((2, 11, 3), {"dtype": tt.int8}),
        ((4,), {"dtype": tt.float32}),
        ((1, 2, 0.5), {"dtype": tt.float32}),
    ],
)
def test_arange_is_numpy_arange(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    np_kwargs = {k: v.numpy_dtype for k, v in kwargs.items()}
    expected = np.arange(*args, **np_kwargs)
    got = tt.arange(*args, **kwargs)
    assert got.numpy().dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


def test_arange_length_form_and_its_errors() -> None:
    got = tt.arange(5, tt.float32)
    assert got.dtype is tt.float32 and got.numpy().tolist() == [0, 1, 2, 3, 4]
    assert tt.arange(3, np.int16).numpy().dtype == np.int16
    with pytest.raises(TypeError, match="takes no step or dtype="):
        tt.arange(5, tt.float32, 2)
    with pytest.raises(TypeError, match="takes no step or dtype="):
        tt.arange(5, tt.float32, dtype=tt.int8)
    with pytest.raises(ZeroDivisionError):  # numpy's
        tt.arange(0, 5, 0)
    with pytest.raises(ValueError, match="'cpu' device"):
        tt.arange(5, device="gpu")


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "full", "asarray", "arange"])
def test_creation_takes_the_cpu_device_only(fn: str) -> None:
    args: tuple[Any, ...] = {"full": ((2,), 1.0), "asarray": ([1, 2],), "arange": (2,)}.get(
        fn, ((2,),)
    )
    assert getattr(tt, fn)(*args, device="cpu").shape == (2,)
    assert getattr(tt, fn)(*args, device=None).shape == (2,)
    with pytest.raises(ValueError, match="'cpu' device, got device='cuda'"):
        getattr(tt, fn)(*args, device="cuda")


def test_asarray_copy() -> None:
    a = np.arange(6.0).reshape(2, 3)
    before = a.copy()
    assert np.shares_memory(tt.asarray(a).numpy(), a)
    assert np.shares_memory(tt.asarray(a, copy=False).numpy(), a)
    assert np.shares_memory(tt.asarray(tt.asarray(a), copy=False).numpy(), a)
    copied = tt.asarray(a, copy=True)
    assert not np.shares_memory(copied.numpy(), a)
    copied[0, 0] = 100.0
    np.testing.assert_array_equal(a, before)  # the input is never modified
    from_tensor = tt.asarray(tt.asarray(a), copy=True)
    assert not np.shares_memory(from_tensor.numpy(), a)
    with pytest.raises(ValueError, match="copy=False"):
        tt.asarray(a, dtype=tt.float32, copy=False)  # a conversion needs a copy
    with pytest.raises(ValueError, match="copy=False"):
        tt.asarray([1.0, 2.0], copy=False)  # a list needs a copy
    assert tt.asarray(a, dtype=tt.float32, copy=None).dtype is tt.float32


def test_astype_copy() -> None:
    x = tt.asarray(np.arange(4, dtype=np.int32))
    assert tt.astype(x, tt.int32, copy=False) is x
    assert x.astype(tt.int32, copy=False) is x
    same = tt.astype(x, tt.int32)  # copy=True by default: a new buffer
    assert same is not x and not np.shares_memory(same.numpy(), x.numpy())
    converted = tt.astype(x, tt.float64, copy=False)  # a conversion copies anyway
    assert converted.dtype is tt.float64 and converted.numpy().tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="'cpu' device"):
        tt.astype(x, tt.float64, device="gpu")


def test_reshape_copy() -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = tt.asarray(a)
    assert np.shares_memory(tt.reshape(x, (4, 3), copy=False).numpy(), a)
    assert np.shares_memory(tt.reshape(x, (4, 3)).numpy(), a)
    copied = tt.reshape(x, (4, 3), copy=True)
    assert copied.shape == (4, 3) and not np.shares_memory(copied.numpy(), a)
    transposed = tt.asarray(a.T)  # (4, 3), F-ordered: no (12,) view of it
    with pytest.raises(ValueError, match="copy=None"):
        tt.reshape(transposed, (12,), copy=False)
    np.testing.assert_array_equal(tt.reshape(transposed, (12,)).numpy(), a.T.reshape(12))


def test_named_results() -> None:
    m = np.array([[4.0, 1.0], [1.0, 3.0]])
    x = tt.asarray(m)
    eigh = tt.linalg.eigh(x)
    assert eigh.eigenvalues is eigh[0] and eigh.eigenvectors is eigh[1]
    np.testing.assert_allclose(eigh.eigenvalues.numpy(), np.linalg.eigh(m).eigenvalues)
    qr = tt.linalg.qr(x)
    np.testing.assert_allclose((qr.Q @ qr.R).numpy(), m)
    svd = tt.linalg.svd(x)
    np.testing.assert_allclose(svd.S.numpy(), np.linalg.svd(m).S)
    assert (svd.U, svd.S, svd.Vh) == tuple(svd)
    eig = tt.linalg.eig(x)  # numpy's EigResult, fields and items
    assert type(eig).__name__ == "EigResult" and eig.eigenvectors is eig[1]
    np.testing.assert_allclose(np.sort(eig.eigenvalues.numpy()), eigh.eigenvalues.numpy())
    sl = tt.linalg.slogdet(x)
    assert sl.sign.item() == 1.0 and np.isclose(sl.logabsdet.item(), np.log(11.0))
    values = tt.asarray(np.array([3, 1, 3, 2]))
    ua = tt.unique_all(values)
    assert ua.values.numpy().tolist() == [1, 2, 3] and ua.counts.numpy().tolist() == [1, 1, 2]
    assert ua.indices.numpy().tolist() == [1, 3, 0]
    assert ua.inverse_indices.numpy().tolist() == [2, 0, 2, 1]
    uc = tt.unique_counts(values)
    assert uc.counts.numpy().tolist() == [1, 1, 2]
    ui = tt.unique_inverse(values)
    assert ui.inverse_indices.numpy().tolist() == [2, 0, 2, 1]


def test_dlpack_keywords() -> None:
    x = tt.asarray(np.arange(3.0))
    assert np.from_dlpack(x).tolist() == [0.0, 1.0, 2.0]
    capsule = x.__dlpack__(stream=None, max_version=(1, 0), dl_device=(1, 0), copy=False)
    assert type(capsule).__name__ == "PyCapsule"
    copied = np.from_dlpack(x, copy=True)
    assert not np.shares_memory(copied, x.numpy())


def test_inspection_dtypes_are_the_standards() -> None:
    info = tt.__array_namespace_info__()
    names = set(info.dtypes())
    assert "float16" not in names and {"bool", "int8", "float32", "complex128"} <= names
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    assert set(info.dtypes(kind=("bool", "unsigned integer"))) == {
        "bool",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
    }


def test_sorting_is_stable_by_default() -> None:
    ties = tt.asarray(np.zeros(17, np.uint8))  # numpy's default quicksort reorders these
    assert tt.argsort(ties).numpy().tolist() == list(range(17))
    values = np.array([2, 1, 2, 1, 0] * 5)
    np.testing.assert_array_equal(
        tt.argsort(tt.asarray(values)).numpy(), np.argsort(values, kind="stable")
    )
    np.testing.assert_array_equal(  # descending: largest first, ties in their order
        tt.argsort(tt.asarray(values), descending=True).numpy(),
        np.argsort(-values, kind="stable"),
    )
    signed_zeros = tt.asarray(np.array([0.0, -0.0, 0.0, -0.0]))
    assert np.signbit(tt.sort(signed_zeros).numpy()).tolist() == [False, True, False, True]
    unstable = tt.argsort(ties, stable=False)  # numpy's default kind: any order of the ties
    assert sorted(unstable.numpy().tolist()) == list(range(17))
    assert tt.argsort(ties, kind="quicksort").shape == (17,)


def test_unique_values_are_sorted() -> None:
    values = np.array([3, 0, 1, 0, -2], np.int8)  # numpy's unique_values hashes: any order
    got = tt.unique_values(tt.asarray(values))
    assert got.numpy().tolist() == [-2, 0, 1, 3] and got.dtype is tt.int8
    with_nans = tt.unique_values(tt.asarray(np.array([3.0, np.nan, 0.0, np.nan])))
    assert with_nans.numpy()[:2].tolist() == [0.0, 3.0] and np.isnan(with_nans.numpy()[2:]).all()
