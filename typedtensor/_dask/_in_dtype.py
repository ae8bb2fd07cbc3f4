"""mean/var/std and their nan variants with a ``dtype=`` that numpy accumulates in, computed
as numpy computes them: ``x.mean(dtype=tt.float16)`` is a float16 sum (inf past 65504)
divided as numpy divides, ``x.var(dtype=tt.float16)`` a float16 sum of squares (inf where it
overflows), not the float64 partials of ``_partials``/``_trees``, which a final cast would
hide. (Integer and bool ``dtype=`` are rejected by the rules layer before any backend runs.)

numpy's steps (``numpy/_core/_methods.py`` ``_mean``/``_var``/``_std``,
``numpy/lib/_nanfunctions_impl.py`` ``nanmean``/``nanvar``/``nanstd``), each reproduced here:

- mean: ``s = add.reduce(x, dtype)``, ``true_divide(s, n, out=s, casting="unsafe")``;
- nanmean of an inexact ``x``: NaNs replaced by 0, the same sum in ``dtype``, divided by the
  count of non-NaNs (0 of them: NaN);
- var: the mean as above (kept dims), ``d = x - mean`` in numpy's promotion of the two,
  ``d**2`` (``re**2 + im**2`` for complex ``d`` of a non-real input, ``d * conj(d)`` for
  bool), summed in ``dtype``, ``true_divide`` by ``max(n - ddof, 0)``;
- nanvar of an inexact ``x``: the nanmean, subtracted from a copy of ``x`` IN PLACE (so the
  deviations are rounded to ``x``'s dtype), NaN positions zeroed, squared in ``x``'s dtype
  (``d * conj(d)``, real part, for complex), summed in ``dtype``, divided by ``n - ddof``,
  NaN where ``n - ddof <= 0``;
- std, nanstd: ``sqrt`` of that, in its dtype.

The graph has the tree shape of the other reductions: pass 1 reduces each chunk to a
structured ``(n, s)`` partial (element or non-NaN count, sum in ``dtype``) and merges them by
adding in ``dtype`` (float sums differ from numpy's only by summation order, in ``dtype``); for
var/std, pass 2 subtracts that mean from each chunk (``blockwise``) and reduces the squares to
``(n, s)`` partials again, merged the same way. Floating-point warnings are silenced, as in
the other trees (numpy warns; the values are numpy's: NaN for an empty or all-NaN slice).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _rules as rules
from ._partials import keep_shape
from ._trees import chunk_step, pass_through, squeeze_reduced

__all__ = ["follows_numpy", "reduce_in_dtype"]

Array = npt.NDArray[Any]
DaskArray = Any  # dask.array.Array (dask is an optional dependency)

_WIDE = (np.dtype(np.float64), np.dtype(np.complex128))
_NARROW_INEXACT = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.complex64))
_MEANS = ("mean", "nanmean")


def follows_numpy(name: str, in_dtype: np.dtype[Any], dtype: np.dtype[Any] | None) -> bool:
    """Whether reduction ``name`` of ``in_dtype`` with ``dtype=`` needs numpy's own algorithm
    (this module) because the float64 trees would give another answer.

    - mean, nanmean: a float16, float32 or complex64 ``dtype``: numpy sums in it, so the sums
      round and overflow in their own width. A float64 (complex128) ``dtype`` is the trees' own
      accumulator: same arithmetic, another summation order.
    - var, std: a float16, float32 or complex64 ``dtype`` (mean and sum of squares are taken in
      it). With float64/complex128 the deviations ``x - mean`` promote to that dtype, as in the
      trees. A real ``dtype`` of a complex input too: numpy casts the mean to it (dropping its
      imaginary part), not the values.
    - nanvar, nanstd: as var, and also a float64/complex128 ``dtype`` on a float16, float32 or
      complex64 input: numpy writes the deviations back into a copy of the input, so they are
      rounded to, and squared in, the input's dtype (float16 squares overflow past 256).
    - without ``dtype``, var/std and nanvar/nanstd of float16 input: numpy computes them in
      float16 (the sum of squares is inf past 65504, ``x.var()`` of 100 values of +-100), the
      float64 trees would not. (float32 input: numpy's float32 sum of squares overflows only
      for a variance above ~3.4e38 / n; the one-pass trees stay, for speed.)
    """
    if dtype is None:
        if name not in rules.VARIANCES or in_dtype != np.float16:
            return False
        dtype = in_dtype
    if name in _MEANS:
        return dtype not in _WIDE
    if name not in rules.VARIANCES or dtype.kind not in "fc":
        return False
    if in_dtype.kind == "c" and dtype.kind == "f":
        return True  # the mean cast to the real dtype (its imaginary part dropped), as numpy
    if dtype not in _WIDE:
        return True
    return name.startswith("nan") and in_dtype in _NARROW_INEXACT


def reduce_in_dtype(
    array: DaskArray,
    name: str,
    axes: tuple[int, ...],
    keepdims: bool,
    params: Mapping[str, Any],
    dtype: np.dtype[Any],
    split_every: int | Mapping[int, int] | None = None,
) -> DaskArray:
    """Reduction ``name`` (mean, var, std and the nan variants) of ``array`` over ``axes``
    (validated, sorted, non-empty) with numpy's ``dtype=`` semantics, lazily: a (6, 5) float32
    array in chunks of (4, 3), ``reduce_in_dtype(x, "mean", (0,), False, {}, float16)`` ->
    (5,) float16, numpy's float16 sums (inf past 65504) divided by 6."""
    import dask.array as da

    skip_nan = name.startswith("nan") and array.dtype.kind in "fc"
    p = functools.partial
    pdt = partial_dtype(dtype)
    out_ndim = array.ndim if keepdims else array.ndim - len(axes)
    sum_tree = p(
        da.reduction,
        axis=axes,
        keepdims=keepdims,
        dtype=dtype,
        split_every=split_every,
        combine=p(combine_sums, dtype=dtype),
        concatenate=True,
        meta=np.empty((0,) * out_ndim, dtype),
        name=f"typedtensor-{name}-in-{dtype}",
    )
    if name in _MEANS:
        chunk = p(chunk_step, step=p(sum_count_chunk, dtype=dtype, skip_nan=skip_nan))
        return sum_tree(array, chunk, p(mean_aggregate, dtype=dtype))
    mean_name = "nanmean" if skip_nan else "mean"
    mean = reduce_in_dtype(array, mean_name, axes, False, {}, dtype, split_every)
    index = tuple(range(array.ndim))
    kept = tuple(d for d in index if d not in axes)
    squares = da.blockwise(
        p(squares_chunk, axes=axes, dtype=dtype, skip_nan=skip_nan),
        index,
        array,
        index,
        mean,
        kept,
        adjust_chunks=dict.fromkeys(axes, 1),
        dtype=pdt,
        meta=np.empty((0,) * array.ndim, pdt),
        name=f"typedtensor-{name}-squares-in-{dtype}",
    )
    aggregate = p(
        var_aggregate,
        dtype=dtype,
        correction=params.get("correction") or 0,
        skip_nan=skip_nan,
        sqrt=name.endswith("std"),
    )
    return sum_tree(squares, p(chunk_step, step=pass_through), aggregate)


def partial_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The partials: a count (elements, or non-NaNs) and a sum in ``dtype``."""
    return np.dtype([("n", np.int64), ("s", dtype)])


def _nan_filled(x: Array) -> tuple[Array, Array]:
    """numpy's ``_replace_nan(x, 0)``: a copy of ``x`` with NaNs set to 0, and the NaN mask."""
    mask = np.isnan(x)
    arr = np.array(x, copy=True)
    np.copyto(arr, 0, where=mask)
    return arr, mask


def sum_count_chunk(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, dtype: np.dtype[Any], skip_nan: bool
) -> Array:
    """A chunk's ``(n, s)`` over ``axis``, kept at size 1 whatever ``keepdims`` (the chunk
    step's signature): numpy's ``add.reduce(x, dtype)`` (NaNs as 0 and only non-NaNs counted
    with ``skip_nan``)."""
    out = np.empty(keep_shape(x.shape, axis), partial_dtype(dtype))
    with np.errstate(all="ignore"):
        if skip_nan:
            arr, mask = _nan_filled(x)
            out["n"] = np.add.reduce(~mask, axis, dtype=np.intp, keepdims=True)
        else:
            arr = x
            out["n"] = math.prod(x.shape[d] for d in axis)
        out["s"] = np.add.reduce(arr, axis, dtype=dtype, keepdims=True)
    return out


def squares_chunk(
    x: Array, mean: Array, *, axes: tuple[int, ...], dtype: np.dtype[Any], skip_nan: bool
) -> Array:
    """A chunk's ``(n, s)`` of squared deviations from ``mean`` (its block, reduced axes
    dropped), as numpy's var (``skip_nan``: nanvar) computes and sums them in ``dtype``."""
    m = np.expand_dims(mean, axes)
    out = np.empty(keep_shape(x.shape, axes), partial_dtype(dtype))
    with np.errstate(all="ignore"):
        if skip_nan:  # nanvar: deviations written back into the NaN-filled copy of x
            arr, mask = _nan_filled(x)
            np.subtract(arr, m, out=arr, casting="unsafe")
            np.copyto(arr, 0, where=mask)
            if arr.dtype.kind == "c":
                sq = np.multiply(arr, arr.conj(), out=arr).real
            else:
                sq = np.multiply(arr, arr, out=arr)
            out["n"] = np.add.reduce(~mask, axes, dtype=np.intp, keepdims=True)
        else:
            dev = np.subtract(x, m)
            if x.dtype.kind in "iuf":  # numpy squares real and integer inputs' deviations
                sq = np.square(dev, out=dev)
            elif dev.dtype.kind == "c":  # complex: |d|**2 as numpy's fast path, re^2 + im^2
                sq = np.add(np.square(dev.real), np.square(dev.imag))
            else:  # bool input: numpy's general case
                sq = np.multiply(dev, np.conjugate(dev), out=dev).real
            out["n"] = math.prod(x.shape[d] for d in axes)
        out["s"] = np.add.reduce(sq, axes, dtype=dtype, keepdims=True)
    return out


def combine_sums(x: Array, axis: tuple[int, ...], keepdims: bool, *, dtype: np.dtype[Any]) -> Array:
    """Merged ``(n, s)`` partials, kept at size 1: counts add, sums add in ``dtype``."""
    out = np.empty(keep_shape(x.shape, axis), x.dtype)
    with np.errstate(all="ignore"):
        out["n"] = np.add.reduce(x["n"], axis, keepdims=True)
        out["s"] = np.add.reduce(x["s"], axis, dtype=dtype, keepdims=True)
    return out


def mean_aggregate(
    x: Array, axis: tuple[int, ...], keepdims: bool, *, dtype: np.dtype[Any]
) -> Array:
    """mean = s / n divided as numpy divides (``true_divide(s, n, out=s, casting="unsafe")``:
    the quotient rounded to ``dtype``); 0 / 0 gives numpy's value."""
    merged = combine_sums(x, axis, True, dtype=dtype)
    s = np.array(merged["s"])
    with np.errstate(all="ignore"):
        np.true_divide(s, merged["n"], out=s, casting="unsafe")
    return squeeze_reduced(s, axis, keepdims)


def var_aggregate(
    x: Array,
    axis: tuple[int, ...],
    keepdims: bool,
    *,
    dtype: np.dtype[Any],
    correction: float,
    skip_nan: bool,
    sqrt: bool,
) -> Array:
    """var = s / max(n - correction, 0) (numpy's var), or s / (n - correction) with NaN where
    that is <= 0 (numpy's nanvar, ``skip_nan``), divided into ``dtype``; ``sqrt``: std."""
    merged = combine_sums(x, axis, True, dtype=dtype)
    v = np.array(merged["s"])
    n = merged["n"]
    with np.errstate(all="ignore"):
        if skip_nan:
            dof = n - correction
            np.divide(v, dof, out=v, casting="unsafe")
            np.copyto(v, np.nan, where=dof <= 0)
        else:
            np.true_divide(v, np.maximum(n - correction, 0), out=v, casting="unsafe")
        if sqrt:
            np.sqrt(v, out=v)
    return squeeze_reduced(v, axis, keepdims)
