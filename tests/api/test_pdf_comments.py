"""Comments a reader attached to a PDF (sticky notes, notes on highlights) are read with their page, over
HTTP to a real server: a student's own notes on a lecture PDF are found by search and shown with the page.
They are not part of the text layer, so before this they were in the file and nowhere in Quire."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pymupdf

from tests.support.documents import make_pdf
from tests.support.vault import ingest

Unique = Callable[[str], str]


def _annotated_lecture(path: Path) -> bytes:
    """Page 1 with a text layer, page 2 a scan (read by OCR); comments on both, and a typed box on page 1
    whose words are drawn on the page (in its text layer already)."""
    make_pdf(path, ["Entropy always increases in an isolated system.",
                    "The Carnot cycle bounds the efficiency of heat engines."], scanned={2})
    document = pymupdf.open(path)
    first, second = document[0], document[1]
    first.add_text_annot((400, 300), "Remember: the exam covers chapter four")
    highlight = first.add_highlight_annot(pymupdf.Rect(50, 50, 300, 65))
    highlight.set_info(content="Key sentence for the quiz")
    highlight.update()
    first.add_freetext_annot(pymupdf.Rect(50, 400, 400, 440), "Typed on the page about microstates")
    second.add_text_annot((400, 600), "Ask the tutor about reversible processes")
    data = document.tobytes()
    document.close()
    return data


def test_sticky_notes_and_highlight_comments_are_read_with_their_page(api: httpx.Client, unique: Unique,
                                                                       tmp_path: Path) -> None:
    name = unique("thermo-annotated.pdf")
    document = ingest(api, {name: _annotated_lecture(tmp_path / "thermo.pdf")})[name]
    pages = {block["page"]: block["text"]
             for block in api.get(f"/api/documents/{document['id']}/blocks").json()["blocks"]}
    assert pages[1].endswith("Comment: Remember: the exam covers chapter four\n\nComment: Key sentence for the quiz")
    assert pages[1].count("Typed on the page about microstates") == 1  # drawn on the page: not again as a comment
    assert "Carnot cycle" in pages[2]  # the scanned page's OCR text, then its comment
    assert pages[2].endswith("Comment: Ask the tutor about reversible processes")
    hits = api.get("/api/search", params={"q": "ask the tutor reversible", "mode": "sparse",
                                           "documents": document["id"]}).json()["hits"]
    assert hits[0]["page"] == 2
