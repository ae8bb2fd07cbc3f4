"""The shape rules of ``svd qr solve dot hstack vstack pad repeat tile`` (``_rules.linalg_ext``,
``_rules.rearranging``) against numpy on generated shapes and arguments: the rule's shape is
numpy's wherever numpy succeeds, and the rule raises wherever numpy raises (a
``RuleError``); the symbolic side (``DimItems`` over ``DimExpr``) is checked against the same
numpy calls for several sizes of each symbol."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from typedtensor import _rules as rules
from typedtensor._rules import linalg_ext, rearranging
from typedtensor._rules.dimexpr import DimExpr

small = st.integers(0, 4)
shapes = st.lists(small, min_size=0, max_size=4).map(tuple)
NUMPY_ERRORS = (ValueError, TypeError, np.linalg.LinAlgError)


def _agree(rule: object, numpy_call: object) -> None:
    """The rule's answer is numpy's shape (or shapes), or both raise."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = numpy_call()  # type: ignore[operator]
    except NUMPY_ERRORS as err:
        with pytest.raises(rules.RuleError):
            rule()  # type: ignore[operator]
        return err
    expected = tuple(np.shape(o) for o in out) if isinstance(out, tuple) else np.shape(out)
    assert rule() == expected  # type: ignore[operator]
    return None


@settings(max_examples=150, deadline=None)
@given(shapes, st.booleans(), st.booleans())
def test_svd(shape: tuple[int, ...], full: bool, uv: bool) -> None:
    x = np.ones(shape)
    _agree(
        lambda: (
            linalg_ext.svd_shapes(shape, full, uv)
            if uv
            else linalg_ext.svd_shapes(shape, full, uv)[0]
        ),
        lambda: tuple(np.linalg.svd(x, full, uv)) if uv else np.linalg.svd(x, full, uv),
    )


@settings(max_examples=150, deadline=None)
@given(shapes, st.sampled_from(["reduced", "complete", "r"]))
def test_qr(shape: tuple[int, ...], mode: str) -> None:
    x = np.ones(shape)
    _agree(
        lambda: (
            linalg_ext.qr_shapes(shape, mode)
            if mode != "r"
            else linalg_ext.qr_shapes(shape, mode)[0]
        ),
        lambda: tuple(np.linalg.qr(x, mode)) if mode != "r" else np.linalg.qr(x, mode),  # type: ignore[call-overload]
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 3), min_size=0, max_size=4).map(tuple),
    st.lists(st.integers(1, 3), min_size=0, max_size=4).map(tuple),
)
def test_solve(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    ea = np.broadcast_to(np.eye(a[-1]) if len(a) >= 2 and a[-1] == a[-2] else np.ones(a), a)
    _agree(lambda: linalg_ext.solve_shape(a, b), lambda: np.linalg.solve(ea, np.ones(b)))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 3), min_size=0, max_size=4).map(tuple),
    st.lists(st.integers(1, 3), min_size=0, max_size=4).map(tuple),
)
def test_dot(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    _agree(lambda: linalg_ext.dot_shape(a, b), lambda: np.dot(np.ones(a), np.ones(b)))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(1, 3), max_size=3).map(tuple), min_size=1, max_size=3))
def test_hstack_vstack(parts: list[tuple[int, ...]]) -> None:
    arrays = [np.ones(p) for p in parts]
    _agree(lambda: rearranging.hstack_shape(parts), lambda: np.hstack(arrays))
    _agree(lambda: rearranging.vstack_shape(parts), lambda: np.vstack(arrays))


widths = st.one_of(
    st.integers(-1, 3),
    st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple),
    st.lists(
        st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple), min_size=1, max_size=3
    ).map(tuple),
)


@settings(max_examples=300, deadline=None)
@given(shapes, widths)
def test_pad(shape: tuple[int, ...], width: object) -> None:
    _agree(lambda: rearranging.pad_shape(shape, width), lambda: np.pad(np.ones(shape), width))


@settings(max_examples=300, deadline=None)
@given(
    shapes,
    st.one_of(st.integers(-1, 3), st.lists(st.integers(0, 3), min_size=1, max_size=4)),
    st.one_of(st.none(), st.integers(-4, 3)),
)
def test_repeat(shape: tuple[int, ...], repeats: object, axis: int | None) -> None:
    x = np.ones(shape)
    try:
        expected = np.repeat(x, repeats, axis).shape  # type: ignore[call-overload]
    except (ValueError, TypeError, np.exceptions.AxisError):
        with pytest.raises(rules.RuleError):
            rearranging.repeat_shape(shape, repeats, axis)
        return
    assert rearranging.repeat_shape(shape, repeats, axis) == expected


@settings(max_examples=200, deadline=None)
@given(shapes, st.one_of(st.integers(-1, 3), st.lists(st.integers(0, 3), max_size=5).map(tuple)))
def test_tile(shape: tuple[int, ...], reps: object) -> None:
    _agree(lambda: rearranging.tile_shape(shape, reps), lambda: np.tile(np.ones(shape), reps))


# ----------------------------------------------------------------- symbolic dims
SYMBOLS = ("M", "N")
BINDINGS = [{"M": m, "N": n} for m, n in [(1, 1), (2, 3), (3, 2), (4, 4), (1, 5)]]


def _symbolic_items() -> dict[str, object]:
    """Dims as ``DimExpr`` (constants and symbols); the unknown dim is ``None``."""
    return {
        "size_of": lambda d: d.constant if isinstance(d, DimExpr) else None,
        "is_symbolic": lambda d: isinstance(d, DimExpr) and d.constant is None,
        "make_dim": DimExpr.const,
        "unknown": None,
        "expr_of": lambda d: d if isinstance(d, DimExpr) else None,
        "make_expr": lambda e: e,
    }


def _dims(spec: tuple[object, ...]) -> tuple[object, ...]:
    return tuple(DimExpr.symbol(d) if isinstance(d, str) else DimExpr.const(d) for d in spec)


SYMBOLIC_CASES: list[tuple[str, object, object]] = [
    ("svd full", lambda s: linalg_ext.svd_shapes(s, True, **_symbolic_items()), ("M", "N")),
    ("svd reduced", lambda s: linalg_ext.svd_shapes(s, False, **_symbolic_items()), ("M", "N")),
    ("svd square", lambda s: linalg_ext.svd_shapes(s, False, **_symbolic_items()), ("M", "M")),
    ("qr reduced", lambda s: linalg_ext.qr_shapes(s, **_symbolic_items()), (2, "N")),
    (
        "pad",
        lambda s: (rearranging.pad_shape(s, ((1, 2), (0, 3)), **_symbolic_items()),),
        ("M", "N"),
    ),
    (
        "repeat axis",
        lambda s: (rearranging.repeat_shape(s, 3, 1, **_symbolic_items()),),
        ("M", "N"),
    ),
    ("repeat flat", lambda s: (rearranging.repeat_shape(s, 2, **_symbolic_items()),), ("M", "N")),
    ("tile", lambda s: (rearranging.tile_shape(s, (2, 1, 3), **_symbolic_items()),), ("M", "N")),
    ("hstack", lambda s: (rearranging.hstack_shape([s, s], **_symbolic_items()),), ("M", "N")),
    (
        "vstack",
        lambda s: (rearranging.vstack_shape([s[1:], s[1:]], **_symbolic_items()),),
        ("M", "N"),
    ),
]

NUMPY_OF = {
    "svd full": lambda x: tuple(np.linalg.svd(x, True)),
    "svd reduced": lambda x: tuple(np.linalg.svd(x, False)),
    "svd square": lambda x: tuple(np.linalg.svd(x, False)),
    "qr reduced": lambda x: tuple(np.linalg.qr(x)),
    "pad": lambda x: (np.pad(x, ((1, 2), (0, 3))),),
    "repeat axis": lambda x: (np.repeat(x, 3, 1),),
    "repeat flat": lambda x: (np.repeat(x, 2),),
    "tile": lambda x: (np.tile(x, (2, 1, 3)),),
    "hstack": lambda x: (np.hstack([x, x]),),
    "vstack": lambda x: (np.vstack([x[0], x[0]]),),
}


@pytest.mark.parametrize(
    ("name", "rule", "spec"), SYMBOLIC_CASES, ids=[c[0] for c in SYMBOLIC_CASES]
)
def test_symbolic_never_wrong(name: str, rule: object, spec: tuple[object, ...]) -> None:
    """Every dim the rule computes over symbols evaluates to numpy's size for each binding;
    a dim it cannot prove is ``None`` (unknown)."""
    results = rule(_dims(spec))  # type: ignore[operator]
    exact = 0
    for binding in BINDINGS:
        shape = tuple(binding[d] if isinstance(d, str) else d for d in spec)
        expected = [np.shape(o) for o in NUMPY_OF[name](np.ones(shape))]
        for dims, want in zip(results, expected, strict=True):
            assert len(dims) == len(want)
            for d, size in zip(dims, want, strict=True):
                if d is not None:
                    assert d.evaluate(binding) == size, (name, binding, str(d))
                    exact += 1
    assert exact > 0


def test_min_dim_only_when_provable() -> None:
    m, n = DimExpr.symbol("M"), DimExpr.symbol("N")
    items = _symbolic_items()
    assert linalg_ext.svd_shapes((m, n), **items)[1] == (None,)
    assert linalg_ext.svd_shapes((m, m + 1), **items)[1] == (m,)
    assert linalg_ext.svd_shapes((2 * m, m), **items)[1] == (m,)
    assert linalg_ext.svd_shapes((m, DimExpr.const(3)), **items)[1] == (None,)


def test_symbolic_mismatch_errors() -> None:
    m, n = DimExpr.symbol("M"), DimExpr.symbol("N")
    items = _symbolic_items()
    with pytest.raises(rules.ShapeMismatchError) as err:
        linalg_ext.solve_shape((m, m), (n,), **items)
    assert err.value.symbolic
    with pytest.raises(rules.ShapeMismatchError) as err:
        linalg_ext.dot_shape((m,), (m + 1,), **items)
    assert not err.value.symbolic
    assert linalg_ext.solve_shape((m, m), (m, n), **items) == (m, n)
    with pytest.raises(rules.RuleError):
        linalg_ext.svd_shapes((m,), **items)


# ------------------------------------------------------------- the runtime on the same rules
def test_runtime_repeat_of_rank0_as_numpy() -> None:
    """numpy repeats a rank-0 array as a rank-1 one along axis 0 or -1 (the rule's answer)."""
    import typedtensor as tt

    x = tt.asarray(np.array(5.0))
    for axis in (0, -1):
        assert tt.repeat(x, 3, axis=axis).shape == np.repeat(np.array(5.0), 3, axis).shape
        assert rearranging.repeat_shape((), 3, axis) == (3,)
    with pytest.raises(np.exceptions.AxisError):
        tt.repeat(x, 3, axis=1)


def test_runtime_solve_singular_is_linalg_error_and_shapes_by_rule() -> None:
    """A singular matrix is numpy's LinAlgError (not a shape message); a shape mismatch is a
    ValueError with the rule's words."""
    import typedtensor as tt

    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        tt.linalg.solve(tt.ones((3, 3)), tt.ones((3,)))
    with pytest.raises(ValueError, match=r"b's rows are 4"):
        tt.linalg.solve(tt.asarray(np.eye(3)), tt.ones((4,)))
    with pytest.raises(ValueError, match="batch dims"):
        tt.linalg.solve(tt.asarray(np.ones((2, 3, 3))), tt.ones((4, 3, 1)))
