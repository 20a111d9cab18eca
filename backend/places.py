"""A place inside a source, in the user's words (DESIGN §9): "page 45 (printed 43)", "slide 17",
`sheet "Q3"`, "at 12:34". Which kind of place a document's passages have is its format's
(backend/store/kinds.py names it per document kind); this module only says it, so the agent, the
viewer and the MCP server word a place alike. A recording's passage keeps its time span in the block's
section as "12:34–13:02" (`time_span` reads it back): a typed place that every layer already carries,
as a workbook's passages keep their sheet as "Sheet: Q3". Pure: no imports of the layers.
"""

from __future__ import annotations

import re
from typing import Literal

PlaceKind = Literal["page", "slide", "sheet", "heading", "time"]
SHEET_PREFIX = "Sheet: "  # how the workbook reader names a sheet's section
_CLOCK = r"(?:\d+:)?\d{1,2}:\d{2}"
_SPAN = re.compile(rf"\A({_CLOCK})\u2013({_CLOCK})\Z")


def clock(seconds: float) -> str:
    """754.2 → "12:34"; 3723 → "1:02:03" (whole seconds, rounded down: the moment the passage begins)."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def span_section(start_s: float, end_s: float) -> str:
    """The section a recording's passage is stored under: "12:34–13:02"."""
    return f"{clock(start_s)}\u2013{clock(max(end_s, start_s))}"


def _seconds(text: str) -> int:
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total


def time_span(section: str | None) -> tuple[int, int] | None:
    """The (start_s, end_s) a recording's section holds, or None for any other section."""
    match = _SPAN.match(section or "")
    return (_seconds(match[1]), _seconds(match[2])) if match else None


def describe(place: PlaceKind, page: int | None, page_label: str | None, section: str | None) -> list[str]:
    """The words that locate a passage of a document whose places are of kind `place`, most telling first:
    ["slide 3", '"Intro"'], ["page 2", 'sheet "Q1"'], ["page 7 (printed iv)"], ["at 12:34"]."""
    span = time_span(section) if place == "time" else None
    if span is not None:
        return [f"at {clock(span[0])}"]
    parts = []
    if page is not None:
        if place == "slide":
            parts.append(f"slide {page}")
        elif page_label and page_label != str(page):
            parts.append(f"page {page} (printed {page_label})")
        else:
            parts.append(f"page {page}")
    if place == "sheet" and section and section.startswith(SHEET_PREFIX):
        parts.append(f'sheet "{section.removeprefix(SHEET_PREFIX)}"')
    elif section:
        parts.append(f'"{section}"')
    return parts
