"""Excel workbooks: every worksheet as atomic groups of at most 20 rows (kind ``sheet``), each starting
with a ``[Sheet: name]`` line and the sheet's header row. Values are the cached results of formulas
(``data_only``), formatted the way a reader expects: whole numbers without ``.0``, dates as ISO dates,
percentages with ``%``.

A formula has a cached result only if the program that saved the workbook computed one: Excel and
LibreOffice do, openpyxl, pandas and many exporters do not. Such a cell would read as empty, so its
formula text (``=SUM(B2:B9)``) is shown instead. Only a sheet with such blank stored cells is read a
second time, as formulas, and only up to its last blank cell. Evaluating formulas was not taken: `formulas` and
`pycel` pull in numpy/scipy-sized dependency trees and interpret the workbook's own expressions, which
is more code reading hostile input than showing what the cell says.

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
from openpyxl.cell.read_only import ReadOnlyCell
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.formula import ArrayFormula

from backend.ingest.extract.archive import check_zip_contents, corrupt_office_file
from backend.ingest.extract.common import row_group_units, too_large
from backend.ingest.types import ExtractedUnit, ExtractProgress, ExtractResult, ProgressCallback

# What openpyxl raises on damaged workbooks: bad zips, missing parts, malformed XML
# (lxml's and ElementTree's parse errors are SyntaxErrors), and bad values inside parts.
_OPENPYXL_ERRORS = (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, TypeError, SyntaxError)
# Cells looked at, empty ones padding a row included (~1 s): far beyond any sheet whose text would stay
# under the sandbox's character limit (Limits.max_chars), far below what a styled cell in column XFD of
# every row would cost.
MAX_CELLS = 30_000_000


class _Cell(Protocol):
    value: object
    number_format: str | None


def extract_xlsx(path: Path, on_progress: ProgressCallback | None = None) -> ExtractResult:
    check_zip_contents(path, "xlsx")
    with path.open("rb") as values, path.open("rb") as formulas:
        return _extract_workbook(values, formulas, on_progress)


def _open(stream: BinaryIO, *, data_only: bool) -> Workbook:
    # A file object, not the path: openpyxl refuses paths without an .xlsx suffix, and uploads are
    # staged under names without one.
    try:
        return load_workbook(stream, read_only=True, data_only=data_only)
    except _OPENPYXL_ERRORS as exc:
        raise corrupt_office_file("xlsx") from exc


def _extract_workbook(values: BinaryIO, formulas: BinaryIO, on_progress: ProgressCallback | None) -> ExtractResult:
    books = [_open(values, data_only=True)]
    units: list[ExtractedUnit] = []
    budget = _CellBudget(MAX_CELLS)
    sheets = []
    try:
        sheets = books[0].worksheets
        for number, sheet in enumerate(sheets, start=1):
            sheet.reset_dimensions()  # read the rows the file holds, not the size it claims
            rows, blanks = _read_values(sheet.iter_rows(), budget)
            if blanks:
                # Opened on first need: opening a sheet without a declared size already parses it once.
                if len(books) == 1:
                    books.append(_open(formulas, data_only=False))
                formula_sheet = books[1].worksheets[number - 1]
                formula_sheet.reset_dimensions()
                _fill_formulas(rows, blanks, formula_sheet.iter_rows(values_only=True))
            units.extend(_sheet_units(sheet.title, rows))
            if on_progress is not None:
                on_progress(ExtractProgress(number, len(sheets), f"sheet {number} of {len(sheets)}"))
    except _OPENPYXL_ERRORS as exc:
        raise corrupt_office_file("xlsx") from exc
    finally:
        for book in books:
            book.close()
    return ExtractResult(units=units, pages=len(sheets))  # a workbook's length is its sheets: "3 sheets"


class _CellBudget:
    """How many more cells this workbook may make the extractor look at."""

    def __init__(self, cells: int) -> None:
        self.left = cells

    def spend(self, cells: int) -> None:
        self.left -= cells
        if self.left < 0:
            raise too_large(f"its sheets span more than {MAX_CELLS:,} cells")


# A row's cells up to its last stored one: (value, number format).
_Row = list[tuple[object, str | None]]


def _read_values(rows: Iterable[Sequence[_Cell]], budget: _CellBudget) -> tuple[dict[int, _Row], dict[int, list[int]]]:
    """The cached values of the rows that have cells (by row index), and where a stored cell holds none
    (row index -> columns): an uncached formula, or a styled empty cell. Gaps between stored cells are
    openpyxl's EMPTY_CELL."""
    table: dict[int, _Row] = {}
    blanks: dict[int, list[int]] = {}
    for index, row in enumerate(rows):
        budget.spend(len(row) + 1)
        if not row:
            continue
        table[index] = [(cell.value, cell.number_format) for cell in row]
        empty = [column for column, cell in enumerate(row) if cell.value is None and isinstance(cell, ReadOnlyCell)]
        if empty:
            blanks[index] = empty
    return table, blanks


def _fill_formulas(table: dict[int, _Row], blanks: dict[int, list[int]],
                   formula_rows: Iterable[Sequence[object]]) -> None:
    """Put the formula text in the blank cells that hold a formula. Both passes parse the same XML, so
    rows and cells correspond one to one; the formula pass stops after the last row with a blank, so it
    reads no more than the value pass did (see `MAX_CELLS`)."""
    last = max(blanks)
    for index, row in enumerate(formula_rows):
        for column in blanks.get(index, ()):
            formula = _formula_text(row[column]) if column < len(row) else None
            if formula is not None:
                table[index][column] = (formula, None)
        if index >= last:
            return


def _formula_text(value: object) -> str | None:
    if isinstance(value, ArrayFormula):
        value = value.text
    if isinstance(value, str) and value.startswith("=") and len(value) > 1:
        return value
    return None


def _sheet_units(name: str, rows: dict[int, _Row]) -> list[ExtractedUnit]:
    table = list(_non_empty_rows(rows.values()))
    if not table:
        return []
    return row_group_units(
        table[0], table[1:], kind="sheet", section=f"Sheet: {name}", preamble=[f"[Sheet: {name}]"]
    )


def _non_empty_rows(rows: Iterable[_Row]) -> Iterator[list[str]]:
    """Formatted rows without trailing empty cells; fully empty rows are skipped."""
    for row in rows:
        end = len(row)
        while end and row[end - 1][0] is None:  # styled but empty cells far to the right
            end -= 1
        values = [format_cell(value, number_format) for value, number_format in row[:end]]
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
