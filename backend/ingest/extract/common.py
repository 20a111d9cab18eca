"""Building blocks shared by the extractors: the heading outline and table rendering.

`too_large` is the error of a file that breaks a limit on reading it (see backend/ingest/sandbox.py).
`Outline` turns a stream of headings and body text into one unit per section, each carrying its
breadcrumb (``Intro > Setup``). `row_group_units` renders table rows as pipe rows in atomic units of
at most `ROWS_PER_UNIT` rows, each repeating the header so any one of them reads on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from backend.ingest.types import BlockKind, ExtractedUnit, ExtractionError

ROWS_PER_UNIT = 20
TOO_LARGE = "This file is too large or complex to read safely"


def too_large(reason: str) -> ExtractionError:
    """The error of a file that breaks a limit on reading it (memory, time, text, page size)."""
    return ExtractionError("too_large", f"{TOO_LARGE}: {reason}.")

BREADCRUMB_SEPARATOR = " > "


class Outline:
    """Accumulates body text under the current heading path and emits a unit per section.

    A heading with no body of its own (a chapter title followed directly by its first subsection)
    is carried into the next section's text rather than becoming a fragment of its own.
    """

    def __init__(self, kind: BlockKind, separator: str = "\n") -> None:
        self.units: list[ExtractedUnit] = []
        self._kind: BlockKind = kind
        self._separator = separator
        self._path: list[tuple[int, str]] = []
        self._parts: list[str] = []
        self._has_body = False

    @property
    def section(self) -> str | None:
        return BREADCRUMB_SEPARATOR.join(title for _, title in self._path) or None

    def heading(self, level: int, title: str, raw: str) -> None:
        """Open a section at `level` (0 = document title); `raw` is the heading as written."""
        if self._has_body:
            self._flush()
        while self._path and self._path[-1][0] >= level:
            self._path.pop()
        self._path.append((level, title))
        self._parts.append(raw)

    def text(self, part: str) -> None:
        self._parts.append(part)
        self._has_body = self._has_body or bool(part.strip())

    def add_units(self, units: Sequence[ExtractedUnit]) -> None:
        """Emit ready-made units (tables) in place, after the text collected so far."""
        self._flush()
        self.units.extend(units)

    def finish(self) -> list[ExtractedUnit]:
        self._flush()
        return self.units

    def _flush(self) -> None:
        text = self._separator.join(self._parts).strip()
        if text:
            self.units.append(ExtractedUnit(text=text, kind=self._kind, section=self.section))
        self._parts = []
        self._has_body = False


def render_row(cells: Sequence[str]) -> str:
    """A Markdown-style pipe row; pipes and line breaks inside cells are neutralised."""
    cleaned = (" ".join(cell.split()).replace("|", "\\|") for cell in cells)
    return "| " + " | ".join(cleaned) + " |"


def row_group_units(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    kind: BlockKind,
    section: str | None = None,
    page: int | None = None,
    preamble: Sequence[str] = (),
) -> list[ExtractedUnit]:
    """Atomic units of at most ROWS_PER_UNIT rows, each starting with `preamble` lines and the header.

    A table with a header but no rows still yields one unit, so its column names stay searchable.
    """
    head = [*preamble, render_row(header)]
    groups = [rows[start : start + ROWS_PER_UNIT] for start in range(0, len(rows), ROWS_PER_UNIT)] or [[]]
    return [
        ExtractedUnit(
            text="\n".join([*head, *(render_row(row) for row in group)]),
            kind=kind,
            page=page,
            section=section,
            atomic=True,
            header_lines=len(head),
        )
        for group in groups
    ]


def page_ranges(numbers: list[int]) -> str:
    """``1, 3, 5-60`` for [1, 3, 5, 6, ..., 60]."""
    ranges: list[list[int]] = []
    for number in sorted(numbers):
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    return ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in ranges)
