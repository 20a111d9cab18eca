"""Quire is SIGKILLed while a client is halfway through an upload. The partial `.upload-*` file (and a
staged file no run names, as a crash between staging and registering leaves) must be gone after the
restart, while the staged file of a run still waiting in the queue is kept and that run completes."""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Callable

import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

pytestmark = pytest.mark.slow

BOUNDARY = "quireboundary"


def _note(topic: str) -> bytes:
    return (f"# {topic}\n\n" + f"Notes on {topic} for the exam. " * 80).encode()


def _start_partial_upload(server: QuireServer, size: int) -> socket.socket:
    """Send the headers and the first part of a large multipart body, then stall (the socket stays open)."""
    head = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="big.txt"\r\n'
            "Content-Type: text/plain\r\n\r\n").encode()
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall((f"POST /api/documents HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                  f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
                  f"Content-Length: {len(head) + size * 10}\r\n\r\n").encode() + head + b"x" * size)
    return sock


def _wait(what: str, check: Callable[[], object], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.05)


def test_a_restart_removes_what_a_killed_upload_left_and_the_queued_run_completes(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    server = server_factory(QUIRE_INGEST_CONCURRENCY="1")
    pending = server.data_dir / "docs" / ".pending"
    with server.client() as api:
        fake_ollama.hold_embeddings()  # the first run holds the only ingestion slot
        first = upload(api, {"thermo.md": _note("thermodynamics")}).json()["workflow_id"]
        # (the fake is shared by every server of the session: this run's own state is what counts)
        _wait("the first run is embedding", lambda: api.get(f"/api/ingest/{first}").json()["documents"][0]["status"]
              == "embedding")
        second = upload(api, {"optics.md": _note("optics")})
        assert second.status_code == 202, second.text
        # An accepted file leaves the staging folder at once (its bytes are stored in Postgres): the queued
        # run needs nothing there.
        assert set(pending.iterdir()) == set()

        sock = _start_partial_upload(server, 2 * 1024 * 1024)
        _wait("the partial upload is on disk", lambda: any(p.name.startswith(".upload-") for p in pending.iterdir()))
        partial = next(p for p in pending.iterdir() if p.name.startswith(".upload-"))
        stray = pending / uuid.uuid4().hex  # staged, but its run was never registered
        stray.write_bytes(b"orphaned staged upload")
        server.kill()
        sock.close()
        an_hour_ago = time.time() - 3600
        os.utime(stray, (an_hour_ago, an_hour_ago))
    assert partial.exists()

    server.restart()
    assert not partial.exists()
    assert not stray.exists()
    with server.client() as api:
        fake_ollama.release_embeddings()
        for workflow_id in (first, second.json()["workflow_id"]):
            assert wait_for_run(api, workflow_id, timeout_s=120)["status"] == "SUCCESS"
        names = {doc["filename"]: doc["status"] for doc in api.get("/api/documents").json()}
    assert names == {"thermo.md": "ready", "optics.md": "ready"}
    assert not any(p.name.startswith(".upload-") for p in pending.iterdir())
