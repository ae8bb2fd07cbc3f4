"""Shape manipulation against numpy: transposes, reshape, expand_dims/squeeze,
concatenate/stack/split, broadcast_to.

numpy is the oracle: each drawn call (valid or not) runs through numpy and through typedtensor;
the results must be equal in shape, dtype and values, or typedtensor must raise the class numpy
raises (or a subclass). Inputs (C, Fortran, negative-stride, broadcast, strided, read-only) are
never modified.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import typedtensor as tt
from typedtensor import _rules as rules

from ._strategies import DTYPES, Case, arrays

SETTINGS = settings(max_examples=300, deadline=None)


def _read_only(case: Case, data: st.DataObject) -> np.ndarray[Any, Any]:
    a = case.array
    if data.draw(st.booleans(), label="read-only"):
        a = a.view()
        a.flags.writeable = False
    return a


def _same(got: object, want: object) -> None:
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
        return
    assert isinstance(got, tt.Tensor), type(got)
    w = np.asarray(want)
    g = got.numpy()
    assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
    np.testing.assert_array_equal(g, w)


def agree(
    ours: Callable[[], object], numpys: Callable[[], object], inputs: list[np.ndarray[Any, Any]]
) -> str:
    """Run both; equal results, or ours raises numpy's exception class (or a subclass).
    Returns ``"ok"`` or ``"raised"``; checks that no input changed."""
    before = [a.copy() for a in inputs]
    try:
        want = numpys()
    except Exception as err:
        with pytest.raises(type(err)):
            ours()
        outcome = "raised"
    else:
        _same(ours(), want)
        outcome = "ok"
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)
    return outcome


def _axis(data: st.DataObject, ndim: int, label: str) -> int:
    """Mostly a valid axis, sometimes one out of range."""
    return data.draw(st.integers(-ndim - 1, ndim), label=label)


# --------------------------------------------------------------------------- dim orders
@SETTINGS
@given(case=arrays(), data=st.data())
def test_transposes_agree_with_numpy(case: Case, data: st.DataObject) -> None:
    a = _read_only(case, data)
    x = tt.asarray(a)
    n = a.ndim
    op = data.draw(
        st.sampled_from(["T", "mT", "method", "varargs", "transpose", "permute", "swap", "move"])
    )
    perm = data.draw(
        st.one_of(
            st.permutations(range(n)).map(
                lambda p: tuple(d - n if i % 2 else d for i, d in enumerate(p))
            ),
            st.lists(st.integers(-n - 1, n), max_size=n + 1).map(tuple),
        ),
        label="axes",
    )
    if op == "T":
        agree(lambda: x.T, lambda: a.T, [a])
    elif op == "mT":
        agree(lambda: x.mT, lambda: a.mT, [a])
    elif op == "method":
        agree(lambda: x.transpose(perm), lambda: a.transpose(perm), [a])
    elif op == "varargs":
        agree(lambda: x.transpose(*perm), lambda: a.transpose(*perm), [a])
    elif op == "transpose":
        axes = None if data.draw(st.booleans()) else perm
        agree(lambda: tt.transpose(x, axes), lambda: np.transpose(a, axes), [a])
    elif op == "permute":
        agree(lambda: tt.permute_dims(x, perm), lambda: np.permute_dims(a, perm), [a])
    elif op == "swap":
        a1, a2 = _axis(data, n, "axis1"), _axis(data, n, "axis2")
        agree(lambda: tt.swapaxes(x, a1, a2), lambda: np.swapaxes(a, a1, a2), [a])
        agree(lambda: x.swapaxes(a1, a2), lambda: a.swapaxes(a1, a2), [a])
    else:
        src = perm[: data.draw(st.integers(0, len(perm)))]
        dst = data.draw(st.permutations(range(n)).map(lambda p: tuple(p[: len(src)])))
        if data.draw(st.booleans()) and len(src) == 1:
            src, dst = src[0], dst[0] if dst else 0  # type: ignore[assignment]
        if data.draw(st.booleans()) and isinstance(dst, tuple) and dst:
            dst = dst[:-1]  # lengths differ
        agree(lambda: tt.moveaxis(x, src, dst), lambda: np.moveaxis(a, src, dst), [a])


def test_transpose_errors_say_what_is_wrong() -> None:
    x = tt.zeros((2, 3, 4))
    with pytest.raises(ValueError, match=r"not a permutation of the dims of a rank-3 tensor"):
        x.transpose(0, 1)
    with pytest.raises(ValueError, match=r"axes 0 and -3 both refer to dim 0"):
        tt.permute_dims(x, (0, -3, 1))
    with pytest.raises(tt.AxisError, match=r"axis 3 is out of range for a rank-3 tensor"):
        tt.swapaxes(x, 3, 0)
    with pytest.raises(ValueError, match=r"names 2 axes but destination 0 names 1"):
        tt.moveaxis(x, (0, 1), 0)
    with pytest.raises(tt.ShapeError, match=r"mT .* needs a tensor of rank >= 2, got rank 1"):
        _ = tt.zeros((3,)).mT
    with pytest.raises(TypeError):
        tt.swapaxes(x, None, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tt.permute_dims(x, None)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ reshape
@st.composite
def reshape_targets(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A target of the same size (regrouped factors), maybe one -1, or a wrong one."""
    factors = [f for d in shape for f in _factors(d)]
    factors = list(draw(st.permutations(factors)))
    groups: list[int] = []
    for f in factors:
        if groups and draw(st.booleans()):
            groups[-1] *= f
        else:
            groups.append(f)
    kind = draw(st.sampled_from(["same", "infer", "infer", "two", "wrong", "ones"]))
    if kind == "ones":
        groups = [1, *groups, 1]
    if kind in ("infer", "two") and groups:
        i = draw(st.integers(0, len(groups) - 1))
        groups[i] = -1
        if kind == "two":
            groups.append(-1)
    if kind == "wrong":
        groups.append(draw(st.integers(0, 3)))
    return tuple(groups)


def _factors(d: int) -> list[int]:
    out, p = [], 2
    while d > 1 and p <= d:
        while d % p == 0:
            out.append(p)
            d //= p
        p += 1
    return out if d != 1 or out else [d]


@SETTINGS
@given(case=arrays(), data=st.data())
def test_reshape_agrees_with_numpy(case: Case, data: st.DataObject) -> None:
    a = _read_only(case, data)
    x = tt.asarray(a)
    target = data.draw(reshape_targets(a.shape), label="target")
    spelling = data.draw(st.sampled_from(["tuple", "varargs", "function", "list"]))
    if spelling == "tuple":
        agree(lambda: x.reshape(target), lambda: a.reshape(target), [a])
    elif spelling == "varargs" and target:
        agree(lambda: x.reshape(*target), lambda: a.reshape(*target), [a])
    elif spelling == "list":
        agree(lambda: tt.reshape(x, list(target)), lambda: np.reshape(a, list(target)), [a])
    else:
        agree(lambda: tt.reshape(x, target), lambda: np.reshape(a, target), [a])


def test_reshape_errors_say_what_is_wrong() -> None:
    x = tt.zeros((2, 3, 4))
    with pytest.raises(tt.ShapeError, match=r"only one target dim may be -1"):
        x.reshape(-1, -1)
    with pytest.raises(tt.ShapeError, match=r"24 elements are not a multiple of the 5 elements"):
        x.reshape(5, -1)
    with pytest.raises(tt.ShapeError, match=r"24 elements do not fit in 25 elements"):
        tt.reshape(x, (5, 5))
    with pytest.raises(tt.ShapeError, match=r"the -1 dim cannot be inferred when another"):
        tt.zeros((0, 3)).reshape(0, -1)
    with pytest.raises(TypeError, match="needs a shape"):
        x.reshape()
    with pytest.raises(TypeError):
        x.reshape(2.0, 12)
    assert tt.zeros((2, 3)).reshape(6).shape == (6,)
    assert tt.zeros(()).reshape(()).shape == ()
    assert tt.zeros((1, 1)).reshape(()).shape == ()


# --------------------------------------------------------------------- expand / squeeze
@SETTINGS
@given(case=arrays(), data=st.data())
def test_expand_dims_and_squeeze_agree_with_numpy(case: Case, data: st.DataObject) -> None:
    a = _read_only(case, data)
    x = tt.asarray(a)
    n = a.ndim
    count = data.draw(st.integers(1, 3), label="count")
    axes = tuple(data.draw(st.lists(st.integers(-n - count - 1, n + count), min_size=count)))
    axis: Any = axes[0] if len(axes) == 1 and data.draw(st.booleans()) else axes
    agree(lambda: tt.expand_dims(x, axis), lambda: np.expand_dims(a, axis), [a])
    ones = [i for i, d in enumerate(a.shape) if d == 1]
    choices = [None, *range(-n - 1, n + 1), tuple(ones), tuple(o - n for o in ones)]
    sq = data.draw(st.sampled_from(choices), label="squeeze axis")
    agree(lambda: tt.squeeze(x, sq), lambda: np.squeeze(a, sq), [a])
    agree(lambda: x.squeeze(sq), lambda: a.squeeze(sq), [a])


def test_squeeze_errors_say_what_is_wrong() -> None:
    x = tt.zeros((1, 3, 1))
    with pytest.raises(tt.ShapeError, match=r"cannot squeeze axis 1 .* its size is 3, not 1"):
        x.squeeze(1)
    with pytest.raises(ValueError, match=r"axis 0 is repeated"):
        tt.squeeze(x, (0, 0))
    with pytest.raises(ValueError, match=r"axes 0 and -5 both refer to dim 0"):
        tt.expand_dims(x, (0, -5))
    with pytest.raises(tt.AxisError):
        tt.expand_dims(x, 4)
    assert x.squeeze().shape == (3,) and tt.expand_dims(x, [0, -1]).shape == (1, 1, 3, 1, 1)


# ---------------------------------------------------------- concatenate / stack / split
@SETTINGS
@given(case=arrays(), data=st.data())
def test_concatenate_and_stack_agree_with_numpy(case: Case, data: st.DataObject) -> None:
    a = _read_only(case, data)
    n = a.ndim
    others = []
    for _ in range(data.draw(st.integers(0, 2), label="more tensors")):
        shape = list(a.shape)
        if n and data.draw(st.booleans()):
            k = data.draw(st.integers(0, n - 1))
            shape[k] = data.draw(st.integers(0, 3))
        if data.draw(st.integers(0, 9)) == 0:
            shape = shape[:-1]
        dtype = data.draw(st.sampled_from([a.dtype.name, *DTYPES]))
        others.append(np.ones(shape, dtype=dtype))
    arrs = [a, *others]
    tensors = [tt.asarray(b) for b in arrs]
    axis = _axis(data, n, "axis")
    as_tuple = data.draw(st.booleans())
    seq: Any = tuple(tensors) if as_tuple else tensors
    agree(lambda: tt.concatenate(seq, axis=axis), lambda: np.concatenate(arrs, axis=axis), arrs)
    agree(lambda: tt.concat(seq, None), lambda: np.concatenate(arrs, axis=None), arrs)
    s_axis = _axis(data, n + 1, "stack axis")
    agree(lambda: tt.stack(seq, s_axis), lambda: np.stack(arrs, s_axis), arrs)


@pytest.mark.parametrize("left", DTYPES)
@pytest.mark.parametrize("right", DTYPES)
def test_concatenate_and_stack_promote_every_dtype_pair(left: str, right: str) -> None:
    a, b = np.ones((2, 3), left), np.zeros((2, 3), right)
    x, y = tt.asarray(a), tt.asarray(b)
    want = rules.promote(left, right)
    got = tt.concatenate([x, y], axis=1)
    assert got.numpy().dtype.name == want == np.concatenate([a, b], axis=1).dtype.name
    _same(got, np.concatenate([a, b], axis=1))
    _same(tt.stack((x, y), axis=-1), np.stack([a, b], axis=-1))


def test_join_errors_say_what_is_wrong() -> None:
    x = tt.zeros((2, 3))
    with pytest.raises(tt.ShapeError, match=r"dim 1 is 3 in tensor 0 of shape \(2, 3\) but 4"):
        tt.concatenate([x, tt.zeros((2, 4))])
    with pytest.raises(tt.ShapeError, match=r"tensors of different ranks"):
        tt.concatenate([x, tt.zeros((2,))])
    with pytest.raises(tt.ShapeError, match=r"rank-0 tensors"):
        tt.concatenate([tt.zeros(()), tt.zeros(())])
    with pytest.raises(tt.ShapeError, match=r"at least one tensor"):
        tt.stack([])
    with pytest.raises(tt.ShapeError, match=r"cannot stack tensors of different shapes"):
        tt.stack([x, x.T])
    with pytest.raises(TypeError, match=r"list or tuple of Tensors"):
        tt.concatenate(x)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"takes a typedtensor Tensor"):
        tt.stack([x, np.zeros((2, 3))])  # type: ignore[list-item]


@SETTINGS
@given(case=arrays(), data=st.data())
def test_split_agrees_with_numpy(case: Case, data: st.DataObject) -> None:
    a = _read_only(case, data)
    x = tt.asarray(a)
    sections = data.draw(st.integers(1, 4), label="sections")
    axis = _axis(data, a.ndim, "axis")
    agree(lambda: tt.split(x, sections, axis), lambda: np.split(a, sections, axis), [a])


def test_split_errors_say_what_is_wrong() -> None:
    x = tt.zeros((6, 4))
    assert [p.shape for p in tt.split(x, 3)] == [(2, 4)] * 3
    with pytest.raises(tt.ShapeError, match=r"axis 1 of size 4 into 3 equal sections"):
        tt.split(x, 3, axis=1)
    # numpy raises ZeroDivisionError here; typedtensor a ValueError that says why
    with pytest.raises(ValueError, match=r"sections must be >= 1"):
        tt.split(x, 0)
    with pytest.raises(TypeError, match=r"sections must be an int"):
        tt.split(x, [2, 4])  # type: ignore[arg-type]
    with pytest.raises(IndexError):  # numpy: IndexError; ours: AxisError, a subclass
        tt.split(tt.zeros(()), 1)


# -------------------------------------------------------------------------- broadcast_to
@SETTINGS
@given(case=arrays(), data=st.data())
def test_broadcast_to_agrees_with_numpy(case: Case, data: st.DataObject) -> None:
    a = _read_only(case, data)
    x = tt.asarray(a)
    lead = data.draw(st.lists(st.integers(0, 3), max_size=2), label="leading dims")
    tail = [
        data.draw(st.sampled_from([d, d, 1, 2, 3]), label="target dim") if d == 1 else d
        for d in a.shape
    ]
    if tail and data.draw(st.integers(0, 4)) == 0:
        tail[0] += 1  # not broadcastable (unless it was 1... numpy decides)
    target = (*lead, *tail)
    if data.draw(st.integers(0, 9)) == 0:
        target = target[1:]
    agree(lambda: tt.broadcast_to(x, target), lambda: np.broadcast_to(a, target), [a])


def test_broadcast_to_errors_say_what_is_wrong() -> None:
    x = tt.zeros((3, 1))
    assert tt.broadcast_to(x, (2, 3, 4)).shape == (2, 3, 4)
    assert tt.broadcast_to(tt.zeros(()), 5).shape == (5,)
    with pytest.raises(tt.ShapeError, match=r"dim 3 at position -2 is neither 1 nor"):
        tt.broadcast_to(x, (2, 4, 4))
    with pytest.raises(tt.ShapeError, match=r"fewer dims"):
        tt.broadcast_to(x, (4,))
    with pytest.raises(tt.ShapeError, match=r"must be >= 0"):
        tt.broadcast_to(x, (-1, 3, 1))


# ----------------------------------------------------------- the rules with symbolic dims
D = TypeVar("D")


def _sym(d: object) -> bool:
    return isinstance(d, str)


def _size(d: object) -> int | None:
    return None if isinstance(d, str) or d is None else d  # type: ignore[return-value]


SYM: dict[str, Any] = {"size_of": _size, "is_symbolic": _sym}


@pytest.mark.parametrize(
    ("dims", "target", "want"),
    [
        (("B", 3, 4), ("B", -1), ("B", 12)),
        (("B", 3), (3, -1), (3, "B")),
        (("B", 3, 4), (-1,), (None,)),
        (("B", "T", 4), ("T", -1, 2), ("T", None, 2)),
        (("B", 6), ("B", 2, -1), ("B", 2, 3)),
        ((None, 6), (-1, 6), (None, 6)),
        (("B", "C"), ("C", "B"), ("C", "B")),
    ],
)
def test_reshape_rule_with_symbolic_dims(
    dims: tuple[object, ...], target: tuple[object, ...], want: tuple[object, ...]
) -> None:
    assert rules.reshape_shape(dims, target, **SYM) == want


@pytest.mark.parametrize(
    ("dims", "target", "message"),
    [
        (("B", 3), ("B", 4), "3 * B elements do not fit in 4 * B elements"),
        ((2, "B"), (6, 5), "2 \\* B elements fit in 30 elements only for some sizes"),
        (("B", 3), ("B", 4, "C"), "3 \\* B elements fit in 4 \\* B \\* C elements only"),
        (("B", 2), ("B", 3, 1), "2 * B elements do not fit in 3 * B elements"),
        ((3, "B"), (2, "B", "B"), "3 \\* B elements fit in 2 \\* B \\* B elements only"),
        (("B", 3), ("B", 2, -1), "3 * B elements are not a multiple"),
        (("B", 3), (-1, "B", -1), "only one target dim may be -1"),
        (("B", 3), (0, -1), "another target dim is 0"),
    ],
)
def test_reshape_rule_rejects_with_symbolic_dims(
    dims: tuple[object, ...], target: tuple[object, ...], message: str
) -> None:
    pattern = message if "\\" in message else message.replace("*", r"\*")
    with pytest.raises(rules.ShapeMismatchError, match=pattern) as info:
        rules.reshape_shape(dims, target, **SYM)
    assert info.value.symbolic == ("elements only" in message)


def test_join_and_broadcast_rules_with_symbolic_dims() -> None:
    assert rules.concat_shape([("B", 3), ("B", 2)], axis=1, **SYM) == ("B", 5)
    assert rules.concat_shape([("B", 3), ("B", 3)], **SYM) == (None, 3)
    assert rules.concat_shape([(None, 3), (2, 3)], axis=1, **SYM) == (2, 6)
    assert rules.stack_shape([("B", None), ("B", 3)], axis=-1, **SYM) == ("B", 3, 2)
    assert rules.split_shape(("B", 6), 3, axis=1, size_of=_size) == ("B", 2)
    assert rules.split_shape(("B", 6), 2, size_of=_size) == (None, 6)
    assert rules.broadcast_to_shape((1, "B"), ("A", "B"), **SYM) == ("A", "B")
    assert rules.broadcast_to_shape((3,), (None,), **SYM) == (3,)
    assert rules.squeeze_shape(("B", 1), None, _size) is None
    assert rules.squeeze_shape(("B", 1), 0, _size) == (1,)
    for bad in (
        lambda: rules.concat_shape([("B", 3), ("C", 3)], axis=1, **SYM),
        lambda: rules.concat_shape([("B", 3), (2, 3)], axis=1, **SYM),
        lambda: rules.stack_shape([("B",), (3,)], **SYM),
        lambda: rules.broadcast_to_shape(("B",), (3,), **SYM),
        lambda: rules.broadcast_to_shape((3,), ("B",), **SYM),
    ):
        with pytest.raises(rules.ShapeMismatchError) as info:
            bad()
        assert info.value.symbolic


def test_remembered_validation_never_changes_an_answer() -> None:
    """A call validated once is remembered by its plain arguments; equal but non-int
    arguments (floats, bools) still reach the rule and its TypeError."""
    from typedtensor import manipulation

    x = tt.zeros((2, 3, 4))
    for _ in range(2):
        assert x.transpose(1, 0, 2).shape == (3, 2, 4)
        assert tt.reshape(x, (6, -1)).shape == (6, 4)
        assert tt.swapaxes(x, 0, 1).shape == (3, 2, 4)
    with pytest.raises(TypeError):
        x.transpose(1.0, 0, 2)
    with pytest.raises(TypeError):
        tt.swapaxes(x, True, 1)
    with pytest.raises(TypeError):
        tt.reshape(x, (6.0, -1))  # type: ignore[arg-type]
    with pytest.raises(tt.ShapeError):  # a failed call is never remembered
        tt.reshape(x, (5, -1))
    with pytest.raises(tt.ShapeError):
        tt.reshape(x, (5, -1))
    assert tt.reshape(tt.zeros((5, 2)), (5, -1)).shape == (5, 2)  # same target, other shape
    for n in range(manipulation._VALIDATED_LIMIT + 10):
        tt.expand_dims(tt.zeros((n % 7,)), 0)
        tt.reshape(tt.zeros((1,)), (1,) * (n % 30 + 1))
    assert len(manipulation._VALIDATED) <= manipulation._VALIDATED_LIMIT


def test_bool_sizes_and_axes_are_type_errors() -> None:
    """numpy rejects ``reshape(True, 24)`` and ``transpose(True, ...)`` but takes bools as axes
    of ``swapaxes``/``expand_dims``/``moveaxis``; typedtensor rejects bools everywhere, as its
    reductions do (the README's errors table)."""
    x = tt.zeros((2, 3, 4))
    for call in (
        lambda: x.reshape(True, 24),
        lambda: tt.broadcast_to(x, (True, 2, 3, 4)),
        lambda: x.transpose(True, 0, 2),
        lambda: tt.swapaxes(x, True, 1),
        lambda: tt.expand_dims(x, True),
        lambda: tt.moveaxis(x, True, 0),
        lambda: tt.split(x, True),
        lambda: tt.concatenate([x, x], axis=True),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()
