"""``python -m typedtensor shapes FILE.py``: see ``typedtensor._cli``."""

from ._cli import main

raise SystemExit(main())
