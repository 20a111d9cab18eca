"""Runs a Quire worker (`python -m backend.worker`, no HTTP) as a subprocess for tests; a start that fails
or times out kills it."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.process import QuireProcess
from tests.support.server import REPO_ROOT

READY_LINE = "Quire worker "


class QuireWorker(QuireProcess):
    kind = "worker"

    def __init__(self, database_url: str, data_dir: Path, ollama_url: str, **env: str) -> None:
        self.data_dir = data_dir
        super().__init__("backend.worker", data_dir / "worker.log", {
            **os.environ, "DATABASE_URL": database_url, "QUIRE_DATA_DIR": str(data_dir), "OLLAMA_HOST": ollama_url,
            "QUIRE_LOG_LEVEL": "WARNING", "QUIRE_INDEX_POLL_S": "0.2", "PYTHONUNBUFFERED": "1",
            "QUIRE_ENV_FILE": "/dev/null", **env,
        }, REPO_ROOT)

    def start(self, timeout_s: float = 180.0) -> QuireWorker:
        self.launch(timeout_s, lambda: READY_LINE in self.log())
        return self
