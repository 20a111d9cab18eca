"""The viewer's API on real corpus files: outline, blocks by page/slide, around a search hit, sheets as
tables, PDF page images (bounded size, cached) and the boxes of a cited passage on its page."""

from __future__ import annotations

import io
import uuid
from typing import Any

import httpx
import pytest
from PIL import Image

from scripts.shared_data import CORPUS
from tests.support.server import QuireServer
from tests.support.vault import ingest


@pytest.fixture(scope="module")
def corpus_docs(quire: QuireServer) -> dict[str, dict[str, Any]]:
    """The files, uploaded once for this module (the same bytes again would be recognised as a duplicate)."""
    names = ["federal-register-2020-17221.pdf", "py4e-02-expressions.pptx", "readxl-deaths.xlsx",
             "rust-book-ch04-01-ownership.md"]
    token = uuid.uuid4().hex[:6]
    renamed = {f"{token}-{name}": name for name in names}
    with quire.client() as client:
        docs = ingest(client, {new: (CORPUS / old).read_bytes() for new, old in renamed.items()}, timeout_s=120)
    return {renamed[new]: doc for new, doc in docs.items()}


def _hit(api: httpx.Client, query: str, document_id: str) -> dict[str, Any]:
    hits = api.get("/api/search", params={"q": query, "k": 20, "mode": "sparse",
                                          "documents": document_id}).json()["hits"]
    assert hits, query
    return next(hit for hit in hits if query.lower() in hit["text"].lower())


def test_pdf_outline_page_image_and_passage_boxes(api: httpx.Client, corpus_docs: dict[str, dict[str, Any]]) -> None:
    doc = corpus_docs["federal-register-2020-17221.pdf"]
    outline = api.get(f"/api/documents/{doc['id']}/outline").json()
    assert outline["kind"] == "pdf"
    assert outline["pages"] == 15

    image = api.get(f"/api/documents/{doc['id']}/pages/6.png", params={"scale": 1})
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/png"
    width, height = Image.open(io.BytesIO(image.content)).size
    assert (width, height) == (612, 792)  # a US Letter page at 1 pixel per point
    again = api.get(f"/api/documents/{doc['id']}/pages/6.png", params={"scale": 1},
                    headers={"If-None-Match": image.headers["etag"]})
    assert again.status_code == 304
    huge = api.get(f"/api/documents/{doc['id']}/pages/6.png", params={"scale": 8})
    big_w, big_h = Image.open(io.BytesIO(huge.content)).size
    assert big_w * big_h <= 4_000_000
    assert big_w > 612
    assert api.get(f"/api/documents/{doc['id']}/pages/16.png").status_code == 404

    hit = _hit(api, "do a software installation verification", doc["id"])
    assert hit["page"] == 6
    boxes = api.get(f"/api/documents/{doc['id']}/pages/6/highlights", params={"block": hit["block_id"]}).json()
    assert boxes["matched_words"] >= 0.8 * boxes["passage_words"]
    assert boxes["rects"]
    # The probe phrase's own boxes lie inside the passage's boxes.
    probe = api.get(f"/api/documents/{doc['id']}/pages/6/highlights",
                    params={"q": "do a software installation verification"}).json()
    assert probe["matched_words"] == 5
    assert 1 <= len(probe["rects"]) <= 2
    top = min(rect["y0"] for rect in probe["rects"])
    assert any(rect["y0"] - 1 <= top <= rect["y1"] for rect in boxes["rects"])
    # Elsewhere on another page, the passage is not found.
    other = api.get(f"/api/documents/{doc['id']}/pages/1/highlights", params={"block": hit["block_id"]}).json()
    assert other["matched_words"] < 0.2 * other["passage_words"]


def test_slides_by_number_and_window_around_a_hit(api: httpx.Client, corpus_docs: dict[str, dict[str, Any]]) -> None:
    deck = corpus_docs["py4e-02-expressions.pptx"]
    assert api.get(f"/api/documents/{deck['id']}/outline").json()["pages"] == 34
    slide = api.get(f"/api/documents/{deck['id']}/blocks", params={"page": 16}).json()
    assert slide["blocks"]
    assert {block["page"] for block in slide["blocks"]} == {16}
    assert any("express the classic math operations" in block["text"] for block in slide["blocks"])
    assert api.get(f"/api/documents/{deck['id']}/pages/1.png").status_code == 409  # not a PDF

    notes = corpus_docs["rust-book-ch04-01-ownership.md"]
    hit = _hit(api, "from the memory allocator at runtime", notes["id"])
    window = api.get(f"/api/documents/{notes['id']}/blocks", params={"around": hit["block_id"], "limit": 9}).json()
    ids = [block["id"] for block in window["blocks"]]
    assert window["target"] == hit["block_id"]
    assert hit["block_id"] in ids
    assert len(ids) <= 9
    assert ids.index(hit["block_id"]) <= 3
    assert window["has_before"] == (ids.index(hit["block_id"]) > 0)
    ordinals = [block["ordinal"] for block in window["blocks"]]
    assert ordinals == sorted(ordinals)
    sections = api.get(f"/api/documents/{notes['id']}/outline").json()["sections"]
    assert any(section["title"].endswith("Memory and Allocation") for section in sections)


def test_sheet_rows_come_back_as_cells(api: httpx.Client, corpus_docs: dict[str, dict[str, Any]]) -> None:
    book = corpus_docs["readxl-deaths.xlsx"]
    hit = _hit(api, "Vera Rubin", book["id"])
    window = api.get(f"/api/documents/{book['id']}/blocks", params={"around": hit["block_id"]}).json()
    cited = next(block for block in window["blocks"] if block["id"] == hit["block_id"])
    table = cited["table"]
    assert table["sheet"] == "other"
    assert any(row[:3] == ["Vera Rubin", "scientist", "88"] for row in table["rows"])
    assert ["Name", "Profession", "Age"] in [row[:3] for row in table["rows"]]  # notes above the table come first


def test_unknown_block_and_document(api: httpx.Client, corpus_docs: dict[str, dict[str, Any]]) -> None:
    doc = corpus_docs["rust-book-ch04-01-ownership.md"]
    other = corpus_docs["readxl-deaths.xlsx"]
    block = _hit(api, "Vera Rubin", other["id"])["block_id"]
    response = api.get(f"/api/documents/{doc['id']}/blocks", params={"around": block})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "block_not_found"
    missing = api.get("/api/documents/00000000-0000-0000-0000-000000000000/outline")
    assert missing.status_code == 404


def test_a_searchs_words_are_each_boxed_wherever_they_stand(api: httpx.Client,
                                                            corpus_docs: dict[str, dict[str, Any]]) -> None:
    """The words of a search, as the viewer marks them: each one boxed wherever the page holds it, the first
    one too and in any order (matched as one passage in order, a query's words apart on the page were lost)."""
    doc = corpus_docs["federal-register-2020-17221.pdf"]
    url = f"/api/documents/{doc['id']}/pages/6/highlights"
    one = api.get(url, params={"words": ["verification"]}).json()
    both = api.get(url, params={"words": ["verification", "software"]}).json()
    reversed_order = api.get(url, params={"words": ["software", "verification"]}).json()
    assert one["matched_words"] >= 1
    assert both["matched_words"] > one["matched_words"]
    assert both["rects"] == reversed_order["rects"]
    assert api.get(url, params={"words": ["zeppelin"]}).json()["matched_words"] == 0
