"""The answer when the chat model cannot give one — Ollama down, the model not pulled, stuck, failing or
silent: the best passages of the documents as citations, so the user still gets their sources. The
search is the one Quire ran for the question (or, if it never got that far, one run here); the text the
model wrote before it failed stays, and the passages follow it."""

from __future__ import annotations

import re

import anyio.to_thread

from backend.agent.citations import Citation
from backend.agent.context import RequestState
from backend.agent.reading import reading_notice, still_reading
from backend.agent.stream import EventChannel
from backend.agent.tools import search_sources

FALLBACK_PASSAGES = 5
SNIPPET_CHARS = 200
# Markdown heading markers of the passage's source text ("# Exam notes"): inside a quotation, noise.
_HEADING_MARKERS = re.compile(r"(?:^|(?<=\s))#{1,6}\s+")


UNAVAILABLE = "The model isn't available"
STOPPED = "The model stopped before it finished"
SILENT = "The model gave no answer"


async def answer_without_model(state: RequestState, channel: EventChannel, question: str, trivial: bool,
                               lead: str = UNAVAILABLE, after: str = "") -> str:
    """Emit the passages found (as `metadata`) and a short text presenting them, after the model's partial
    text `after` (already shown); returns the text added."""
    notice = None
    if trivial:
        text = (f"{lead}, so I can't chat right now. I can still search your documents: "
                "ask a question about them and I'll show the passages that match.")
    else:
        if not state.citations.all():
            sources, notice = await search_sources(state, question, FALLBACK_PASSAGES)
            state.citations.register(sources)
        reading = 0
        if not any(c.source.relevant for c in state.citations.all()):
            reading = await anyio.to_thread.run_sync(still_reading, state)
        text = f"{reading_notice(reading)}." if reading else present(state.citations.all(), notice, lead)
    for citation in state.citations.take_new():
        channel.metadata(citation.payload())
    text = f"\n\n---\n\n{text}" if after.strip() else text
    channel.text(text)
    return text


def present(citations: list[Citation], notice: str | None, lead: str = UNAVAILABLE) -> str:
    citations = [c for c in citations if c.source.relevant][:FALLBACK_PASSAGES]
    if not citations:
        text = f"{lead}, and nothing in your documents covers your question."
    else:
        lines = [f"[{c.n}] **{c.source.where()}**: “{_short(c.source.snippet)}”" for c in citations]
        text = f"{lead}, but these passages match your question:\n\n" + "\n\n".join(lines)
    return f"{text}\n\n_{notice}_" if notice else text


def _short(snippet: str) -> str:
    flat = _HEADING_MARKERS.sub("", " ".join(snippet.split()))
    return flat if len(flat) <= SNIPPET_CHARS else flat[:SNIPPET_CHARS].rsplit(" ", 1)[0] + "…"
