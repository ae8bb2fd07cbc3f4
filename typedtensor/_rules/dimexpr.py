"""Dim expressions: sizes computed from symbols and integers with ``+``, ``-``, ``*``, ``//``.

One canonical form, so that equal sizes compare equal structurally: a sum of products of
*atoms* with integer coefficients (a polynomial), where an atom is a symbol or a floor division
``p // q`` that could not be simplified. ``2 * B == B + B``, ``(B * 10) // 5 == 2 * B``.

Floor divisions simplify where the answer is an identity over the integers:
``(q * X + R) // q == X + R // q`` for an integer polynomial ``X`` and a constant ``q > 0``;
``(p // q) // r == p // (q * r)`` (kept nested where only the outer division is exact, as
``q * r`` need not divide ``p``); ``n // q == 0`` for a constant ``0 <= n`` below every size of
``q``; and ``(p // q) * q == p`` only for an *exact* division, one the rules know divides (a
reshape or split produced it, and numpy checks at run time that it divides). Exactness is a
fact about the atom, not part of its value: an exact and a plain ``D // H`` are equal.

A symbol is any hashable key with a printable name (the runtime uses names, the plugin its mypy
types). Nothing here imports numpy or mypy.

>>> B, N = DimExpr.symbol("B"), DimExpr.symbol("N")
>>> str(2 * B + N), str((B * 10) // 5), B + B == 2 * B
('2 * B + N', '2 * B', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from math import gcd
from typing import Union

from .dimexpr_text import expr_text, floordiv_text

__all__ = ["Atom", "DimExpr", "FloorDivAtom", "Symbol", "cancel_common"]


class Symbol:
    """A symbolic size: ``key`` identifies it (a name, a TypeVar...), ``name`` prints it."""

    __slots__ = ("key", "name")

    def __init__(self, key: object, name: str | None = None) -> None:
        self.key = key
        self.name = name if name is not None else str(key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Symbol) and self.key == other.key

    def __hash__(self) -> int:
        return hash(("sym", self.key))

    def sort_key(self) -> tuple[object, ...]:
        """Symbols first, by name."""
        return (0, self.name, str(self.key))

    def __repr__(self) -> str:
        return self.name


class FloorDivAtom:
    """``num // den`` that did not simplify (``den`` is never 0 or 1 as a constant).
    ``exact``: known to divide; not part of equality."""

    __slots__ = ("den", "exact", "num")

    def __init__(self, num: DimExpr, den: DimExpr, exact: bool) -> None:
        self.num = num
        self.den = den
        self.exact = exact

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FloorDivAtom) and (self.num, self.den) == (other.num, other.den)

    def __hash__(self) -> int:
        return hash(("floordiv", self.num, self.den))

    def sort_key(self) -> tuple[object, ...]:
        """After the symbols, by the sort keys of numerator and denominator."""
        return (1, self.num.sort_key(), self.den.sort_key())

    def __repr__(self) -> str:
        return floordiv_text(self.num, self.den)


Atom = Union[Symbol, FloorDivAtom]
#: a product of atoms, sorted, with repetition (``B * B``)
Monomial = tuple[Atom, ...]
Operand = Union["DimExpr", int]


def _mono_key(mono: Monomial) -> tuple[object, ...]:
    return tuple(a.sort_key() for a in mono)


def _remove(mono: Monomial, part: Monomial) -> Monomial | None:
    """``mono`` with the atoms of ``part`` taken out (as a multiset), ``None`` if missing."""
    rest = list(mono)
    for atom in part:
        if atom not in rest:
            return None
        rest.remove(atom)
    return tuple(rest)


def _leading(terms: Mapping[Monomial, int]) -> Monomial:
    """The leading monomial in a graded order (degree, then atoms): the product of leading
    monomials is the leading monomial of a product, which makes long division work."""
    return max(terms, key=lambda m: (len(m), _mono_key(m)))


def _divide_polynomials(num: Mapping[Monomial, int], den: Mapping[Monomial, int]) -> DimExpr | None:
    """``num / den`` by long division as integer polynomials in the atoms, ``None`` unless it
    leaves no remainder: each step divides the leading terms (an exact division of one
    polynomial by another always goes through this way)."""
    dlead = _leading(den)
    dcoef = den[dlead]
    rest = {m: c for m, c in num.items() if c}
    quotient: dict[Monomial, int] = {}
    for _ in range(4 * len(num) + 8):  # each step removes rest's leading term
        if not rest:
            return DimExpr(quotient)
        lead = _leading(rest)
        qmono = _remove(lead, dlead)
        if qmono is None or rest[lead] % dcoef:
            return None
        qcoef = rest[lead] // dcoef
        quotient[qmono] = quotient.get(qmono, 0) + qcoef
        for dmono, c in den.items():
            mono = tuple(sorted(qmono + dmono, key=lambda a: a.sort_key()))
            rest[mono] = rest.get(mono, 0) - qcoef * c
            if not rest[mono]:
                del rest[mono]
    return None


class DimExpr:
    """An integer polynomial over atoms in canonical form (immutable, hashable).

    Build with ``DimExpr.const``/``DimExpr.symbol`` and Python's ``+ - * //``.

    >>> D, H = DimExpr.symbol("D"), DimExpr.symbol("H")
    >>> head = D.floordiv(H, exact=True)
    >>> str(head), head * H == D
    ('D // H', True)
    """

    __slots__ = ("_hash", "terms")

    def __init__(self, terms: Mapping[Monomial, int]) -> None:
        """Use ``const``/``symbol``; ``terms`` maps a sorted monomial to its coefficient."""
        self.terms: dict[Monomial, int] = {m: c for m, c in terms.items() if c}
        self._hash = hash(frozenset(self.terms.items()))

    # ---------------------------------------------------------------------- construction
    @staticmethod
    def const(n: int) -> DimExpr:
        """The integer ``n``."""
        return DimExpr({(): n})

    @staticmethod
    def symbol(key: object, name: str | None = None) -> DimExpr:
        """A symbolic size named ``name`` (default ``str(key)``)."""
        return DimExpr({(Symbol(key, name),): 1})

    @staticmethod
    def of(value: Operand) -> DimExpr:
        """An int as a constant, a ``DimExpr`` as itself."""
        return value if isinstance(value, DimExpr) else DimExpr.const(value)

    # ---------------------------------------------------------------------------- reading
    @property
    def constant(self) -> int | None:
        """The value when the expression has no atom, else ``None``."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and () in self.terms:
            return self.terms[()]
        return None

    @property
    def single_symbol(self) -> object | None:
        """The key when the expression is exactly one symbol, else ``None``."""
        if len(self.terms) == 1:
            ((mono, coef),) = self.terms.items()
            if coef == 1 and len(mono) == 1 and isinstance(mono[0], Symbol):
                return mono[0].key
        return None

    def atoms(self) -> set[Atom]:
        """Every atom of the expression (not inside floor divisions)."""
        return {a for mono in self.terms for a in mono}

    def symbols(self) -> set[Symbol]:
        """Every symbol, inside floor divisions too."""
        found: set[Symbol] = set()
        for atom in self.atoms():
            if isinstance(atom, Symbol):
                found.add(atom)
            else:
                found |= atom.num.symbols() | atom.den.symbols()
        return found

    def sorted_terms(self) -> list[tuple[Monomial, int]]:
        """Terms in print order: higher degree first, then by atoms; the constant last."""
        return sorted(
            self.terms.items(), key=lambda t: (len(t[0]) == 0, -len(t[0]), _mono_key(t[0]))
        )

    def sort_key(self) -> tuple[object, ...]:
        """A total order on expressions (for sorting atoms)."""
        return tuple((_mono_key(m), c) for m, c in self.sorted_terms())

    def evaluate(self, values: Callable[[Symbol], int] | Mapping[object, int]) -> int:
        """The integer value with each symbol's size from ``values`` (a mapping by key or a
        function of the ``Symbol``). ``(2 * B).evaluate({"B": 3}) == 6``."""
        lookup = values if callable(values) else (lambda s: values[s.key])
        total = 0
        for mono, coef in self.terms.items():
            term = coef
            for atom in mono:
                if isinstance(atom, Symbol):
                    term *= lookup(atom)
                else:
                    term *= atom.num.evaluate(lookup) // atom.den.evaluate(lookup)
            total += term
        return total

    def substitute(self, values: Callable[[Symbol], Operand | None]) -> DimExpr:
        """The expression with each symbol for which ``values`` gives a value replaced."""
        total = DimExpr.const(0)
        for mono, coef in self.terms.items():
            term = DimExpr.const(coef)
            for atom in mono:
                if isinstance(atom, Symbol):
                    v = values(atom)
                    term = term * (DimExpr({(atom,): 1}) if v is None else DimExpr.of(v))
                else:
                    num, den = atom.num.substitute(values), atom.den.substitute(values)
                    term = term * num.floordiv(den, exact=atom.exact)
            total = total + term
        return total

    # ------------------------------------------------------------------------- arithmetic
    def __add__(self, other: Operand) -> DimExpr:
        o = DimExpr.of(other)
        terms = dict(self.terms)
        for mono, coef in o.terms.items():
            terms[mono] = terms.get(mono, 0) + coef
        return DimExpr(terms)._cancel_exact()

    __radd__ = __add__

    def __neg__(self) -> DimExpr:
        return DimExpr({m: -c for m, c in self.terms.items()})

    def __sub__(self, other: Operand) -> DimExpr:
        return self + -DimExpr.of(other)

    def __rsub__(self, other: Operand) -> DimExpr:
        return DimExpr.of(other) - self

    def __mul__(self, other: Operand) -> DimExpr:
        o = DimExpr.of(other)
        terms: dict[Monomial, int] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in o.terms.items():
                mono = tuple(sorted(m1 + m2, key=lambda a: a.sort_key()))
                terms[mono] = terms.get(mono, 0) + c1 * c2
        return DimExpr(terms)._cancel_exact()

    __rmul__ = __mul__

    def __floordiv__(self, other: Operand) -> DimExpr:
        return self.floordiv(other)

    def __rfloordiv__(self, other: Operand) -> DimExpr:
        return DimExpr.of(other).floordiv(self)

    def floordiv(self, other: Operand, exact: bool = False) -> DimExpr:
        """``self // other``, simplified where that is an identity; ``exact`` records that
        ``other`` is known to divide ``self`` (so that ``(p // q) * q`` gives back ``p``).
        Raises ``ZeroDivisionError`` for a constant 0 denominator."""
        den = DimExpr.of(other)
        c = den.constant
        if c == 0:
            raise ZeroDivisionError("dim expression divided by 0")
        if c == 1:
            return self
        num, den = cancel_common(self, den)
        if num is not self:
            return num.floordiv(den, exact)
        n = self.constant
        if n is not None and c is not None:
            return DimExpr.const(n // c)
        if n is not None and 0 <= n < den._least():  # 1 // (4 * B) == 0
            return DimExpr.const(0)
        quotient = self.divide_exactly(den)
        if quotient is None:
            quotient = self._divide_by_exact_division(den)
        if quotient is not None:
            return quotient
        if c is not None and c > 0:  # (c * X + R) // c == X + R // c
            whole = DimExpr({m: k // c for m, k in self.terms.items()})
            rest = DimExpr({m: k % c for m, k in self.terms.items()})
            if whole.terms:
                return whole + rest.floordiv(den, exact)
        if c is not None and c > 0 and len(self.terms) == 1:  # (p // q) // r == p // (q * r)
            ((mono, coef),) = self.terms.items()
            inner = mono[0] if coef == 1 and len(mono) == 1 else None
            # kept nested where only the outer division is exact: q * r need not divide p
            if isinstance(inner, FloorDivAtom) and (inner.exact or not exact):
                return inner.num.floordiv(inner.den * den, exact)
        return DimExpr({(FloorDivAtom(self, den, exact),): 1})

    def _divide_by_exact_division(self, den: DimExpr) -> DimExpr | None:
        """``self // (k * (p // q))`` where the atom is exact (``p == q * (p // q)``): the
        polynomial ``self * q / (k * p)`` when that division is exact, else ``None``
        (``(B * D) // (D // 2) == 2 * B``)."""
        if len(den.terms) != 1:
            return None
        ((mono, k),) = den.terms.items()
        atom = mono[0] if len(mono) == 1 else None
        if not (isinstance(atom, FloorDivAtom) and atom.exact):
            return None
        return (self * atom.den).divide_exactly(atom.num * k)

    def _least(self) -> int | float:
        """A lower bound for sizes >= 1 of the symbols: the value at all ones for positive
        coefficients over symbols (the least, as it only grows), else ``-inf``."""
        if all(c > 0 and all(isinstance(a, Symbol) for a in m) for m, c in self.terms.items()):
            return sum(self.terms.values())
        return float("-inf")

    def apply(self, op: str, other: Operand, exact: bool = False) -> DimExpr | None:
        """``self op other`` for ``op`` one of ``+ - * //`` (``exact`` as in ``floordiv``);
        ``None`` for a division by 0. ``B.apply("*", 2) == 2 * B``."""
        if op == "+":
            return self + other
        if op == "-":
            return self - other
        if op == "*":
            return self * other
        if DimExpr.of(other).constant == 0:
            return None
        return self.floordiv(other, exact)

    def divide_exactly(self, den: Operand) -> DimExpr | None:
        """The polynomial ``q`` with ``q * den == self`` when the division is exact as
        polynomials (atoms taken as unknowns), else ``None``.

        >>> B, N = DimExpr.symbol("B"), DimExpr.symbol("N")
        >>> str((10 * B).divide_exactly(5)), (3 * B).divide_exactly(2)
        ('2 * B', None)
        >>> str((N * B + B).divide_exactly(N + 1)), (N * B + 1).divide_exactly(N + 1)
        ('B', None)
        """
        d = DimExpr.of(den)
        if not d.terms:
            return None
        if len(d.terms) == 1:
            ((dmono, dcoef),) = d.terms.items()
            out: dict[Monomial, int] = {}
            for mono, coef in self.terms.items():
                rest = _remove(mono, dmono)
                if rest is None or coef % dcoef:
                    return None
                out[rest] = coef // dcoef
            return DimExpr(out)
        return _divide_polynomials(self.terms, d.terms)

    def _cancel_exact(self) -> DimExpr:
        """``(p // q) * q * X -> p * X`` for exact atoms whose denominator divides the rest of
        the term."""
        for mono, coef in self.terms.items():
            for i, atom in enumerate(mono):
                if not (isinstance(atom, FloorDivAtom) and atom.exact):
                    continue
                rest = DimExpr({mono[:i] + mono[i + 1 :]: coef})
                cofactor = rest.divide_exactly(atom.den)
                if cofactor is None:
                    continue
                others = DimExpr({m: c for m, c in self.terms.items() if m != mono})
                return (others + atom.num * cofactor)._cancel_exact()
        return self

    # ------------------------------------------------------------------------ comparison
    def __eq__(self, other: object) -> bool:
        return isinstance(other, DimExpr) and self.terms == other.terms

    def __hash__(self) -> int:
        return self._hash

    # -------------------------------------------------------------------------- printing
    def __str__(self) -> str:
        return expr_text(self)

    def __repr__(self) -> str:
        return f"DimExpr({expr_text(self)!r})"


def cancel_common(num: DimExpr, den: DimExpr) -> tuple[DimExpr, DimExpr]:
    """``num`` and a monomial ``den`` with their common factors (atoms, the gcd of the
    coefficients) divided out, which leaves ``num // den`` unchanged wherever ``den != 0``:
    ``(6 * B * T, 4 * B) -> (3 * T, 2)``; ``(num, den)`` itself when nothing is common.
    """
    if len(den.terms) != 1 or not num.terms:
        return num, den
    ((dmono, dcoef),) = den.terms.items()
    common = list(dmono)
    for mono in num.terms:
        rest = list(mono)
        kept = []
        for atom in common:
            if atom in rest:
                rest.remove(atom)
                kept.append(atom)
        common = kept
    g = abs(dcoef)
    for coef in num.terms.values():
        g = gcd(g, coef)
    if not common and g == 1:
        return num, den
    if dcoef < 0:
        g = -g
    part = tuple(common)

    def cut(mono: Monomial) -> Monomial:
        rest = _remove(mono, part)
        assert rest is not None  # every term holds the common atoms
        return rest

    return (
        DimExpr({cut(m): c // g for m, c in num.terms.items()}),
        DimExpr({cut(dmono): dcoef // g}),
    )
