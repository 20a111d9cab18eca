"""The vault's documents as the user sees them: list, inspect, recategorise, delete, open the original."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

from backend.context import AppContext
from backend.errors import NotFound, QuireError
from backend.store import documents as store


def _with_fraction(row: dict[str, Any]) -> dict[str, Any]:
    blocks = row["blocks"]
    return {**row, "embedded_fraction": round(row["embedded"] / blocks, 4) if blocks else 0.0}


def list_documents(ctx: AppContext, status: str | None, category: str | None) -> list[dict[str, Any]]:
    rows = store.list_documents(ctx.db, ctx.embedder.model, status=status, category=category)
    return [_with_fraction(row) for row in rows]


def get_document(ctx: AppContext, document_id: UUID) -> dict[str, Any]:
    row = store.get_document(ctx.db, document_id, ctx.embedder.model)
    if row is None:
        raise NotFound("Document", str(document_id))
    return _with_fraction(row)


def set_category(ctx: AppContext, document_id: UUID, category: str | None) -> dict[str, Any]:
    if not store.set_category(ctx.db, document_id, category):
        raise NotFound("Document", str(document_id))
    ctx.search.notify([str(document_id)])
    return get_document(ctx, document_id)


def delete_document(ctx: AppContext, document_id: UUID) -> None:
    stored_path = store.mark_deleted(ctx.db, document_id)
    if stored_path is None:
        raise NotFound("Document", str(document_id))
    ctx.search.notify([str(document_id)])
    if stored_path:
        _remove_within(Path(stored_path), ctx.settings.docs_dir)


def _remove_within(path: Path, root: Path) -> None:
    resolved = path.resolve()
    if resolved.is_relative_to(root.resolve()):
        resolved.unlink(missing_ok=True)


@dataclass(frozen=True)
class OriginalFile:
    path: Path
    filename: str
    mime: str
    inline: bool


def original_file(ctx: AppContext, document_id: UUID) -> OriginalFile:
    row = get_document(ctx, document_id)
    if not row["stored_path"]:
        raise QuireError("not_ready", "This document's file is not stored yet; try again when it is ready.", 409)
    path = Path(row["stored_path"]).resolve()
    if not path.is_relative_to(ctx.settings.docs_dir.resolve()) or not path.is_file():
        raise QuireError("file_missing", "The original file is missing from the vault folder.", 404)
    # PDFs open in the browser's own viewer (citations link to #page=N); everything else, HTML above all,
    # is a download so that uploaded markup never runs in Quire's origin.
    inline = row["kind"] == "pdf"
    mime = "application/pdf" if inline else (row["mime"] or "application/octet-stream")
    if row["kind"] == "html":
        mime = "text/plain; charset=utf-8"
    return OriginalFile(path, row["filename"], mime, inline)


def list_categories(ctx: AppContext) -> list[dict[str, Any]]:
    return store.list_categories(ctx.db)
