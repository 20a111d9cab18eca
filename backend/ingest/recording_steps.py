"""The DBOS steps that transcribe a recording piece by piece, after the extract step planned it.

Each piece (about five minutes of audio, cut at a pause) is one step: its segments go to
`transcript_segments`, its output is two counts, so the DBOS ledger stays small and a `kill -9` costs at
most the piece in progress — a restarted server resumes at the first piece not yet recorded. Once every
piece is done, the transcript is cut into passages at pauses (formats/recording.py) and staged like any
document's chunks; the store step that follows is every document's. They are methods of `RecordingSteps`,
over the ingestion's steps (`IngestSteps`: its database, settings and reader).
"""

from __future__ import annotations

from typing import TypedDict

from dbos import DBOS

from backend.durable import RETRY_WHEN_DATABASE_LOST
from backend.ingest import recordings
from backend.ingest.chunk import iter_chunks
from backend.ingest.formats.recording import passages
from backend.ingest.reading import ExtractionStopped, nothing_found
from backend.ingest.sandbox import ExtractionCancelled
from backend.ingest.steps import BATCH_ROWS, Extracted, IngestSteps
from backend.ingest.types import ExtractionError
from backend.store import ingest as store
from backend.store import staging
from backend.wording import plural


class PieceDone(TypedDict):
    ok: bool
    segments: int


class RecordingSteps:
    def __init__(self, steps: IngestSteps) -> None:
        self.db = steps.db
        self.settings = steps.settings
        self.reader = steps.reader

    @DBOS.step(name="transcribe_piece_step", **RETRY_WHEN_DATABASE_LOST)
    def transcribe_piece_step(self, workflow_id: str, document_id: str, number: int,
                              recording: recordings.RecordingPlan) -> PieceDone:
        """Transcribe piece `number` of the recording into `transcript_segments` (replacing a previous try's)."""
        store.log_step_run(self.db, workflow_id, "transcribe", f"{document_id}#{number}")
        item = store.load_item(self.db, workflow_id, document_id)
        if item is None or not store.item_is_current(item):
            return {"ok": False, "segments": 0}
        try:
            segments = recordings.transcribe(self.reader.original(item), recording, number,
                                             self.reader.progress_writer(workflow_id, item),
                                             self.reader.stop_check(item))
        except (ExtractionStopped, ExtractionCancelled):
            return {"ok": False, "segments": 0}
        except ExtractionError as exc:
            self.reader.fail_document(item, exc.message)
            return {"ok": False, "segments": 0}
        staging.stage_segments(self.db, workflow_id, document_id, number, segments)
        return {"ok": True, "segments": len(segments)}

    @DBOS.step(name="passages_step", **RETRY_WHEN_DATABASE_LOST)
    def passages_step(self, workflow_id: str, document_id: str) -> Extracted:
        """Cut the whole transcript into passages at pauses and stage them for the store step."""
        store.log_step_run(self.db, workflow_id, "passages", document_id)
        item = store.load_item(self.db, workflow_id, document_id)
        if item is None or not store.item_is_current(item):
            return {"ok": False, "reason": "superseded"}
        size = self.settings.tuning.chunk_size
        units = passages(staging.staged_segments(self.db, workflow_id, document_id), size)
        chunks = iter_chunks(units, size, self.settings.tuning.chunk_overlap)
        staged = staging.stage_chunks(self.db, workflow_id, document_id, chunks, batch_rows=BATCH_ROWS,
                                      stopped=lambda: self.reader.no_longer_wanted(workflow_id, document_id))
        if staged is None:
            return {"ok": False, "reason": "cancelled"}
        if not staged:
            self.reader.fail_document(item, nothing_found(item["kind"], None))
            return {"ok": False, "reason": "empty"}
        store.update_item(self.db, workflow_id, document_id, state="storing", detail=plural(staged, "passage"))
        return {"ok": True, "chunks": staged}
