"""The embedded Postgres (no DATABASE_URL) lives and ends with the app: a crash leaves it running for the
next start to attach to, and a normal stop (SIGTERM, as Docker and systemd send) stops it, also after
that crash."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer

pytestmark = pytest.mark.slow


def _postmaster(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_embedded_postgres_stops_with_the_app_even_after_a_crash(
        tmp_path: Path, fake_ollama_server: FakeOllama) -> None:
    vault = tmp_path / "vault"
    server = QuireServer("", vault, fake_ollama_server.url, DATABASE_URL="")
    server.start(timeout_s=120)
    try:
        with server.client() as api:
            assert api.get("/api/health").json()["postgres"] == {"ok": True, "embedded": True}
        postmaster = _postmaster(vault / "postgres")
        server.kill()  # a crash: nothing stops the database
        assert _running(postmaster)
        server.start()
        assert _postmaster(vault / "postgres") == postmaster  # attached to the running one
    finally:
        server.stop()  # SIGTERM
    deadline = time.monotonic() + 20
    while _running(postmaster):
        if time.monotonic() > deadline:
            os.kill(postmaster, signal.SIGTERM)  # don't leave it behind the failing test
            pytest.fail("the embedded Postgres was left running after the app stopped")
        time.sleep(0.1)
