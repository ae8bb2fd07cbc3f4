"""``python -m typedtensor shapes FILE.py``, ``python -m typedtensor lsp``: see ``_cli``."""

from ._cli import main

raise SystemExit(main())
