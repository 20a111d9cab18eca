"""Change detection through the real workflow: new, unchanged, changed (a replace), trashed-then-added-again,
and a category-only change — each observed through the API and the run's step executions."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.support.fake_ollama import FakeOllama
from tests.support.vault import upload, wait_for_run

V1 = b"# Enzymes\n\nEnzymes lower activation energy. Catalase splits hydrogen peroxide.\n"
V2 = b"# Enzymes\n\nEnzymes lower activation energy. Amylase digests starch into maltose.\n"


def _run(api: httpx.Client, name: str, content: bytes, category: str | None = None,
         on_conflict: str | None = None) -> dict:
    response = upload(api, {name: content}, category, on_conflict)
    assert response.status_code == 202, response.text
    snapshot = wait_for_run(api, response.json()["workflow_id"])
    assert snapshot["status"] == "SUCCESS", snapshot
    return snapshot


def _block_texts(api: httpx.Client, document_id: str, word: str) -> list[str]:
    hits = api.get("/api/search", params={"q": word, "mode": "sparse", "documents": document_id}).json()["hits"]
    return [hit["text"] for hit in hits]


def test_new_unchanged_changed_readded(api: httpx.Client, unique: Callable[[str], str]) -> None:
    name = unique("enzymes.md")
    first = _run(api, name, V1)
    doc_id = first["documents"][0]["id"]
    assert first["documents"][0]["decision"] == "new"
    assert any(key.startswith("extract:") for key in first["executions"])

    again = _run(api, name, V1)
    assert again["documents"][0] == {**again["documents"][0], "id": doc_id, "decision": "unchanged",
                                     "status": "skipped"}
    assert not any(key.startswith(("extract:", "store:", "embed:")) for key in again["executions"])
    assert api.get(f"/api/documents/{doc_id}").json()["status"] == "ready"

    assert upload(api, {name: V2}).status_code == 409  # other bytes under a taken name: the user decides
    changed = _run(api, name, V2, on_conflict="replace")
    assert changed["documents"][0]["decision"] == "changed"
    assert changed["documents"][0]["id"] == doc_id
    assert _block_texts(api, doc_id, "catalase") == []
    assert "Amylase" in _block_texts(api, doc_id, "amylase")[0]
    assert api.get(f"/api/documents/{doc_id}").json()["blocks"] == 1

    assert api.delete(f"/api/documents/{doc_id}").status_code == 200  # to the trash: the name is free
    readded = _run(api, name, V2)
    assert readded["documents"][0]["decision"] == "new"
    new_id = readded["documents"][0]["id"]
    assert new_id != doc_id  # a new document; the trashed one stays restorable
    assert api.get(f"/api/documents/{new_id}").json()["status"] == "ready"
    assert api.get(f"/api/documents/{doc_id}").json()["status"] == "trashed"
    assert "Amylase" in _block_texts(api, new_id, "amylase")[0]
    hits = api.get("/api/search", params={"q": "amylase", "mode": "sparse", "k": 50}).json()["hits"]
    assert doc_id not in {hit["document_id"] for hit in hits}


def test_category_only_change_does_not_reembed(
    api: httpx.Client, fake_ollama: FakeOllama, unique: Callable[[str], str]
) -> None:
    name = unique("cells.md")
    doc_id = _run(api, name, b"# Cells\n\nRibosomes build proteins.", category="Bio 1")["documents"][0]["id"]
    embeds_before = len(fake_ollama.embed_requests)
    assert api.patch(f"/api/documents/{doc_id}", json={"category": "Bio 2"}).status_code == 200
    assert len(fake_ollama.embed_requests) == embeds_before
    document = api.get(f"/api/documents/{doc_id}").json()
    assert document["category"] == "Bio 2"
    assert document["embedded_fraction"] == 1.0
    hits = api.get("/api/search", params={"q": "ribosomes", "categories": "Bio 2", "mode": "sparse"}).json()["hits"]
    assert [hit["document_id"] for hit in hits] == [doc_id]


def test_double_submit_starts_one_workflow(
    api: httpx.Client, fake_ollama: FakeOllama, unique: Callable[[str], str]
) -> None:
    fake_ollama.embed_delay_s = 0.5  # the first run is still ingesting when the second submit arrives
    files = {unique("twice.md"): b"# Twice\n\nSubmitted two times in a row."}
    first = upload(api, files).json()
    second = upload(api, files).json()
    assert first["workflow_id"] == second["workflow_id"]
    assert first["documents"][0]["id"] == second["documents"][0]["id"]
    assert wait_for_run(api, first["workflow_id"])["status"] == "SUCCESS"


def test_failed_new_version_keeps_the_previous_one(api: httpx.Client, unique: Callable[[str], str]) -> None:
    name = unique("report.md")
    doc_id = _run(api, name, b"# Report\n\nQuarterly figures for Q3 are strong.")["documents"][0]["id"]
    snapshot = _run(api, name, b"   \n\n   \n", on_conflict="replace")
    assert snapshot["documents"][0]["status"] == "failed"
    document = api.get(f"/api/documents/{doc_id}").json()
    assert document["status"] == "ready"
    assert any("previous version is kept" in w for w in document["warnings"])
    assert "Q3" in _block_texts(api, doc_id, "Q3")[0]


def _section(word: str) -> str:
    """A section of its own passage (about 900 characters), every sentence naming `word`."""
    return f"## {word.title()}\n\n" + " ".join(
        f"Sentence {n} of the notes explains how {word} behaves in experiment number {n}." for n in range(12)) + "\n\n"


def test_a_version_reverting_to_older_passages_takes_their_vectors(
    api: httpx.Client, fake_ollama: FakeOllama, unique: Callable[[str], str]
) -> None:
    """Passages that only an older version (not the live one) holds keep their vectors: a file edited back
    towards an earlier version embeds only its new passages."""
    name = unique("reverting.md")
    first = _section("feldspar") + _section("gypsum")
    doc_id = _run(api, name, first.encode())["documents"][0]["id"]
    _run(api, name, (_section("basalt") + _section("granite")).encode(), on_conflict="replace")
    before = len(fake_ollama.embed_requests)
    _run(api, name, (first + _section("zeolite")).encode(), on_conflict="replace")

    embedded = [text for request in fake_ollama.embed_requests[before:] for text in request["input"]]
    document = api.get(f"/api/documents/{doc_id}").json()
    assert (document["current_version"], document["embedded_fraction"]) == (3, 1.0)
    assert document["blocks"] > len(embedded) > 0, embedded  # feldspar's and gypsum's vectors were kept
    assert all("zeolite" in text.lower() for text in embedded), embedded  # only what no version held
