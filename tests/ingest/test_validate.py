"""Upload validation: filenames, allow-listed kinds checked by content, and every way a file is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from backend.ingest.types import RejectedFile
from backend.ingest.validate import detect_kind, extension_of, read_as, sanitise_filename
from tests.support.documents import (
    Heading,
    Para,
    Slide,
    ZipBomb,
    make_csv,
    make_docx,
    make_encrypted_pdf,
    make_pdf,
    make_pptx,
    make_truncated_pdf,
    make_xlsx,
    make_zip,
    make_zip_bomb,
)


def rejected(path: Path, filename: str) -> RejectedFile:
    with pytest.raises(RejectedFile) as caught:
        detect_kind(path, filename)
    return caught.value


# ---------------------------------------------------------------- filenames


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("notes.pdf", "notes.pdf"),
        ("../../etc/passwd.txt", "passwd.txt"),
        ("C:\\Users\\me\\Desktop\\Thesis.docx", "Thesis.docx"),
        ("dir/sub\\mixed.md", "mixed.md"),
        (".hidden.txt", "hidden.txt"),
        ("  ..  spaced   out  name.csv ..", "spaced out name.csv"),
        ("tab\tand\nnewline.txt", "tab and newline.txt"),
        ("bell\x07and\x00nul.txt", "bellandnul.txt"),
        ("notes\u202excod.txt", "notesxcod.txt"),
        ("Grüße café.md", "Grüße café.md"),
    ],
)
def test_sanitise_filename_cleans(raw: str, clean: str) -> None:
    assert sanitise_filename(raw) == clean


@pytest.mark.parametrize("raw", ["", "..", "...", "/", "\\", "a/", " . ", "\x00\x01", "dir/.."])
def test_sanitise_filename_rejects_unusable_names(raw: str) -> None:
    with pytest.raises(RejectedFile) as caught:
        sanitise_filename(raw)
    assert (caught.value.code, caught.value.status) == ("invalid_filename", 400)


def test_sanitise_filename_limits_length_and_keeps_extension() -> None:
    name = sanitise_filename("x" * 500 + ".pdf")
    assert len(name) == 200
    assert name.endswith("x.pdf")


# ---------------------------------------------------------------- accepted kinds


def test_detects_every_supported_kind(tmp_path: Path) -> None:
    files = {
        "a.pdf": make_pdf(tmp_path / "a.pdf", ["Some text"]),
        "b.docx": make_docx(tmp_path / "b.docx", [Heading("Title"), Para("Body")]),
        "c.pptx": make_pptx(tmp_path / "c.pptx", [Slide("Slide")]),
        "d.xlsx": make_xlsx(tmp_path / "d.xlsx", {"S": [["a", "b"], [1, 2]]}),
        "e.csv": make_csv(tmp_path / "e.csv", [["a", "b"], ["1", "2"]]),
    }
    (tmp_path / "f.md").write_text("# Notes\n\nBody\n")
    (tmp_path / "g.TXT").write_text("Plain text.\n")
    (tmp_path / "h.htm").write_text("<!DOCTYPE html><html><body><p>Hi</p></body></html>")
    (tmp_path / "i.markdown").write_text("Just text")
    expected = {
        "a.pdf": "pdf",
        "b.docx": "docx",
        "c.pptx": "pptx",
        "d.xlsx": "xlsx",
        "e.csv": "csv",
        "f.md": "md",
        "g.TXT": "txt",
        "h.htm": "html",
        "i.markdown": "md",
    }
    for name, kind in expected.items():
        path = files.get(name, tmp_path / name)
        assert detect_kind(path, name) == kind, name


def test_pdf_header_after_whitespace_and_bom_is_accepted(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["Hello"]).read_bytes()
    padded = tmp_path / "padded.pdf"
    padded.write_bytes(b"\xef\xbb\xbf" + b"\r\n  " * 100 + pdf)
    assert detect_kind(padded, "padded.pdf") == "pdf"


def test_pdf_with_only_owner_password_is_accepted(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "restricted.pdf", user_password="")
    assert detect_kind(path, "restricted.pdf") == "pdf"


def test_text_in_utf16_with_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes("Grüße aus Köln\n".encode("utf-16"))
    assert detect_kind(path, "wide.txt") == "txt"


def test_cp1252_text_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "legacy.csv"
    path.write_bytes("Name;Stadt\nJürgen;Köln\n".encode("cp1252"))
    assert detect_kind(path, "legacy.csv") == "csv"


# ---------------------------------------------------------------- refusals


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    error = rejected(path, "empty.pdf")
    assert (error.code, error.status) == ("empty_file", 400)


@pytest.mark.parametrize("name", ["program.exe", "image.webp", "archive.zip", "old.doc"])
def test_unknown_extension(tmp_path: Path, name: str) -> None:
    path = tmp_path / "upload"
    path.write_bytes(b"some bytes")
    error = rejected(path, name)
    assert (error.code, error.status) == ("unsupported_type", 415)


def test_binary_without_an_extension_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "scan"
    path.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 4)
    error = rejected(path, "scan")
    assert (error.code, error.status) == ("unsupported_type", 415)
    assert "no extension" in error.message


def test_zip_renamed_pdf(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "fake.pdf", {"a.txt": "hello"})
    error = rejected(path, "fake.pdf")
    assert (error.code, error.status) == ("content_mismatch", 415)


def test_pdf_renamed_docx_is_read_as_pdf(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "real.pdf", ["text"])
    assert detect_kind(path, "real.docx") == "pdf"
    assert read_as("real.docx", "pdf") == "Read as a PDF: its name says .docx."


def test_docx_renamed_xlsx_is_read_as_word(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "real.docx", [Para("text")])
    assert detect_kind(path, "real.xlsx") == "docx"
    assert read_as("real.xlsx", "docx") == "Read as a Word document: its name says .xlsx."


@pytest.mark.parametrize(("name", "kind"), [("report.doc", "docx"), ("deck.ppt", "pptx"), ("budget.xls", "xlsx"),
                                            ("report", "docx"), ("deck", "pptx"), ("budget", "xlsx"),
                                            ("budget.csv", "xlsx"), ("download.bin", "pptx")])
def test_office_packages_are_recognised_by_content(tmp_path: Path, name: str, kind: str) -> None:
    makers = {"docx": lambda p: make_docx(p, [Para("text")]), "pptx": lambda p: make_pptx(p, [Slide("Slide")]),
              "xlsx": lambda p: make_xlsx(p, {"S": [["a"], [1]]})}
    path = makers[kind](tmp_path / f"real.{kind}")
    assert detect_kind(path, name) == kind
    assert read_as(name, kind) is not None


def test_macro_enabled_word_files_templates_and_slide_shows_are_recognised(tmp_path: Path) -> None:
    # Their parts are a .docx's or .pptx's; python-docx and python-pptx are handed them as plain ones
    # (archive.office_stream). Before, a .docm or .ppsx was refused with "save it as .docx/.pptx".
    plain = make_docx(tmp_path / "real.docx", [Para("text")])
    macro = make_zip(tmp_path / "macro.docm", {
        "[Content_Types].xml": '<Types><Override PartName="/word/document.xml" '
                               'ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/></Types>',
        "word/document.xml": "<x/>"})
    show = make_zip(tmp_path / "show.ppsx", {
        "[Content_Types].xml": '<Types><Override PartName="/ppt/presentation.xml" ContentType="application/'
                               'vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml"/></Types>',
        "ppt/presentation.xml": "<x/>"})
    assert detect_kind(plain, "real.docm") == "docx"
    assert detect_kind(macro, "macro.docm") == "docx"
    assert detect_kind(macro, "macro") == "docx"
    assert detect_kind(show, "lecture.ppsx") == "pptx"
    assert read_as("lecture.ppsx", "pptx") is None


@pytest.mark.parametrize(("content", "kind"), [
    (b"Plain notes\nsecond line\n", "txt"),
    ("# Überschrift\n\nText in UTF-8.\n".encode(), "txt"),
    (b"\xef\xbb\xbf  <!DOCTYPE html><html><body><p>Hi</p></body></html>", "html"),
    (b"<html lang=en><body>Hi</body></html>", "html"),
    (b"Some text that mentions <html> later on.", "txt"),
])
def test_text_without_an_extension(tmp_path: Path, content: bytes, kind: str) -> None:
    path = tmp_path / "lecture-notes"
    path.write_bytes(content)
    assert detect_kind(path, "lecture-notes") == kind
    assert "no extension" in str(read_as("lecture-notes", kind))


@pytest.mark.parametrize("name", ["thesis.doc", "sheet.xls", "deck.ppt", "thesis"])
def test_old_binary_office_files_named_anything_are_refused_with_the_save_as_hint(tmp_path: Path, name: str) -> None:
    path = tmp_path / "ole"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024))
    error = rejected(path, name)
    assert (error.code, error.status) == ("unsupported_type", 415)
    assert "save it as ." in error.message


@pytest.mark.parametrize(("name", "extension"), [("a.PDF", "pdf"), ("lecture-notes", ""), ("Chapter 3. Intro", ""),
                                                 ("notes v1.2", ""), ("a.tar.gz", "gz"), ("x.v2", "v2")])
def test_extension_of(name: str, extension: str) -> None:
    assert extension_of(name) == extension


def test_read_as_is_silent_when_the_name_says_the_kind() -> None:
    assert read_as("notes.md", "md") is None
    assert read_as("budget.xlsm", "xlsx") is None
    assert read_as("species.tsv", "csv") is None
    assert read_as("notes.doc", "docx") == "Read as a Word document: its name says .doc."


def test_zip_without_office_parts(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "plain.docx", {"word/document.xml": "<x/>"})
    assert rejected(path, "plain.docx").code == "content_mismatch"


def test_old_binary_office_file_gets_a_helpful_message(tmp_path: Path) -> None:
    path = tmp_path / "legacy.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512))
    error = rejected(path, "legacy.docx")
    assert error.code == "content_mismatch"
    assert "password" in error.message


@pytest.mark.parametrize("name", ["data.txt", "data.csv", "data.md"])
def test_binary_renamed_text(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"looks like text at first" + bytes(range(256)) * 4)
    assert rejected(path, name).code == "content_mismatch"


def test_nul_byte_far_beyond_the_sample_still_marks_binary(tmp_path: Path) -> None:
    path = tmp_path / "late.txt"
    path.write_bytes(b"a" * 200_000 + b"\x00" + b"b" * 10)
    assert rejected(path, "late.txt").code == "content_mismatch"


def test_pdf_renamed_txt_is_read_as_pdf(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "a.pdf", ["text"])
    assert detect_kind(path, "a.txt") == "pdf"


def test_text_renamed_html_is_not_html(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text("Just a shopping list: eggs, milk.")
    assert rejected(path, "page.html").code == "content_mismatch"


def test_text_renamed_pdf(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("These are not PDF bytes.")
    assert rejected(path, "notes.pdf").code == "content_mismatch"


def test_pdf_header_after_other_bytes_is_a_pdf_only_when_named_so(tmp_path: Path) -> None:
    # PDF readers open a file whose header follows junk within the first KB (PyMuPDF's test2238.pdf); the
    # bytes alone do not make it a PDF, so under another name it is not read as one.
    path = tmp_path / "prefixed.pdf"
    path.write_bytes(b"GARBAGE\r\n" + make_pdf(tmp_path / "a.pdf", ["x"]).read_bytes())
    assert detect_kind(path, "prefixed.pdf") == "pdf"
    assert rejected(path, "prefixed.txt").code == "content_mismatch"
    far = tmp_path / "far.pdf"
    far.write_bytes(b"G" * 2000 + make_pdf(tmp_path / "a.pdf", ["x"]).read_bytes())
    assert rejected(far, "far.pdf").code == "content_mismatch"


@pytest.mark.parametrize(
    ("bomb", "kind"),
    [
        (ZipBomb("ratio", megabytes=12), "docx"),
        (ZipBomb("declared", megabytes=400, prefix="xl/"), "xlsx"),
        (ZipBomb("members", members=10_001, prefix="ppt/"), "pptx"),
    ],
)
def test_zip_bombs(tmp_path: Path, bomb: ZipBomb, kind: str) -> None:
    path = make_zip_bomb(tmp_path / f"bomb.{kind}", bomb)
    error = rejected(path, f"bomb.{kind}")
    assert (error.code, error.status) == ("zip_bomb", 413)


def test_large_but_ordinary_compression_is_accepted(tmp_path: Path) -> None:
    # 5 MB of zeros compresses > 200:1 but stays under the 10 MB floor for the ratio rule.
    path = make_zip_bomb(tmp_path / "big.docx", ZipBomb("ratio", megabytes=5))
    assert detect_kind(path, "big.docx") == "docx"


def test_encrypted_pdf(tmp_path: Path) -> None:
    path = make_encrypted_pdf(tmp_path / "secret.pdf")
    error = rejected(path, "secret.pdf")
    assert (error.code, error.status) == ("pdf_encrypted", 422)
    assert "password" in error.message


@pytest.mark.parametrize("keep", [20, 400])
def test_truncated_pdf_beyond_repair(tmp_path: Path, keep: int) -> None:
    path = make_truncated_pdf(tmp_path / "cut.pdf", keep_bytes=keep)
    error = rejected(path, "cut.pdf")
    assert (error.code, error.status) == ("pdf_corrupt", 422)


def test_pdf_header_with_garbage_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdf"
    path.write_bytes(b"%PDF-1.7\n" + b"garbage " * 100)
    assert rejected(path, "junk.pdf").code == "pdf_corrupt"
