"""Citation numbers follow first appearance, stay stable across rounds and are announced once."""

from __future__ import annotations

from backend.agent.citations import CitationAccumulator, Source
from backend.retrieval.types import Location


def source(block: str, page: int | None = 1) -> Source:
    return Source(block_id=block, document_id="d", filename="notes.pdf", page=page, section="Intro > Setup",
                  snippet="snip", score=0.5, text=f"text of {block}")


def test_numbering_is_stable_and_deduplicated() -> None:
    citations = CitationAccumulator()
    assert citations.register([source("a"), source("b")]) == [1, 2]
    assert [c.n for c in citations.take_new()] == [1, 2]
    assert citations.register([source("c"), source("a")]) == [3, 1]
    assert [c.source.block_id for c in citations.take_new()] == ["c"]
    assert citations.take_new() == []
    assert [c.n for c in citations.all()] == [1, 2, 3]


def test_payload_is_the_metadata_line() -> None:
    citations = CitationAccumulator()
    citations.register([source("a", page=3)])
    (citation,) = citations.all()
    assert citation.payload() == {"n": 1, "block_id": "a", "document_id": "d", "filename": "notes.pdf", "page": 3,
                                  "section": "Intro > Setup", "snippet": "snip", "score": 0.5, "text": "text of a",
                                  "relevant": True, "page_label": None, "kind": None, "also_at": []}
    assert citation.source.where() == 'notes.pdf, page 3, "Intro > Setup"'
    # A passage the document repeats carries its other places, as JSON objects (the line is JSON).
    repeated = source("b", page=3).model_copy(update={"also_at": (Location("c", 9, "ix", "Intro > Setup"),)})
    citations.register([repeated])
    assert citations.all()[1].payload()["also_at"] == [
        {"block_id": "c", "page": 9, "page_label": "ix", "section": "Intro > Setup"}]
    assert source("x", page=None).where() == 'notes.pdf, "Intro > Setup"'


def test_where_names_slides_sheets_and_printed_page_labels() -> None:
    def of(kind: str, page: int | None, section: str | None, label: str | None = None) -> str:
        return Source(block_id="b", document_id="d", filename=f"f.{kind}", page=page, section=section,
                      snippet="s", score=0.0, text="t", page_label=label, kind=kind).where()

    assert of("pptx", 4, "Loops") == 'f.pptx, slide 4, "Loops"'
    assert of("xlsx", None, "Sheet: Q1 budget") == 'f.xlsx, sheet "Q1 budget"'
    assert of("pdf", 7, None, "iv") == "f.pdf, page 7 (printed iv)"
    assert of("pdf", 7, None, "7") == "f.pdf, page 7"
