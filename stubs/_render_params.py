"""Runtime signatures as stub text: parameters read with ``inspect`` from the runtime
functions, so the plain branch of a stub is exactly the runtime signature."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


def _default(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


@dataclass(frozen=True)
class Param:
    name: str
    kind: inspect._ParameterKind
    annotation: str
    default: str | None  # rendered default, or None when required


def runtime_params(fn: Callable[..., Any]) -> tuple[list[Param], str]:
    """The parameters and return annotation of ``fn`` as source text (a method's ``self``
    without its annotation: a method made by a factory annotates it, a stub need not)."""
    sig = inspect.signature(fn)
    params = []
    for p in sig.parameters.values():
        ann = p.annotation if isinstance(p.annotation, str) and p.name != "self" else ""
        default = None if p.default is inspect.Parameter.empty else _default(p.default)
        params.append(Param(p.name, p.kind, ann, default))
    ret = sig.return_annotation if isinstance(sig.return_annotation, str) else "Any"
    return params, ret


def render_params(params: Sequence[Param]) -> str:
    parts: list[str] = []
    star = False
    for p in params:
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        text = p.name + (f": {p.annotation}" if p.annotation else "")
        if p.default is not None:
            text += f" = {p.default}"
        parts.append(text)
    return ", ".join(parts)


def _axis_defaulted(params: Sequence[Param]) -> bool:
    for p in params[1:]:
        if p.name == "axis":
            return False
        if p.default is not None:
            return True
    return False


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _doc(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn)
    return doc.splitlines()[0] if doc else ""
