"""CSV and TSV tables: rows as table passages, shown in the sheet viewer. Text: the content decides."""

from __future__ import annotations

from backend.ingest.extract.csv import extract_csv
from backend.ingest.formats.base import Format, plain
from backend.ingest.formats.checks import text_check

FORMAT = Format(kind="csv", label="a CSV table", name="CSV", extensions=("csv", "tsv"), mime="text/csv",
                viewer="sheet", read=plain(extract_csv), check=text_check())
