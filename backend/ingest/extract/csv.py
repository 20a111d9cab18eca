"""CSV files: parsed with the csv module (sniffed delimiter and quoting, encoding detected like TXT),
rendered as atomic groups of at most 20 pipe rows, each repeating the header row."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from backend.ingest.extract.common import row_group_units
from backend.ingest.extract.text import read_text_file
from backend.ingest.types import ExtractionError, ExtractResult

_SNIFF_SAMPLE = 64 * 1024
_DELIMITERS = ",;\t|"
# Spreadsheet exports can hold whole documents in a cell; the csv module's 128 KB default is too tight.
_FIELD_LIMIT = 16 * 1024 * 1024


def extract_csv(path: Path) -> ExtractResult:
    text = read_text_file(path)
    rows = [row for row in _parse(text) if any(cell.strip() for cell in row)]
    if not rows:
        return ExtractResult(units=[])
    header, body = rows[0], rows[1:]
    return ExtractResult(units=row_group_units(header, body, kind="csv"))


def _parse(text: str) -> list[list[str]]:
    csv.field_size_limit(_FIELD_LIMIT)
    try:
        return list(csv.reader(io.StringIO(text), _dialect(text[:_SNIFF_SAMPLE])))
    except csv.Error as exc:
        if "field limit" in str(exc):  # the csv module's only signal for it is its message
            raise ExtractionError("csv_corrupt", f"This CSV file has a cell of more than {_FIELD_LIMIT // 2**20} MB "
                                  "of text, most often after a quote mark that is never closed.") from exc
        raise ExtractionError("csv_corrupt", f"This CSV file could not be parsed: {exc}.") from exc


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
