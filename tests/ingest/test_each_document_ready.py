"""A run's documents become ready one by one: a short note uploaded with a long scan is embedded and ready
while the scan is still being read, through the upload API of a real server."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.support.documents import make_pdf, tesseract_available
from tests.support.vault import TERMINAL, upload

NOTE = (b"# Moraines\n\nA terminal moraine marks the furthest advance of a glacier; eskers are ridges of sand "
        b"and gravel laid down by streams under the ice.\n")


def _scan(path: Path, pages: int) -> bytes:
    texts = [f"Scanned page {n} about the hydrology of karst landscapes. " +
             "Sinkholes, caves and springs form where water dissolves limestone bedrock. " * 12
             for n in range(1, pages + 1)]
    return make_pdf(path, texts, scanned=range(1, pages + 1)).read_bytes()


@pytest.mark.slow  # OCR of a scan: about 14 s (the fast tier stays under 5 min)
@pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
def test_a_note_is_ready_while_the_scan_beside_it_is_still_read(api: httpx.Client, unique: Callable[[str], str],
                                                                tmp_path: Path) -> None:
    note, scan = unique("moraines.md"), unique("karst-scan.pdf")
    response = upload(api, {scan: _scan(tmp_path / "scan.pdf", 8), note: NOTE})
    assert response.status_code == 202, response.text
    workflow_id = response.json()["workflow_id"]
    note_id = next(doc["id"] for doc in response.json()["documents"] if doc["filename"] == note)
    seen_ready: tuple[dict, dict] | None = None
    deadline = time.monotonic() + 240
    while (snapshot := api.get(f"/api/ingest/{workflow_id}").json())["status"] not in TERMINAL:
        assert time.monotonic() < deadline, snapshot
        by_name = {doc["filename"]: doc for doc in snapshot["documents"]}
        if seen_ready is None and by_name[note]["status"] == "ready":
            seen_ready = by_name[note], by_name[scan]
            listed = {doc["filename"]: doc for doc in api.get("/api/documents").json()}
            assert listed[note]["status"] == "ready", listed[note]
            assert listed[scan]["status"] == "ingesting", listed[scan]
        time.sleep(0.1)
    assert snapshot["status"] == "SUCCESS", snapshot
    assert seen_ready is not None, "the note only became ready with the run's end"
    note_then, scan_then = seen_ready
    assert note_then["blocks"], note_then
    assert note_then["embedded"] == note_then["blocks"], note_then  # embedded, not just stored
    assert scan_then["status"] == "extracting", scan_then
    final = {doc["filename"]: doc for doc in snapshot["documents"]}
    assert final[scan]["status"] == "ready", final[scan]
    assert final[scan]["embedded"] == final[scan]["blocks"] > 0, final[scan]
    assert final[note]["status"] == "ready", final[note]
    # Found by meaning (dense alone), so its vectors are in the index, not only its words.
    hits = api.get("/api/search", params={"q": "terminal moraine eskers", "k": 5, "mode": "dense",
                                          "documents": note_id}).json()["hits"]
    assert [hit["document_id"] for hit in hits] == [note_id], hits
