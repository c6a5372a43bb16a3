#!/usr/bin/env bash
# Run every check: ruff, the import-linter contracts, then pytest (arguments are passed to pytest,
# e.g. ./scripts/test.sh tests/web -k load_demo, or -m "not integration").
#
# ./scripts/test.sh --fast: the quick lane while working (README, "Quick start"). The same ruff,
# mypy and import-linter checks, then the engines' tests (tests/ outside tests/web) without
# Django, then the platform tests, both without the `browser`, `integration` and `slow` tests
# (tests/conftest.py marks them). Each run is spread over the machine's cores by pytest-xdist
# (-n auto); further arguments go to both pytest runs (-x, -k ..., or -n 0 to run in one process).
set -euo pipefail
cd "$(dirname "$0")/.."

fast=false
if [ "${1:-}" = "--fast" ]; then
  fast=true
  shift
fi

./scripts/setup.sh
export PYTHONPATH="platform:.${PYTHONPATH:+:$PYTHONPATH}"

echo "== ruff check"
.venv/bin/ruff check .
echo "== mypy (engines, strict)"
.venv/bin/mypy mpp generator triplets study scoring formats vocab
echo "== mypy (platform, django-stubs)"
.venv/bin/mypy -p mpp_studio
echo "== lint-imports"
.venv/bin/lint-imports

if ! $fast; then
  echo "== pytest"
  .venv/bin/pytest "$@"
  exit
fi

# pytest exits 5 when a -k or -m leaves one of the two runs nothing to run: that is not a failure.
# worksteal: an idle worker takes tests queued for a busy one, so neither waits at the end.
lane=(-m "not browser and not integration and not slow" -n auto --dist worksteal)
echo "== pytest: engines (tests/ outside tests/web, without Django)"
.venv/bin/pytest -p no:django -W "ignore:Unknown config option:pytest.PytestConfigWarning" \
  tests --ignore=tests/web "${lane[@]}" "$@" || [ $? -eq 5 ]
echo "== pytest: platform (tests/web)"
.venv/bin/pytest tests/web "${lane[@]}" "$@" || [ $? -eq 5 ]
