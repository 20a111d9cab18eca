"""PDF files: text page by page with PyMuPDF, OCR (tesseract) for pages that carry no text layer.

PyMuPDF over pypdf: on a generated 200-page text PDF (~3,200 characters a page) PyMuPDF read about
550-600 pages/s and pypdf about 60 pages/s on the same 2 cores. Each page becomes one unit (kind
``text``, or ``ocr`` when recognised from an image) whose text keeps the page's blocks as paragraphs.
Pages with fewer than OCR_MIN_CHARS characters that show an image are rendered and OCR'd (ocr.py).
Reading is two passes: `scan_pdf` reads every text layer, then each page left for OCR is read on its
own or with a few others (`ocr_pdf_pages`), so the sandbox can OCR pages in parallel in separate
processes; `assemble` puts the pages back in order. A page's printed label (PDF page labels, "iv",
"12") is kept next to its physical number. A damaged file that still opens is read as far as it goes, with a warning.
A page's section is the bookmark (outline) path in force on it, when the PDF has bookmarks. Comments a
reader attached to a page (sticky notes, notes on highlighted passages) are not in its text layer; they
follow the page's text as paragraphs starting ``Comment:``, so a student's own notes are found too.

A text layer can be garbled: a font without a character map gives glyph numbers instead of letters
("1IPUPTZOUIFTJT\x01DPOWFSUT" for "Photosynthesis converts", control characters for spaces, U+FFFD).
So can whole lines of a readable layer (a paragraph in a font MuPDF cannot map: U+FFFD for each glyph).
Such a page is OCR'd like a scan, since its glyphs are drawn correctly; if OCR cannot read it better,
the layer is kept without its unreadable characters and the page is named in a warning
(backend/ingest/extract/pdf_layer.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from backend.ingest.extract.common import page_ranges, too_large
from backend.ingest.extract.ocr import PageOcr, failed_warning, missing_ocr, ocr_pages, unreadable_warning
from backend.ingest.extract.pdf_layer import check_layer, needs_ocr, ocr_bar, readable_chars, readable_layer
from backend.ingest.extract.pdf_notes import (
    MUPDF_ERRORS,
    attachment_warnings,
    damage_warnings,
    declared_page_count,
)
from backend.ingest.types import (
    BlockKind,
    ExtractedUnit,
    ExtractionError,
    ExtractProgress,
    ExtractResult,
    PageWarning,
    PageWord,
    ProgressCallback,
)

# Annotations (by /Subtype) that hold no comment of a reader's: a typed-on-page box (already in the text
# layer), a comment's popup (its parent holds the text), links, form fields and redactions.
_NOT_COMMENTS = frozenset({"FreeText", "Popup", "Link", "Widget", "Redact"})
# Damaged uploads are expected; MuPDF's own stderr chatter about them would only be noise in the log.
pymupdf.TOOLS.mupdf_display_errors(False)

OCR_MIN_CHARS = 50
# A near-empty page drawn with at least this many vector paths may be text exported as outlines (a
# line of text is dozens of glyph paths; a rule or a frame is a handful).
OUTLINE_MIN_PATHS = 20
# The largest bitmap a page is rendered to for OCR (A4 at 144 dpi is 2 Mpx); see ocr.render_dpi.
DEFAULT_MAX_PAGE_PIXELS = 40_000_000
RUN_TOGETHER_MIN_CHARS = 6
ZERO_WIDTH_PT = 1.0
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP | pymupdf.TEXT_DEHYPHENATE

_EOF_MARKER, _EOF_WINDOW = b"%%EOF", 2048
ENCRYPTED_MESSAGE = "This PDF is password-protected; remove the password and upload it again."
CORRUPT_MESSAGE = "This PDF is damaged and could not be opened; try saving or exporting it again."
OCR_LANGUAGES_HINT = ("OCR reads only the languages set in QUIRE_OCR_LANGUAGES (English and German unless "
                      "changed); text in another language or script needs its language added there.")
NO_PAGES_MESSAGE = "This PDF has no pages, so there is nothing in it to read."


def open_pdf(path: Path) -> pymupdf.Document:
    """Open a PDF for reading, or raise `pdf_encrypted` / `pdf_corrupt` as an ExtractionError."""
    try:
        document = pymupdf.open(path, filetype="pdf")
    except (pymupdf.FileDataError, pymupdf.EmptyFileError, *MUPDF_ERRORS) as exc:
        cut_short = _open_cut_short(path)
        if cut_short is None:
            raise ExtractionError("pdf_corrupt", CORRUPT_MESSAGE) from exc
        document = cut_short
    # `needs_pass`, not `is_encrypted`: a PDF with only an owner password opens and reads normally.
    if document.needs_pass:
        document.close()
        raise ExtractionError("pdf_encrypted", ENCRYPTED_MESSAGE)
    if _page_count(document) == 0:
        # A page tree that says it holds no pages is an empty document, not a damaged one (pikepdf's
        # newline-buffer-test.pdf); one that MuPDF cannot count is damaged.
        empty = declared_page_count(document) == 0
        document.close()
        if empty:
            raise ExtractionError("pdf_no_pages", NO_PAGES_MESSAGE)
        raise ExtractionError("pdf_corrupt", CORRUPT_MESSAGE)
    return document


def _page_count(document: pymupdf.Document) -> int:
    try:
        count: int = document.page_count
    except MUPDF_ERRORS:  # a rebuilt page tree can be beyond use ("Invalid number of pages")
        return 0
    return count


def _open_cut_short(path: Path) -> pymupdf.Document | None:
    """A file cut off mid-object (a broken download) without its torn last object, which MuPDF's repair
    chokes on ("invalid key in dict"); None if that does not open either or the file is not cut short."""
    data = path.read_bytes()
    if _EOF_MARKER in data[-_EOF_WINDOW:]:
        return None
    end = data.rfind(b"endobj")
    if end <= 0:
        return None
    try:
        return pymupdf.open(stream=data[: end + len(b"endobj")] + b"\n", filetype="pdf")
    except (pymupdf.FileDataError, pymupdf.EmptyFileError, *MUPDF_ERRORS):
        return None


@dataclass(frozen=True)
class PdfScan:
    """The text pass over a PDF: units of the pages read from their text layer, and the pages that need
    OCR (with whatever little text layer they have, kept if OCR cannot do better)."""

    total: int
    units: list[ExtractedUnit]
    ocr_candidates: dict[int, str]
    sections: dict[int, str]
    labels: dict[int, str]
    warnings: list[str] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)  # pages left for OCR: their comments


def scan_pdf(path: Path, on_progress: ProgressCallback | None = None) -> PdfScan:
    """Read every page's text layer; pages that show an image or outlines but hardly any text are left
    for OCR. Progress counts the pages finished here ("page 3 of 21")."""
    document = open_pdf(path)
    try:
        total = document.page_count
        sections = _bookmark_sections(document)
        labelled = bool(document.get_page_labels())  # else every page's label is "": not asked page by page
        labels: dict[int, str] = {}
        units: list[ExtractedUnit] = []
        candidates: dict[int, str] = {}
        comments: dict[int, list[str]] = {}
        unreadable: list[int] = []
        empty: list[int] = []
        done = 0
        for number in range(1, total + 1):
            try:
                page = document.load_page(number - 1)
                text, needs_ocr = _read_page(page)
                labels[number] = page.get_label().strip() if labelled else ""
                notes = page_comments(page)
            except MUPDF_ERRORS:
                unreadable.append(number)
                text, needs_ocr, notes = "", False, []
            if needs_ocr:
                candidates[number] = text
                if notes:
                    comments[number] = notes
                continue
            if not text:
                empty.append(number)
            if text := with_comments(text, notes):
                units.append(ExtractedUnit(text=text, kind="text", page=number, section=sections.get(number),
                                           page_label=labels.get(number) or None))
            done += 1
            if on_progress is not None:
                on_progress(ExtractProgress(done=done, total=total, detail=f"page {done} of {total}"))
        warnings = damage_warnings(document, unreadable, empty) + attachment_warnings(document)
        return PdfScan(total, units, candidates, sections, {n: label for n, label in labels.items() if label},
                       warnings, comments)
    finally:
        document.close()


def assemble(scan: PdfScan, recognised: dict[int, PageOcr], ocr_missing: str | None) -> ExtractResult:
    """The document's units in page order: text-layer pages, and OCR'd pages where OCR read more. A page
    OCR could not read reliably, or whose OCR broke its limits, is a page warning (its text left out)."""
    units = list(scan.units)
    failed: list[int] = []
    unreadable: list[int] = []
    oversized: list[str] = []
    garbled: list[int] = []
    partly: list[int] = []  # pages whose unreadable lines OCR could not read: the rest of the layer is kept
    page_words: dict[int, list[PageWord]] = {}
    for number, layer_text in scan.ocr_candidates.items():
        page = recognised.get(number)
        text = layer_text
        kind: BlockKind = "text"
        if page is not None:
            if page.failed:
                failed.append(number)
            elif page.unreadable:
                unreadable.append(number)
            elif page.too_large:
                oversized.append(page.warning or "")
            elif readable_chars(page.text) > ocr_bar(layer_text):
                text, kind = page.text.strip(), "ocr"
                page_words[number] = page.words
        if kind == "text" and text and needs_ocr(text):
            kept = readable_layer(text)
            (partly if kept else garbled).append(number)
            text = kept
        if text := with_comments(text, scan.comments.get(number, [])):
            units.append(ExtractedUnit(text=text, kind=kind, page=number, section=scan.sections.get(number),
                                       page_label=scan.labels.get(number)))
    units.sort(key=lambda unit: unit.page or 0)
    warnings = list(scan.warnings)
    if ocr_missing and scan.ocr_candidates:
        warnings.append(f"{len(scan.ocr_candidates)} page(s) without a text layer were skipped: {ocr_missing}. "
                        "Install it and re-ingest the document to read them.")
    warnings.extend(oversized)
    warnings.extend(_garbled_warnings(garbled, partly))
    page_warnings = [PageWarning(number, unreadable_warning(number)) for number in unreadable]
    page_warnings += [PageWarning(number, failed_warning(number)) for number in failed]
    page_warnings.sort(key=lambda warning: warning.page)
    if not units and (unreadable or oversized):
        # Nothing else to show: the reason is the document's error rather than "no text found".
        raise _unreadable_error(scan, recognised, unreadable)
    if not units:
        raise _no_text_error(scan, ocr_missing, failed, garbled)
    ocr_pages = sum(unit.kind == "ocr" for unit in units)
    return ExtractResult(units=units, pages=scan.total, warnings=warnings, ocr_pages=ocr_pages,
                         page_warnings=page_warnings, page_words=page_words)


def _unreadable_error(scan: PdfScan, recognised: dict[int, PageOcr], unreadable: list[int]) -> ExtractionError:
    """Why a PDF whose every page was left to OCR gave no text: pages too large to render, or OCR that read
    nothing reliably, of scans or of a garbled text layer (often a script OCR is not set up for: a Chinese
    page of PyMuPDF's test_3072.pdf was called a scan)."""
    oversized = [page.number for page in recognised.values() if page.too_large]
    if oversized:
        pages = f"page {oversized[0]} is" if len(oversized) == 1 else f"pages {page_ranges(oversized)} are"
        return too_large(f"{pages} too large to render for OCR")
    what = ("The text of this PDF is garbled in the file (a font without a character map) and OCR could not "
            "read it reliably either" if all(map(needs_ocr, scan.ocr_candidates.values()))
            else "The scanned pages could not be read reliably")
    return ExtractionError("ocr_unreadable", f"{what}: page(s) {page_ranges(unreadable)} read as no words of the "
                                             f"configured languages; open the page image. {OCR_LANGUAGES_HINT}")


def _no_text_error(scan: PdfScan, ocr_missing: str | None, failed: list[int], garbled: list[int]) -> ExtractionError:
    """Why a PDF gave no text at all, page by page: no text layer and no OCR installed, pictures in which
    OCR found no words, OCR that failed, a garbled layer, or pages with nothing on them but drawings (a bare
    "No text could be found in this file." left 50 of the campaign's 323 PDFs unexplained)."""
    if ocr_missing:
        return ExtractionError("no_text", f"No text could be found in this PDF: its pages have no text layer and "
                                          f"OCR is not available to read them ({ocr_missing}). Install it and "
                                          "retry the document.")
    pictured = [number for number in scan.ocr_candidates if number not in failed and number not in garbled]
    blank = [number for number in range(1, scan.total + 1) if number not in scan.ocr_candidates]
    reasons = [f"{label} {page_ranges(pages)} {says}" for label, pages, says in (
        ("OCR found no words in the pictures on page(s)", pictured, ""),
        ("OCR of page(s)", failed, "needed more CPU time or memory than it may use"),
        ("the text of page(s)", garbled, "is garbled in the file (a font without a character map)"),
        ("page(s)", blank, "hold no text and no picture (blank, or only drawings)"),
    ) if pages]
    return ExtractionError("no_text", "No text could be found in this PDF: " + "; ".join(
        reason.strip() for reason in reasons) + ".")


def _garbled_warnings(garbled: list[int], partly: list[int]) -> list[str]:
    """Pages whose layer (or part of it) is glyph codes that OCR could not read either."""
    return [f"{share} of page(s) {page_ranges(pages)} is garbled in the file (a font without a character map) "
            f"and OCR could not read it either{rest}."
            for share, pages, rest in (("The text", garbled, ""),
                                       ("Part of the text", partly, "; the rest of the page was read"))
            if pages]


def extract_pdf_pages(
    path: Path, *, ocr_languages: str = "eng+deu", on_progress: ProgressCallback | None = None,
    max_pixels: int = DEFAULT_MAX_PAGE_PIXELS,
) -> ExtractResult:
    """One unit per page with text (1-based pages), in this process, OCR'ing pages one after another.

    The sandbox (`backend.ingest.sandbox`) runs the same passes in child processes, OCR'ing pages in
    parallel; this in-process form serves tests and tools."""
    scan = scan_pdf(path, on_progress)
    missing = missing_ocr(ocr_languages) if scan.ocr_candidates else None
    recognised: dict[int, PageOcr] = {}
    done = scan.total - len(scan.ocr_candidates)
    for number in scan.ocr_candidates:
        if missing is None:
            recognised[number] = ocr_pdf_pages(path, [number], ocr_languages, max_pixels)[0]
        done += 1
        if on_progress is not None:
            suffix = "" if missing else " (OCR)"
            on_progress(ExtractProgress(done=done, total=scan.total, detail=f"page {done} of {scan.total}{suffix}"))
    return assemble(scan, recognised, missing)


def ocr_pdf_pages(path: Path, numbers: list[int], languages: str, max_pixels: int) -> list[PageOcr]:
    """OCR of the 1-based pages `numbers` of the PDF at `path`, in one tesseract run (a job of the
    sandbox's pool)."""
    document = open_pdf(path)
    try:
        return ocr_pages([document.load_page(number - 1) for number in numbers], languages, max_pixels)
    finally:
        document.close()


def _read_page(page: pymupdf.Page) -> tuple[str, bool]:
    """The page's text layer and whether it needs OCR.

    Only pages that show something beyond their text layer are OCR'd: an image (a scan), or many vector
    paths (text exported as outlines). Rendering a page without either reveals nothing the text layer
    lacks, and title or blank pages would each cost a second of tesseract.
    """
    text = page_text(page)
    unreadable, visible = check_layer(text)
    if unreadable:
        return text, True  # the glyphs are drawn right; only their mapping to characters is broken
    if visible >= OCR_MIN_CHARS:
        return text, False
    return text, bool(page.get_image_info() or len(page.get_cdrawings()) >= OUTLINE_MIN_PATHS)


def page_comments(page: pymupdf.Page) -> list[str]:
    """The comments attached to the page (sticky notes, notes on highlights and other markup), each once.

    Read from the annotations' dictionaries by xref: `Page.annots()` finds each annotation by a walk of
    the page's list, so a page of 5,000 notes took a minute; this takes a fraction of a second."""
    document = page.parent
    comments: dict[str, None] = {}  # ordered, and each once however many annotations repeat it
    inline = False
    for xref, _, _ in page.annot_xrefs():
        if not 0 < xref < document.xref_length():
            # Written inline in the page's /Annots (no object number of its own: xref 0, where
            # `xref_get_key` raises "bad xref"), read below; or a reference to no object at all.
            inline = inline or xref == 0
            continue
        if document.xref_get_key(xref, "Subtype")[1].lstrip("/") in _NOT_COMMENTS:
            continue
        kind, content = document.xref_get_key(xref, "Contents")
        if kind == "string" and (comment := " ".join(content.split())):
            comments[comment] = None
    if inline:  # one walk of MuPDF's annotation list (linear, unlike `Page.annots()`)
        annot = page.first_annot
        while annot is not None:
            if annot.xref == 0 and annot.type[1] not in _NOT_COMMENTS and \
                    (comment := " ".join(annot.info.get("content", "").split())):
                comments[comment] = None
            annot = annot.next
    return list(comments)


def with_comments(text: str, comments: list[str]) -> str:
    return "\n\n".join([text.strip(), *(f"Comment: {comment}" for comment in comments)]).strip()


def page_text(page: pymupdf.Page) -> str:
    """The page's text blocks in content order, separated by blank lines (paragraph breaks).

    MuPDF's block text runs a block's lines together when their glyphs have no width (PyMuPDF's
    test_3705.pdf: "InfrastructureAutoroute A63Réhabilitation"), its plain text of the same layout does
    not: where the block text has words of 6 letters or more that the plain text splits (two or more; a
    formula's glyphs run together once are not worth the page's paragraph breaks), the plain text is kept.
    On the campaign's 1,218 pages only test_3705.pdf's pages are read this way. The plain text is made
    only for a page with a block of such glyphs (a block of text less than ZERO_WIDTH_PT wide: glyphs
    without width stack on one spot), so a clean page costs one extraction, as `get_text()` does."""
    textpage = page.get_textpage(flags=_TEXT_FLAGS)
    blocks = page.get_text("blocks", textpage=textpage)
    text = "\n\n".join(block[4].strip() for block in blocks if block[6] == 0 and block[4].strip())
    if not any(block[6] == 0 and block[2] - block[0] < ZERO_WIDTH_PT and len(block[4].strip()) > 1
               for block in blocks):
        return text
    plain = page.get_text("text", textpage=textpage)
    plain_words = set(plain.split())
    run_together = sum(len(word) >= RUN_TOGETHER_MIN_CHARS and word not in plain_words for word in text.split())
    return plain.strip() if run_together >= 2 else text


def _bookmark_sections(document: pymupdf.Document) -> dict[int, str]:
    """For each page, the bookmark path (``Part I > Chapter 2``) of the last bookmark at or before it.

    A page on which a section starts mid-way is labelled with the new section: bookmarks carry no
    position finer than the page without layout analysis.
    """
    toc = document.get_toc(simple=True)
    if not toc:
        return {}
    starts: dict[int, str] = {}
    path: list[tuple[int, str]] = []
    for level, title, page in toc:
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, " ".join(str(title).split())))
        if page >= 1:
            starts[page] = " > ".join(name for _, name in path)
    sections: dict[int, str] = {}
    current: str | None = None
    for number in range(1, document.page_count + 1):
        current = starts.get(number, current)
        if current is not None:
            sections[number] = current
    return sections
