"""SQL for mind maps: the generated tree, the saved layout and node positions, and recorded exports."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from typing_extensions import TypedDict

from backend.store.db import Connection, Database, fetch_row, fetch_rows, one

_MINDMAP = """
    SELECT m.id::text AS id, m.title, m.depth, m.tree, m.layout, m.positions, m.scope, m.created_at, m.updated_at,
           (SELECT count(*) FROM mindmap_exports e WHERE e.mindmap_id = m.id) AS exports
    FROM mindmaps m
"""


class MindmapRow(TypedDict):
    """A mind map with its saved layout and export count, as `_MINDMAP` reads it."""

    id: str
    title: str
    depth: int
    tree: dict[str, Any]
    layout: Literal["LR", "TB"]
    positions: dict[str, Any]
    scope: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    exports: int


def insert_mindmap(conn: Connection, mindmap: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO mindmaps (id, title, depth, tree, scope, job_id) VALUES (%s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (id) DO NOTHING",
        (mindmap["id"], mindmap["title"], mindmap["depth"], Jsonb(mindmap["tree"]), Jsonb(mindmap["scope"]),
         mindmap["job_id"]),
    )


def list_mindmaps(db: Database) -> list[MindmapRow]:
    return fetch_rows(db, MindmapRow, f"{_MINDMAP} ORDER BY m.created_at DESC")


def get_mindmap(db: Database, mindmap_id: str) -> MindmapRow | None:
    return fetch_row(db, MindmapRow, f"{_MINDMAP} WHERE m.id = %s", (mindmap_id,))


def delete_mindmap(db: Database, mindmap_id: str) -> bool:
    with db.connection() as conn:
        return conn.execute("DELETE FROM mindmaps WHERE id = %s", (mindmap_id,)).rowcount > 0


def set_layout(db: Database, mindmap_id: str, layout: str, positions: dict[str, Any]) -> bool:
    with db.connection() as conn:
        return conn.execute(
            "UPDATE mindmaps SET layout = %s, positions = %s, updated_at = now() WHERE id = %s",
            (layout, Jsonb(positions), mindmap_id),
        ).rowcount > 0


def add_export(db: Database, mindmap_id: str, fmt: str) -> dict[str, Any]:
    with db.connection() as conn:
        return one(conn.execute(
            "INSERT INTO mindmap_exports (mindmap_id, format) VALUES (%s, %s) RETURNING created_at",
            (mindmap_id, fmt),
        ))
