"""The DBOS steps that transcribe a recording piece by piece, after the extract step planned it.

Each piece (about five minutes of audio, cut at a pause) is one step: its segments go to
`transcript_segments`, its output is two counts, so the DBOS ledger stays small and a `kill -9` costs at
most the piece in progress — a restarted server resumes at the first piece not yet recorded. Once every
piece is done, the transcript is cut into passages at pauses (formats/recording.py) and staged like any
document's chunks; the store step that follows is every document's.
"""

from __future__ import annotations

from typing import TypedDict

from dbos import DBOS

from backend.context import get_context
from backend.durable import RETRY_WHEN_DATABASE_LOST
from backend.ingest import reading, recordings, steps
from backend.ingest.chunk import iter_chunks
from backend.ingest.formats.recording import passages
from backend.ingest.sandbox import ExtractionCancelled
from backend.ingest.types import ExtractionError
from backend.store import ingest as store
from backend.store import staging
from backend.wording import plural


class PieceDone(TypedDict):
    ok: bool
    segments: int


@DBOS.step(**RETRY_WHEN_DATABASE_LOST)
def transcribe_piece_step(workflow_id: str, document_id: str, number: int,
                          recording: recordings.RecordingPlan) -> PieceDone:
    """Transcribe piece `number` of the recording into `transcript_segments` (replacing a previous try's)."""
    ctx = get_context()
    store.log_step_run(ctx.db, workflow_id, "transcribe", f"{document_id}#{number}")
    item = store.load_item(ctx.db, workflow_id, document_id)
    if item is None or not store.item_is_current(item):
        return {"ok": False, "segments": 0}
    try:
        segments = recordings.transcribe(reading.original(item), recording, number,
                                         reading.progress_writer(workflow_id, item), reading.stop_check(item))
    except (reading.ExtractionStopped, ExtractionCancelled):
        return {"ok": False, "segments": 0}
    except ExtractionError as exc:
        reading.fail_document(item, exc.message)
        return {"ok": False, "segments": 0}
    staging.stage_segments(ctx.db, workflow_id, document_id, number, segments)
    return {"ok": True, "segments": len(segments)}


@DBOS.step(**RETRY_WHEN_DATABASE_LOST)
def passages_step(workflow_id: str, document_id: str) -> steps.Extracted:
    """Cut the whole transcript into passages at pauses and stage them for the store step."""
    ctx = get_context()
    store.log_step_run(ctx.db, workflow_id, "passages", document_id)
    item = store.load_item(ctx.db, workflow_id, document_id)
    if item is None or not store.item_is_current(item):
        return {"ok": False, "reason": "superseded"}
    units = passages(staging.staged_segments(ctx.db, workflow_id, document_id), ctx.settings.chunk_size)
    chunks = iter_chunks(units, ctx.settings.chunk_size, ctx.settings.chunk_overlap)
    staged = staging.stage_chunks(ctx.db, workflow_id, document_id, chunks, batch_rows=steps.BATCH_ROWS,
                                  stopped=lambda: reading.no_longer_wanted(workflow_id, document_id))
    if staged is None:
        return {"ok": False, "reason": "cancelled"}
    if not staged:
        reading.fail_document(item, reading.nothing_found(item["kind"], None))
        return {"ok": False, "reason": "empty"}
    store.update_item(ctx.db, workflow_id, document_id, state="storing", detail=plural(staged, "passage"))
    return {"ok": True, "chunks": staged}
