"""Attachments are validated by content: images pass as images, PDF/DOCX/TXT/MD are extracted with the
ingestion extractors and framed as attached files (truncated with a visible note), the rest is refused."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from backend.agent.attachments import MAX_IMAGE_BYTES, AttachmentIn, process
from backend.errors import QuireError
from backend.ingest.sandbox import Limits, SandboxPool
from tests.support.documents import Heading, Para, make_docx, make_pdf, make_xlsx


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    """The extraction sandbox documents are read in (child processes, as in the server)."""
    sandbox = SandboxPool(1, Limits())
    yield sandbox
    sandbox.close()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def image_bytes(kind: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, format=kind)
    return buffer.getvalue()


def refusal(items: list[AttachmentIn], pool: SandboxPool) -> QuireError:
    with pytest.raises(QuireError) as info:
        process(items, "eng", 24_000, pool)
    return info.value


@pytest.mark.parametrize(("kind", "mime"), [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp"),
                                            ("GIF", "image/gif")])
def test_images_pass_through_with_their_real_type(kind: str, mime: str, pool: SandboxPool) -> None:
    data = image_bytes(kind)
    result = process([AttachmentIn(f"photo.{kind.lower()}", "", b64(data))], "eng", 24_000, pool)
    assert result.images == [(mime, data)]
    assert result.files == []
    assert result.meta == [{"name": f"photo.{kind.lower()}", "mime_type": mime, "kind": "image",
                            "size_bytes": len(data)}]


def test_data_urls_and_mime_types_without_extension(pool: SandboxPool) -> None:
    data = image_bytes("PNG")
    result = process([AttachmentIn("clipboard", "image/png", f"data:image/png;base64,{b64(data)}")], "eng", 1000,
                     pool)
    assert result.images == [("image/png", data)]


def test_pdf_docx_text_and_markdown_are_extracted_and_framed(tmp_path: Path, pool: SandboxPool) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["Page one about enzymes.", "Page two about catalysis."]).read_bytes()
    docx = make_docx(tmp_path / "b.docx", [Heading("Lab report"), Para("The titration used 0.1 M NaOH.")]).read_bytes()
    result = process([
        AttachmentIn("lecture.pdf", "application/pdf", b64(pdf)),
        AttachmentIn("report.docx", "", b64(docx)),
        AttachmentIn("notes.txt", "text/plain", b64("Grüße aus dem Labor".encode())),
        AttachmentIn("plan.md", "", b64(b"# Plan\n\n- read chapter 2")),
    ], "eng", 24_000, pool)
    assert result.images == []
    lecture, report, notes, plan = result.files
    assert lecture.startswith('<attached_file name="lecture.pdf" pages="2">')
    assert "[page 1]\nPage one about enzymes." in lecture
    assert "[page 2]\nPage two about catalysis." in lecture
    assert "0.1 M NaOH" in report
    assert "Grüße aus dem Labor" in notes
    assert "read chapter 2" in plan
    assert [m["kind"] for m in result.meta] == ["document"] * 4
    assert result.meta[0]["pages"] == 2
    assert result.meta[0]["truncated"] is False


def test_long_files_are_truncated_with_a_visible_note(pool: SandboxPool) -> None:
    text = ("word " * 10_000).encode()
    result = process([AttachmentIn("long.txt", "text/plain", b64(text)),
                      AttachmentIn("more.txt", "text/plain", b64(text))], "eng", 30_000, pool)
    first, second = result.files
    assert "[Truncated: this shows the first 20,000 of 49,999 characters of long.txt" in first
    # Together the files stay within the share of the memory budget they were given.
    assert "[Truncated: this shows the first 10,000 of 49,999 characters of more.txt" in second
    assert [m["truncated"] for m in result.meta] == [True, True]
    assert sum(m["chars"] for m in result.meta) <= 30_000 + 2 * 200


def test_refusals(pool: SandboxPool) -> None:
    png = b64(image_bytes("PNG"))
    assert refusal([AttachmentIn(f"{i}.png", "", png) for i in range(6)], pool).status == 422
    assert refusal([AttachmentIn("a.png", "", "not base64 !!")], pool).code == "invalid_attachment"
    assert refusal([AttachmentIn("a.png", "", "")], pool).status == 422
    tool = refusal([AttachmentIn("tool.exe", "application/x-msdownload", b64(b"MZ\x90\x00"))], pool)
    assert (tool.status, tool.code) == (415, "unsupported_attachment")
    fake_png = refusal([AttachmentIn("cat.png", "image/png", b64(b"%PDF-1.7 not an image"))], pool)
    assert (fake_png.status, fake_png.code) == (415, "content_mismatch")
    fake_pdf = refusal([AttachmentIn("paper.pdf", "application/pdf", png)], pool)
    assert fake_pdf.status == 415
    binary_text = refusal([AttachmentIn("notes.txt", "text/plain", b64(b"\x00\x01\x02" * 100))], pool)
    assert binary_text.status == 415
    svg = refusal([AttachmentIn("logo.svg", "image/svg+xml", b64(b"<svg/>"))], pool)
    assert svg.status == 415


def test_size_limits(pool: SandboxPool) -> None:
    big = b"\x89PNG\r\n\x1a\n" + bytes(MAX_IMAGE_BYTES)
    too_big = refusal([AttachmentIn("huge.png", "image/png", b64(big))], pool)
    assert (too_big.status, too_big.code) == (413, "attachment_too_large")


def test_documents_whose_names_do_not_say_are_read_by_content(tmp_path: Path, pool: SandboxPool) -> None:
    # Before: refused as "only images and PDF, Word (.docx), ..." by the name alone.
    docx = make_docx(tmp_path / "b.docx", [Para("The titration used 0.1 M NaOH.")]).read_bytes()
    pdf = make_pdf(tmp_path / "a.pdf", ["Page one about enzymes."]).read_bytes()
    result = process([AttachmentIn("report.doc", "application/msword", b64(docx)),
                      AttachmentIn("lecture", "application/octet-stream", b64(pdf)),
                      AttachmentIn("notes", "", b64("Grüße aus dem Labor".encode()))], "eng", 24_000, pool)
    report, lecture, notes = result.files
    assert "0.1 M NaOH" in report
    assert "[page 1]\nPage one about enzymes." in lecture
    assert "Grüße aus dem Labor" in notes
    old_word = refusal([AttachmentIn("thesis.doc", "", b64(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024)))], pool)
    assert (old_word.status, old_word.code) == (415, "unsupported_attachment")
    workbook = make_xlsx(tmp_path / "c.xlsx", {"S": [["a"], [1]]}).read_bytes()
    sheet = refusal([AttachmentIn("budget", "", b64(workbook))], pool)  # chat reads no workbooks
    assert (sheet.status, sheet.code) == (415, "unsupported_attachment")
