"""``typedtensor lsp``: a language server showing what mypy, with the typedtensor plugin, infers.

Diagnostics (mypy's errors with their codes), inlay hints (``x: f32[B, 10]`` after each name
bound to a tensor), hover (the exact type under the cursor) and code actions (insert the
inferred annotation), over stdio. ``session`` runs mypy, ``render`` spells types, ``features``
answers requests, ``server`` wires them to pygls. See docs/editors.md.
"""

from __future__ import annotations

import sys

__all__ = ["run"]

MISSING_PYGLS = (
    "typedtensor lsp needs the language-server extra: pip install 'typedtensor[lsp]' "
    "(it installs pygls and mypy)"
)


def run() -> int:
    """Serve over stdin/stdout (``typedtensor lsp``); exit status 2 when pygls is missing."""
    try:
        import mypy  # noqa: F401
        import pygls  # noqa: F401
    except ImportError as exc:
        print(f"{MISSING_PYGLS}; missing: {exc.name}", file=sys.stderr)
        return 2
    from .server import serve

    return serve()
