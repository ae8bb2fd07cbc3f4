#!/usr/bin/env bash
# The demo on a fresh machine: install into .venv, type-check the examples, run them.
# Usage (from the repository root): bash scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

echo "== 1. mypy --strict on examples/"
.venv/bin/mypy --strict examples/*.py

echo "== 2. run the examples"
for f in examples/*.py; do
  echo "-- $f"
  .venv/bin/python "$f"
done
