"""Excel workbooks: each sheet's cells as table passages placed by sheet, shown in the sheet viewer."""

from __future__ import annotations

from pathlib import Path

from backend.ingest.extract.xlsx import extract_xlsx
from backend.ingest.formats.base import NO_TEXT, OFFICE_MIME, Format
from backend.ingest.formats.checks import office_check
from backend.ingest.sniff import office_signature
from backend.ingest.types import ExtractResult, ProgressCallback
from backend.wording import plural


def _read(path: Path, *, ocr_languages: str, on_progress: ProgressCallback | None) -> ExtractResult:
    return extract_xlsx(path, on_progress)


def _nothing_found(sheets: int | None) -> str:
    return f"{NO_TEXT}: the workbook's {plural(sheets or 0, 'sheet')} {'is' if sheets == 1 else 'are'} empty."


FORMAT = Format(
    kind="xlsx", label="an Excel workbook", name="Excel", viewer="sheet", unit="sheet",
    mime=OFFICE_MIME + "spreadsheetml.sheet", extensions=("xlsx", "xlsm", "xltx", "xltm"), read=_read,
    signature=office_signature("xlsx"), check=office_check("xlsx"), nothing_found=_nothing_found,
)
