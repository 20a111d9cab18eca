"""Excel workbooks: every worksheet as atomic groups of at most 20 rows (kind ``sheet``), each starting
with a ``[Sheet: name]`` line and the sheet's header row. Values are the cached results of formulas
(``data_only``), formatted the way a reader expects: whole numbers without ``.0``, dates as ISO dates,
percentages with ``%``.

A sheet's declared size (its `<dimension>`) is not trusted: openpyxl would pad every row to the declared
width and fill every gap up to the declared height, so a 2 KB file declaring A1:XFD1048576 meant 17
billion empty cells. Rows are read as they are stored, and the cells a workbook makes us look at are
counted against `MAX_CELLS`, so the work stays proportional to what the file really holds."""

from __future__ import annotations

import datetime as dt
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, Protocol

from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from backend.ingest.extract.archive import check_zip_contents, corrupt_office_file
from backend.ingest.extract.common import row_group_units, too_large
from backend.ingest.types import ExtractedUnit, ExtractProgress, ExtractResult, ProgressCallback

# What openpyxl raises on damaged workbooks: bad zips, missing parts, malformed XML
# (lxml's and ElementTree's parse errors are SyntaxErrors), and bad values inside parts.
_OPENPYXL_ERRORS = (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, TypeError, SyntaxError)
# Cells looked at, empty ones padding a row included (~1 s): far beyond any sheet whose text would stay
# under QUIRE_EXTRACT_MAX_CHARS, far below what a styled cell in column XFD of every row would cost.
MAX_CELLS = 30_000_000


class _Cell(Protocol):
    value: object
    number_format: str | None


def extract_xlsx(path: Path, on_progress: ProgressCallback | None = None) -> ExtractResult:
    check_zip_contents(path, "xlsx")
    with path.open("rb") as stream:
        return _extract_workbook(stream, on_progress)


def _extract_workbook(stream: BinaryIO, on_progress: ProgressCallback | None) -> ExtractResult:
    # A file object, not the path: openpyxl refuses paths without an .xlsx suffix, and uploads are
    # staged under names without one.
    try:
        workbook = load_workbook(stream, read_only=True, data_only=True)
    except _OPENPYXL_ERRORS as exc:
        raise corrupt_office_file("xlsx") from exc
    units: list[ExtractedUnit] = []
    budget = _CellBudget(MAX_CELLS)
    try:
        sheets = workbook.worksheets
        for number, sheet in enumerate(sheets, start=1):
            sheet.reset_dimensions()  # read the rows the file holds, not the size it claims
            units.extend(_sheet_units(sheet.title, sheet.iter_rows(), budget))
            if on_progress is not None:
                on_progress(ExtractProgress(number, len(sheets), f"sheet {number} of {len(sheets)}"))
    except _OPENPYXL_ERRORS as exc:
        raise corrupt_office_file("xlsx") from exc
    finally:
        workbook.close()
    return ExtractResult(units=units)


class _CellBudget:
    """How many more cells this workbook may make the extractor look at."""

    def __init__(self, cells: int) -> None:
        self.left = cells

    def spend(self, cells: int) -> None:
        self.left -= cells
        if self.left < 0:
            raise too_large(f"its sheets span more than {MAX_CELLS:,} cells")


def _sheet_units(name: str, rows: Iterable[Sequence[_Cell]], budget: _CellBudget) -> list[ExtractedUnit]:
    table = list(_non_empty_rows(rows, budget))
    if not table:
        return []
    return row_group_units(
        table[0], table[1:], kind="sheet", section=f"Sheet: {name}", preamble=[f"[Sheet: {name}]"]
    )


def _non_empty_rows(rows: Iterable[Sequence[_Cell]], budget: _CellBudget) -> Iterator[list[str]]:
    """Formatted rows without trailing empty cells; fully empty rows are skipped."""
    for row in rows:
        budget.spend(len(row) + 1)
        end = len(row)
        while end and row[end - 1].value is None:  # styled but empty cells far to the right
            end -= 1
        values = [format_cell(cell.value, cell.number_format) for cell in row[:end]]
        while values and not values[-1]:
            values.pop()
        if values:
            yield values


def format_cell(value: object, number_format: str | None = "General") -> str:
    """A cell value as a person would read it in Excel."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.date | dt.time):
        return _format_temporal(value)
    if isinstance(value, int | float):
        return _format_number(value, number_format)
    return str(value).strip()


def _format_temporal(value: dt.date | dt.time) -> str:
    if not isinstance(value, dt.datetime):
        return value.isoformat()
    if value.time() == dt.time(0, 0):
        return value.date().isoformat()
    return value.isoformat(sep=" ", timespec="seconds" if value.second else "minutes")


def _format_number(value: float, number_format: str | None) -> str:
    if "%" in (number_format or ""):
        return f"{value * 100:.10g}%"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    # 15 significant digits is Excel's own precision; it hides binary noise like 0.30000000000000004.
    return f"{value:.15g}" if isinstance(value, float) else str(value)
