#!/usr/bin/env bash
# The whole test suite on a fresh machine: install into .venv, then lint, type-check and test.
# Usage (from the repository root): bash scripts/test.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
# Neovim drives the language server's editor test (tests/lsp/test_neovim.py; skipped without it)
if ! command -v nvim >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq neovim >/dev/null) || echo "== neovim: apt-get failed; the Neovim test will be skipped"
  else
    echo "== neovim: not installed and no root apt-get here; the Neovim test will be skipped"
  fi
fi
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== generated stubs are fresh"
.venv/bin/python -m stubs.generate --check
echo "== mypy --strict (library, plugin, examples; the .py files that stubs shadow, explicitly)"
.venv/bin/mypy --strict typedtensor mypy_plugin/typedtensor_mypy examples/*.py
.venv/bin/mypy --strict typedtensor/_tensor.py typedtensor/_dtypes.py  # the class as _tensor.py defines it
.venv/bin/mypy --strict typedtensor/reductions.py  # against the stubs' Tensor (with the methods _tensor_methods installs)
echo "== the documentation site (mkdocs.yml): no broken link, no unresolved reference"
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$(mktemp -d)"
echo "== pytest"
.venv/bin/python -m pytest "$@"
