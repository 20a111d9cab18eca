#!/usr/bin/env bash
# Run the test suite: lint, types and import contracts, front-end checks, then pytest (API, durability,
# browser) against a throwaway embedded Postgres (or TEST_DATABASE_URL) and a fake Ollama. Never touches data/.
#   ./scripts/test.sh                  everything (what CI runs: .ci/run)
#   ./scripts/test.sh --fast           the fast tier while working: lint, types, and the unit and API tests
#                                      (no browser tests, none that start server processes of their own)
#   ./scripts/test.sh tests/ingest -x  extra arguments go to pytest (the front-end checks are skipped then)
set -euo pipefail
cd "$(dirname "$0")/.."
FAST=0
if [[ "${1:-}" == "--fast" ]]; then FAST=1; shift; fi
./scripts/setup.sh --dev
PY="${QUIRE_VENV:-.venv}/bin/python"

# Compiled bytecode is kept (in __pycache__, which git ignores) even where the environment turns writing
# it off: every server and worker the tests start imports the backend, and pytest rewrites each test
# module for its asserts; compiled once, they are not compiled again by each process and run.
unset PYTHONDONTWRITEBYTECODE

echo "== ruff"
"$PY" -m ruff check backend tests scripts
echo "== mypy, import contracts"
"$PY" -m mypy  # its cache (.mypy_cache) is kept between runs
"$(dirname "$PY")/lint-imports" --no-cache
if [[ -f frontend/package.json && $# -eq 0 && $FAST -eq 0 ]]; then
  echo "== front end: typecheck, lint, unit tests"
  (cd frontend && npm run --silent check)
fi
echo "== pytest"
tier=()
[[ $FAST -eq 1 ]] && tier=(-m "not e2e and not slow")
# The suite must not depend on a developer's data or .env. Two processes (pytest-xdist), each test file
# whole in one of them so a module's server and documents are set up once: most of the time a test waits
# on a server, a browser or an ingestion rather than using a core. Modules are handed out in the order
# tests/support/ordering.py gives: xdist's own (most tests first), the long starved-CPU test first of all.
# The 20 slowest are listed last.
env -u DATABASE_URL QUIRE_DATA_DIR="$(mktemp -d)" "$PY" -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder \
  --durations=20 \
  "${tier[@]}" "$@"
