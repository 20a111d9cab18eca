"""Runs the real Quire server (`python -m backend.main`) as a subprocess for tests.

Each server gets its own database on the test Postgres, its own data folder and a free port, and talks
to the fake Ollama. `kill()` sends SIGKILL (a real crash); `restart()` starts it again on the same
database, data folder and port, as a user would. A start that fails or times out kills the process.
"""

from __future__ import annotations

import os
import socket
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.support.process import QuireProcess

if TYPE_CHECKING:
    from tests.support.fake_ollama import FakeOllama
    from tests.support.postgres import ThrowawayPostgres

REPO_ROOT = Path(__file__).resolve().parents[2]
# The servers speak plain HTTP, yet every httpx client builds a TLS context, loading the CA bundle: one
# context shared by all the suite's clients instead (a new one per test's client added up to seconds).
SHARED_TLS = ssl.create_default_context()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class QuireServer(QuireProcess):
    kind = "server"

    def __init__(self, database_url: str, data_dir: Path, ollama_url: str, *, checkout: Path = REPO_ROOT,
                 **env: str) -> None:
        self.database_url = database_url
        self.data_dir = data_dir
        self.checkout = checkout  # whose code runs: this repository, or another checkout to compare with
        self.port = free_port()
        super().__init__("backend.main", data_dir / "server.log", {
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
        }, checkout)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=kwargs.pop("timeout", 30.0), verify=SHARED_TLS, **kwargs)

    # Generous: on a shared 2-core machine a start (imports, migrations, index, DBOS) took over 90 s at
    # load 15-40; a process that fails to start is noticed at once by its exit, not by this limit.
    def start(self, timeout_s: float = 300.0) -> QuireServer:
        self.launch(timeout_s, self._answers_health)
        return self

    def _answers_health(self) -> bool:
        try:
            return httpx.get(f"{self.url}/api/health", timeout=2.0, verify=SHARED_TLS).status_code == 200
        except httpx.HTTPError:
            return False

    def restart(self) -> QuireServer:
        self.stop()
        return self.start()


def serve(postgres: ThrowawayPostgres, ollama: FakeOllama, data_dir: Path, **env: str) -> Iterator[QuireServer]:
    """A module's or the session's own server, for a fixture to `yield from`: started on a fresh database
    of the test Postgres with `data_dir` and the settings in `env`, talking to the fake Ollama; stopped
    when the fixture ends."""
    server = QuireServer(postgres.fresh_database(), data_dir, ollama.url, **env).start()
    yield server
    server.stop()


def operations(quire: QuireServer) -> list[tuple[str, str, dict[str, Any]]]:
    """Every operation of the server's OpenAPI document, as (method, path, its spec)."""
    with quire.client() as api:
        schema = api.get("/api/openapi.json").json()
    return [(method.upper(), path, spec) for path, methods in schema["paths"].items()
            for method, spec in methods.items()]
