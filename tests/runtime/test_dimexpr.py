"""Dim expressions (``_rules.dimexpr``) against integer arithmetic: the canonical form of a
random expression evaluates, for sampled symbol sizes, to what Python's ints give for the same
expression; the relations the rules decide (equal, different) hold for the sampled sizes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from typedtensor._rules.dimexpr import DimExpr, Relation, relation

NAMES = ("B", "N", "D", "H")


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


B, N, D, H = (DimExpr.symbol(n) for n in NAMES)


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
        (2 * B, 4),
        (B, N),
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
        (B * N, "B * N"),
        (DimExpr.const(0), "0"),
    ],
)
def test_printed_as_python_arithmetic(expr: DimExpr, text: str) -> None:
    assert str(expr) == text
    env = {"B": 7, "N": 3, "D": 40, "H": 2}
    assert eval(text, {}, env) == expr.evaluate(env)
