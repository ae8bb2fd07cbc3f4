"""Short and annotation spellings of the tensor types mypy inferred.

The full spelling is mypy's own (``reveal_type``'s text, in the hint's tooltip and in hover);
this module writes the two others: the inlay hint's label (``f32[B, 10]``) and an annotation to
insert in the user's file (``Tensor[tt.float32, B, L[10]]``, with the file's own import names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._cli import render_type

if TYPE_CHECKING:
    from mypy.nodes import MypyFile
    from mypy.types import Type

__all__ = ["ImportNames", "annotation", "import_names", "short_type"]

_TENSOR = "typedtensor._tensor.Tensor"
_DTYPES = "typedtensor._dtypes."
_SHORT_DTYPES = {
    "bool_": "bool",
    **{f"float{n}": f"f{n}" for n in (16, 32, 64)},
    **{f"complex{n}": f"c{n}" for n in (64, 128)},
    **{f"int{n}": f"i{n}" for n in (8, 16, 32, 64)},
    **{f"uint{n}": f"u{n}" for n in (8, 16, 32, 64)},
}
# dim expressions (DESIGN.md section 11), printed as Python arithmetic
_DIM_OPERATORS = {"Add": "+", "Sub": "-", "Mul": "*", "FloorDiv": "//", "IntDiv": "//"}


@dataclass(frozen=True)
class ImportNames:
    """How a file spells typedtensor's names: ``import typedtensor as tt`` -> ``tt.``."""

    module: str = "typedtensor."  # prefix of the dtypes (and of Tensor when not imported)
    tensor: str = "typedtensor.Tensor"
    literal: str = "Literal"


def short_type(typ: Type) -> str:
    """The inlay hint's label: ``Tensor[float32, B, Literal[10]]`` -> ``f32[B, 10]``.

    Unknown dims print ``?``, an unknown rank ``...``; tuples of tensors ``(f32[3], i64[3])``;
    other types as mypy's short names (``int``, ``list[f32[3]]``).
    """
    return _spell(typ, None)


def annotation(typ: Type, names: ImportNames) -> str | None:
    """An annotation for ``typ`` in a file importing ``names``, or None when none is exact.

    ``Tensor[float32, B, Literal[10]]`` -> ``Tensor[tt.float32, B, L[10]]``; a type with an
    unknown dim or rank (mypy's ``Any``) gets no annotation.
    """
    text = _spell(typ, names)
    return None if "?" in text else text


def import_names(tree: MypyFile) -> ImportNames:
    """The names under which ``tree`` imports typedtensor, its ``Tensor`` and ``Literal``."""
    from mypy import nodes

    module, tensor, literal = "typedtensor.", "", "Literal"
    for imp in tree.imports:
        if isinstance(imp, nodes.Import):
            for name, alias in imp.ids:
                if name == "typedtensor":
                    module = f"{alias or name}."
        elif isinstance(imp, nodes.ImportFrom):
            for name, alias in imp.names:
                if imp.id == "typedtensor" and name == "Tensor":
                    tensor = alias or name
                elif imp.id in ("typing", "typing_extensions") and name == "Literal":
                    literal = alias or name
    return ImportNames(module, tensor or f"{module}Tensor", literal)


def _spell(typ: Type, names: ImportNames | None) -> str:
    """``short_type`` (names None) or ``annotation`` (names given)."""
    from mypy import types as t

    p = t.get_proper_type(typ)
    if isinstance(p, t.Instance):
        name = p.type.fullname
        if name == _TENSOR:
            dtype, dims = (_spell(p.args[0], names), p.args[1:]) if p.args else ("?", ())
            rendered = [_spell_dim(d, names) for d in dims]
            if names is None:
                return f"{dtype}[{', '.join(rendered)}]"
            return f"{names.tensor}[{', '.join([dtype, *rendered])}]"
        if name.startswith(_DTYPES):
            short = name[len(_DTYPES) :]
            return _SHORT_DTYPES.get(short, short) if names is None else names.module + short
        if p.type.name in _DIM_OPERATORS and name.startswith("typedtensor.") and len(p.args) == 2:
            left, right = (_spell_dim(a, names) for a in p.args)
            return f"({left} {_DIM_OPERATORS[p.type.name]} {right})"
        if p.last_known_value is not None:
            return _spell(p.last_known_value, names)
        args = f"[{', '.join(_spell(a, names) for a in p.args)}]" if p.args else ""
        return p.type.name + args
    if isinstance(p, t.TupleType):
        items = [_spell(i, names) for i in p.items]
        if names is None:
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return f"tuple[{', '.join(items)}]"
    if isinstance(p, t.UnionType):
        return " | ".join(_spell(i, names) for i in p.items)
    if isinstance(p, (t.AnyType, t.NoneType, t.LiteralType, t.TypeVarLikeType)):
        return render_type(p)  # ?, None, 10, B
    return "?"


def _spell_dim(dim: Type, names: ImportNames | None) -> str:
    """One dim: ``10`` (``L[10]`` in an annotation), ``B``, ``?``, ``...`` (unknown rank)."""
    from mypy import types as t

    p = t.get_proper_type(dim)
    if isinstance(p, t.LiteralType) and names is not None:
        return f"{names.literal}[{_spell(p, None)}]"
    if isinstance(p, t.Instance) and p.last_known_value is not None and names is not None:
        return f"{names.literal}[{_spell(p.last_known_value, None)}]"
    if isinstance(p, t.UnpackType):
        inner = t.get_proper_type(p.type)
        if isinstance(inner, t.Instance) and inner.type.fullname == "builtins.tuple":
            return "..." if names is None else "?"  # unknown rank: no exact annotation
        if isinstance(inner, t.TupleType):
            return ", ".join(_spell_dim(i, names) for i in inner.items)
        return "*" + _spell(inner, names)
    return _spell(p, names)
