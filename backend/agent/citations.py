"""Citations: the passages tools returned during one chat request, numbered [1], [2], ... in order of
first appearance and de-duplicated by block id, so a number means the same passage for the whole answer.

Tools only describe what they found (`Source`); the agent loop registers sources here after each tool
call and learns which citations are new, to emit them before the next text of the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from backend.places import describe
from backend.retrieval.types import Hit, Location
from backend.store.kinds import place_of


class PassageRef(BaseModel):
    """A passage as a client is pointed at it: which block of which document, where, and a snippet. The
    base of every passage a client meets (a chat citation and a tool's source here, the MCP tools' passages
    and citations)."""

    block_id: str
    document_id: str
    filename: str
    page: int | None
    section: str | None
    snippet: str


class Source(PassageRef):
    """A passage of a document that a tool handed to the model: the passage a client is pointed at, with
    what the model and the citation add (frozen: a registered source is never changed)."""

    model_config = ConfigDict(frozen=True)

    score: float
    text: str
    # Relevant enough to answer from (backend/retrieval/relevance.py); False: only the closest match.
    relevant: bool = True
    page_label: str | None = None  # the printed label of `page`, where the PDF numbers pages its own way
    kind: str | None = None  # the document's format: pdf | docx | pptx | xlsx | audio | ... (the web app's `kind`)
    # Other places of the document holding the same text: a passage it repeats is one source, not several.
    also_at: tuple[Location, ...] = ()

    @classmethod
    def from_hit(cls, hit: Hit) -> Source:
        return cls(block_id=hit.block_id, document_id=hit.document_id, filename=hit.filename, page=hit.page,
                   section=hit.section, snippet=hit.snippet, score=round(hit.score, 6), text=hit.text,
                   relevant=hit.relevant, page_label=hit.page_label, kind=hit.document_kind, also_at=hit.also_at)

    def where(self) -> str:
        """`notes.pdf, page 7 (printed iv), "Intro > Setup"`, `deck.pptx, slide 3`, `data.xlsx, sheet "Q1"`,
        `lecture.m4a, at 12:34` — how a passage is introduced to the model and the user."""
        return ", ".join([self.filename, *describe(place_of(self.kind), self.page, self.page_label, self.section)])


class ChatCitation(PassageRef):
    """One source of an answer, as the client sees it: the chat stream's `metadata` line (DESIGN §5, plus
    the whole passage in `text`) and each of a stored answer's `citations`. The one declaration of a
    citation: the OpenAPI document lists it, and the web app's type is generated from it. The fields
    after `score` came later: an answer stored before them lacks them."""

    n: int
    score: float
    text: str = ""  # the whole passage the UI can show
    relevant: bool = True  # relevant enough to answer from; false: only the closest match
    page_label: str | None = None  # the printed page label of a PDF page ("iv"), when the document has one
    kind: str | None = None  # the cited document's format (pdf, pptx, xlsx, ...)
    also_at: list[Location] = Field(default_factory=list)  # other places of the document holding the same text


@dataclass(frozen=True)
class Citation:
    n: int
    source: Source

    def payload(self) -> dict[str, Any]:
        """The citation as the stream sends it and the answer stores it (`ChatCitation`, as JSON)."""
        return ChatCitation(n=self.n, **dict(self.source)).model_dump(mode="json")


class CitationAccumulator:
    """Numbers sources for one request. Used from the request's own task only (tools hand back sources)."""

    def __init__(self) -> None:
        self._by_block: dict[str, Citation] = {}
        self._order: list[Citation] = []
        self._announced = 0

    def register(self, sources: list[Source]) -> list[int]:
        """The citation number of each source, adding the ones not seen before."""
        numbers = []
        for source in sources:
            citation = self._by_block.get(source.block_id)
            if citation is None:
                citation = Citation(len(self._order) + 1, source)
                self._by_block[source.block_id] = citation
                self._order.append(citation)
            numbers.append(citation.n)
        return numbers

    def take_new(self) -> list[Citation]:
        """Citations registered since the last call (each is announced exactly once)."""
        new = self._order[self._announced :]
        self._announced = len(self._order)
        return new

    def all(self) -> list[Citation]:
        return list(self._order)
