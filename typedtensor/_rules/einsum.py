"""``einsum`` shapes: numpy's subscripts (``"bij,bjk->bik"``) over dim items.

``parse_subscripts`` reads a subscripts string for operands of known ranks (explicit ``->``
or implicit output, ``...``, repeated labels); ``einsum_shape`` gives the result's dims:

- a label's dims across operands broadcast as numpy's ``einsum`` does (equal, or a known 1
  that yields), with the symbolic rule of ``broadcast_shapes`` (a symbol meets only itself,
  1 and ``Any``);
- a label repeated in one operand (a diagonal, ``"ii->i"``) needs equal dims there (numpy
  allows no 1 there);
- the ``...`` dims of the operands broadcast together and, in the implicit form, come first;
- the implicit output is the labels that appear once, in character order (``A``..``Z``
  before ``a``..``z``), as numpy's.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .broadcast import ExprOf, broadcast_shapes, never_equal, same_dim
from .errors import (
    BroadcastError,
    EinsumSubscriptsError,
    ShapeMismatchError,
    SymbolicBroadcastError,
)

__all__ = ["ELLIPSIS", "EinsumSubscripts", "einsum_shape", "parse_subscripts"]

D = TypeVar("D")

#: the ``...`` of a subscripts string, one item of a parsed operand or output
ELLIPSIS = "..."
_LABELS = frozenset(string.ascii_letters)


@dataclass(frozen=True)
class EinsumSubscripts:
    """Parsed subscripts: the labels of each operand and of the output (``ELLIPSIS`` stands
    for the broadcast dims), and how many dims each operand's ``...`` covers."""

    inputs: tuple[tuple[str, ...], ...]
    output: tuple[str, ...]
    ellipsis_ranks: tuple[int, ...]


def _terms(text: str, where: str) -> tuple[str, ...]:
    """``"b...ij"`` -> ``("b", "...", "i", "j")``, rejecting anything but letters and one
    ``...``."""
    items: list[str] = []
    rest = text.replace(" ", "")
    if rest.count(ELLIPSIS) > 1 or rest.replace(ELLIPSIS, "").count(".") > 0:
        raise EinsumSubscriptsError(
            f"einsum subscripts {where} {text!r}: '.' is allowed only as one '...' per term"
        )
    head, dots, tail = rest.partition(ELLIPSIS)
    for part, then in ((head, dots), (tail, "")):
        for ch in part:
            if ch not in _LABELS:
                raise EinsumSubscriptsError(
                    f"einsum subscripts {where} {text!r}: {ch!r} is not a label; labels are "
                    "the letters a-z and A-Z"
                )
            items.append(ch)
        if then:
            items.append(ELLIPSIS)
    return tuple(items)


def parse_subscripts(subscripts: str, ranks: Sequence[int]) -> EinsumSubscripts:
    """Parse ``subscripts`` for operands of ``ranks``; raise ``EinsumSubscriptsError`` for a
    malformed string or one that does not fit the operands.

    >>> parse_subscripts("ij,jk", (2, 2)).output
    ('i', 'k')
    >>> parse_subscripts("...ij->...ji", (4,)).ellipsis_ranks
    (2,)
    """
    text = subscripts.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    if "-" in lhs + rhs or ">" in lhs + rhs:
        raise EinsumSubscriptsError(
            f"einsum subscripts {subscripts!r}: '->' may appear once, between the operands' "
            "terms and the output's"
        )
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise EinsumSubscriptsError(
            f"einsum subscripts {subscripts!r} name {len(terms)} operand(s) but "
            f"{len(ranks)} were given; write one comma-separated term per operand"
        )
    inputs = tuple(_terms(t, f"term {i}") for i, t in enumerate(terms))
    ellipsis_ranks = []
    for i, (labels, rank) in enumerate(zip(inputs, ranks, strict=True)):
        named = len(labels) - (ELLIPSIS in labels)
        if named > rank or (ELLIPSIS not in labels and named != rank):
            fix = (
                "one label per dim" if named > rank else "one label per dim, or '...' for the rest"
            )
            raise EinsumSubscriptsError(
                f"einsum term {i} {terms[i]!r} has {named} label(s) for a rank-{rank} operand; "
                f"give {fix}"
            )
        ellipsis_ranks.append(rank - named if ELLIPSIS in labels else 0)
    if arrow:
        output = _terms(rhs, "output")
        seen: set[str] = set()
        for label in output:
            if label in seen:
                raise EinsumSubscriptsError(
                    f"einsum output {rhs!r} repeats label {label!r}; each output label appears once"
                )
            seen.add(label)
            if label != ELLIPSIS and not any(label in term for term in inputs):
                raise EinsumSubscriptsError(
                    f"einsum output label {label!r} appears in no operand's term"
                )
        if ELLIPSIS not in output and max(ellipsis_ranks, default=0) > 0:
            raise EinsumSubscriptsError(
                f"einsum subscripts {subscripts!r}: the operands' '...' dims must appear in the "
                "output (write '...' after '->')"
            )
    else:
        counts: dict[str, int] = {}
        for term in inputs:
            for label in term:
                if label != ELLIPSIS:
                    counts[label] = counts.get(label, 0) + 1
        once = sorted(label for label, n in counts.items() if n == 1)
        has_ellipsis = any(ELLIPSIS in term for term in inputs)
        output = (*((ELLIPSIS,) if has_ellipsis else ()), *once)
    return EinsumSubscripts(inputs, tuple(output), tuple(ellipsis_ranks))


def _int_size(d: object) -> int | None:
    return d if isinstance(d, int) and not isinstance(d, bool) else None


def _never_symbolic(d: object) -> bool:
    return False


def einsum_shape(
    subscripts: str,
    shapes: Sequence[Sequence[D]],
    size_of: Callable[[D], int | None] = _int_size,
    unknown: D | None = None,
    is_symbolic: Callable[[D], bool] = _never_symbolic,
    render_dim: Callable[[D], str] | None = None,
    expr_of: ExprOf[D] | None = None,
) -> tuple[D, ...]:
    """Result shape of ``np.einsum(subscripts, *operands)`` for operands of ``shapes``.

    Raises ``EinsumSubscriptsError`` for subscripts that do not parse or fit the ranks and
    ``ShapeMismatchError`` (``symbolic`` where a symbolic dim is what does not fit, unless the
    dim expressions ``expr_of`` reads provably never fit: ``2 * B`` against ``2 * B + 1``) for
    dims that a label, a diagonal or the ``...`` cannot join.

    >>> einsum_shape("bij,bjk->bik", ((8, 2, 3), (8, 3, 4)))
    (8, 2, 4)
    >>> einsum_shape("ii->i", ((3, 3),))
    (3,)
    >>> size, sym = (lambda d: d if isinstance(d, int) else None), (lambda d: isinstance(d, str))
    >>> einsum_shape("...ij,jk", (("B", "T", 5), (5, 7)), size_of=size, is_symbolic=sym)
    ('B', 'T', 7)
    """
    parsed = parse_subscripts(subscripts, [len(s) for s in shapes])
    text = render_dim or (lambda d: str(size_of(d) if size_of(d) is not None else d))
    label_dims: dict[str, D] = {}
    label_from: dict[str, str] = {}
    ellipses: list[Sequence[D]] = []
    for i, (labels, dims, k) in enumerate(
        zip(parsed.inputs, shapes, parsed.ellipsis_ranks, strict=True)
    ):
        local: dict[str, tuple[D, str]] = {}  # this operand's dim of each label (diagonals)
        position = 0
        for label in labels:
            if label == ELLIPSIS:
                ellipses.append(dims[position : position + k])
                position += k
                continue
            dim, here = dims[position], f"dim {position} of operand {i}"
            position += 1
            if label in local:
                seen, where = local[label]
                dim = _join(
                    label, seen, dim, where, here, True, size_of, unknown, is_symbolic, text,
                    expr_of,
                )  # fmt: skip
                here = where
            local[label] = (dim, here)
        for label, (dim, here) in local.items():
            if label not in label_dims:
                label_dims[label], label_from[label] = dim, here
                continue
            label_dims[label] = _join(
                label, label_dims[label], dim, label_from[label], here, False,
                size_of, unknown, is_symbolic, text, expr_of,
            )  # fmt: skip
    batch: tuple[D, ...] = ()
    if ellipses:
        try:
            batch = broadcast_shapes(
                *ellipses, size_of=size_of, unknown=unknown, is_symbolic=is_symbolic,
                expr_of=expr_of,
            )  # fmt: skip
        except BroadcastError as err:
            raise ShapeMismatchError(
                f"einsum's '...' dims do not broadcast: {_shapes_text(ellipses, text)}; {err}",
                symbolic=isinstance(err, SymbolicBroadcastError),
            ) from None
    out: list[D] = []
    for label in parsed.output:
        out.extend(batch if label == ELLIPSIS else (label_dims[label],))
    return tuple(out)


def _shapes_text(shapes: Sequence[Sequence[D]], text: Callable[[D], str]) -> str:
    return " and ".join("(" + ", ".join(text(d) for d in s) + ")" for s in shapes)


def _join(
    label: str,
    a: D,
    b: D,
    where_a: str,
    where_b: str,
    diagonal: bool,
    size_of: Callable[[D], int | None],
    unknown: D | None,
    is_symbolic: Callable[[D], bool],
    text: Callable[[D], str],
    expr_of: ExprOf[D] | None,
) -> D:
    """The dim of ``label`` seen as ``a`` and then ``b``: broadcast across operands, equal
    within one (a diagonal)."""
    sa, sb = size_of(a), size_of(b)
    ya, yb = is_symbolic(a), is_symbolic(b)
    problem = f"einsum label {label!r} is {text(a)} at {where_a} but {text(b)} at {where_b}"
    if diagonal:
        if sa is not None and sb is not None and sa != sb:
            raise ShapeMismatchError(f"{problem}; a label repeated in one term takes equal dims")
        differ = not same_dim(a, b, expr_of)
        if (ya or yb) and differ and not (sa is None and not ya) and not (sb is None and not yb):
            if never_equal(a, b, expr_of):
                raise ShapeMismatchError(
                    f"{problem}; they differ for every size of the symbols (the diagonal needs "
                    "equal dims)"
                )
            raise ShapeMismatchError(
                f"{problem}; a symbolic dim equals only itself (the diagonal needs equal dims)",
                symbolic=True,
            )
        return b if sa is None and not ya else a
    try:
        (joined,) = broadcast_shapes(
            (a,), (b,), size_of=size_of, unknown=unknown, is_symbolic=is_symbolic, expr_of=expr_of
        )
    except BroadcastError as err:
        symbolic = isinstance(err, SymbolicBroadcastError)
        how = (
            "a symbolic dim meets only itself, 1 and Any"
            if symbolic
            else "they differ, and neither is 1, for every size of the symbols"
            if ya or yb
            else "they must be equal or 1"
        )
        raise ShapeMismatchError(f"{problem}; {how}", symbolic=symbolic) from None
    return joined
