"""What the bytes say a file is (backend/ingest/sniff.py): only unmistakable signatures count."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from backend.ingest.formats import sniff
from backend.ingest.types import RejectedFile
from tests.support.documents import (
    Para,
    Slide,
    ZipBomb,
    make_docx,
    make_pdf,
    make_pptx,
    make_xlsx,
    make_zip,
    make_zip_bomb,
)


def test_real_documents_are_recognised(tmp_path: Path) -> None:
    assert sniff(make_pdf(tmp_path / "a", ["text"])) == "pdf"
    assert sniff(make_docx(tmp_path / "b", [Para("text")])) == "docx"
    assert sniff(make_pptx(tmp_path / "c", [Slide("Slide")])) == "pptx"
    assert sniff(make_xlsx(tmp_path / "d", {"S": [["a"], [1]]})) == "xlsx"


@pytest.mark.parametrize(("content", "expected"), [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "ole"),
    (b"<!doctype HTML>\n<p>hi</p>", "html"),
    (b"\n  <html><body>hi</body></html>", "html"),
    (b"Plain text mentioning <html> later", None),
    (b"GARBAGE%PDF-1.7", None),  # a header after other bytes is not a PDF's
    (b"PK\x03\x04 a zip cut short", None),
    (b"", None),
    (b"BMW and Audi: notes on German car makers, with a long enough line to fill a header.", None),
])
def test_signatures(tmp_path: Path, content: bytes, expected: str | None) -> None:
    path = tmp_path / "file"
    path.write_bytes(content)
    assert sniff(path) == expected


def test_a_zip_without_office_content_types_claims_nothing(tmp_path: Path) -> None:
    # An e-book or OpenDocument file is a zip too; without [Content_Types].xml it is not Office.
    assert sniff(make_zip(tmp_path / "book", {"mimetype": "application/epub+zip", "word/x.xml": "<x/>"})) is None
    # Content types of a Word document, but no word/ part: not taken for one either.
    declared = '<Types ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    assert sniff(make_zip(tmp_path / "odd", {"[Content_Types].xml": declared, "other/x.xml": "<x/>"})) is None


def test_a_zip_bomb_is_refused_before_anything_is_inflated(tmp_path: Path) -> None:
    with pytest.raises(RejectedFile) as caught:
        sniff(make_zip_bomb(tmp_path / "bomb", ZipBomb("declared", megabytes=400, prefix="xl/")))
    assert (caught.value.code, caught.value.status) == ("zip_bomb", 413)


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "TIFF", "BMP"])
def test_pictures_quire_reads_are_recognised(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "picture"
    Image.new("RGB", (40, 30), "white").save(path, fmt)
    assert sniff(path) == "image"


def test_a_picture_mupdf_does_not_read_is_not_claimed(tmp_path: Path) -> None:
    path = tmp_path / "picture"
    Image.new("RGB", (40, 30), "white").save(path, "WEBP")
    assert sniff(path) is None  # refused by its extension, with what to do, not read as a picture
