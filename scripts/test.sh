#!/usr/bin/env bash
# Run the whole test suite: lint, front-end unit tests, then pytest (API, durability, browser) against
# a throwaway embedded Postgres (or TEST_DATABASE_URL) and a fake Ollama. Never touches data/.
# Extra arguments go to pytest, e.g. ./scripts/test.sh tests/ingest -x
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --dev
PY="${QUIRE_VENV:-.venv}/bin/python"

echo "== ruff"
"$PY" -m ruff check backend tests scripts
echo "== mypy, import contracts"
"$PY" -m mypy
"$(dirname "$PY")/lint-imports" --no-cache
if [[ -f frontend/package.json && $# -eq 0 ]]; then
  echo "== front end: typecheck, lint, unit tests"
  (cd frontend && npm run --silent check)
fi
echo "== pytest"
# The suite must not depend on a developer's data or .env. Two processes (pytest-xdist), each test file
# whole in one of them so a module's server and documents are set up once: most of the time a test waits
# on a server, a browser or an ingestion rather than using a core.
env -u DATABASE_URL QUIRE_DATA_DIR="$(mktemp -d)" "$PY" -m pytest -q -n 2 --dist loadfile --durations=25 "$@"
