#!/usr/bin/env bash
# The demo on a fresh machine: install into .venv, type-check the examples with the mypy
# plugin, list the inferred shapes of one example, show the errors mypy reports on the buggy
# programs in examples/errors/, then run the examples.
# Usage (from the repository root): bash scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

echo "== 1. mypy --strict with the typedtensor_mypy plugin (pyproject.toml enables it) on examples/"
.venv/bin/mypy --strict examples/*.py

echo
echo "== 2. the shapes mypy infers, line by line: typedtensor shapes examples/channel_stats.py"
.venv/bin/typedtensor shapes examples/channel_stats.py

echo
echo "== 3. the shape bugs mypy catches in examples/errors/ (each file has one; exit code 1 expected)"
if .venv/bin/mypy --strict examples/errors/*.py; then
  echo "expected errors in examples/errors/, found none" >&2
  exit 1
fi

echo
echo "== 4. run the examples (numba backend by default; TYPEDTENSOR_BACKEND=numpy for the reference)"
for f in examples/*.py; do
  echo "-- $f"
  .venv/bin/python "$f"
done
