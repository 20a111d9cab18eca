"""Study guides from chosen sources, like NotebookLM's: a briefing (key points under a few headings), an
FAQ, a glossary, or a timeline. A durable job like every study item (`jobs.py`), on the shared pipeline
(`generation.generate_items`): every entry is validated on its own and grounded on the passages it names,
so each statement carries citations that open the passage. Export: Markdown with numbered citations and
the sources listed (the web app makes the PDF).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from backend.errors import NotFound, found
from backend.store import guides as store
from backend.store.db import Connection, Database
from backend.store.guides import GuideType
from backend.study import jobs
from backend.study.generation import cited_ids, fitted_prompt, generate_items
from backend.study.repairs import Report
from backend.study.schemas import GenerateRequest, JobOut, ScopeOut, SourceOut
from backend.study.scopes import as_scope, scope_params, scope_title

MAX_PASSAGES = 16
ANSWER_TOKENS_PER_ENTRY = 120  # room kept for the answer: an FAQ answer or glossary definition of a few lines
class _Entry(BaseModel):
    """An entry as the model writes it; each kind names its heading and text fields."""

    source_block_ids: list[str] = cited_ids(8)

    def heading(self) -> str:
        raise NotImplementedError  # every kind below defines it

    def text(self) -> str:
        raise NotImplementedError  # every kind below defines it


class BriefingPoint(_Entry):
    section: str = Field(min_length=2, max_length=120)
    point: str = Field(min_length=10, max_length=800)

    def heading(self) -> str:
        return self.section.strip()

    def text(self) -> str:
        return self.point.strip()


class FaqEntry(_Entry):
    question: str = Field(min_length=5, max_length=300)
    answer: str = Field(min_length=5, max_length=1200)

    def heading(self) -> str:
        return self.question.strip()

    def text(self) -> str:
        return self.answer.strip()


class GlossaryEntry(_Entry):
    term: str = Field(min_length=1, max_length=120)
    definition: str = Field(min_length=5, max_length=800)

    def heading(self) -> str:
        return self.term.strip()

    def text(self) -> str:
        return self.definition.strip()


class TimelineEntry(_Entry):
    when: str = Field(min_length=1, max_length=80)
    event: str = Field(min_length=5, max_length=800)

    def heading(self) -> str:
        return self.when.strip()

    def text(self) -> str:
        return self.event.strip()


class BriefingBatch(BaseModel):
    entries: list[BriefingPoint]


class FaqBatch(BaseModel):
    entries: list[FaqEntry]


class GlossaryBatch(BaseModel):
    entries: list[GlossaryEntry]


class TimelineBatch(BaseModel):
    entries: list[TimelineEntry]


@dataclass(frozen=True)
class _Kind:
    """How one type of guide is asked for and what its entries look like."""

    model: type[_Entry]
    batch: type[BaseModel]
    count: int
    noun: str
    task: str
    shape: str


KINDS: dict[str, _Kind] = {
    "briefing": _Kind(model=BriefingPoint, batch=BriefingBatch, count=12, noun="Briefing", task=(
        "write a briefing document: the 10 to 12 most important points, grouped under 3 to 5 short section "
        "headings (`section`, the same words for points of the same section), each `point` one or two "
        "sentences, sections in a sensible reading order."),
        shape='{"entries": [{"section": "...", "point": "...", "source_block_ids": ["P1"]}]}'),
    "faq": _Kind(model=FaqEntry, batch=FaqBatch, count=10, noun="FAQ", task=(
        "write the 8 to 10 questions a student is most likely to ask about this material (`question`), each "
        "with a complete, short answer (`answer`, one to three sentences)."),
        shape='{"entries": [{"question": "...", "answer": "...", "source_block_ids": ["P1"]}]}'),
    "glossary": _Kind(model=GlossaryEntry, batch=GlossaryBatch, count=15, noun="Glossary", task=(
        "write a glossary of the 10 to 15 key terms of the material (`term`), each with a one- or "
        "two-sentence definition as the material uses it (`definition`), in alphabetical order."),
        shape='{"entries": [{"term": "...", "definition": "...", "source_block_ids": ["P1"]}]}'),
    "timeline": _Kind(model=TimelineEntry, batch=TimelineBatch, count=12, noun="Timeline", task=(
        "write a timeline of the dated events or the ordered steps the material describes (`when`: a date, "
        "a period or a step number; `event`: what happened or happens then), in chronological order. If the "
        "material has no dates, order the stages of the process it describes."),
        shape='{"entries": [{"when": "...", "event": "...", "source_block_ids": ["P1"]}]}'),
}


class GuideRequest(GenerateRequest):
    guide_type: GuideType = "briefing"


class GuideEntryOut(BaseModel):
    heading: str  # briefing: its section; FAQ: the question; glossary: the term; timeline: when
    text: str
    sources: list[SourceOut]


class GuideSummary(BaseModel):
    id: str
    title: str
    guide_type: GuideType
    entry_count: int
    scope: ScopeOut
    created_at: datetime


class GuideOut(GuideSummary):
    entries: list[GuideEntryOut]


def start(study: jobs.StudyJobs, request: GuideRequest) -> JobOut:
    params = {"scope": scope_params(study.db, request.scope), "guide_type": request.guide_type}
    return study.submit("guide", params, request.client_token)


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    kind = KINDS[params["guide_type"]]
    passages = drafting.scope_passages(as_scope(params["scope"]), MAX_PASSAGES)
    prompt, passages = fitted_prompt(drafting.llm, drafting.prompts, "study_guide", passages,
                                     ANSWER_TOKENS_PER_ENTRY * kind.count, task=kind.task, shape=kind.shape)
    report = Report()
    try:
        items = generate_items(drafting.llm, prompt, kind.model, kind.batch, "entries", kind.count, passages, report)
    finally:
        jobs.record_report(drafting.db, job_id, report)
    if params["guide_type"] == "briefing":  # points of one section together, sections in first-seen order
        order = list(dict.fromkeys(g.item.heading().casefold() for g in items))
        items = sorted(items, key=lambda g: order.index(g.item.heading().casefold()))
    entries = [{"heading": g.item.heading(), "text": g.item.text(), "sources": g.sources} for g in items]
    guide = {"id": jobs.artifact_id(job_id), "title": scope_title(drafting.db, params["scope"], kind.noun),
             "guide_type": params["guide_type"], "entries": entries, "scope": params["scope"], "job_id": job_id}

    def save(conn: Connection) -> str:
        store.insert(conn, guide)
        return str(guide["id"])

    return save


def _row(db: Database, guide_id: str) -> store.GuideRow:
    return found(store.get(db, guide_id), "Study guide", guide_id)


def list_guides(db: Database) -> list[GuideSummary]:
    return [GuideSummary.model_validate(row) for row in store.list_guides(db)]


def get_guide(db: Database, guide_id: str) -> GuideOut:
    return GuideOut.model_validate(_row(db, guide_id))


def delete_guide(db: Database, guide_id: str) -> None:
    if not store.delete(db, guide_id):
        raise NotFound("Study guide", guide_id)


def markdown(db: Database, guide_id: str) -> tuple[str, str]:
    """(title, Markdown): every statement followed by its citation numbers, the sources listed at the end."""
    row = _row(db, guide_id)
    numbers: dict[str, int] = {}
    sources: list[dict[str, Any]] = []

    def cite(entry: dict[str, Any]) -> str:
        marks = []
        for source in entry["sources"]:
            if source["block_id"] not in numbers:
                numbers[source["block_id"]] = len(numbers) + 1
                sources.append(source)
            marks.append(f"[{numbers[source['block_id']]}]")
        return " " + "".join(marks) if marks else ""

    lines = [f"# {row['title']}", ""]
    section = None
    for entry in row["entries"]:
        if row["guide_type"] == "briefing":
            if entry["heading"] != section:
                section = entry["heading"]
                lines += [f"## {section}", ""]
            lines.append(f"- {entry['text']}{cite(entry)}")
        elif row["guide_type"] == "faq":
            lines += [f"### {entry['heading']}", "", f"{entry['text']}{cite(entry)}", ""]
        else:
            lines.append(f"- **{entry['heading']}** — {entry['text']}{cite(entry)}")
    lines += ["", "## Sources", ""]
    lines += [f"{n}. {s['filename']}" + (f", p. {s['page']}" if s.get("page") else "")
              for n, s in enumerate(sources, start=1)]
    return row["title"], "\n".join(lines).rstrip() + "\n"

