"""Uploads a demanding user or an attacker sends, over real HTTP to a real server: files made by real
tools with odd traits, and names and multipart encodings that are legal but unusual. Each ends as a
proper document or a clear refusal, quickly, with nothing lost."""

from __future__ import annotations

import base64
import io
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import docx
import httpx
import openpyxl

from tests.support.hostile import GARBLED_LINES, crowded_page_pdf, garbled_text_pdf, workbook_spanning_every_cell
from tests.support.vault import ingest, upload

Unique = Callable[[str], str]


def test_a_workbook_declaring_every_cell_is_read_in_seconds(api: httpx.Client, unique: Unique,
                                                            tmp_path: Path) -> None:
    # Before: the sheet's declared A1:XFD1048576 was padded out cell by cell, tying an extraction worker
    # up until its CPU limit (minutes) for a 5 KB file.
    name = unique("glossary.xlsx")
    started = time.monotonic()
    doc = ingest(api, {name: workbook_spanning_every_cell(tmp_path / "g.xlsx").read_bytes()}, timeout_s=30)[name]
    assert time.monotonic() - started < 30
    text = "\n".join(b["text"] for b in api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"])
    assert "| osmosis | water crossing a semipermeable membrane |" in text
    assert "last row note" in text


def _multipart(parts: list[tuple[bytes, bytes]]) -> tuple[bytes, dict[str, str]]:
    """A multipart body written by hand: (Content-Disposition value, content) per part."""
    boundary = b"quire-hostile-boundary"
    body = b"".join(b"--" + boundary + b"\r\nContent-Disposition: " + disposition
                    + b"\r\nContent-Type: application/octet-stream\r\n\r\n" + content + b"\r\n"
                    for disposition, content in parts)
    return body + b"--" + boundary + b"--\r\n", {"content-type": f"multipart/form-data; boundary={boundary.decode()}"}


def test_file_names_in_the_rfc_5987_form_are_read(api: httpx.Client, unique: Unique) -> None:
    # .NET's HttpClient sends a non-ASCII name both MIME-encoded and as filename*; some clients send only
    # filename*. Before: the first was stored as "=?utf-8?B?...?=" (refused, no extension), the second
    # was taken for a form field and the upload answered "No files were uploaded".
    dotnet, starred, odd = unique("Übung.md"), unique("Lösung.md"), unique("odd.md")
    encoded = base64.b64encode(dotnet.encode()).decode()
    body, headers = _multipart([
        (f'form-data; name="files"; filename="=?utf-8?B?{encoded}?="; filename*=utf-8\'\'{quote(dotnet)}'.encode(),
         b"# Exercise\n\nIntegrate by parts."),
        (f"form-data; name=files; filename*=UTF-8''{quote(starred)}".encode(), b"# Solution\n\nUse u = x."),
        # A codec that raises instead of replacing what it cannot decode is read as UTF-8.
        (f"form-data; name=files; filename*=idna''%FF{quote(odd)}".encode(), b"# Odd\n\nA name in idna."),
    ])
    response = api.post("/api/documents", content=body, headers=headers)
    assert response.status_code == 202, response.text
    assert sorted(doc["filename"] for doc in response.json()["documents"]) == sorted([dotnet, starred, "\ufffd" + odd])
    assert response.json()["rejected"] == []


def test_refused_files_are_named_without_control_or_direction_characters(api: httpx.Client, unique: Unique) -> None:
    # Before: the raw name went into the answer and the list of refusals, so "\u202e" could make
    # "report\u202eexe.md" read as "reportdm.exe" there, and control characters and NUL came along.
    spoof, bell = unique("report\u202eexe.pdf"), unique("bell\x07\x00\x1b[31m.exe")
    body, headers = _multipart([
        (f'form-data; name="files"; filename="{spoof}"'.encode(), b"not a pdf"),
        (f'form-data; name="files"; filename="{bell}"'.encode(), b"MZ"),
        (b'form-data; name="files"; filename=""', b"nameless"),
    ])
    response = api.post("/api/documents", content=body, headers=headers)
    assert response.status_code == 415, response.text
    answered = [item["filename"] for item in response.json()["error"]["details"]]
    clean_bell = bell.replace("\x07", "").replace("\x00", "").replace("\x1b", "")
    assert answered == [spoof.replace("\u202e", ""), clean_bell, "(unnamed file)"]
    listed = {refusal["filename"] for refusal in api.get("/api/refusals").json()["refusals"]}
    assert set(answered) <= listed


def test_a_flood_of_form_fields_is_refused_while_it_streams(api: httpx.Client, unique: Unique) -> None:
    # Before: every field (up to 16 KB each, any number of them) was kept in memory until the body
    # ended: 20,000 fields grew the server by 300 MB and the upload was accepted.
    name = unique("flood.md")
    parts = [(f'form-data; name="files"; filename="{name}"'.encode(), b"# Flood\n\nA file before the fields.")]
    parts += [(f'form-data; name="field{i}"'.encode(), b"v" * 16_000) for i in range(200)]
    body, headers = _multipart(parts)
    response = api.post("/api/documents", content=body, headers=headers)
    assert response.status_code == 413, response.text
    assert response.json()["error"]["code"] == "too_many_fields"
    assert name not in {doc["filename"] for doc in api.get("/api/documents").json()}


def test_a_pdf_whose_text_layer_is_glyph_numbers_is_read_by_ocr(api: httpx.Client, unique: Unique,
                                                                 tmp_path: Path) -> None:
    # Before: the page had a text layer, so it was stored as "1IPUPTZOUIFTJT\x01DPOWFSUT..." and no
    # search for its words could find it.
    name = unique("garbled.pdf")
    path = garbled_text_pdf(tmp_path / "garbled.pdf")
    doc = ingest(api, {name: path.read_bytes()})[name]
    blocks = api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"]
    assert [block["kind"] for block in blocks] == ["ocr"]
    assert GARBLED_LINES[0].split()[:4] == blocks[0]["text"].split()[:4]
    hits = api.get("/api/search", params={"q": "chlorophyll absorbs", "documents": doc["id"], "mode": "sparse"})
    assert [hit["document_id"] for hit in hits.json()["hits"]][:1] == [doc["id"]]


def test_categories_with_control_or_direction_characters_are_refused(api: httpx.Client, unique: Unique) -> None:
    # Before: "\u202eygoloiB" was accepted and listed, shown as "Biology"; so were C1 controls (\x9b).
    name = unique("cell.md")
    for category in ("\u202eygoloiB", "Bio\x9b31m", "Bio\u2066logy"):
        response = upload(api, {name: b"# Cells\n\nThe nucleus holds DNA."}, category=category)
        assert response.status_code == 422, (category, response.text)
        assert response.json()["error"]["code"] == "invalid_category"
    doc = ingest(api, {name: b"# Cells\n\nThe nucleus holds DNA."}, category=unique("Biology"))[name]
    assert api.patch(f"/api/documents/{doc['id']}", json={"category": "\u202eygoloiB"}).status_code == 422
    assert "\u202eygoloiB" not in {c["name"] for c in api.get("/api/categories").json()}


def _macro_workbook(path: Path) -> Path:
    """An .xlsm as Excel writes one: the macro-enabled workbook content type and a VBA project part."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Budget"
    sheet.append(["Item", "Cost"])
    sheet.append(["Microscope", 1200])
    plain = io.BytesIO()
    workbook.save(plain)
    return _edited_package(plain, path, {
        "[Content_Types].xml": (b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                                b"application/vnd.ms-excel.sheet.macroEnabled.main+xml"),
    }, {"xl/vbaProject.bin": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024)})


def test_tab_separated_and_macro_enabled_files_are_read(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: .tsv and .xlsm were refused as unsupported types, though their readers handle them.
    tsv, xlsm = unique("species.tsv"), unique("budget.xlsm")
    docs = ingest(api, {tsv: "Art\tFamilie\nRotfuchs\tHunde\nDachs\tMarder\n".encode("utf-16"),
                        xlsm: _macro_workbook(tmp_path / "b.xlsm").read_bytes()})
    tables = {name: api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"][0]["table"]
              for name, doc in docs.items()}
    assert tables[tsv]["header"] == ["Art", "Familie"]
    assert tables[tsv]["rows"] == [["Rotfuchs", "Hunde"], ["Dachs", "Marder"]]
    assert tables[xlsm]["rows"] == [["Microscope", "1200"]]


def test_familiar_unsupported_formats_say_what_to_do(api: httpx.Client, unique: Unique) -> None:
    response = upload(api, {unique("thesis.doc"): b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024),
                            unique("notes.odt"): b"PK\x03\x04odt",
                            unique("photo.HEIC"): b"\x00\x00\x00\x18ftypheic" + bytes(64),
                            unique("lecture"): b"\x00\x01\x02 binary data without an extension"})
    assert response.status_code == 415
    messages = [item["message"] for item in response.json()["error"]["details"]]
    assert ".docx" in messages[0]
    assert ".docx" in messages[1]
    assert "save it as JPEG or PNG" in messages[2]
    assert "no extension" in messages[3]


def test_utf16_text_without_a_byte_order_mark_is_read(api: httpx.Client, unique: Unique) -> None:
    # Before: refused as binary data (its zero bytes); `iconv -t UTF-16LE` and `bcp -w` exports look so.
    csv_name, txt_name = unique("export.csv"), unique("notes.txt")
    docs = ingest(api, {csv_name: "Name;Stadt\r\nJürgen;Köln\r\nÄnne;Düsseldorf\r\n".encode("utf-16-le"),
                        txt_name: "Grüße aus Köln: the Rhine floods in spring.\n".encode("utf-16-be")})
    table = api.get(f"/api/documents/{docs[csv_name]['id']}/blocks").json()["blocks"][0]["table"]
    assert table["rows"] == [["Jürgen", "Köln"], ["Änne", "Düsseldorf"]]
    text = api.get(f"/api/documents/{docs[txt_name]['id']}/blocks").json()["blocks"][0]["text"]
    assert text == "Grüße aus Köln: the Rhine floods in spring."


def test_a_page_of_thirty_thousand_words_is_shown_without_passage_boxes(api: httpx.Client, unique: Unique,
                                                                          tmp_path: Path) -> None:
    # Aligning a passage with a page's words runs in the server process at up to (page words x passage
    # words); before, a few-KB page of 234,000 words cost 8 s of the server's CPU per request.
    name = unique("crowded.pdf")
    doc = ingest(api, {name: crowded_page_pdf(tmp_path / "c.pdf").read_bytes()})[name]
    block = api.get(f"/api/documents/{doc['id']}/blocks", params={"page": 1}).json()["blocks"][0]
    found = api.get(f"/api/documents/{doc['id']}/pages/1/highlights", params={"block": block["id"]})
    assert found.status_code == 200
    assert (found.json()["rects"], found.json()["matched_words"]) == ([], 0)
    assert found.json()["passage_words"] > 100
    assert api.get(f"/api/documents/{doc['id']}/pages/1.png").status_code == 200


def test_tables_nested_in_word_table_cells_keep_their_text(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: a cell's text was python-docx's `cell.text`, its own paragraphs only, so everything in a
    # table nested in a cell (layout tables, forms) was silently dropped.
    document = docx.Document()
    document.add_paragraph("Organelles and what they do.")
    outer = document.add_table(rows=2, cols=2)
    outer.cell(0, 0).text, outer.cell(0, 1).text, outer.cell(1, 0).text = "Topic", "Details", "Cell parts"
    inner = outer.cell(1, 1).add_table(rows=2, cols=2)
    for (row, column), text in {(0, 0): "Organelle", (0, 1): "Role", (1, 0): "Mitochondrion",
                                (1, 1): "makes ATP"}.items():
        inner.cell(row, column).text = text
    document.save(tmp_path / "nested.docx")
    name = unique("organelles.docx")
    doc = ingest(api, {name: (tmp_path / "nested.docx").read_bytes()})[name]
    blocks = api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"]
    table = next(block["table"] for block in blocks if block["table"])
    assert table["rows"] == [["Cell parts", "Organelle | Role; Mitochondrion | makes ATP"]]
    hits = api.get("/api/search", params={"q": "mitochondrion ATP", "documents": doc["id"], "mode": "sparse"})
    assert hits.json()["hits"]


_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_FOOTNOTES = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes xmlns:w="{_W_NS}">'
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
    '</w:footnote><w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Krebs, '
    'H. A. (1937): the citric acid cycle was first described in Enzymologia.</w:t></w:r></w:p></w:footnote>'
    '</w:footnotes>'
)


def _docx_with_a_footnote(path: Path) -> Path:
    """A Word document whose one footnote sits in word/footnotes.xml, referenced from the body, as Word
    writes it (python-docx cannot add footnotes, so the part is added to its output)."""
    document = docx.Document()
    document.add_paragraph("The citric acid cycle oxidises acetyl-CoA.")
    plain = io.BytesIO()
    document.save(plain)
    return _edited_package(plain, path, {
        "[Content_Types].xml": (b"</Types>", b'<Override PartName="/word/footnotes.xml" ContentType="application/'
                                b'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>'),
        "word/_rels/document.xml.rels": (b"</Relationships>", b'<Relationship Id="rIdFn" Target="footnotes.xml" '
                                         b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
                                         b'footnotes"/></Relationships>'),
        "word/document.xml": (b"acetyl-CoA.</w:t></w:r>",
                              b'acetyl-CoA.</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'),
    }, {"word/footnotes.xml": _FOOTNOTES.encode()})


def _edited_package(plain: io.BytesIO, path: Path, replace: dict[str, tuple[bytes, bytes]],
                    add: dict[str, bytes]) -> Path:
    """The Office package in `plain` written to `path` with one (old, new) replacement in some parts and
    parts added: how a real file's traits that python-docx or openpyxl cannot write are made."""
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            data = source.read(member.filename)
            if member.filename in replace:
                data = data.replace(*replace[member.filename])
            target.writestr(member, data)
        for name, data in add.items():
            target.writestr(name, data)
    return path


def test_word_footnotes_are_read(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # Before: python-docx reads the body only, so footnotes (sources, remarks in papers) were lost.
    name = unique("krebs.docx")
    doc = ingest(api, {name: _docx_with_a_footnote(tmp_path / "k.docx").read_bytes()})[name]
    blocks = api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"]
    text = "\n\n".join(block["text"] for block in blocks)
    body = text.index("The citric acid cycle oxidises acetyl-CoA.")
    note = text.index("Footnote 1: Krebs, H. A. (1937): the citric acid cycle was first described in Enzymologia.")
    assert body < note  # right after the paragraph that refers to it, in that paragraph's section
    assert {block["section"] for block in blocks if "Footnote 1" in block["text"]} == {
        next(block["section"] for block in blocks if "acetyl-CoA." in block["text"])}
    hits = api.get("/api/search", params={"q": "Enzymologia", "documents": doc["id"], "mode": "sparse"})
    assert hits.json()["hits"]


def _nested_page(depth: int) -> bytes:
    """A page whose middle paragraph sits `depth` unclosed-looking `<div>`s deep, as hand-written pages with
    unclosed tags nest deeper with every paragraph."""
    return (
        "<html><head><title>Leaves</title><script>var hidden = 'SCRIPTWORD';</script></head><body>"
        "<p>Photosynthesis turns light into sugar in the leaves of green plants.</p>"
        + "<div>" * depth + "<p>Chlorophyll absorbs red and blue light but reflects green.</p>" + "</div>" * depth
        + "<p>Stomata close at night to keep water in.</p></body></html>"
    ).encode()


def test_deeply_nested_web_pages_keep_all_their_text(api: httpx.Client, unique: Unique) -> None:
    # Before: libxml2 stopped at a depth of 256 and the rest of the page was silently dropped.
    deep, deeper = unique("nested.html"), unique("nested-more.html")
    docs = ingest(api, {deep: _nested_page(1_000), deeper: _nested_page(5_000)})
    for name in (deep, deeper):
        document = api.get(f"/api/documents/{docs[name]['id']}").json()
        text = " ".join(b["text"] for b in api.get(f"/api/documents/{docs[name]['id']}/blocks").json()["blocks"])
        for words in ("light into sugar", "Chlorophyll absorbs red", "Stomata close at night"):
            assert words in text, (name, text)
        assert "SCRIPTWORD" not in text
        hits = api.get("/api/search", params={"q": "chlorophyll reflects green", "mode": "sparse",
                                               "documents": docs[name]["id"]}).json()["hits"]
        assert "Chlorophyll" in hits[0]["text"]
        # Beyond what libxml2 reads at all (2,048), the page is read whole and the library says how.
        assert bool(document["warnings"]) is (name == deeper), document["warnings"]


def test_a_csv_quote_never_closed_is_kept_and_named(api: httpx.Client, unique: Unique) -> None:
    # Before: the rest of the file went into one cell without a word.
    name = unique("marks.csv")
    docs = ingest(api, {name: b'student,comment\nAda,"great work\nBob,late\nCy,absent\n'})
    document = api.get(f"/api/documents/{docs[name]['id']}").json()
    assert document["warnings"] == ["A quote mark on line 2 is never closed, so the 2 line(s) after it were read "
                                    "into one cell; check the file's quoting."]
    text = api.get(f"/api/documents/{docs[name]['id']}/blocks").json()["blocks"][0]["text"]
    assert "Bob,late" in text  # nothing lost: the swallowed lines are in that cell


def test_a_workbook_is_as_long_as_its_sheets(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    name = unique("budget.xlsx")
    book = openpyxl.Workbook()
    book.active.append(["Item", "Cost"])
    book.create_sheet("Q2").append(["Rent", 900])
    book.create_sheet("Q3").append(["Food", 300])
    book.save(tmp_path / "budget.xlsx")
    docs = ingest(api, {name: (tmp_path / "budget.xlsx").read_bytes()})
    assert api.get(f"/api/documents/{docs[name]['id']}").json()["pages"] == 3
