"""Runs a Quire worker (`python -m backend.worker`, no HTTP) as a subprocess for tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.server import REPO_ROOT

READY_LINE = "Quire worker "


class QuireWorker:
    def __init__(self, database_url: str, data_dir: Path, ollama_url: str, **env: str) -> None:
        self.data_dir = data_dir
        self.env = {
            **os.environ, "DATABASE_URL": database_url, "QUIRE_DATA_DIR": str(data_dir), "OLLAMA_HOST": ollama_url,
            "QUIRE_LOG_LEVEL": "WARNING", "QUIRE_INDEX_POLL_S": "0.2", "PYTHONUNBUFFERED": "1",
            "QUIRE_ENV_FILE": "/dev/null", **env,
        }
        self.log_path = data_dir / "worker.log"
        self.process: subprocess.Popen[bytes] | None = None

    # Generous: on a shared 2-core machine a start (imports, migrations, index, DBOS) took over 90 s at
    # load 15-40; a process that fails to start is noticed at once by its exit, not by this limit.
    def start(self, timeout_s: float = 300.0) -> QuireWorker:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "backend.worker"], cwd=REPO_ROOT, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Quire worker exited with {self.process.returncode}:\n{self.log()}")
            if READY_LINE in self.log():
                return self
            time.sleep(0.1)
        raise TimeoutError(f"Quire worker did not start:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
