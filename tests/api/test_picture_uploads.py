"""Pictures uploaded on their own — a phone photo of a handout, a scan saved as PNG or TIFF — through the
upload API of a real server: read by OCR as pages, found by search on their page, shown upright in the
viewer; pictures Quire cannot read, or too large to decode safely, refused at upload with what to do."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import httpx
import pymupdf
import pytest
from PIL import Image

from tests.support.corpus import contains, scan_image, sideways_photo
from tests.support.documents import make_pdf, tesseract_available
from tests.support.vault import ingest, upload, wait_for_run

pytestmark = pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
SCAN_PROBES = ("We scrouched down and laid still", "there was a light behind him")


def _encoded(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def _hits(api: httpx.Client, query: str, document_id: str) -> list[dict]:
    params = {"q": query, "k": 10, "mode": "sparse", "documents": document_id}
    return api.get("/api/search", params=params).json()["hits"]


def _document(api: httpx.Client, document_id: str) -> dict:
    return next(doc for doc in api.get("/api/documents").json() if doc["id"] == document_id)


def test_a_phone_photo_turned_by_its_exif_tag_is_read_and_shown_upright(api: httpx.Client,
                                                                      unique: Callable[[str], str]) -> None:
    # A phone stores the pixels as the sensor saw them (here on their side) and says how to turn them.
    name = unique("handout-photo.jpg")
    document = ingest(api, {name: sideways_photo()}, timeout_s=180)[name]
    stored = _document(api, document["id"])
    assert (stored["status"], stored["kind"], stored["pages"]) == ("ready", "image", 1), stored
    for probe in SCAN_PROBES:
        hits = _hits(api, probe, document["id"])
        assert any(contains(hit["text"], probe, ocr=True) and hit["page"] == 1 for hit in hits), (probe, hits)
    outline = api.get(f"/api/documents/{document['id']}/outline").json()
    assert (outline["kind"], outline["pages"]) == ("image", 1), outline
    page = api.get(f"/api/documents/{document['id']}/pages/1.png", params={"scale": 1})
    assert page.status_code == 200, page.text
    assert page.headers["content-type"] == "image/png"
    shown = Image.open(io.BytesIO(page.content))
    assert shown.height > shown.width, shown.size  # upright, as the photo is meant to be seen
    original = api.get(f"/api/documents/{document['id']}/file")
    assert original.status_code == 200
    assert original.content[:3] == b"\xff\xd8\xff"  # the photo as uploaded, not the PDF made to read it


def test_a_png_named_txt_is_read_as_a_picture_and_a_tiff_s_frames_are_pages(api: httpx.Client,
                                                                           unique: Callable[[str], str],
                                                                           tmp_path: Path) -> None:
    second = make_pdf(tmp_path / "second.pdf", ["Second frame. Limestone dissolves in rainwater and forms "
                                                "sinkholes, caves and springs in karst landscapes."],
                      fontsize=16)
    with pymupdf.open(second) as document:
        pixmap = document[0].get_pixmap(dpi=150)
        frame_two = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
    tiff, png = unique("scanned-pages.tiff"), unique("notes.txt")
    response = upload(api, {
        tiff: _encoded(scan_image(), "TIFF", save_all=True, append_images=[frame_two], compression="tiff_lzw"),
        png: _encoded(scan_image(), "PNG"),
    })
    assert response.status_code == 202, response.text
    accepted = {doc["filename"]: doc for doc in response.json()["documents"]}
    assert accepted[png]["read_as"] == "Read as a picture: its name says .txt.", accepted[png]
    assert wait_for_run(api, response.json()["workflow_id"], timeout_s=240)["status"] == "SUCCESS"
    stored = _document(api, accepted[tiff]["id"])
    assert (stored["status"], stored["kind"], stored["pages"]) == ("ready", "image", 2), stored
    hits = _hits(api, "limestone sinkholes karst", accepted[tiff]["id"])
    assert hits, "the second frame was not read"
    assert hits[0]["page"] == 2, hits
    assert _document(api, accepted[png]["id"])["status"] == "ready"
    assert any(contains(hit["text"], SCAN_PROBES[0], ocr=True)
               for hit in _hits(api, SCAN_PROBES[0], accepted[png]["id"]))


def test_pictures_quire_cannot_read_are_refused_at_upload_and_nothing_is_stored(api: httpx.Client,
                                                                               unique: Callable[[str], str]) -> None:
    huge = Image.new("1", (10_000, 9_000), 1)  # 90 megapixels of white: a few KB as PNG
    cases = {
        unique("poster.png"): (_encoded(huge, "PNG", optimize=True), 413, "image_too_large", "80 megapixels"),
        unique("not-a-photo.jpg"): (b"these are words, not a JPEG", 415, "content_mismatch", "not a .jpg file"),
        unique("cut.png"): (_encoded(scan_image(), "PNG")[:40], 422, "image_unreadable", "save it again as PNG"),
        unique("phone.heic"): (b"\x00\x00\x00\x18ftypheic" + b"\x00" * 64, 415, "unsupported_type", "JPEG or PNG"),
    }
    before = {doc["id"] for doc in api.get("/api/documents").json()}
    for name, (data, status, code, says) in cases.items():
        response = upload(api, {name: data})
        assert response.status_code == status, (name, response.text)
        error = response.json()["error"]
        assert error["code"] == code, (name, error)
        assert says in error["message"], (name, error)
    assert {doc["id"] for doc in api.get("/api/documents").json()} == before


def test_a_picture_without_words_fails_saying_so_in_a_picture_s_words(api: httpx.Client,
                                                                    unique: Callable[[str], str]) -> None:
    name = unique("blank-wall.png")
    response = upload(api, {name: _encoded(Image.new("RGB", (1200, 900), (200, 190, 170)), "PNG")})
    assert response.status_code == 202, response.text
    wait_for_run(api, response.json()["workflow_id"], timeout_s=120)
    stored = _document(api, response.json()["documents"][0]["id"])
    assert stored["status"] == "failed", stored
    assert stored["error"].startswith("No text could be found in this picture: OCR found no words in it."), stored
