"""``python -m typedtensor shapes FILE.py`` and ``python -m typedtensor lsp``: see ``typedtensor._cli``."""

from ._cli import main

raise SystemExit(main())
