"""``DaskTensor``: a ``Tensor`` whose ``_data`` is a lazy ``dask.array.Array``.

The static type stays ``Tensor[DType, *Dims]``; at run time a ``DaskTensor`` is a ``Tensor``
subclass that overrides only what must differ from an in-memory tensor:

- what reads values computes, explicitly and documented: ``numpy()``, ``np.asarray(t)``,
  ``item()``, ``float()``, ``int()``, ``bool()`` compute the graph (as dask's own arrays do);
  ``repr`` shows dtype, shape and chunks and never computes;
- the dask collection protocol (``__dask_graph__``, ``__dask_keys__``, ``__dask_layers__``,
  ``__dask_postcompute__``, ``__dask_postpersist__``, ``__dask_tokenize__``,
  ``__dask_optimize__``, ``__dask_scheduler__``), delegated to the dask array's own, so
  ``dask.compute(t)``, ``dask.persist(t)``, ``client.compute(t)``/``client.persist(t)`` work;
  ``t.compute()`` is an in-memory ``Tensor``, ``t.persist()`` a ``DaskTensor``;
- reductions validate exactly as the in-memory path (same rules, same exceptions, at graph
  construction) and build the graph with ``typedtensor._dask.reductions.reduce_dask``.

Everything else (operators, ``tt.exp``..., shape operations, indexing, matmul) is the
in-memory code: it validates with the shape rules, calls numpy functions that dispatch to dask,
and ``typedtensor._tensor.wrap`` turns the dask result into a ``DaskTensor``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, cast

import dask.array as da
import numpy as np
import numpy.typing as npt
from dask.base import compute, persist
from typing_extensions import Unpack

from .. import _rules as rules
from .._arguments import _check_device
from .._backend import registry
from .._dtypes import as_dtype_class, dtype_class_of
from .._reduce_plan import reduce_array
from .._tensor import AnyTensor, Tensor, _broadcast_check, _raise_rule_error
from . import _serialize, is_dask_array
from ._registry import registry_one_chunk

__all__ = ["DaskTensor", "from_dask_array"]

_object_new = object.__new__


class DaskTensor(Tensor[Any, Unpack[tuple[Any, ...]]]):
    """A lazy Tensor over a ``dask.array.Array``: ``tt.asarray(da.ones((8, 3), chunks=4))``.

    Typed and validated as any Tensor; operations build a dask graph and nothing runs until
    ``compute()``, ``persist()``, ``numpy()`` or ``dask.compute``.
    """

    __slots__ = ()

    # ------------------------------------------------------------------ the dask array
    @property
    def dask_array(self) -> da.Array:
        """The wrapped ``dask.array.Array`` (no compute)."""
        return cast(da.Array, self._data)

    def to_dask_array(self) -> da.Array:
        """The wrapped dask array: dask's functions that convert their operands with
        ``da.asarray`` (``da.concatenate([t, u])``...) take a DaskTensor lazily through it."""
        return self.dask_array

    @property
    def chunks(self) -> tuple[tuple[int, ...], ...]:
        """dask's chunk sizes per dim: ``((4, 4), (3,))`` for (8, 3) in chunks of 4 rows."""
        return cast("tuple[tuple[int, ...], ...]", self.dask_array.chunks)

    def rechunk(self, chunks: Any = "auto", **kwargs: Any) -> AnyTensor:
        """The same values in other chunks (``dask.array.rechunk``; lazy): ``t.rechunk((2,
        3))`` of (8, 3) -> chunks ((2, 2, 2, 2), (3,))."""
        return from_dask_array(self.dask_array.rechunk(chunks, **kwargs))

    def compute(self, **kwargs: Any) -> AnyTensor:
        """Run the graph (``dask.compute``; ``scheduler=`` etc. pass through): an in-memory
        Tensor of the same dtype and shape."""
        (result,) = compute(self, **kwargs)
        return cast(AnyTensor, result)

    def persist(self, **kwargs: Any) -> AnyTensor:
        """Run the graph and keep the chunks in memory (on the cluster's workers with
        ``distributed``): a DaskTensor over the computed chunks."""
        (result,) = persist(self, **kwargs)
        return cast(AnyTensor, result)

    # -------------------------------------------------------- reading values computes
    def numpy(self) -> npt.NDArray[Any]:
        """Compute the graph and return the values as an ndarray."""
        return np.asarray(self.dask_array.compute())

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        """``np.asarray(t)`` computes, as for a dask array (``copy=False`` cannot be honoured:
        ValueError, as numpy's protocol asks)."""
        if copy is False:
            raise ValueError("a dask-backed tensor cannot be viewed without computing a copy")
        return np.asarray(self.numpy(), dtype=dtype)

    def _scalar(self, convert: Callable[[Any], Any]) -> Any:
        """``convert`` of the one element, computed; for any other size numpy's own error
        (raised on a zero-memory stand-in of this shape, before anything computes)."""
        if self.size != 1:
            convert(np.broadcast_to(np.zeros((), self.dask_array.dtype), self.shape))
        return convert(self.numpy())

    def item(self) -> Any:
        """Compute the single element and return it as a Python scalar."""
        return self._scalar(np.ndarray.item)

    def __float__(self) -> float:
        return cast(float, self._scalar(float))

    def __int__(self) -> int:
        return cast(int, self._scalar(int))

    def __bool__(self) -> bool:
        return cast(bool, self._scalar(bool))

    def __repr__(self) -> str:
        head = ", ".join([self.dtype.__name__, *map(str, self.shape)])
        arr = self.dask_array
        return f"Tensor[{head}](dask, chunksize={arr.chunksize}, npartitions={arr.npartitions})"

    def __reduce__(self) -> tuple[Callable[..., AnyTensor], tuple[Any, ...]]:
        return (from_dask_array, (self._data,))

    # --------------------------------------------------------- the collection protocol
    def __dask_graph__(self) -> Any:
        return self.dask_array.__dask_graph__()

    def __dask_keys__(self) -> Any:
        return self.dask_array.__dask_keys__()

    def __dask_layers__(self) -> Sequence[str]:
        return self.dask_array.__dask_layers__()

    def __dask_tokenize__(self) -> Hashable:
        return ("typedtensor.DaskTensor", self.dask_array.__dask_tokenize__())

    @staticmethod
    def __dask_optimize__(dsk: Any, keys: Any, **kwargs: Any) -> Any:
        return da.Array.__dask_optimize__(dsk, keys, **kwargs)

    __dask_scheduler__ = staticmethod(da.Array.__dask_scheduler__)

    def __dask_postcompute__(self) -> tuple[Callable[..., AnyTensor], tuple[Any, ...]]:
        _serialize.register_if_distributed()  # a worker may send the result as ndarray frames
        finalize, args = self.dask_array.__dask_postcompute__()
        return _finalize_in_memory, (finalize, args)

    def __dask_postpersist__(self) -> tuple[Callable[..., AnyTensor], tuple[Any, ...]]:
        rebuild, args = self.dask_array.__dask_postpersist__()
        return _rebuild_lazy, (rebuild, args)

    # ------------------------------------------------------- operations that differ
    def astype(self, dtype: Any, *, copy: bool = True, device: Any = None) -> AnyTensor:
        """A lazy conversion to ``dtype`` (numpy's unsafe cast), shape kept (``copy=False``:
        ``self`` when it has that dtype)."""
        np_dtype = as_dtype_class(dtype).numpy_dtype
        _check_device(device)
        if not copy and self.dask_array.dtype == np_dtype:
            return self
        return from_dask_array(self.dask_array.astype(np_dtype))

    def __pos__(self) -> AnyTensor:
        return from_dask_array(self.dask_array.copy())

    def _binary(self, other: object, fn: Any, reflected: bool = False) -> Any:
        if is_dask_array(other):
            other = from_dask_array(other)
        if isinstance(other, (Tensor, np.ndarray)):  # the shapes first, as in memory
            _broadcast_check(self.shape, tuple(other.shape), reflected)
        if isinstance(other, (Tensor, np.ndarray, bool, int, float, complex, np.generic)):
            _check_ufunc_dtypes(fn, self, other, reflected=reflected)
        return Tensor._binary(self, other, fn, reflected)

    def __neg__(self) -> AnyTensor:
        _check_ufunc_dtypes(np.negative, self)
        return from_dask_array(np.negative(self.dask_array))

    def __invert__(self) -> AnyTensor:
        _check_ufunc_dtypes(np.invert, self)
        return from_dask_array(np.invert(self.dask_array))

    def _reduce(
        self,
        name: str,
        axis: object,
        keepdims: object,
        out: AnyTensor | None = None,
        dtype: object = None,
        **params: Any,
    ) -> AnyTensor:
        from . import reductions  # the tree reductions (imported on the first reduction)

        _no_out(out, name)
        named = None if dtype is None else as_dtype_class(dtype).numpy_dtype
        arr = self.dask_array
        try:
            axes, keep, result_dtype = validate_reduction(
                self.shape, arr.dtype, name, axis, keepdims, params, named
            )
        except rules.RuleError as err:
            _raise_rule_error(err)
            raise  # unreachable
        if rules.REDUCTIONS[name].norm_mode:  # norm_lp_max and friends: as in memory
            params = {**params, "mode": rules.REDUCTIONS[name].norm_mode}
        if name == "l2_normalize":
            result = reductions.l2_normalize_dask(arr, axes, params)
        elif getattr(registry.operation(name), "dask", None) == "one_chunk":  # order statistics
            result = registry_one_chunk(arr, name, axes, keep, result_dtype)
        else:
            result = reductions.reduce_dask(arr, name, axes, keep, params, dtype=named)
        if result.dtype != result_dtype:  # the in-memory dtype, whatever the tree produced
            result = result.astype(result_dtype)
        return from_dask_array(result)

    def reduce_to(
        self, shape: Sequence[int], op: str = "sum", *, out: AnyTensor | None = None
    ) -> AnyTensor:
        """``Tensor.reduce_to``, lazily: ``(8, 3, 32, 32).reduce_to((1, 3, 1, 1), "mean")``."""
        _no_out(out, f"reduce_to({op})")
        # the in-memory method validates and reshapes the (lazy) keepdims reduction; its last
        # step wraps the dask result as a plain Tensor, which is rewrapped here
        return from_dask_array(Tensor.reduce_to(self, shape, op)._data)


def _through_binary(fn: Any, reflected: bool) -> Any:
    def operator(self: DaskTensor, other: object) -> Any:
        return self._binary(other, fn, reflected)

    return operator


# Tensor's operators are one function each (``_tensor._binary_operator``), which would skip
# the checks of ``DaskTensor._binary`` (dask operands, dtypes at graph construction): every
# one goes through it here
for _name, _operator in list(vars(Tensor).items()):
    if hasattr(_operator, "binary_ufunc"):
        setattr(DaskTensor, _name, _through_binary(_operator.binary_ufunc, _operator.reflected))


def _no_out(out: object, name: str) -> None:
    if out is not None:
        raise TypeError(
            f"out= is not supported for dask-backed tensors ({name}): dask arrays are "
            "immutable graphs; use the returned tensor (or .compute() it)"
        )


def validate_reduction(
    shape: tuple[int, ...],
    dtype: np.dtype[Any],
    name: str,
    axis: object,
    keepdims: object,
    params: Mapping[str, Any],
    result_dtype: np.dtype[Any] | None,
) -> tuple[tuple[int, ...], bool, np.dtype[Any]]:
    """Validate a reduction of a dask array exactly as in memory, at graph construction.

    The in-memory reduction itself runs on a proxy of the same rank and dtype with every dim
    of size 1 (a few microseconds): it raises what it raises for ``keepdims``, the axes, the
    dtype and the parameters, and its result gives the result dtype. The empty-reduction rule,
    which reads the real sizes, is checked on ``shape``. Returns ``(axes, keepdims, result
    dtype)``; raises ``rules.RuleError`` or the in-memory path's exception."""
    proxy = np.ones((1,) * len(shape), dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # var of one element with correction=1...
        expected = reduce_array(proxy, name, axis, keepdims, dict(params), result_dtype)
    if isinstance(axis, np.integer):
        axis = int(axis)
    spec = rules.REDUCTIONS[name]
    axes = rules.normalize_axes(axis, len(shape), single=spec.single_axis)
    if 0 in shape:
        rules.check_nonempty(name, shape, axes, size_of=int, p=params.get("p"))
    return axes, bool(keepdims), expected.dtype


def _check_ufunc_dtypes(fn: Any, *operands: object, reflected: bool = False) -> None:
    """Raise numpy's own error at graph construction for a ufunc that numpy rejects for the
    operands' dtypes (``~`` of floats) or a scalar operand (int ``x ** -1``): the ufunc runs on
    one-element arrays of those dtypes, as dask's dtype inference does (where it fails, dask
    raises a TypeError of its own words)."""
    metas = [np.ones(1, o.dtype) if isinstance(o, np.ndarray) else o for o in operands]
    metas = [np.ones(1, m._data.dtype) if isinstance(m, Tensor) else m for m in metas]
    if reflected:
        metas.reverse()
    with np.errstate(all="ignore"):
        fn(*metas)


def from_dask_array(array: Any, dtype: object = None) -> AnyTensor:
    """A ``DaskTensor`` over ``array`` (no compute), converted lazily to ``dtype`` if given.

    Raises ``TypeError`` for a non-dask object or an unsupported dtype, ``ValueError`` for a
    dask array with unknown (NaN) dim sizes."""
    if isinstance(array, DaskTensor):
        array = array._data
    if not isinstance(array, da.Array):
        raise TypeError(f"expected a dask.array.Array, got {type(array).__name__}")
    if dtype is not None:
        target = as_dtype_class(dtype).numpy_dtype
        if array.dtype != target:
            array = array.astype(target)
    dtype_class_of(array.dtype)  # rejects unsupported dtypes with a clear TypeError
    if any(math.isnan(d) for d in array.shape):
        raise ValueError(
            f"the dask array has unknown dim sizes (shape {array.shape}): typed tensors need "
            "known sizes. Boolean-mask indexing and other data-dependent operations produce "
            "them: call .compute_chunk_sizes() on the dask array first, or use tt.where"
        )
    t: DaskTensor = _object_new(DaskTensor)
    t._data = array
    return t


def _finalize_in_memory(
    results: Any, finalize: Callable[..., Any], args: tuple[Any, ...]
) -> AnyTensor:
    """``__dask_postcompute__``: dask's own finalize, then an in-memory Tensor (in a worker
    process, one that travels to the client as ndarray frames: ``_serialize.py``)."""
    from .._tensor import wrap

    return _serialize.for_the_client(wrap(np.asarray(finalize(results, *args))))


def _rebuild_lazy(
    dsk: Any,
    rebuild: Callable[..., da.Array],
    args: tuple[Any, ...],
    *,
    rename: Mapping[str, str] | None = None,
) -> AnyTensor:
    """``__dask_postpersist__``: dask's own rebuild, then a DaskTensor."""
    return from_dask_array(rebuild(dsk, *args, rename=rename))


def scan_dask(
    op: str,
    array: Any,
    axis: int,
    dtype: np.dtype[Any],
    include_initial: bool,
    out: AnyTensor | None,
    name: str,
    flatten: bool = False,
) -> AnyTensor:
    """A validated scan (``typedtensor.scans``) of a dask array, lazily: ``dask.array.cumsum``,
    ``cumprod``, ``nancumsum`` or ``nancumprod`` (``op`` ``"sum"``, ``"prod"``, ``"nansum"``,
    ``"nanprod"``) along ``axis`` in ``dtype``, the identity first when ``include_initial``;
    ``flatten``: of the flattened array (``axis=None``, rank 0), ``axis`` then 0.

    Every step runs in ``dtype`` (integers wrap exactly as numpy's), but dask scans each chunk
    on its own and then adds (multiplies) the running total of the chunks before it, where
    numpy accumulates left to right: float results differ from numpy's by rounding in
    ``dtype``, growing with the length of the scan (float32 cumsums of 1e5 normal values end
    up to ~1e-3 apart), and a complex product that overflows reaches inf/NaN parts at
    another step. Without or with ``dtype=`` alike; numpy's exact sequence would need each
    chunk's scan to wait for the one before it (no parallelism along ``axis``)."""
    _no_out(out, name)
    if flatten:  # dask's reshape cannot flatten an empty array with several chunks
        array = array.reshape(-1) if array.size else da.zeros((0,), dtype=array.dtype)
    along = array.chunks[axis]
    if 0 in along and len(along) > 1:  # dask's scan fails on 0-size chunks: drop them
        array = array.rechunk({axis: tuple(c for c in along if c) or (0,)})
    scan = {"sum": da.cumsum, "prod": da.cumprod, "nansum": da.nancumsum, "nanprod": da.nancumprod}
    result = scan[op](array, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(result.shape)
        shape[axis] = 1
        initial = da.full(shape, 0 if op.endswith("sum") else 1, dtype=dtype)
        result = da.concatenate([initial, result], axis=axis)
    return from_dask_array(result)
