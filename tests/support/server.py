"""Runs the real Quire server (`python -m backend.main`) as a subprocess for tests.

Each server gets its own database on the test Postgres, its own data folder and a free port, and talks
to the fake Ollama. `kill()` sends SIGKILL (a real crash); `restart()` starts it again on the same
database, data folder and port, as a user would.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

REPO_ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class QuireServer:
    def __init__(self, database_url: str, data_dir: Path, ollama_url: str, *, checkout: Path = REPO_ROOT,
                 **env: str) -> None:
        self.database_url = database_url
        self.data_dir = data_dir
        self.checkout = checkout  # whose code runs: this repository, or another checkout to compare with
        self.port = free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "QUIRE_DATA_DIR": str(data_dir),
            "QUIRE_PORT": str(self.port),
            "QUIRE_HOST": "127.0.0.1",
            "OLLAMA_HOST": ollama_url,
            "QUIRE_LOG_LEVEL": "WARNING",
            "QUIRE_INDEX_POLL_S": "0.2",
            "PYTHONUNBUFFERED": "1",
            "QUIRE_ENV_FILE": "/dev/null",
            **env,
        }
        self.log_path = data_dir / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=kwargs.pop("timeout", 30.0), **kwargs)

    # Generous: on a shared 2-core machine a start (imports, migrations, index, DBOS) took over 90 s at
    # load 15-40; a process that fails to start is noticed at once by its exit, not by this limit.
    def start(self, timeout_s: float = 300.0) -> QuireServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "backend.main"], cwd=self.checkout, env=self.env, stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.starts += 1
        self._wait_ready(timeout_s)
        return self

    def _wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"Quire server exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"Quire server did not become ready:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks run, exactly like a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> QuireServer:
        self.stop()
        return self.start()

    def log_tail(self, lines: int = 80) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
