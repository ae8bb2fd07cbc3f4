"""Hypothesis strategies shared by the runtime tests: dtypes, shapes (rank 0..5 with empty and
size-1 dims), memory layouts (C, Fortran, negative strides, broadcast views, strided slices),
values with NaN/inf, and every spelling of ``axis``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from typedtensor._rules import DTYPE_NAMES

DTYPES = list(DTYPE_NAMES)
FLOATS = ["float32", "float64"]
LAYOUTS = ["C", "F", "negative", "broadcast", "strided"]


def shapes(min_rank: int = 0, max_rank: int = 5, max_side: int = 5) -> st.SearchStrategy[Any]:
    """Shapes with some empty and size-1 dims; at most a few hundred elements."""
    return hnp.array_shapes(min_dims=min_rank, max_dims=max_rank, min_side=0, max_side=max_side)


def _elements(dtype: np.dtype[Any], specials: bool) -> st.SearchStrategy[Any]:
    if dtype.kind == "f":
        base = st.floats(-4, 4, width=dtype.itemsize * 8)
        if specials:
            return st.one_of(base, base, base, st.sampled_from([np.nan, np.inf, -np.inf, -0.0]))
        return base
    if dtype.kind == "c":
        part = st.floats(-4, 4, width=dtype.itemsize * 4)
        base = st.builds(complex, part, part)
        if specials:
            odd = [complex(np.nan, 0), complex(0, np.nan), complex(np.inf, 1), complex(1, -np.inf)]
            return st.one_of(base, base, base, st.sampled_from(odd))
        return base
    if dtype.kind == "b":
        return st.booleans()
    info = np.iinfo(dtype)
    # mostly small values (prod stays meaningful), sometimes the extremes (wraparound as numpy)
    return st.one_of(
        st.integers(max(info.min, -3), min(info.max, 3)),
        st.sampled_from([info.min, info.max]),
    )


@dataclass
class Case:
    """An input array in some layout, plus how it was made (for failure messages)."""

    array: np.ndarray[Any, Any]
    layout: str

    def __repr__(self) -> str:
        a = self.array
        return f"Case({a.dtype}, shape={a.shape}, strides={a.strides}, layout={self.layout})"


def _relayout(base: np.ndarray[Any, Any], layout: str, data: st.DataObject) -> np.ndarray[Any, Any]:
    if layout == "C" or base.ndim == 0:
        return base
    if layout == "F":
        return np.asfortranarray(base)
    if layout == "negative":
        return np.ascontiguousarray(base[::-1])[::-1]  # same values, negative stride on axis 0
    if layout == "strided":
        big = np.repeat(base, 2, axis=-1)  # every other element of the last axis
        return big[..., ::2]
    # broadcast: a size-1 (or equal) dim expanded with stride 0
    ax = data.draw(st.integers(0, base.ndim - 1), label="broadcast axis")
    small = np.take(base, [0] if base.shape[ax] else [], axis=ax)
    if base.shape[ax] == 0:
        return base
    return np.broadcast_to(small, base.shape)


@st.composite
def arrays(
    draw: st.DrawFn,
    dtypes: list[str] | None = None,
    min_rank: int = 0,
    max_rank: int = 5,
    specials: bool = True,
    layouts: list[str] | None = None,
) -> Case:
    """An array of a drawn dtype, shape and layout."""
    dtype = np.dtype(draw(st.sampled_from(dtypes or DTYPES), label="dtype"))
    shape = draw(shapes(min_rank, max_rank), label="shape")
    base = draw(hnp.arrays(dtype, shape, elements=_elements(dtype, specials)))
    layout = draw(st.sampled_from(layouts or LAYOUTS), label="layout")
    data = draw(st.data())
    return Case(_relayout(base, layout, data), layout)


@st.composite
def axis_spellings(draw: st.DrawFn, ndim: int, single: bool = False) -> Any:
    """None, an int (either sign) or a tuple (any order, mixed signs, possibly empty)."""
    if single or ndim == 0:
        choices = [None] + [a for d in range(ndim) for a in (d, d - ndim)]
        if not single:
            choices.append(())
        return draw(st.sampled_from(choices))
    kind = draw(st.sampled_from(["none", "int", "tuple"]))
    if kind == "none":
        return None
    if kind == "int":
        d = draw(st.integers(0, ndim - 1))
        return d if draw(st.booleans()) else d - ndim
    dims = draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim))
    spelled = [d if draw(st.booleans()) else d - ndim for d in dims]
    return tuple(draw(st.permutations(spelled)))
