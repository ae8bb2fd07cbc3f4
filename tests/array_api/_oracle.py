"""The conformance tier's oracle: array-api-strict (the standard's reference namespace, from
PyPI) computes each function on a copy of the inputs, and typedtensor's answer must have the
same shape, dtype and values. Inputs come from hypothesis's Array API strategies built on
typedtensor itself (``make_strategies_namespace(tt)``), so they also exercise its creation
functions. Where the standard leaves a case undefined (mixed-kind promotion, integer input to
a floating function) the oracle refuses it and the case is not drawn."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import array_api_strict as xs
import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import typedtensor as tt

API_VERSION = "2024.12"
xs.set_array_api_strict_flags(api_version=API_VERSION)
xps = make_strategies_namespace(tt, api_version=API_VERSION)

#: the standard's dtype categories (2024.12, "Data Type Categories"), by name
CATEGORIES: dict[str, tuple[str, ...]] = {
    "bool": ("bool",),
    "integer": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
CATEGORIES["integer or boolean"] = CATEGORIES["integer"] + CATEGORIES["bool"]
CATEGORIES["floating"] = CATEGORIES["real floating"] + CATEGORIES["complex floating"]
CATEGORIES["real numeric"] = CATEGORIES["integer"] + CATEGORIES["real floating"]
CATEGORIES["numeric"] = CATEGORIES["real numeric"] + CATEGORIES["complex floating"]
CATEGORIES["all"] = CATEGORIES["numeric"] + CATEGORIES["bool"]

#: ``rtol=ULPS``: floating results within 4 units in the last place of their dtype
ULPS = -1.0
#: array shapes: rank 0..4, sides 0..4 (empty dims included)
SHAPES = xps.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)


def tt_dtype(name: str) -> Any:
    """typedtensor's dtype class of a standard name (``"bool"`` -> ``tt.bool``)."""
    return getattr(tt, name)


def xs_dtype(name: str) -> Any:
    """array-api-strict's dtype of a standard name."""
    return getattr(xs, name)


def dtype_name(dtype: Any) -> str:
    """The standard name of a typedtensor dtype class."""
    return str(np.dtype(dtype.numpy_dtype).name)


def dtypes(category: str) -> st.SearchStrategy[str]:
    """The names of one category's dtypes."""
    return st.sampled_from(CATEGORIES[category])


def arrays(
    draw: st.DrawFn, category: str, shape: Any = SHAPES, **elements: Any
) -> tt.Tensor[Any, Any]:
    """A typedtensor array of a dtype of ``category`` (NaN, infinities, -0 included unless
    ``elements`` narrows them)."""
    name = draw(dtypes(category))
    return draw(xps.arrays(tt_dtype(name), shape, elements=elements or None))


def to_strict(value: Any) -> Any:
    """A typedtensor Tensor as an array-api-strict array (a copy); other values as they are."""
    if isinstance(value, tt.Tensor):
        return xs.asarray(np.array(value.numpy(), copy=True))
    if isinstance(value, (list, tuple)):
        return type(value)(to_strict(v) for v in value)
    if isinstance(value, type) and issubclass(value, tt.DType):
        return xs_dtype(dtype_name(value))
    return value


def _numpy(expected: Any) -> np.ndarray[Any, Any]:
    return np.asarray(np.from_dlpack(expected))


def assert_same(got: Any, expected: Any, *, rtol: float = 0.0, what: str = "") -> None:
    """``got`` (typedtensor) equals ``expected`` (array-api-strict): Tensors of the same shape,
    dtype and values (NaN equal to NaN, ``-0`` to ``0``; ``rtol`` for floating results
    computed another way, ``ULPS`` for 4 units in the last place), tuples item by item."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), what
        for i, (g, e) in enumerate(zip(got, expected, strict=True)):
            assert_same(g, e, rtol=rtol, what=f"{what}[{i}]")
        return
    e = _numpy(expected)
    assert isinstance(got, tt.Tensor), f"{what}: {type(got).__name__} is not a Tensor"
    assert got.shape == e.shape, f"{what}: shape {got.shape} != {e.shape}"
    assert dtype_name(got.dtype) == e.dtype.name, f"{what}: dtype {got.dtype} != {e.dtype}"
    if rtol and e.dtype.kind in "fc":
        rtol = rtol if rtol > 0 else 4 * float(np.finfo(e.dtype).eps)  # ULPS: 4 units
        scale = float(np.max(np.abs(e[np.isfinite(e)]), initial=1.0))
        np.testing.assert_allclose(got.numpy(), e, rtol=rtol, atol=rtol * scale, err_msg=what)
    else:
        np.testing.assert_array_equal(got.numpy(), e, err_msg=what)


def agree(
    tt_fn: Callable[..., Any],
    xs_fn: Callable[..., Any],
    args: Sequence[Any],
    kwargs: dict[str, Any] | None = None,
    *,
    rtol: float = 0.0,
) -> Any:
    """Call both with the same arguments (typedtensor's Tensors converted for the oracle): the
    results agree, or both raise (a case the oracle refuses as undefined is not drawn).
    Returns typedtensor's result."""
    kwargs = kwargs or {}
    before = [a.numpy().copy() for a in args if isinstance(a, tt.Tensor)]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            expected = xs_fn(*to_strict(list(args)), **to_strict_kwargs(kwargs))
        except TypeError as err:
            assume("promoted" not in str(err) and "allowed" not in str(err))
            raise
        except (ValueError, IndexError, np.linalg.LinAlgError) as err:
            raised = type(err)
            try:
                tt_fn(*args, **kwargs)
            except (ValueError, IndexError, TypeError, np.linalg.LinAlgError):
                return None  # both refuse
            message = f"array-api-strict raised {raised.__name__}, typedtensor did not"
            raise AssertionError(message) from None
        got = tt_fn(*args, **kwargs)
    assert_same(got, expected, rtol=rtol, what=getattr(tt_fn, "__name__", "result"))
    after = [a.numpy() for a in args if isinstance(a, tt.Tensor)]
    for b, a in zip(before, after, strict=True):  # inputs are never modified
        np.testing.assert_array_equal(a, b, strict=True)
    return got


def to_strict_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for the oracle (Tensors and dtypes converted)."""
    return {k: to_strict(v) for k, v in kwargs.items()}
