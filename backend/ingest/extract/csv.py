"""CSV files: parsed with the csv module (sniffed delimiter and quoting, encoding detected like TXT),
rendered as atomic groups of at most 20 pipe rows, each repeating the header row.

A first line ``sep=;`` is Excel's hint naming the delimiter (Excel writes and reads it; German and other
locales' exports use ``;``): it decides the delimiter and is not a row. Before, it was taken for the
header, so every passage named its columns "sep=" and the real header became a data row."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from backend.ingest.extract.common import row_group_units
from backend.ingest.extract.text import read_text_file
from backend.ingest.types import ExtractionError, ExtractResult

_SNIFF_SAMPLE = 64 * 1024
_DELIMITERS = ",;\t|"
_SEPARATOR_HINT = re.compile(r"sep=([^\w\r\n\"'])[ \t]*(?:\r\n|\n|\r|\Z)")
# Spreadsheet exports can hold whole documents in a cell; the csv module's 128 KB default is too tight.
_FIELD_LIMIT = 16 * 1024 * 1024


def extract_csv(path: Path) -> ExtractResult:
    text = read_text_file(path)
    hint = _SEPARATOR_HINT.match(text)
    dialect = type("HintedDialect", (csv.excel,), {"delimiter": hint.group(1)}) if hint else _dialect(
        text[:_SNIFF_SAMPLE])
    parsed, last_row_line = _parse(text, dialect)
    warnings = _unclosed_quote(text, dialect, parsed, last_row_line)
    rows = [row for row in parsed[1 if hint else 0:] if any(cell.strip() for cell in row)]
    if not rows:
        return ExtractResult(units=[], warnings=warnings)
    header, body = rows[0], rows[1:]
    return ExtractResult(units=row_group_units(header, body, kind="csv"), warnings=warnings)


def _parse(text: str, dialect: type[csv.Dialect]) -> tuple[list[list[str]], int]:
    """The rows, and the line (0-based) the last row starts on."""
    csv.field_size_limit(_FIELD_LIMIT)
    reader = csv.reader(io.StringIO(text), dialect)
    rows: list[list[str]] = []
    last_start = next_start = 0
    try:
        for row in reader:
            rows.append(row)
            last_start, next_start = next_start, reader.line_num
    except csv.Error as exc:
        if "field limit" in str(exc):  # the csv module's only signal for it is its message
            raise ExtractionError("csv_corrupt", f"This CSV file has a cell of more than {_FIELD_LIMIT // 2**20} MB "
                                  "of text, most often after a quote mark that is never closed.") from exc
        raise ExtractionError("csv_corrupt", f"This CSV file could not be parsed: {exc}.") from exc
    return rows, last_start


def _unclosed_quote(text: str, dialect: type[csv.Dialect], rows: list[list[str]], last_start: int) -> list[str]:
    """A warning when the last row opens a quote it never closes: the csv module then reads the rest of the
    file into that one cell, as spreadsheet programs do, without a word. Only a quoted cell can hold a line
    break, and inside one a quote mark is doubled, so an odd count of them from the row's start means one
    was opened and never closed."""
    if not rows or not any("\n" in cell or "\r" in cell for cell in rows[-1]):
        return []
    tail = io.StringIO(text).readlines()[last_start:]  # lines as the reader counted them
    if "".join(tail).count(dialect.quotechar or '"') % 2 == 0:
        return []
    return [f"A quote mark on line {last_start + 1} is never closed, so the {len(tail) - 1} line(s) after it "
            "were read into one cell; check the file's quoting."]


def _dialect(sample: str) -> type[csv.Dialect]:
    try:
        return csv.Sniffer().sniff(sample, delimiters=_DELIMITERS)
    except csv.Error:
        # The sniffer gives up on single-column or very regular files; the most frequent
        # candidate on the first line is then the best guess.
        first_line = sample.split("\n", 1)[0]
        delimiter = max(_DELIMITERS, key=first_line.count)
        if first_line.count(delimiter) == 0:
            return csv.excel
        return type("GuessedDialect", (csv.excel,), {"delimiter": delimiter})
