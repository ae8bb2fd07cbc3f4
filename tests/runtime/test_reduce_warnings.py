"""numpy's RuntimeWarnings kept by the reductions on every backend, against numpy itself:
``mean`` of an empty axis, ``var``/``std`` with no degree of freedom left, a negative-order norm
of a tensor holding a zero; none where numpy has none. Each warning is emitted once, whichever
runner (numpy's loops or the numba kernels) computed the value, and the value is numpy's."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import typedtensor as tt

#: (typedtensor call, numpy call) on the same array, by case
CASES: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any], Any]] = {
    "mean of an empty axis": (
        lambda t: tt.mean(t, axis=0),
        lambda a: np.mean(a, axis=0),
        np.zeros((0, 3), np.float32),
    ),
    "mean of no element": (tt.mean, np.mean, np.zeros((2, 0))),
    "mean over a nonempty axis of no rows": (
        lambda t: t.mean(1),
        lambda a: a.mean(1),
        np.zeros((0, 3)),
    ),
    "var of an empty axis": (
        lambda t: tt.var(t, axis=0),
        lambda a: np.var(a, axis=0),
        np.zeros((0, 4)),
    ),
    "std with correction = n": (
        lambda t: tt.std(t, axis=1, correction=1),
        lambda a: np.std(a, axis=1, ddof=1),
        np.ones((3, 1)),
    ),
    "var of a large tensor with correction > n (numba's kernels)": (
        lambda t: tt.var(t, axis=1, correction=400),
        lambda a: np.var(a, axis=1, ddof=400),
        np.arange(300 * 300, dtype=np.float64).reshape(300, 300),
    ),
    "var with room to spare": (
        lambda t: tt.var(t, axis=1, correction=1),
        lambda a: np.var(a, axis=1, ddof=1),
        np.arange(300 * 300, dtype=np.float64).reshape(300, 300),
    ),
    "norm of order -1 of zeros": (
        lambda t: tt.norm(t, -1.0),
        lambda a: np.linalg.norm(a, -1.0),
        np.zeros(5),
    ),
    "norm of order -2 with one zero per row": (
        lambda t: tt.norm(t, -2.0, axis=1),
        lambda a: np.linalg.norm(a, -2.0, axis=1),
        np.eye(4),
    ),
    "norm of order -2 without a zero": (
        lambda t: tt.norm(t, -2.0, axis=1),
        lambda a: np.linalg.norm(a, -2.0, axis=1),
        np.ones((3, 4)),
    ),
}

#: numpy's warnings about its computation's division step (0 / 0, x / 0 in var's last step),
#: which typedtensor's engine does not take, are left out: the named warnings are compared
_STEP_WARNINGS = ("invalid value encountered", "divide by zero encountered in divide")


def _warnings_of(call: Callable[[], Any]) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    return result, [m for m in messages if not m.startswith(_STEP_WARNINGS)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_warnings_as_numpy(backend: str, case: str) -> None:
    tt_call, np_call, array = CASES[case]
    before = array.copy()
    expected, numpy_says = _warnings_of(lambda: np_call(array))
    with tt.use_backend(backend):
        got, typedtensor_says = _warnings_of(lambda: tt_call(tt.asarray(array)))
    assert typedtensor_says == numpy_says
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-7)
    np.testing.assert_array_equal(array, before)


def test_the_warning_points_at_the_caller() -> None:
    with pytest.warns(RuntimeWarning, match="Mean of empty slice") as record:
        tt.mean(tt.zeros((0,)))
    assert record[0].filename == __file__


def test_warnings_obey_the_filters() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="Degrees of freedom"):
            tt.var(tt.ones((1,)), correction=1)
    with np.errstate(divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert tt.norm(tt.zeros((3,)), -1.0).item() == 0.0  # np.errstate silences numpy's
