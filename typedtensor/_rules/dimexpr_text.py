"""Dim expressions printed as Python arithmetic: ``2 * B + N - 1``, ``D // 8``, ``2 * (D // 8)``.

The printer reads an expression through its sorted terms (products of atoms, each with an
integer coefficient); an atom is a symbol (it has a ``name``) or a floor division (``num //
den``, two expressions). It imports nothing from the algebra (``dimexpr``), which prints with it.

>>> from typedtensor._rules.dimexpr import DimExpr
>>> B, D = DimExpr.symbol("B"), DimExpr.symbol("D")
>>> expr_text(2 * B - 1), expr_text(2 * (D // 8)), expr_text(B + 1, operand=True)
('2 * B - 1', '2 * (D // 8)', '(B + 1)')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Union, runtime_checkable

__all__ = ["Printable", "expr_text", "floordiv_text"]


class Named(Protocol):
    """A symbol atom: printed by its name."""

    @property
    def name(self) -> str: ...


@runtime_checkable
class Quotient(Protocol):
    """A floor-division atom: ``num // den``."""

    @property
    def num(self) -> Printable: ...

    @property
    def den(self) -> Printable: ...


PrintableAtom = Union[Named, Quotient]


class Printable(Protocol):
    """An expression: its terms, sorted as they print."""

    def sorted_terms(self) -> Sequence[tuple[tuple[PrintableAtom, ...], int]]: ...


def floordiv_text(num: Printable, den: Printable) -> str:
    """``num // den``, each side parenthesised unless one atom or a constant >= 0
    (``(B + 1) // 2``)."""
    return f"{expr_text(num, True)} // {expr_text(den, True)}"


def expr_text(expr: Printable, operand: bool = False) -> str:
    """Python arithmetic: ``2 * B + N - 1``, ``D // 8``, ``2 * (D // 8)``; as an ``operand``
    of ``*`` or ``//`` parenthesised unless one symbol or a constant >= 0 (``(B + 1)``,
    ``D // (D // 4)``)."""
    terms = expr.sorted_terms()
    if not terms:
        return "0"
    parts: list[str] = []
    for mono, coef in terms:
        magnitude = abs(coef)
        alone = len(mono) == 1 and magnitude == 1
        factors = [_atom_text(a, alone and not operand) for a in mono]
        body = " * ".join(([str(magnitude)] if magnitude != 1 or not mono else []) + factors)
        if not parts:
            parts.append(("-" if coef < 0 else "") + body)
        else:
            parts.append(f"{'-' if coef < 0 else '+'} {body}")
    text = " ".join(parts)
    mono0, coef0 = terms[0]
    simple = len(terms) == 1 and coef0 >= 0 and (not mono0 or (coef0 == 1 and len(mono0) == 1))
    return f"({text})" if operand and not simple else text


def _atom_text(atom: PrintableAtom, alone: bool) -> str:
    """A symbol's name; a floor division, parenthesised unless it is the whole term."""
    if isinstance(atom, Quotient):
        text = floordiv_text(atom.num, atom.den)
        return text if alone else f"({text})"
    return atom.name
