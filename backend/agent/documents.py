"""The scoped view of the vault that chat tools work on: which documents the request may see, finding
one by the name the model used, and a bounded sample of a document's text for a direct model call."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from backend.agent.citations import Source
from backend.agent.context import RequestState
from backend.agent.registry import ToolFailure
from backend.store import blocks as block_store
from backend.store import documents as document_store
from backend.store.documents import DocumentRow

SNIPPET_CHARS = 240


@dataclass(frozen=True)
class Material:
    """Text of one document for the model: the whole text, or blocks spread evenly across it."""

    filename: str
    text: str
    note: str
    source: Source


def scoped_documents(state: RequestState) -> list[DocumentRow]:
    """Every live document the request's scope admits, newest first."""
    rows = document_store.list_documents(state.services.db, state.services.embed_model)
    return [row for row in rows if state.scope.admits(row["id"], row["category"])]


def resolve_document(state: RequestState, name: str) -> DocumentRow:
    """The scoped document called `name`: its id, its file name, or failing that a unique partial match."""
    wanted = name.strip().strip("\"'").lower()
    if not wanted:
        raise ToolFailure("no document named; call list_documents to see the available file names")
    documents = scoped_documents(state)
    for matches in (
        [d for d in documents if d["id"] == wanted or d["filename"].lower() == wanted],
        [d for d in documents if d["filename"].rsplit(".", 1)[0].lower() == wanted],
        [d for d in documents if wanted in d["filename"].lower()],
    ):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            names = ", ".join(d["filename"] for d in matches[:8])
            raise ToolFailure(f"{name!r} matches several documents ({names}); use the exact file name")
    where = "in the current scope" if not state.scope.is_empty else "in the vault"
    raise ToolFailure(f"there is no document {name!r} {where}; call list_documents to see the file names")


def document_material(state: RequestState, document: DocumentRow, max_chars: int) -> Material:
    """The document's text with page markers, bounded to `max_chars` by sampling blocks evenly."""
    blocks = block_store.live_blocks_of(state.services.db, [document["id"]], state.services.embed_model)
    if not blocks:
        raise ToolFailure(f"{document['filename']} has no readable text yet (status: {document['status']})")
    total = sum(len(block["text"]) for block in blocks)
    stride = max(1, math.ceil(total / max_chars))
    chosen: list[dict[str, Any]] = []
    used = 0
    for block in blocks[::stride]:
        if used + len(block["text"]) > max_chars and chosen:
            break
        chosen.append(block)
        used += len(block["text"])
    note = "" if len(chosen) == len(blocks) else (
        f"The document is long: these are {len(chosen)} of its {len(blocks)} passages, spread evenly over it."
    )
    first = blocks[0]
    source = Source(block_id=first["id"], document_id=document["id"], filename=document["filename"],
                    page=first["page"], section=first["section"], snippet=first["text"][:SNIPPET_CHARS],
                    score=0.0, text=first["text"], page_label=first["page_label"],
                    kind=first["document_kind"])
    return Material(document["filename"], "\n\n".join(_with_page(block) for block in chosen), note, source)


def _with_page(block: dict[str, Any]) -> str:
    return f"[page {block['page']}] {block['text']}" if block["page"] is not None else block["text"]
