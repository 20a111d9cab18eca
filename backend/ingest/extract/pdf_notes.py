"""What the library says about a PDF beyond its text (backend/ingest/extract/pdf.py reads the text): pages
lost to damage that MuPDF repaired while reading, and files attached to the PDF, which are not read."""

from __future__ import annotations

import pymupdf

from backend.ingest.extract.common import page_ranges

# MuPDF reports damaged objects as its own error classes; PyMuPDF wraps some in RuntimeError.
MUPDF_ERRORS = (pymupdf.mupdf.FzErrorBase, RuntimeError)


def damage_warnings(document: pymupdf.Document, unreadable: list[int], empty: list[int]) -> list[str]:
    """What the library should show about a damaged file that still opened: pages that failed to load,
    and, when MuPDF had to rebuild the cross-reference table (a cut-off or corrupted file), the pages
    lost: fewer than the page tree declares, or pages whose content came out empty."""
    warnings = []
    if unreadable:
        warnings.append(f"Page(s) {page_ranges(unreadable)} are damaged and were skipped.")
    if document.is_repaired:
        declared = declared_page_count(document)
        if declared is not None and declared > document.page_count:
            warnings.append(f"This PDF is damaged (it looks cut short): only {document.page_count} of its "
                            f"{declared} pages could be read.")
        elif empty:
            warnings.append(f"This PDF is damaged (it looks cut short or corrupted): page(s) {page_ranges(empty)} "
                            f"of {document.page_count} came out empty; their content is probably lost.")
        else:
            warnings.append("This PDF is damaged (it looks cut short or corrupted) and was repaired while "
                            "reading; some of its content may be missing.")
    return warnings


def attachment_warnings(document: pymupdf.Document) -> list[str]:
    """Files attached to the PDF itself (its EmbeddedFiles) are not read: say so, by name, rather than keep
    quiet about content the user may think is in the vault (PyMuPDF's test_3789.pdf carries a picture)."""
    try:
        names = [document.embfile_info(name).get("filename") or name for name in document.embfile_names()]
    except (*MUPDF_ERRORS, ValueError):
        return []
    if not names:
        return []
    shown = ", ".join(f'"{name}"' for name in names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return [f"This PDF carries {len(names)} attached file(s) ({shown}) that were not read; save them from a PDF "
            "reader and upload them on their own to search them."]


def declared_page_count(document: pymupdf.Document) -> int | None:
    """The /Count of the page tree's root, as the file declares it (None if unreadable)."""
    try:
        kind, value = document.xref_get_key(document.pdf_catalog(), "Pages")
        if kind != "xref":
            return None
        kind, count = document.xref_get_key(int(value.split()[0]), "Count")
        return int(count) if kind == "int" else None
    except (*MUPDF_ERRORS, ValueError, IndexError):
        return None
