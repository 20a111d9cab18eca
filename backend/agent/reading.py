"""Documents of a question's scope that are still being read (queued or being extracted and indexed):
while there are any, "your documents do not cover this" may not be true yet, so an answer that found
nothing relevant says they are still being read instead."""

from __future__ import annotations

from backend.agent.context import RequestState
from backend.agent.documents import scoped_documents
from backend.wording import plural

READING_STATUSES = ("queued", "ingesting")
# The end of the search tool's summary when this is what it found; the chat shows it in place of
# "not covered" (frontend/src/features/chat/lib/citations.ts reads it).
READING_SUMMARY = "still being read"


def still_reading(state: RequestState) -> int:
    """How many documents the request's scope admits are not read yet (blocking: run in a worker thread)."""
    return sum(1 for row in scoped_documents(state) if row["status"] in READING_STATUSES)


def reading_notice(count: int) -> str:
    """The user's words: "2 documents are still being read — ask again when they are ready"."""
    one = count == 1
    return (f"{plural(count, 'document')} {'is' if one else 'are'} {READING_SUMMARY} — ask again when "
            f"{'it is' if one else 'they are'} ready")
