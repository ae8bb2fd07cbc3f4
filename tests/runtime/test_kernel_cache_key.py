"""The kernel cache's key (``_numba/_cache.py``) hashes every module that defines kernels and
leaves out the dispatcher's: a dispatcher module that defined a kernel, or that a kernel
module imported, would let a cached kernel outlive a change to its code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from typedtensor._backend._numba import _cache

_PACKAGE = Path(_cache.__file__).resolve().parent
#: what makes compiled code: numba's decorators and factories, and the package's own
_COMPILERS = frozenset(("njit", "jit", "kernel", "intrinsic", "overload", "vectorize"))


def _called_names(tree: ast.AST) -> set[str]:
    """The names called or used as decorators anywhere in ``tree`` (``f(...)``, ``m.f(...)``)."""
    names = set()
    for node in ast.walk(tree):
        target = node.func if isinstance(node, ast.Call) else None
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, ast.Attribute):
            names.add(target.attr)
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                if isinstance(d, ast.Name):
                    names.add(d.id)
                elif isinstance(d, ast.Attribute):
                    names.add(d.attr)
    return names


def _sibling_imports(tree: ast.AST) -> set[str]:
    """The modules of this package ``tree`` imports (``from .x import``, ``from . import x``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0] + ".py")
            else:
                found.update(alias.name + ".py" for alias in node.names)
    return found


def test_every_dispatcher_module_named_exists() -> None:
    """A renamed dispatcher module would drop out of ``_DISPATCH`` silently (and be hashed)."""
    assert _cache._DISPATCH <= {p.name for p in _PACKAGE.glob("*.py")}


@pytest.mark.parametrize("name", sorted(_cache._DISPATCH))
def test_a_dispatcher_module_defines_no_kernel(name: str) -> None:
    tree = ast.parse((_PACKAGE / name).read_text())
    assert not (_called_names(tree) & _COMPILERS), f"{name} compiles code: hash it"


@pytest.mark.parametrize("name", sorted(_cache._SOURCES))
def test_no_kernel_module_imports_a_dispatcher_module(name: str) -> None:
    tree = ast.parse((_PACKAGE / name).read_text())
    imported = _sibling_imports(tree) & _cache._DISPATCH
    assert not imported, f"{name} imports {sorted(imported)}, whose code may compile into it"
