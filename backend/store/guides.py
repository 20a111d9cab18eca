"""SQL for study guides (briefing, FAQ, glossary, timeline): each entry keeps the passages it cites."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Connection, Database, fetch_row, fetch_rows

GuideType = Literal["briefing", "faq", "glossary", "timeline"]
_GUIDE = ("SELECT id::text AS id, title, guide_type, entries, scope, created_at,"
          " jsonb_array_length(entries) AS entry_count FROM study_guides")


class GuideRow(TypedDict):
    id: str
    title: str
    guide_type: GuideType
    entries: list[dict[str, Any]]  # {heading, text, sources}
    scope: dict[str, Any]
    created_at: datetime
    entry_count: int


def insert(conn: Connection, guide: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO study_guides (id, title, guide_type, entries, scope, job_id) VALUES (%(id)s, %(title)s,"
        " %(guide_type)s, %(entries)s, %(scope)s, %(job_id)s) ON CONFLICT (id) DO NOTHING",
        {**guide, "entries": Jsonb(guide["entries"]), "scope": Jsonb(guide["scope"])},
    )


def list_guides(db: Database) -> list[GuideRow]:
    return fetch_rows(db, GuideRow, f"{_GUIDE} ORDER BY created_at DESC")


def get(db: Database, guide_id: str) -> GuideRow | None:
    return fetch_row(db, GuideRow, f"{_GUIDE} WHERE id = %s", (guide_id,))


def delete(db: Database, guide_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM study_guides WHERE id = %s", (guide_id,)).rowcount > 0
