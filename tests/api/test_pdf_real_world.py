"""PDFs shaped like the real-world files that broke Quire in the PDF campaign (the test suites of pikepdf,
pypdf and PyMuPDF pushed through a real server), over HTTP to the shared server. Each file here is a
minimal reproduction generated with PyMuPDF of one trait of those files; all are uploaded in one request.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pymupdf
import pytest

from tests.support.documents import DEJAVU_SANS, make_pdf
from tests.support.hostile import garbled_text_pdf
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

JUNK_LINE = b"Here should not be anything - but PDF readers still open it\r\n"


def _junk_before_header(tmp: Path) -> bytes:
    """A PDF after a line of junk (PyMuPDF's test2238.pdf): the header is not at the start of the file."""
    pdf = make_pdf(tmp / "junk.pdf", ["Mitochondria produce adenosine triphosphate by oxidative phosphorylation."])
    return JUNK_LINE + pdf.read_bytes()


def _inline_annotations(tmp: Path) -> bytes:
    """A page whose comments are written inline in its /Annots array, not as objects of their own (PyMuPDF's
    test_4928.pdf): they have no xref, and reading them by xref failed the whole file."""
    make_pdf(tmp / "inline.pdf", ["Lecture 7: the citric acid cycle."])
    document = pymupdf.open(tmp / "inline.pdf")
    document.xref_set_key(document[0].xref, "Annots",
                          "[<</Type/Annot/Subtype/Text/Contents(Revise the Krebs cycle intermediates)"
                          "/Rect[400 700 420 720]>>]")
    data = document.tobytes()
    document.close()
    return data


def _paragraph_without_character_map(tmp: Path) -> bytes:
    """A readable page but for one paragraph in a font MuPDF cannot map (PyMuPDF's test_2635.pdf): each of
    its glyphs extracts as U+FFFD, too few of the page's characters to call the whole layer garbled, so the
    paragraph was lost and the page stored with lines of U+FFFD."""
    document = pymupdf.open()
    page = document.new_page()
    page.insert_textbox(pymupdf.Rect(50, 50, 545, 300), "The water cycle moves water between the oceans, the air "
                        "and the land by evaporation, condensation and precipitation. " * 3, fontsize=12)
    page.insert_textbox(pymupdf.Rect(50, 320, 545, 600), "Boxed note: transpiration from plant leaves returns much "
                        "of the rain to the atmosphere before it reaches any river or lake.", fontsize=14,
                        fontname="dejavu", fontfile=str(DEJAVU_SANS))
    document.subset_fonts()
    for xref in range(1, document.xref_length()):
        if "DejaVu" in document.xref_get_key(xref, "BaseFont")[1]:
            document.xref_set_key(xref, "ToUnicode", "null")
    data = document.tobytes()
    document.close()
    return data


def _no_pages() -> bytes:
    """A well-formed PDF whose page tree holds no pages (pikepdf's newline-buffer-test.pdf)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 3\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def _chinese_without_character_map(tmp: Path) -> bytes:
    """Chinese text in a subset font without its ToUnicode map (PyMuPDF's test_3072.pdf): the layer is
    garbled, and OCR set up for English and German cannot read the glyphs either."""
    lines = ["光合作用是植物利用光能把二氧化碳和水转化为葡萄糖的过程。", "叶绿体中的叶绿素吸收红光和蓝光，反射绿光。"]
    return garbled_text_pdf(tmp / "chinese.pdf", lines * 6, font="cjk", fontsize=16, origin=(50, 80)).read_bytes()


def _pictures_without_words() -> bytes:
    """Page 1 a photo-like picture with no words (pikepdf's pal.pdf, cmyk-jpeg.pdf), page 2 blank
    (pdfa/blank.pdf): a file with nothing to read, whose failure should say so page by page."""
    document = pymupdf.open()
    picture = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    picture.set_rect(picture.irect, (250, 220, 40))
    document.new_page().insert_image(pymupdf.Rect(100, 100, 400, 400), pixmap=picture)
    document.new_page()
    data = document.tobytes()
    document.close()
    return data


def _with_attachment(tmp: Path) -> bytes:
    """A PDF carrying a file of its own (EmbeddedFiles; PyMuPDF's test_3789.pdf): its content is not read."""
    make_pdf(tmp / "attached.pdf", ["Lab report: the titration results are in the attached spreadsheet."])
    document = pymupdf.open(tmp / "attached.pdf")
    document.embfile_add("titration.csv", b"volume,ph\n10,4.2\n20,7.0\n", filename="titration.csv")
    data = document.tobytes()
    document.close()
    return data


ZERO_WIDTH_LINES = ["Mitochondrial respiration", "Electron transport chain", "Oxidative phosphorylation yields ATP"]


def _glyphs_without_width() -> bytes:
    """Lines drawn in a font whose /Widths are all 0 (PyMuPDF's test_3705.pdf): MuPDF's block text ran the
    lines together ("respirationElectron"), so their first and last words could not be found."""
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 72), "Cell biology, lecture 4", fontsize=11)  # gives the page its Helvetica resource
    font = page.get_fonts()[0][0]
    for key, value in (("FirstChar", "32"), ("LastChar", "126"), ("Widths", "[" + " 0" * 95 + " ]")):
        document.xref_set_key(font, key, value)
    shown = " ".join(f"1 0 0 1 72 {700 - 20 * number} Tm ({line}) Tj" for number, line in enumerate(ZERO_WIDTH_LINES))
    stream = document.get_new_xref()
    document.update_object(stream, "<<>>")
    document.update_stream(stream, f"BT /{page.get_fonts()[0][4]} 14 Tf {shown} ET".encode())
    contents = document.xref_get_key(page.xref, "Contents")[1].strip("[]")
    document.xref_set_key(page.xref, "Contents", f"[{contents} {stream} 0 R]")
    data = document.tobytes()
    document.close()
    return data


@pytest.fixture(scope="module")
def vault(quire: QuireServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every reproduction uploaded in one request; {case: the document as the library shows it, or the
    upload's refusal of it}."""
    tmp = tmp_path_factory.mktemp("pdf-real-world")
    token = uuid.uuid4().hex[:6]
    cases = {"junk": _junk_before_header(tmp), "inline_annots": _inline_annotations(tmp),
             "unmapped_paragraph": _paragraph_without_character_map(tmp), "no_pages": _no_pages(),
             "chinese_garbled": _chinese_without_character_map(tmp), "no_words": _pictures_without_words(),
             "attachment": _with_attachment(tmp), "zero_width": _glyphs_without_width()}
    names = {case: f"{case}-{token}.pdf" for case in cases}
    with quire.client() as api:
        response = upload(api, {names[case]: data for case, data in cases.items()})
        assert response.status_code == 202, response.text
        body = response.json()
        if body["workflow_id"]:
            wait_for_run(api, body["workflow_id"], timeout_s=120)
        ids = {doc["filename"]: doc["id"] for doc in body["documents"]}
        refused = {item["filename"]: item for item in body["rejected"]}
        return {case: api.get(f"/api/documents/{ids[name]}").json() if name in ids else refused[name]
                for case, name in names.items()}


def test_a_pdf_after_leading_junk_is_read(api: httpx.Client, vault: dict[str, Any]) -> None:
    document = vault["junk"]
    assert "code" not in document, document  # was refused as "not a .pdf file"
    assert (document["status"], document["kind"], document["pages"]) == ("ready", "pdf", 1)
    hits = api.get("/api/search", params={"q": "oxidative phosphorylation", "mode": "sparse",
                                           "documents": document["id"]}).json()["hits"]
    assert [hit["page"] for hit in hits][:1] == [1]
    page = api.get(f"/api/documents/{document['id']}/pages/1.png")
    assert (page.status_code, page.headers["content-type"]) == (200, "image/png")


def test_comments_written_inline_in_the_page_are_read(api: httpx.Client, vault: dict[str, Any]) -> None:
    document = vault["inline_annots"]
    assert (document["status"], document["error"]) == ("ready", None)  # was "could not be read (ValueError)"
    [block] = api.get(f"/api/documents/{document['id']}/blocks").json()["blocks"]
    assert block["text"] == "Lecture 7: the citric acid cycle.\n\nComment: Revise the Krebs cycle intermediates"


def test_a_paragraph_in_a_font_without_character_map_is_read_by_ocr(api: httpx.Client, vault: dict[str, Any]) -> None:
    document = vault["unmapped_paragraph"]
    assert document["status"] == "ready"
    [block] = api.get(f"/api/documents/{document['id']}/blocks").json()["blocks"]
    assert "\ufffd" not in block["text"]  # was stored as lines of U+FFFD
    assert "water cycle" in block["text"]
    hits = api.get("/api/search", params={"q": "transpiration plant leaves", "mode": "sparse",
                                           "documents": document["id"]}).json()["hits"]
    assert [hit["page"] for hit in hits][:1] == [1]


def test_a_pdf_without_pages_is_refused_as_empty_not_damaged(api: httpx.Client, vault: dict[str, Any]) -> None:
    refused = vault["no_pages"]
    assert (refused["code"], refused["message"]) == ("pdf_no_pages", "This PDF has no pages, so there is nothing "
                                                                      "in it to read.")
    assert refused["filename"] not in {doc["filename"] for doc in api.get("/api/documents").json()}


def test_a_garbled_layer_ocr_cannot_read_is_not_called_a_scan(vault: dict[str, Any]) -> None:
    document = vault["chinese_garbled"]
    assert document["status"] == "failed"
    # Was "The scanned pages could not be read reliably: ..." for a PDF that holds no scan.
    assert document["error"].startswith("The text of this PDF is garbled in the file (a font without a character "
                                        "map) and OCR could not read it reliably either: page(s) 1 read as no "
                                        "words of the configured languages")
    assert document["error"].endswith("text in another language or script needs its language added there.")


def test_a_pdf_without_any_text_says_why_page_by_page(vault: dict[str, Any]) -> None:
    document = vault["no_words"]
    assert (document["status"], document["pages"]) == ("failed", None)
    # Was "No text could be found in this file." whatever the pages held.
    assert document["error"] == ("No text could be found in this PDF: OCR found no words in the pictures on "
                                 "page(s) 1; page(s) 2 hold no text and no picture (blank, or only drawings).")


def test_files_attached_to_a_pdf_are_named_as_not_read(vault: dict[str, Any]) -> None:
    document = vault["attachment"]
    assert document["status"] == "ready"
    # Was silent: the attached file looked like part of the vault.
    assert document["warnings"] == ['This PDF carries 1 attached file(s) ("titration.csv") that were not read; save '
                                    "them from a PDF reader and upload them on their own to search them."]


def test_lines_of_glyphs_without_width_are_not_run_together(api: httpx.Client, vault: dict[str, Any]) -> None:
    document = vault["zero_width"]
    assert document["status"] == "ready"
    [block] = api.get(f"/api/documents/{document['id']}/blocks").json()["blocks"]
    assert block["text"].split("\n")[-3:] == ZERO_WIDTH_LINES  # was "...respirationElectron transport chain..."
