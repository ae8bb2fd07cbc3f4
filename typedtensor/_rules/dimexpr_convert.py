"""Between a rule caller's dims and dim expressions, for callers whose dims are sizes, symbols
and unknowns (no expressions): the run time's ints and names, the stubs' names.

>>> read = expr_reader(lambda d: d if isinstance(d, int) else None, lambda d: d != "?")
>>> make = expr_maker(lambda n: n, "?")
>>> make(read("B") * 2), make(read("B") + 0), make(read(3) * read(4))
('?', 'B', 12)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .dimexpr import DimExpr

__all__ = ["expr_maker", "expr_reader"]

D = TypeVar("D")


def expr_reader(
    size_of: Callable[[D], int | None],
    is_symbolic: Callable[[D], bool],
    name: Callable[[D], str] = str,
) -> Callable[[D], DimExpr | None]:
    """``expr_of`` for a rule caller whose dims are sizes, symbols and unknowns (no
    expressions): a size is a constant, a symbol a ``DimExpr.symbol`` keyed by the dim."""

    def read(d: D) -> DimExpr | None:
        n = size_of(d)
        if n is not None:
            return DimExpr.const(n)
        return DimExpr.symbol(d, name(d)) if is_symbolic(d) else None

    return read


def expr_maker(make_dim: Callable[[int], D], unknown: D | None) -> Callable[[DimExpr], D]:
    """``make_expr`` for the same callers: a constant by ``make_dim``, one symbol as its key,
    any other expression ``unknown``."""

    def make(e: DimExpr) -> D:
        c = e.constant
        if c is not None:
            return make_dim(c)
        key = e.single_symbol
        return key if key is not None else unknown  # type: ignore[return-value]

    return make
