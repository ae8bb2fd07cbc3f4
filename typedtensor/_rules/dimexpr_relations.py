"""What the rules can say about dim expressions (``dimexpr.DimExpr``): whether two sizes are
equal, differ or may be either (``relation``), whether a constant never divides one
(``never_divides``), and the product of several.

>>> B = DimExpr.symbol("B")
>>> relation(2 * B, B + B).value, relation(B + 1, B).value
('equal', 'different')
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from math import gcd

from .dimexpr import DimExpr, Symbol

__all__ = ["Relation", "never_divides", "product", "relation"]


class Relation(Enum):
    """What the rules can say about two sizes."""

    EQUAL = "equal"
    DIFFERENT = "different"
    UNKNOWN = "unknown"


def relation(a: DimExpr, b: DimExpr) -> Relation:
    """Whether ``a == b`` for every size of the symbols: ``EQUAL`` (same canonical form),
    ``DIFFERENT`` (they differ for every size >= 1 of the symbols: their difference is a
    polynomial in symbols whose coefficients have one sign, or a nonzero constant plus terms
    whose coefficients share a factor that does not divide it) or ``UNKNOWN``. (A symbol of
    size 0 can make ``3 * B`` and ``4 * B`` equal; the rules reject both pairs, the relation
    only picks the error.)

    >>> B = DimExpr.symbol("B")
    >>> relation(B + B, 2 * B).value, relation(B + 1, B).value, relation(2 * B, 3).value
    ('equal', 'different', 'different')
    >>> relation(2 * B, 4).value
    'unknown'
    """
    diff = a - b
    if not diff.terms:
        return Relation.EQUAL
    signs = {coef > 0 for coef in diff.terms.values()}
    if len(signs) == 1 and all(isinstance(x, Symbol) for x in diff.atoms()):
        return Relation.DIFFERENT  # a polynomial with one sign is not 0 for sizes >= 1
    c = diff.terms.get((), 0)
    g = 0
    for mono, coef in diff.terms.items():
        if mono:
            g = gcd(g, coef)
    if c and (g == 0 or c % g):
        return Relation.DIFFERENT
    return Relation.UNKNOWN


def product(items: Iterable[DimExpr]) -> DimExpr:
    """The product of expressions (1 for none)."""
    out = DimExpr.const(1)
    for item in items:
        out = out * item
    return out


def never_divides(num: DimExpr, den: DimExpr) -> bool:
    """Whether the constant ``den`` divides ``num`` for no size of its symbols
    (``2 * B + 1`` by 2).

    >>> B = DimExpr.symbol("B")
    >>> never_divides(2 * B + 1, DimExpr.const(2)), never_divides(3 * B + 1, DimExpr.const(2))
    (True, False)
    """
    c = den.constant
    if c is None or c == 0:
        return False
    g = abs(c)
    for mono, coef in num.terms.items():
        if mono:
            g = gcd(g, coef)
    return num.terms.get((), 0) % g != 0
