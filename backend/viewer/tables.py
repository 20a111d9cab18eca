"""Table blocks (spreadsheet and CSV row groups, DOCX tables) back into cells.

Extraction writes each row as a Markdown-style pipe row (`render_row`: cell whitespace collapsed, `|`
escaped as `\\|`), after optional `[Sheet: name]` lines and the header row. This reverses that, so the
viewer shows rows as a table and can mark the cited ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SHEET_LINE = re.compile(r"^\[Sheet: (?P<name>.*)\]$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
TABLE_KINDS = frozenset({"sheet", "csv", "table"})


@dataclass(frozen=True)
class TableRows:
    sheet: str | None
    header: list[str]
    rows: list[list[str]]


def _cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if not (stripped.startswith("|") and stripped.endswith("|") and len(stripped) >= 2):
        return None
    inner = stripped[1:-1]
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(inner)]


def parse_table(text: str) -> TableRows | None:
    """The block's sheet name, header and rows, or None when its lines are not pipe rows."""
    sheet: str | None = None
    table: list[list[str]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        match = _SHEET_LINE.match(line.strip())
        if match and not table:
            sheet = match.group("name")
            continue
        cells = _cells(line)
        if cells is None:
            return None
        table.append(cells)
    if not table:
        return None
    return TableRows(sheet=sheet, header=table[0], rows=table[1:])
