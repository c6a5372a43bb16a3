#!/usr/bin/env bash
# Run every check: ruff, the import-linter contracts, then pytest (arguments are passed to pytest,
# e.g. ./scripts/test.sh tests/web -k load_demo, or -m "not integration").
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
export PYTHONPATH="platform:.${PYTHONPATH:+:$PYTHONPATH}"

echo "== ruff check"
.venv/bin/ruff check .
echo "== mypy (engines, strict)"
.venv/bin/mypy mpp generator triplets study scoring formats vocab
echo "== lint-imports"
.venv/bin/lint-imports
echo "== pytest"
.venv/bin/pytest "$@"
