"""Audio overviews of chosen sources, like NotebookLM's: the model writes a short two-host script (every
line with the passages it cites), then the script is spoken on this machine (`overview_speech.py`) and the
app plays it with the script beside it.

The script is a study job like every other (`jobs.py`, on the shared pipeline `generation.generate_items`:
lines validated one by one, loosely filled fields repaired). A line's citations are the passages it names
among those the model was shown; invented ids are dropped and, unlike a quiz question, a line is never
grounded on a passage it did not name (a greeting cites nothing). The language of the sources picks the
voices (backend/speech/tts.py); a language without an installed voice fails the job before the model is
asked. Once the script is stored the job has succeeded and the overview is `synthesizing` until its
audio is stored.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.errors import NotFound, QuireError, found
from backend.retrieval.tokenizer import Analyzer
from backend.speech import tts
from backend.store import audio_overviews as store
from backend.store.db import Connection, Database
from backend.study import jobs
from backend.study.errors import GenerationFailed
from backend.study.generation import cited_ids, fitted_prompt, generate_items, resolve_ids
from backend.study.passages import Passage
from backend.study.repairs import Report
from backend.study.schemas import GenerateRequest, JobError, JobOut, ScopeOut, SourceOut
from backend.study.scopes import as_scope, scope_params, scope_title

MAX_PASSAGES = 12
LINES = 12
ANSWER_TOKENS_PER_LINE = 90
Speaker = Literal["A", "B"]
_analyzer = Analyzer()
_LOOSE_SPEAKER = re.compile(r"^(?:host|speaker)?[\s_-]*([ab])\W*$", re.IGNORECASE)  # "Host B", "a:", "speaker_b"


class ScriptLine(BaseModel):
    speaker: Speaker
    text: str = Field(min_length=2, max_length=500)
    source_block_ids: list[str] = cited_ids(6, 'ids of the passages this line states, e.g. ["P3"]')


class Script(BaseModel):
    lines: list[ScriptLine]


class OverviewRequest(GenerateRequest):
    pass


class OverviewLineOut(BaseModel):
    speaker: Speaker
    text: str
    sources: list[SourceOut]
    start_s: float | None  # where the line is heard in the audio, once it is made
    end_s: float | None


class OverviewSummary(BaseModel):
    id: str
    title: str
    language: str
    state: store.OverviewState
    line_count: int
    lines_done: int  # lines spoken so far
    duration_s: float | None
    scope: ScopeOut
    created_at: datetime


class OverviewOut(OverviewSummary):
    voices: dict[str, str]  # speaker → what the voice is
    lines: list[OverviewLineOut]
    error: JobError | None
    audio_url: str | None  # once ready: Ogg/Opus, range requests
    download_url: str | None


def repair_line(raw: Any, report: Report) -> Any:
    """Small models name the hosts loosely ("Host A", "b") or call the ids `citations`."""
    if not isinstance(raw, dict):
        return raw
    line = dict(raw)
    speaker = str(line.get("speaker", "")).strip()
    named = _LOOSE_SPEAKER.match(speaker)
    if named:
        if speaker != named[1].upper():
            report.repaired["speaker named loosely"] += 1
        line["speaker"] = named[1].upper()
    if "source_block_ids" not in line and isinstance(line.get("citations"), list):
        line["source_block_ids"] = line.pop("citations")
    return line


def start(study: jobs.StudyJobs, request: OverviewRequest) -> JobOut:
    if tts.missing_voices("en") and tts.missing_voices("de"):
        raise QuireError("voice_unavailable", tts.missing_voices("en") or "", 503)
    return study.submit("audio_overview", {"scope": scope_params(study.db, request.scope)}, request.client_token)


def language_of(passages: list[Passage]) -> str:
    """German when the sources read as German, else English (the voices there are)."""
    return "de" if _analyzer.language_of(" ".join(p.text for p in passages)) == "de" else "en"


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    passages = drafting.scope_passages(as_scope(params["scope"]), MAX_PASSAGES)
    language = language_of(passages)
    missing = tts.missing_voices(language)
    if missing:
        raise GenerationFailed(missing, "voice_unavailable")
    prompt, passages = fitted_prompt(drafting.llm, drafting.prompts, "audio_overview", passages,
                                     ANSWER_TOKENS_PER_LINE * LINES, count=LINES)
    report = Report()
    try:
        items = generate_items(drafting.llm, prompt, ScriptLine, Script, "lines", LINES, passages, report,
                               repair=repair_line)
    finally:
        jobs.record_report(drafting.db, job_id, report)
    lines = [{"speaker": g.item.speaker, "text": " ".join(g.item.text.split()),
              "sources": [p.source() for p in resolve_ids(g.item.source_block_ids, passages)]} for g in items]
    overview = {"id": jobs.artifact_id(job_id), "job_id": job_id, "language": language, "lines": lines,
                "title": scope_title(drafting.db, params["scope"], "Audio overview"), "scope": params["scope"],
                "voices": {speaker: voice.label for speaker, voice in tts.VOICES[language].items()}}

    def save(conn: Connection) -> str:
        store.insert(conn, overview)
        return str(overview["id"])

    return save


def _summary(row: store.OverviewRow) -> dict[str, Any]:
    done = len(row["lines"]) if row["state"] == "ready" else row["lines_done"]
    return {**row, "line_count": len(row["lines"]), "lines_done": done}


def _row(db: Database, overview_id: str) -> store.OverviewRow:
    return found(store.get(db, overview_id), "Audio overview", overview_id)


def list_overviews(db: Database) -> list[OverviewSummary]:
    return [OverviewSummary.model_validate(_summary(row)) for row in store.list_overviews(db)]


def get_overview(db: Database, overview_id: str) -> OverviewOut:
    row = _row(db, overview_id)
    error = JobError(code=row["error_code"], message=row["error_message"] or "") if row["error_code"] else None
    base = f"/api/study/overviews/{overview_id}/audio"
    ready = row["state"] == "ready"
    lines = [{"start_s": None, "end_s": None, **line} for line in row["lines"]]
    return OverviewOut.model_validate({**_summary(row), "lines": lines, "error": error,
                                       "audio_url": base if ready else None,
                                       "download_url": f"{base}?download=1" if ready else None})


def delete_overview(db: Database, cache_dir: Path, overview_id: str) -> None:
    """Delete it; one still being spoken stops after the line in progress."""
    if not store.delete(db, overview_id):
        raise NotFound("Audio overview", overview_id)
    (cache_dir / f"{overview_id}.ogg").unlink(missing_ok=True)


def audio_file(db: Database, cache_dir: Path, overview_id: str) -> tuple[str, Path]:
    """(title, the Ogg/Opus file): the audio from Postgres, kept as a file in this process's cache so it can
    be served with range requests (any Quire process on the database serves it); 409 while it is still
    being spoken or when speaking it failed."""
    row = _row(db, overview_id)
    path = cache_dir / f"{overview_id}.ogg"
    if row["state"] == "ready" and not path.is_file():
        data = store.audio(db, overview_id)
        if data is not None:
            cache_dir.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{path.name}.{os.getpid()}.part")
            partial.write_bytes(data)
            partial.replace(path)  # atomic: a reader never sees half a file
    if row["state"] != "ready" or not path.is_file():
        raise QuireError("not_ready", "This overview's audio is not made yet." if row["state"] == "synthesizing"
                         else "This overview could not be spoken; see its error.", 409)
    return row["title"], path
