"""Generator of typedtensor's ``.pyi`` stubs: ``python -m stubs.generate [--check]``."""
