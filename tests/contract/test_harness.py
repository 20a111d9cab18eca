"""The test harness leaves nothing running: a server whose start failed, or did not become ready in
time, is killed before the error reaches the test (one left behind used to run on after pytest exited,
logging thousands of lines)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.worker import QuireWorker

pytestmark = pytest.mark.slow


def test_a_server_that_is_not_ready_in_time_is_killed(postgres: ThrowawayPostgres, fake_ollama: FakeOllama,
                                                      tmp_path: Path) -> None:
    server = QuireServer(postgres.fresh_database(), tmp_path / "data", fake_ollama.url)
    with pytest.raises(TimeoutError, match="did not become ready"):
        server.start(timeout_s=0.3)  # far less than a start takes
    assert server.process is not None
    assert server.process.poll() is not None, "the server still runs after its start gave up"


def test_a_worker_whose_start_fails_is_gone_too(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    worker = QuireWorker("postgresql://nobody@127.0.0.1:1/none", tmp_path / "data", fake_ollama.url,
                         QUIRE_TAKEOVER_AFTER_S="not a number")  # refused by the settings: the worker exits
    with pytest.raises(RuntimeError, match="exited with"):
        worker.start(timeout_s=600)  # it fails at its settings, after importing the backend (slow when busy)
    assert worker.process is not None
    assert worker.process.poll() is not None
