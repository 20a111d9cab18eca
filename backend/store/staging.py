"""SQL for the chunks an extract step stages for its store step (`ingest_chunks`), and for the segments a
recording's piece steps transcribe (`transcript_segments`): they wait there, not in the DBOS ledger, so no
document text passes through a step's output."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from backend.store.db import Database


class Chunk(Protocol):
    """A chunk as the store sees it (`backend.ingest.types.Chunk`; the store does not import ingest)."""

    @property
    def ordinal(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def page(self) -> int | None: ...
    @property
    def section(self) -> str | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def page_label(self) -> str | None: ...


@dataclass(frozen=True)
class StagedText:
    ordinal: int
    text: str


def stage_chunks(db: Database, workflow_id: str, document_id: str, chunks: Iterable[Chunk], *, batch_rows: int,
                 stopped: Callable[[], bool]) -> int | None:
    """Stage the chunks, `batch_rows` per transaction (a long document never sits in memory or in one
    transaction whole); None, with nothing left staged, once `stopped()` turns true between batches.
    Replaces whatever an earlier execution of the step staged."""
    with db.transaction() as conn:
        conn.execute("DELETE FROM ingest_chunks WHERE workflow_id = %s AND document_id = %s",
                     (workflow_id, document_id))
    staged = 0
    rows = iter(chunks)
    while batch := list(itertools.islice(rows, batch_rows)):
        if stopped():
            with db.transaction() as conn:
                conn.execute("DELETE FROM ingest_chunks WHERE workflow_id = %s AND document_id = %s",
                             (workflow_id, document_id))
            return None
        with db.transaction() as conn, conn.cursor().copy(
            "COPY ingest_chunks (workflow_id, document_id, ordinal, text, page, section, kind, page_label) FROM STDIN"
        ) as copy:
            for c in batch:
                copy.write_row((workflow_id, document_id, c.ordinal, c.text, c.page, c.section, c.kind, c.page_label))
        staged += len(batch)
    return staged


def staged_batches(db: Database, workflow_id: str, document_id: str, batch_rows: int) -> Iterator[list[StagedText]]:
    """The staged chunks' texts in ordinal order, `batch_rows` at a time (keyset pages: each a short query)."""
    after = -1
    while True:
        with db.connection() as conn:
            rows = conn.execute(
                "SELECT ordinal, text FROM ingest_chunks WHERE workflow_id = %s AND document_id = %s AND ordinal > %s"
                " ORDER BY ordinal LIMIT %s",
                (workflow_id, document_id, after, batch_rows),
            ).fetchall()
        if not rows:
            return
        yield [StagedText(row["ordinal"], row["text"]) for row in rows]
        after = rows[-1]["ordinal"]


def drop_staging(db: Database, workflow_id: str) -> None:
    with db.connection() as conn:
        conn.execute("DELETE FROM ingest_chunks WHERE workflow_id = %s", (workflow_id,))
        conn.execute("DELETE FROM transcript_segments WHERE workflow_id = %s", (workflow_id,))


class Segment(Protocol):
    """A timed piece of a transcript (`backend.speech.whisper.Segment`)."""

    @property
    def start_s(self) -> float: ...
    @property
    def end_s(self) -> float: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class StagedSegment:
    start_s: float
    end_s: float
    text: str


def stage_segments(db: Database, workflow_id: str, document_id: str, piece: int, segments: Sequence[Segment]) -> None:
    """A transcribed piece's segments, replacing whatever an earlier try of the same piece left."""
    with db.transaction() as conn:
        conn.execute("DELETE FROM transcript_segments WHERE workflow_id = %s AND document_id = %s AND piece = %s",
                     (workflow_id, document_id, piece))
        with conn.cursor().copy("COPY transcript_segments (workflow_id, document_id, piece, seq, start_s, end_s, text)"
                                " FROM STDIN") as copy:
            for seq, s in enumerate(segments):
                copy.write_row((workflow_id, document_id, piece, seq, s.start_s, s.end_s, s.text))


def staged_segments(db: Database, workflow_id: str, document_id: str) -> list[StagedSegment]:
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT start_s, end_s, text FROM transcript_segments WHERE workflow_id = %s AND document_id = %s"
            " ORDER BY piece, seq", (workflow_id, document_id)).fetchall()
    return [StagedSegment(row["start_s"], row["end_s"], row["text"]) for row in rows]
