"""Document identity over real HTTP: a name is unique per category, conflicts ask (409) / replace (a new
version) / keep both (`Name (2).ext`); versions list, restore and delete; the trash; refusals; Retry."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psycopg

from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

Unique = Callable[[str], str]

V1 = b"# Lecture 1\n\nThe photoelectric effect shows light arrives in quanta called photons.\n"
V2 = b"# Lecture 1\n\nBernoulli's principle relates pressure and velocity in a flowing fluid.\n"


def _ingest(api: httpx.Client, files: dict[str, bytes], category: str | None = None,
            on_conflict: str | None = None) -> dict:
    params = {"on_conflict": on_conflict} if on_conflict else None
    parts = [("files", (name, data, "text/markdown")) for name, data in files.items()]
    response = api.post("/api/documents", files=parts, data={"category": category} if category else None,
                        params=params)
    assert response.status_code == 202, response.text
    body = response.json()
    assert wait_for_run(api, body["workflow_id"])["status"] == "SUCCESS"
    return body


def _sparse(api: httpx.Client, word: str) -> set[str]:
    hits = api.get("/api/search", params={"q": word, "mode": "sparse", "k": 50}).json()["hits"]
    return {hit["document_id"] for hit in hits}


def _step_runs(server: QuireServer) -> int:
    with psycopg.connect(server.database_url) as conn:
        row = conn.execute("SELECT count(*) FROM ingest_step_runs").fetchone()
    assert row is not None
    return int(row[0])


def test_same_name_in_two_categories_is_two_documents(api: httpx.Client, unique: Unique) -> None:
    name, physics, chemistry = unique("Lecture01.md"), unique("Physics"), unique("Chemistry")
    first = _ingest(api, {name: V1}, physics)["documents"][0]
    second = _ingest(api, {name: V2}, chemistry)["documents"][0]
    assert first["id"] != second["id"]
    docs = {d["id"]: d for d in api.get("/api/documents").json()}
    assert docs[first["id"]]["category"] == physics
    assert docs[second["id"]]["category"] == chemistry
    assert docs[first["id"]]["current_version"] == 1
    assert docs[first["id"]]["versions"] == 1
    assert first["id"] in _sparse(api, "photoelectric")  # the Physics notes were not replaced
    assert second["id"] in _sparse(api, "bernoulli")


def test_conflict_asks_and_stores_nothing(api: httpx.Client, unique: Unique, quire: QuireServer) -> None:
    name, category = unique("notes.md"), unique("Bio")
    doc = _ingest(api, {name: V1}, category)["documents"][0]
    before = api.get(f"/api/documents/{doc['id']}").json()
    refusals_before = len(api.get("/api/refusals").json()["refusals"])
    with psycopg.connect(quire.database_url) as conn:
        originals_before = conn.execute("SELECT count(*) FROM originals").fetchone()
    asked = upload(api, {name.upper(): V2}, category)  # names compare case-insensitively
    assert asked.status_code == 409, asked.text
    from backend.api.documents import NameConflictError  # the API layer: imported here, not when collecting

    NameConflictError.model_validate(asked.json())  # the body is what the OpenAPI schema says it is
    error = asked.json()["error"]
    assert error["code"] == "name_conflict"
    [conflict] = error["details"]["conflicts"]
    assert conflict["filename"] == name.upper()
    assert conflict["existing"]["id"] == doc["id"]
    assert conflict["existing"]["category"] == category
    assert conflict["existing"]["size_bytes"] == len(V1)
    assert conflict["existing"]["status"] == "ready"
    assert api.get(f"/api/documents/{doc['id']}").json() == before
    assert len(api.get("/api/refusals").json()["refusals"]) == refusals_before
    with psycopg.connect(quire.database_url) as conn:
        assert conn.execute("SELECT count(*) FROM originals").fetchone() == originals_before
    # identical bytes are not a conflict: change detection says unchanged
    same = upload(api, {name: V1}, category)
    assert same.status_code == 202
    assert wait_for_run(api, same.json()["workflow_id"])["documents"][0]["decision"] == "unchanged"


def test_replace_makes_a_new_version_and_keep_both_a_new_document(api: httpx.Client, unique: Unique) -> None:
    name, category = unique("Lecture01.md"), unique("Physics")
    doc_id = _ingest(api, {name: V1}, category)["documents"][0]["id"]
    replaced = _ingest(api, {name: V2}, category, on_conflict="replace")["documents"][0]
    assert replaced["id"] == doc_id
    document = api.get(f"/api/documents/{doc_id}").json()
    assert (document["current_version"], document["versions"]) == (2, 2)
    assert doc_id in _sparse(api, "bernoulli")
    assert doc_id not in _sparse(api, "photoelectric")
    third = b"# Lecture 1\n\nKepler's laws describe planetary orbits as ellipses.\n"
    kept = _ingest(api, {name: third}, category, on_conflict="keep_both")["documents"][0]
    assert kept["id"] != doc_id
    stem = name.removesuffix(".md")
    assert kept["filename"] == f"{stem} (2).md"
    assert {doc_id, kept["id"]} <= {d["id"] for d in api.get("/api/documents", params={"category": category}).json()}
    assert kept["id"] in _sparse(api, "kepler")
    assert doc_id in _sparse(api, "bernoulli")


def test_versions_restore_and_delete_without_ingesting(
    api: httpx.Client, unique: Unique, quire: QuireServer, fake_ollama: FakeOllama
) -> None:
    name = unique("versions.md")
    doc_id = _ingest(api, {name: V1})["documents"][0]["id"]
    _ingest(api, {name: V2}, on_conflict="replace")
    listed = api.get(f"/api/documents/{doc_id}/versions").json()["versions"]
    assert [(v["version"], v["current"]) for v in listed] == [(2, True), (1, False)]
    assert listed[1]["size_bytes"] == len(V1)
    assert listed[1]["kind"] == "md"
    assert len(listed[1]["sha256"]) == 64
    assert api.get(f"/api/documents/{doc_id}/versions/1/file").content == V1
    assert api.get(f"/api/documents/{doc_id}/file").content == V2

    steps, embeds = _step_runs(quire), len(fake_ollama.embed_requests)
    restored = api.post(f"/api/documents/{doc_id}/versions/1/restore")
    assert restored.status_code == 200, restored.text
    assert restored.json()["current_version"] == 1
    assert restored.json()["status"] == "ready"
    assert restored.json()["embedded_fraction"] == 1.0  # the kept blocks came back with their vectors
    assert (_step_runs(quire), len(fake_ollama.embed_requests)) == (steps, embeds)
    assert doc_id in _sparse(api, "photoelectric")
    assert doc_id not in _sparse(api, "bernoulli")
    assert api.get(f"/api/documents/{doc_id}/file").content == V1

    assert api.delete(f"/api/documents/{doc_id}/versions/1").json()["error"]["code"] == "current_version"
    assert api.delete(f"/api/documents/{doc_id}/versions/2").json() == {"deleted": 2}
    assert [v["version"] for v in api.get(f"/api/documents/{doc_id}/versions").json()["versions"]] == [1]
    assert api.get(f"/api/documents/{doc_id}/versions/2/file").status_code == 404
    assert api.post(f"/api/documents/{doc_id}/versions/9/restore").status_code == 404


def test_trash_hides_at_once_and_restores_without_ingesting(
    api: httpx.Client, unique: Unique, quire: QuireServer, fake_ollama: FakeOllama
) -> None:
    name, category = unique("trash.md"), unique("Trash")
    doc_id = _ingest(api, {name: b"# Quasars\n\nQuasars are powered by supermassive black holes."}, category)[
        "documents"][0]["id"]
    assert api.post(f"/api/documents/{doc_id}/restore").json()["error"]["code"] == "not_trashed"
    assert api.delete(f"/api/documents/{doc_id}", params={"permanent": "true"}).status_code == 409
    trashed = api.delete(f"/api/documents/{doc_id}")
    assert trashed.status_code == 200
    assert trashed.json()["status"] == "trashed"
    assert doc_id not in _sparse(api, "quasars")
    assert doc_id not in {d["id"] for d in api.get("/api/documents").json()}
    assert doc_id in {d["id"] for d in api.get("/api/documents", params={"status": "trashed"}).json()}
    # its name is free again in the category: a new upload is a new document
    other = _ingest(api, {name: b"# Pulsars\n\nPulsars are rotating neutron stars."}, category)["documents"][0]
    assert other["id"] != doc_id

    steps, embeds = _step_runs(quire), len(fake_ollama.embed_requests)
    back = api.post(f"/api/documents/{doc_id}/restore")
    assert back.status_code == 200, back.text
    assert back.json()["status"] == "ready"
    assert back.json()["trashed_at"] is None
    assert back.json()["filename"] == name.removesuffix(".md") + " (2).md"  # its name was taken meanwhile
    assert back.json()["embedded_fraction"] == 1.0
    assert (_step_runs(quire), len(fake_ollama.embed_requests)) == (steps, embeds)
    assert doc_id in _sparse(api, "quasars")

    api.delete(f"/api/documents/{doc_id}")
    api.delete(f"/api/documents/{other['id']}")
    emptied = api.delete("/api/trash")
    assert emptied.status_code == 200
    assert emptied.json()["deleted"] >= 2
    assert api.get(f"/api/documents/{doc_id}").status_code == 404
    with psycopg.connect(quire.database_url) as conn:
        assert conn.execute("SELECT count(*) FROM document_versions WHERE document_id = %s",
                            (doc_id,)).fetchone() == (0,)


def test_refusals_are_recorded_until_dismissed(api: httpx.Client, unique: Unique) -> None:
    api.delete("/api/refusals")
    bad, category = unique("fake.pdf"), unique("Refused")
    response = upload(api, {bad: b"this is not a pdf", unique("fine.md"): b"# Fine\n\nA good file."}, category)
    assert response.status_code == 202
    assert wait_for_run(api, response.json()["workflow_id"])["status"] == "SUCCESS"
    upload(api, {unique("empty.txt"): b""})
    refusals = api.get("/api/refusals").json()["refusals"]
    assert [(r["filename"], r["code"]) for r in refusals][::-1][:1] == [(bad, "content_mismatch")]
    assert {r["code"] for r in refusals} == {"content_mismatch", "empty_file"}
    first = next(r for r in refusals if r["filename"] == bad)
    assert first["category"] == category
    assert first["message"]
    assert first["created_at"]
    assert api.delete(f"/api/refusals/{first['id']}").json() == {"dismissed": 1}
    assert api.delete(f"/api/refusals/{first['id']}").status_code == 404
    assert [r["code"] for r in api.get("/api/refusals").json()["refusals"]] == ["empty_file"]
    assert api.delete("/api/refusals").json() == {"dismissed": 1}
    assert api.get("/api/refusals").json() == {"refusals": []}


def test_retry_runs_a_failed_document_again_from_its_original(api: httpx.Client, unique: Unique) -> None:
    name = unique("blank.md")
    body = _ingest(api, {name: b"   \n\n   \n"})
    doc_id = body["documents"][0]["id"]
    assert api.get(f"/api/documents/{doc_id}").json()["status"] == "failed"
    retried = api.post(f"/api/documents/{doc_id}/retry")
    assert retried.status_code == 202, retried.text
    assert retried.json()["workflow_id"] != body["workflow_id"]
    assert retried.json()["documents"][0]["id"] == doc_id
    snapshot = wait_for_run(api, retried.json()["workflow_id"])
    assert f"extract:{doc_id}" in snapshot["executions"]  # read again from the stored original
    assert snapshot["documents"][0]["error"] == "No text could be found in this file."
    ready = _ingest(api, {unique("ok.md"): b"# Ok\n\nFine."})["documents"][0]["id"]
    assert api.post(f"/api/documents/{ready}/retry").json()["error"]["code"] == "not_failed"


def test_moving_into_a_category_where_the_name_is_taken_is_refused(api: httpx.Client, unique: Unique) -> None:
    name, here, there = unique("same.md"), unique("Here"), unique("There")
    doc = _ingest(api, {name: V1}, here)["documents"][0]
    _ingest(api, {name: V2}, there)
    moved = api.patch(f"/api/documents/{doc['id']}", json={"category": there})
    assert moved.status_code == 409
    assert moved.json()["error"]["code"] == "name_taken"
    assert api.get(f"/api/documents/{doc['id']}").json()["category"] == here


def test_retry_after_a_cancel_makes_the_document_ready(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # OCR takes about a second a page: the run is cancelled while it reads, then Retry reads it all.
    name = unique("glaciers.pdf")
    pages = [f"Scanned page {n} about glacier flow and basal sliding." for n in range(6)]
    response = upload(api, {name: make_pdf(tmp_path / "g.pdf", pages, scanned=range(1, 7)).read_bytes()})
    assert response.status_code == 202, response.text
    workflow_id, doc_id = response.json()["workflow_id"], response.json()["documents"][0]["id"]
    deadline = time.monotonic() + 60
    while api.get(f"/api/ingest/{workflow_id}").json()["documents"][0]["status"] != "extracting":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert api.post(f"/api/ingest/{workflow_id}/cancel").status_code == 200
    assert api.get(f"/api/documents/{doc_id}").json()["status"] == "failed"
    retried = api.post(f"/api/documents/{doc_id}/retry")
    assert retried.status_code == 202, retried.text
    assert wait_for_run(api, retried.json()["workflow_id"], timeout_s=120)["status"] == "SUCCESS"
    document = api.get(f"/api/documents/{doc_id}").json()
    assert document["status"] == "ready"
    assert document["current_version"] == 1
    assert doc_id in _sparse(api, "glacier")


def test_restoring_a_version_without_blocks_ingests_it_from_its_original(
    api: httpx.Client, unique: Unique, quire: QuireServer
) -> None:
    name = unique("rebuilt.md")
    doc_id = _ingest(api, {name: V1})["documents"][0]["id"]
    _ingest(api, {name: V2}, on_conflict="replace")
    # A version whose blocks are gone (as a version kept from before blocks were kept per version).
    with psycopg.connect(quire.database_url, autocommit=True) as conn:
        conn.execute("DELETE FROM blocks WHERE document_id = %s AND NOT is_live", (doc_id,))
    restored = api.post(f"/api/documents/{doc_id}/versions/1/restore")
    assert restored.status_code == 200, restored.text
    assert restored.json()["status"] == "queued"
    assert wait_for_run(api, restored.json()["last_workflow_id"])["status"] == "SUCCESS"
    document = api.get(f"/api/documents/{doc_id}").json()
    assert (document["status"], document["current_version"], document["versions"]) == ("ready", 1, 2)
    assert doc_id in _sparse(api, "photoelectric")
    assert doc_id not in _sparse(api, "bernoulli")
