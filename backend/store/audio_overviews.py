"""SQL for audio overviews: the script with its citations, the audio of each line as it is made (clips),
and the joined audio with each line's times once every line is spoken."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.errors import ErrorCode
from backend.store.db import Connection, Database, fetch_row, fetch_rows

OverviewState = Literal["synthesizing", "ready", "failed"]
_OVERVIEW = ("SELECT o.id::text AS id, o.title, o.scope, o.language, o.voices, o.lines, o.state, o.error_code,"
             " o.error_message, o.audio_mime, o.duration_s, o.created_at, o.finished_at,"
             " (SELECT count(*) FROM audio_overview_clips c WHERE c.overview_id = o.id)::int AS lines_done"
             " FROM audio_overviews o")


class OverviewRow(TypedDict):
    id: str
    title: str
    scope: dict[str, Any]
    language: str
    voices: dict[str, str]
    lines: list[dict[str, Any]]  # {speaker, text, sources, start_s?, end_s?}
    state: OverviewState
    error_code: str | None
    error_message: str | None
    audio_mime: str | None
    duration_s: float | None
    created_at: datetime
    finished_at: datetime | None
    lines_done: int


class ClipRow(TypedDict):
    n: int
    pcm: bytes
    rate: int


def insert(conn: Connection, overview: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO audio_overviews (id, job_id, title, scope, language, voices, lines) VALUES (%(id)s,"
        " %(job_id)s, %(title)s, %(scope)s, %(language)s, %(voices)s, %(lines)s) ON CONFLICT (id) DO NOTHING",
        {**overview, "scope": Jsonb(overview["scope"]), "voices": Jsonb(overview["voices"]),
         "lines": Jsonb(overview["lines"])},
    )


def list_overviews(db: Database) -> list[OverviewRow]:
    return fetch_rows(db, OverviewRow, f"{_OVERVIEW} ORDER BY o.created_at DESC")


def get(db: Database, overview_id: str) -> OverviewRow | None:
    return fetch_row(db, OverviewRow, f"{_OVERVIEW} WHERE o.id = %s", (overview_id,))


def audio(db: Database, overview_id: str) -> bytes | None:
    with db.connection() as conn:
        row = conn.execute("SELECT audio FROM audio_overviews WHERE id = %s AND state = 'ready'",
                           (overview_id,)).fetchone()
        return bytes(row["audio"]) if row else None


def delete(db: Database, overview_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM audio_overviews WHERE id = %s", (overview_id,)).rowcount > 0


def clip_exists(db: Database, overview_id: str, n: int) -> bool:
    with db.connection() as conn:
        return conn.execute("SELECT 1 FROM audio_overview_clips WHERE overview_id = %s AND n = %s",
                            (overview_id, n)).fetchone() is not None


def add_clip(db: Database, overview_id: str, n: int, pcm: bytes, rate: int) -> None:
    """Keep one line's audio; a replayed step's second copy is ignored, as is a deleted overview's. Every
    call is counted (`syntheses`), so that speaking a finished line again would show."""
    with db.transaction() as conn:
        conn.execute("UPDATE audio_overviews SET syntheses = syntheses + 1 WHERE id = %s", (overview_id,))
        conn.execute(
            "INSERT INTO audio_overview_clips (overview_id, n, pcm, rate) SELECT id, %s, %s, %s FROM audio_overviews"
            " WHERE id = %s AND state = 'synthesizing' ON CONFLICT DO NOTHING",
            (n, pcm, rate, overview_id),
        )


def clips(db: Database, overview_id: str) -> list[ClipRow]:
    with db.connection() as conn:
        rows = conn.execute("SELECT n, pcm, rate FROM audio_overview_clips WHERE overview_id = %s ORDER BY n",
                            (overview_id,)).fetchall()
        return [{"n": row["n"], "pcm": bytes(row["pcm"]), "rate": row["rate"]} for row in rows]


def finish(db: Database, overview_id: str, lines: list[dict[str, Any]], audio_bytes: bytes, mime: str,
           duration_s: float) -> None:
    """Store the joined audio and the lines' times, and drop the clips, in one transaction."""
    with db.transaction() as conn:
        conn.execute(
            "UPDATE audio_overviews SET state = 'ready', lines = %s, audio = %s, audio_mime = %s, duration_s = %s,"
            " finished_at = now() WHERE id = %s AND state = 'synthesizing'",
            (Jsonb(lines), audio_bytes, mime, duration_s, overview_id),
        )
        conn.execute("DELETE FROM audio_overview_clips WHERE overview_id = %s", (overview_id,))


def fail(db: Database, overview_id: str, code: ErrorCode, message: str) -> None:
    with db.transaction() as conn:
        conn.execute(
            "UPDATE audio_overviews SET state = 'failed', error_code = %s, error_message = %s, finished_at = now()"
            " WHERE id = %s AND state = 'synthesizing'",
            (code, message, overview_id),
        )
        conn.execute("DELETE FROM audio_overview_clips WHERE overview_id = %s", (overview_id,))
