"""Dim expressions (``_rules.dimexpr``) against integer arithmetic: the canonical form of a
random expression evaluates, for sampled symbol sizes, to what Python's ints give for the same
expression; the relations the rules decide (equal, different) hold for the sampled sizes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from typedtensor._rules.dimexpr import DimExpr, FloorDivAtom
from typedtensor._rules.dimexpr_relations import Relation, relation

NAMES = ("B", "N", "D", "H", "T")


@dataclass(frozen=True)
class Node:
    """An expression tree: ``op`` is ``sym``/``const``/``+``/``-``/``*``/``//``/``exact//``."""

    op: str
    args: tuple[object, ...]


def leaves() -> st.SearchStrategy[Node]:
    return st.one_of(
        st.sampled_from(NAMES).map(lambda n: Node("sym", (n,))),
        st.integers(-3, 12).map(lambda k: Node("const", (k,))),
    )


def trees() -> st.SearchStrategy[Node]:
    return st.recursive(
        leaves(),
        lambda sub: st.tuples(st.sampled_from(["+", "-", "*", "//", "exact//"]), sub, sub).map(
            lambda t: Node(t[0], (t[1], t[2]))
        ),
        max_leaves=8,
    )


def as_int(node: Node, env: dict[str, int]) -> int:
    """Python's integer answer (``exact//`` is ``//``: the tests build it only where it
    divides)."""
    if node.op == "sym":
        return env[str(node.args[0])]
    if node.op == "const":
        return int(node.args[0])  # type: ignore[call-overload]
    a, b = (as_int(n, env) for n in node.args)  # type: ignore[arg-type]
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    return a // b


def as_expr(node: Node, env: dict[str, int]) -> DimExpr:
    """The same tree built as a ``DimExpr``; a division by a zero value, or an ``exact//``
    that does not divide for ``env``, is not a case (``assume``)."""
    if node.op == "sym":
        return DimExpr.symbol(node.args[0])
    if node.op == "const":
        return DimExpr.const(int(node.args[0]))  # type: ignore[call-overload]
    left, right = node.args
    a, b = as_expr(left, env), as_expr(right, env)  # type: ignore[arg-type]
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    den = as_int(right, env)  # type: ignore[arg-type]
    assume(den != 0)
    exact = node.op == "exact//"
    if exact:
        assume(as_int(left, env) % den == 0)  # type: ignore[arg-type]
    return a.floordiv(b, exact=exact)


ENVS = st.fixed_dictionaries({n: st.integers(1, 24) for n in NAMES})


@settings(max_examples=600, deadline=None)
@given(tree=trees(), env=ENVS)
def test_normal_form_evaluates_as_integers(tree: Node, env: dict[str, int]) -> None:
    expr = as_expr(tree, env)
    assert expr.evaluate(env) == as_int(tree, env)


@settings(max_examples=400, deadline=None)
@given(left=trees(), right=trees(), env=ENVS)
def test_relations_hold_for_sampled_sizes(left: Node, right: Node, env: dict[str, int]) -> None:
    a, b = as_expr(left, env), as_expr(right, env)
    rel = relation(a, b)
    if rel is Relation.EQUAL:
        assert a.evaluate(env) == b.evaluate(env)
    elif rel is Relation.DIFFERENT:
        assert a.evaluate(env) != b.evaluate(env)


@settings(max_examples=200, deadline=None)
@given(tree=trees(), env=ENVS)
def test_substituting_every_symbol_gives_the_constant(tree: Node, env: dict[str, int]) -> None:
    expr = as_expr(tree, env)
    assert expr.substitute(lambda s: env[str(s.key)]).constant == as_int(tree, env)


@settings(max_examples=300, deadline=None)
@given(quotient=trees(), den=trees(), num=trees(), env=ENVS)
def test_exact_division_of_polynomials(
    quotient: Node, den: Node, num: Node, env: dict[str, int]
) -> None:
    """A product divided by a factor gives the other factor back; any answer ``q`` of
    ``divide_exactly`` has ``q * den == num`` (the division is an identity)."""
    q, d, n = as_expr(quotient, env), as_expr(den, env), as_expr(num, env)
    assume(d.terms)
    assert (q * d).divide_exactly(d) in (q, None)  # None only where exact atoms cancelled
    if not any(isinstance(a, FloorDivAtom) and a.exact for a in q.atoms() | d.atoms()):
        assert (q * d).divide_exactly(d) == q
    answer = n.divide_exactly(d)
    if answer is not None:
        assert answer * d == n
        if d.evaluate(env) != 0:
            assert (n // d).evaluate(env) == n.evaluate(env) // d.evaluate(env)


B, N, D, H, T = (DimExpr.symbol(n) for n in NAMES)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (B + B, 2 * B),
        (B + N, N + B),
        ((B * 10) // 5, 2 * B),
        (D.floordiv(H, exact=True) * H, D),
        (H * D.floordiv(8 * H, exact=True) * 8, D),
        ((D // 8) // 2, D // 16),
        ((4 * B + 3) // 2, 2 * B + 1),
        ((B * N * D) // (B * N), D),
        ((B - N) + N, B),
        (D.floordiv(H, exact=True), D // H),  # exactness is a fact, not part of the value
        (DimExpr.const(1) // (4 * B), DimExpr.const(0)),  # 0 <= 1 < 4 * B for every B >= 1
        (DimExpr.const(4) // (B + N + 3), DimExpr.const(0)),
        # an exact division of an inexact one stays nested (6 need not divide D), and cancels
        ((D // 2).floordiv(3, exact=True) * 3, D // 2),
        ((D.floordiv(2, exact=True)).floordiv(3, exact=True) * 6, D),
        # dividing by an exact division multiplies by its denominator: D = 2 * (D // 2)
        ((B * D * N) // D.floordiv(2, exact=True), 2 * B * N),
        ((6 * D) // (3 * D.floordiv(H, exact=True)), 2 * H),
    ],
)
def test_equal_sizes_have_one_form(left: DimExpr, right: DimExpr) -> None:
    assert left == right and hash(left) == hash(right)
    assert relation(left, right) is Relation.EQUAL


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ((D // H) * H, D),  # not known to divide: D = 10, H = 3 gives 9
        ((D // 8) * 8, D),
        (((D // 2) // 3) * 6, D),  # an inexact division of an inexact one: D // 6, inexact
        ((B * D) // (D // 2), 2 * B),  # D = 3 gives 3 * B
        ((B * D) // (3 * D.floordiv(2, exact=True)), B),  # 2 * B / 3 is no polynomial
        (DimExpr.const(4) // (B + 1), DimExpr.const(0)),  # 1 for B <= 3
        (2 * B, 4),
        (B, N),
        (3 * B, 2 * N),
    ],
)
def test_unproved_equalities_stay_unknown(left: DimExpr, right: DimExpr) -> None:
    assert left != right
    assert relation(left, right) is Relation.UNKNOWN


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (2 * B, "2 * B"),
        (D // 8, "D // 8"),
        (B + N, "B + N"),
        (B - N, "B - N"),
        (2 * (D // 8) + 1, "2 * (D // 8) + 1"),
        ((B + 1) // (2 * N), "(B + 1) // (2 * N)"),
        (D // (D // 4), "D // (D // 4)"),
        ((D // 2).floordiv(3, exact=True), "(D // 2) // 3"),
        (B * N, "B * N"),
        (DimExpr.const(0), "0"),
    ],
)
def test_printed_as_python_arithmetic(expr: DimExpr, text: str) -> None:
    assert str(expr) == text
    env = {"B": 7, "N": 3, "D": 40, "H": 2, "T": 5}
    assert eval(text, {}, env) == expr.evaluate(env)


# ------------------------------------------------- the rules with expression dims, vs numpy
EXPR: dict[str, object] = {
    "size_of": lambda d: d.constant,
    "is_symbolic": lambda d: d.constant is None,
    "expr_of": lambda d: d,
    "make_expr": lambda e: e,
    "make_dim": DimExpr.const,
    "render_dim": str,
}


def _dims(*items: DimExpr | int) -> tuple[DimExpr, ...]:
    return tuple(DimExpr.of(i) for i in items)


def _sizes(dims: tuple[DimExpr, ...], env: dict[str, int]) -> tuple[int, ...]:
    return tuple(d.evaluate(env) for d in dims)


RESHAPES = [
    ((B, 10), (-1, 5), (2 * B, 5)),
    ((B, T, 64), (B, T, 8, -1), (B, T, 8, 8)),
    ((B, T, D), (B, T, H, -1), (B, T, H, D.floordiv(H, exact=True))),
    ((B, T, H, D.floordiv(H, exact=True)), (B, T, D), (B, T, D)),
    ((B, T, H, D.floordiv(H, exact=True)), (B, T, -1), (B, T, D)),
    ((B, 3, 4), (B, -1), (B, 12)),
    ((B, 3), (3, -1), (3, B)),
    ((2 * B, N), (B, -1), (B, 2 * N)),
    ((B, N), (N, B), (N, B)),
    # a computed D // 4 (not known to divide) as a target: numpy's count check proves it exact
    ((B, D), (B, D // 4, 4), (B, D.floordiv(4, exact=True), 4)),
    ((B, D), (D // H, B, H), (D.floordiv(H, exact=True), B, H)),
    # with a -1 it proves nothing; the -1 is the exact part
    ((B, D), (B, D // 4, -1), (B, D // 4, D.floordiv(D // 4, exact=True))),
]


#: sizes where D is a multiple of H half the time (a tensor with dim D // H exact can exist)
SPLIT_ENVS = st.one_of(
    ENVS, st.tuples(ENVS, st.integers(0, 6)).map(lambda t: {**t[0], "D": t[0]["H"] * t[1]})
)


@pytest.mark.parametrize(("dims", "target", "want"), RESHAPES)
@settings(max_examples=25, deadline=None)
@given(env=SPLIT_ENVS)
def test_reshape_of_expressions_agrees_with_numpy(
    dims: tuple[object, ...],
    target: tuple[object, ...],
    want: tuple[object, ...],
    env: dict[str, int],
) -> None:
    import numpy as np

    from typedtensor import _rules as rules

    src, dst, expected = _dims(*dims), _dims(*target), _dims(*want)  # type: ignore[arg-type]
    got = rules.reshape_shape(src, dst, **EXPR)
    assert got == expected
    sizes = _sizes(src, env)
    assume(all(s >= 0 for s in sizes) and _exact_holds(src, env))  # a tensor that can exist
    try:
        shape = np.empty(sizes).reshape(tuple(t.evaluate(env) for t in dst)).shape
    except ValueError:
        # numpy refuses only where an exact division the rule assumed does not hold
        assert not _exact_holds(got, env)
        return
    assert shape == _sizes(got, env)


def _exact_holds(dims: tuple[DimExpr, ...], env: dict[str, int]) -> bool:
    """Whether every exact division in ``dims`` divides for the sizes ``env``."""
    return all(
        a.den.evaluate(env) != 0 and a.num.evaluate(env) % a.den.evaluate(env) == 0
        for d in dims
        for a in d.atoms()
        if isinstance(a, FloorDivAtom) and a.exact
    )


REFUSED = [
    ((2, B), (6, 5), True),  # fits only for B = 15
    ((B, 3), (B, 4), False),  # only for B = 0: different for every size >= 1
    ((B, T, H, D // H), (B, T, D), True),  # D // H not known to divide
    ((2 * B + 1,), (2, -1), False),  # never a multiple of 2
    ((B, 3), (B + 1, 3), False),  # 3 * B != 3 * B + 3 for every B
    ((B, D), (B, D // 4, 2), True),  # 2 * (D // 4) is D for no D, but not provably so
    ((D // 4, 4), (D,), True),  # a source's inexact division is no run-time check
    ((D,), (D // 2, D // 2), True),  # not one lone division per target dim
    ((D,), (D // 2 + 1, 2), True),  # D // 2 + 1: not a lone division
    ((N - 1, D), (N - 1, D // 4, 4), True),  # 0 elements for N = 1 fit D // 4 for any D
]


@pytest.mark.parametrize(("dims", "target", "symbolic"), REFUSED)
def test_reshape_of_expressions_refuses_what_it_cannot_prove(
    dims: tuple[object, ...], target: tuple[object, ...], symbolic: bool
) -> None:
    from typedtensor import _rules as rules

    with pytest.raises(rules.ShapeMismatchError) as info:
        rules.reshape_shape(_dims(*dims), _dims(*target), **EXPR)  # type: ignore[arg-type]
    assert info.value.symbolic is symbolic


@settings(max_examples=40, deadline=None)
@given(env=ENVS)
def test_concat_and_split_of_expressions_agree_with_numpy(env: dict[str, int]) -> None:
    import numpy as np

    from typedtensor import _rules as rules

    kw = {k: v for k, v in EXPR.items() if k != "render_dim"}
    joined = rules.concat_shape([_dims(B, 3), _dims(N, 3), _dims(2 * B, 3)], axis=0, **kw)
    assert joined == _dims(3 * B + N, 3)
    arrays = [np.empty((b, 3)) for b in (env["B"], env["N"], 2 * env["B"])]
    assert np.concatenate(arrays).shape == _sizes(joined, env)
    parts = rules.split_shape(_dims(B, 4 * D), 4, axis=1, **kw)
    assert parts == _dims(B, D)
    assert np.split(np.empty(_sizes(_dims(B, 4 * D), env)), 4, axis=1)[0].shape == (
        _sizes(parts, env)
    )
    heads = rules.split_shape(_dims(B, D), 8, axis=-1, **kw)
    assert heads == (B, D.floordiv(8, exact=True))
    with pytest.raises(rules.ShapeMismatchError, match="for no size"):
        rules.split_shape(_dims(2 * B + 1), 2, **kw)
    with pytest.raises(rules.ShapeMismatchError) as info:
        rules.concat_shape([_dims(B, 3), _dims(B + 1, 3)], axis=1, **kw)
    assert not info.value.symbolic  # B + 1 differs from B for every size
