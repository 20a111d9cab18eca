"""kill -9 safety of versions and the trash, on a real server process and real Postgres.

- A replace killed while the fake Ollama holds its embedding request: after a restart the previous
  version is still listed and restorable, the replace completes, search finds the new text.
- A version restore and a trash restore are each ONE database transaction (`store/versions.py`
  `restore_version`, `store/documents.py` `restore_document`): a SIGKILL sent while the request is in
  flight leaves either the state before or the state after, never a mix — the document's current
  version, its recorded sha256 and the live blocks always agree.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable

import httpx
import psycopg
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest, upload, wait_for_run

pytestmark = pytest.mark.slow

V1 = ("# Ecology\n\n" + "\n\n".join(f"## Part {i}\n\nPhotosynthesis section {i} about chlorophyll." for i in range(4)))
V2 = ("# Ecology\n\n" + "\n\n".join(f"## Part {i}\n\nNitrogen fixation section {i} by rhizobia bacteria."
                                    for i in range(12)))


def _sparse(api: httpx.Client, word: str) -> set[str]:
    return {h["document_id"] for h in api.get("/api/search", params={"q": word, "mode": "sparse"}).json()["hits"]}


def _wait_phase(api: httpx.Client, workflow_id: str, phase: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if api.get(f"/api/ingest/{workflow_id}").json()["progress"]["phase"] == phase:
            return
        time.sleep(0.02)
    raise TimeoutError(phase)


def _assert_consistent(server: QuireServer, doc_id: str) -> str:
    """The document's current version, recorded sha256 and live blocks agree; returns its status."""
    with psycopg.connect(server.database_url) as conn:
        row = conn.execute(
            "SELECT d.status, d.sha256 = v.sha256,"
            " (SELECT count(*) FROM blocks b WHERE b.document_id = d.id AND b.is_live),"
            " (SELECT count(*) FROM blocks b WHERE b.document_id = d.id AND b.is_live AND b.doc_sha256 = d.sha256),"
            " (SELECT count(*) FROM blocks b WHERE b.document_id = d.id AND b.doc_sha256 = d.sha256)"
            " FROM documents d JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version"
            " WHERE d.id = %s",
            (doc_id,),
        ).fetchone()
    assert row is not None
    status, sha_matches, live, live_current, all_current = row
    assert sha_matches
    if status == "trashed":
        assert live == 0
    else:
        assert live == live_current == all_current
        assert live > 0
    return str(status)


def _kill_during(server: QuireServer, request: Callable[[], object], delay_s: float) -> None:
    def send() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server dies under the request: that is the point
            request()

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    time.sleep(delay_s)
    server.kill()
    sender.join(timeout=10)


def test_kill_during_a_replace_loses_nothing(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    server = server_factory(QUIRE_EMBED_BATCH_SIZE="1", QUIRE_CHUNK_SIZE="200", QUIRE_CHUNK_OVERLAP="0")
    with server.client() as api:
        doc_id = ingest(api, {"ecology.md": V1.encode()})["ecology.md"]["id"]
        fake_ollama.embed_delay_s = 1.0  # the fake Ollama holds each embedding request
        response = upload(api, {"ecology.md": V2.encode()}, on_conflict="replace")
        assert response.status_code == 202, response.text
        workflow_id = response.json()["workflow_id"]
        _wait_phase(api, workflow_id, "embedding")
        server.kill()
    fake_ollama.embed_delay_s = 0.0
    server.start()
    with server.client() as api:
        listed = api.get(f"/api/documents/{doc_id}/versions").json()["versions"]
        assert [v["version"] for v in listed] == [2, 1]  # the previous version is still there
        assert wait_for_run(api, workflow_id, timeout_s=120)["status"] == "SUCCESS"
        document = api.get(f"/api/documents/{doc_id}").json()
        assert document["status"] == "ready"
        assert document["current_version"] == 2
        assert document["embedded_fraction"] == 1.0
        assert doc_id in _sparse(api, "rhizobia")
        assert doc_id not in _sparse(api, "chlorophyll")
        assert api.get(f"/api/documents/{doc_id}/versions/1/file").content == V1.encode()
        assert api.post(f"/api/documents/{doc_id}/versions/1/restore").status_code == 200
        assert doc_id in _sparse(api, "chlorophyll")
        assert doc_id not in _sparse(api, "rhizobia")
    _assert_consistent(server, doc_id)


@pytest.mark.parametrize("delay_s", [0.0, 0.01, 0.05])
def test_a_kill_during_a_restore_leaves_before_or_after(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, delay_s: float
) -> None:
    server = server_factory()
    with server.client() as api:
        doc_id = ingest(api, {"ecology.md": V1.encode()})["ecology.md"]["id"]
        ingest(api, {"ecology.md": V2.encode()}, on_conflict="replace")
    with server.client() as api:
        _kill_during(server, lambda: api.post(f"/api/documents/{doc_id}/versions/1/restore"), delay_s)
    _assert_consistent(server, doc_id)
    server.start()
    with server.client() as api:
        current = api.get(f"/api/documents/{doc_id}").json()["current_version"]
        assert current in (1, 2)
        assert doc_id in _sparse(api, "chlorophyll" if current == 1 else "rhizobia")
        api.delete(f"/api/documents/{doc_id}")
    with server.client() as api:
        _kill_during(server, lambda: api.post(f"/api/documents/{doc_id}/restore"), delay_s)
    status = _assert_consistent(server, doc_id)
    server.start()
    with server.client() as api:
        word = "chlorophyll" if current == 1 else "rhizobia"
        assert (doc_id in _sparse(api, word)) == (status != "trashed")
        if status == "trashed":
            assert api.post(f"/api/documents/{doc_id}/restore").status_code == 200
        assert doc_id in _sparse(api, word)
    _assert_consistent(server, doc_id)
