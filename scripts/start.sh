#!/usr/bin/env bash
# Start Quire: sets itself up on first run, then serves http://127.0.0.1:8000 (API docs at /api/docs).
# Configuration comes from environment variables or a .env file (see .env.example). Ctrl-C stops
# everything it started, including the embedded Postgres.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec "${QUIRE_VENV:-.venv}/bin/python" -m backend.main
