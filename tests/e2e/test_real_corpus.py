"""The whole real-document corpus through the front door: one multipart upload of every file in
`../shared/corpus/manifest.json` (stored under names without their extension, as uploads are staged)
into a real server process, then every file ready with blocks and every probe found by keyword search
in its own document, on its page, slide, sheet or under its heading (rules in tests/support/corpus.py),
a Word footnote found under the heading of the paragraph that refers to it, and no text invented from
the Word documents' pictures (a duck drawing and a seal, both OCR'd, neither holding words).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from typing import Any

import httpx
import pymupdf
import pytest

from tests.support.corpus import CORPUS, contains, manifest, places, where_matches
from tests.support.server import QuireServer
from tests.support.vault import wait_for_run

pytestmark = pytest.mark.slow

CATEGORY = "Real corpus"
# (file, a footnote's words, the section of the paragraph referring to it): not in the manifest, whose
# probes are body text.
FOOTNOTES = [("doj-chapter13-trustee-handbook.docx", "in this Handbook shall have the same meaning as",
              "2. SCHEDULING, NOTICING, RESCHEDULING AND CONTINUANCES")]
# Two scanned pages are OCR'd on a 2-core CI machine shared with other work.
INGEST_TIMEOUT_S = 600.0


def _hits(api: httpx.Client, query: str, document_id: str) -> list[dict[str, Any]]:
    """The probe searched within its own document (as the viewer's search does): a scan whose pages hold
    the same words four times must not have its fourth page crowded out by the other files' hits."""
    response = api.get("/api/search", params={"q": query, "k": 10, "mode": "sparse", "documents": document_id})
    assert response.status_code == 200, response.text
    return response.json()["hits"]


def test_every_corpus_file_is_ingested_and_every_probe_found(
    server_factory: Callable[..., QuireServer],
) -> None:
    entries = manifest()
    assert entries, f"no corpus at {CORPUS}"
    server = server_factory()
    with server.client(timeout=120.0) as api:
        parts = [("files", (entry["file"], (CORPUS / entry["file"]).read_bytes(),
                            mimetypes.guess_type(entry["file"])[0] or "application/octet-stream"))
                 for entry in entries]
        response = api.post("/api/documents", files=parts, data={"category": CATEGORY})
        assert response.status_code == 202, response.text
        snapshot = wait_for_run(api, response.json()["workflow_id"], INGEST_TIMEOUT_S)
        assert snapshot["status"] == "SUCCESS", snapshot

        documents = {doc["filename"]: doc for doc in api.get("/api/documents").json()}
        problems = []
        for entry in entries:
            document = documents.get(entry["file"])
            if document is None or document["status"] != "ready" or not document["blocks"]:
                problems.append(f"{entry['file']}: {document and (document['status'], document['error'])}")
        assert not problems, "files not ingested:\n" + "\n".join(problems)

        misses = []
        for entry in entries:
            document_id = documents[entry["file"]]["id"]
            for probe in entry["probes"]:
                hits = _hits(api, probe["text"], document_id)
                matching = [hit for hit in hits if contains(hit["text"], probe["text"], ocr=probe.get("ocr", False))]
                placed = [place for hit in matching for place in places(hit) if where_matches(probe["where"], place)]
                if not placed:
                    found = [(hit["page"], hit["section"]) for hit in matching]
                    misses.append(f"{entry['file']}: {probe['text']!r} at {probe['where']}; found at {found}")
                for hit in placed:
                    shown = (hit["document_kind"], hit["page_label"])
                    if shown != (entry["format"], printed_label(entry, hit["page"])):
                        misses.append(f"{entry['file']}: {probe['text']!r} shown as {shown}")
        assert not misses, "probes not found where expected:\n" + "\n".join(misses)

        for name, words, section in FOOTNOTES:
            hits = _hits(api, words, documents[name]["id"])
            noted = [hit for hit in hits if contains(hit["text"], words, ocr=False) and "Footnote" in hit["text"]]
            assert noted, (name, words, [(hit["section"], hit["text"][:80]) for hit in hits])
            assert all((hit["section"] or "").endswith(section) for hit in noted), noted

        for entry in entries:
            if entry["format"] == "docx":
                document = documents[entry["file"]]
                assert document["warnings"] == [], (entry["file"], document["warnings"])
                pictured = [hit for hit in _hits(api, "text in picture", document["id"])
                            if "Text in picture:" in hit["text"]]
                assert not pictured, (entry["file"], pictured)


def printed_label(entry: dict[str, Any], page: int | None) -> str | None:
    """The page label the PDF itself gives physical page `page` (None for other formats or no labels)."""
    if entry["format"] != "pdf" or page is None:
        return None
    with pymupdf.open(CORPUS / entry["file"]) as document:
        return document[page - 1].get_label() or None
