"""The dim-item toolkit of the rules that compute sizes (``svd``'s ``min(M, N)``, ``pad``'s
``D + 2``, ``repeat``'s ``k * D``): one object holding a caller's view of its dim items
(``size_of``, ``is_symbolic``, ``make_dim``, ``unknown``, ``expr_of``, ``make_expr``, the
keyword arguments every generic rule takes) and the three operations on them: read a dim as a
``DimExpr``, build a dim from one, and check that two dims are equal (provably equal, provably
different, or not provable: the symbolic rule's error).

>>> items = DimItems()
>>> items.minimum(3, 4), items.scaled(5, 2), items.equal(3, 3, lambda a, b: "differ")
(3, 10, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from .dimexpr import DimExpr, Symbol
from .dimexpr_convert import expr_maker, expr_reader
from .dimexpr_relations import Relation, product, relation
from .errors import ShapeMismatchError

__all__ = ["DimItems"]

D = TypeVar("D")


def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) and not isinstance(d, bool) else None


def _never_symbolic(d: object) -> bool:
    return False


def _show(dims: Sequence[object]) -> str:
    return str(tuple(dims))


class DimItems(Generic[D]):
    """A rule caller's dim items: the run time's ints by default; the plugin passes mypy
    types (``_dim_kwargs``), the stub generator names."""

    def __init__(
        self,
        size_of: Callable[[D], int | None] = _int_size,
        make_dim: Callable[[int], D] | None = None,
        unknown: D | None = None,
        is_symbolic: Callable[[D], bool] = _never_symbolic,
        render: Callable[[Sequence[D]], str] | None = None,
        render_dim: Callable[[D], str] | None = None,
        expr_of: Callable[[D], DimExpr | None] | None = None,
        make_expr: Callable[[DimExpr], D] | None = None,
    ) -> None:
        self.size_of = size_of
        self.make_dim: Callable[[int], D] = make_dim or (lambda n: n)  # type: ignore[assignment,return-value]
        self.unknown = unknown
        self.is_symbolic = is_symbolic
        self.render = render or _show
        self.render_dim = render_dim or self._text
        self.read = expr_of or expr_reader(size_of, is_symbolic, self._text)
        self.build = make_expr or expr_maker(self.make_dim, unknown)

    def _text(self, d: D) -> str:
        n = self.size_of(d)
        return str(n if n is not None else (getattr(d, "name", None) or d))

    # ------------------------------------------------------------------------ comparing
    def equal(self, a: D, b: D, mismatch: Callable[[str, str], str]) -> D:
        """The dim two dims that must be equal share (the more precise one); raises
        ``ShapeMismatchError(mismatch(a_text, b_text))``, ``symbolic`` when they are not
        provably different (a symbol against a size, or two symbols)."""
        sa, sb = self.size_of(a), self.size_of(b)
        if sa is not None and sb is not None:
            if sa != sb:
                raise ShapeMismatchError(mismatch(str(sa), str(sb)))
            return a
        ea, eb = self.read(a), self.read(b)
        if ea is None or eb is None:  # an unknown dim matches anything (checked at run time)
            return a if ea is not None else b
        found = relation(ea, eb)
        if found is Relation.EQUAL:
            return a
        text = self.render_dim
        raise ShapeMismatchError(
            mismatch(text(a), text(b)), symbolic=found is not Relation.DIFFERENT
        )

    def minimum(self, a: D, b: D) -> D:
        """``min(a, b)`` where it is provable (sizes, the same dim, or two expressions whose
        difference has one sign for every size >= 0 of the symbols: ``M`` and ``M + 1``);
        else ``unknown``, never a guess."""
        sa, sb = self.size_of(a), self.size_of(b)
        if sa is not None and sb is not None:
            return a if sa <= sb else b
        ea, eb = self.read(a), self.read(b)
        if ea is None or eb is None:
            return self.unknown  # type: ignore[return-value]
        diff = ea - eb
        if _never_negative(diff):
            return b
        if _never_negative(-diff):
            return a
        return self.unknown  # type: ignore[return-value]

    # ---------------------------------------------------------------------- arithmetic
    def combine(self, dims: Iterable[D], op: Callable[[list[DimExpr]], DimExpr]) -> D:
        """The dim ``op`` computes from the expressions of ``dims``; ``unknown`` if one of
        them is not known."""
        exprs = [self.read(d) for d in dims]
        if any(e is None for e in exprs):
            return self.unknown  # type: ignore[return-value]
        return self.build(op([e for e in exprs if e is not None]))

    def scaled(self, d: D, k: int) -> D:
        """``k * d``."""
        return self.combine([d], lambda e: e[0] * k)

    def plus(self, d: D, n: int) -> D:
        """``d + n``."""
        return self.combine([d], lambda e: e[0] + n)

    def product(self, dims: Sequence[D]) -> D:
        """The product of ``dims`` (1 for none): the flattened size."""
        return self.combine(dims, product)


def _never_negative(e: DimExpr) -> bool:
    """Whether ``e >= 0`` for every size >= 0 of its symbols: no negative coefficient and only
    symbols (a floor division's sign is not checked)."""
    return all(c >= 0 for c in e.terms.values()) and all(isinstance(a, Symbol) for a in e.atoms())
