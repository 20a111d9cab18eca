"""Keeps the process's `HybridIndex` in step with Postgres and answers searches.

At startup the index is built from every live block. Afterwards every change to live blocks or
document metadata is recorded in `index_changes`; the process that made the change refreshes the
affected documents at once, and a poller picks up changes made by other processes. A refresh reloads
whole documents and swaps them into the index atomically. Only vectors of the configured embedding
model are loaded, so vector spaces never mix while a re-embed is under way.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from backend.llm.embedders import Embedder
from backend.llm.errors import ModelError, ModelUnavailable
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.types import Hit, IndexedBlock, Scope, SearchMode
from backend.store import blocks as store
from backend.store.db import Database

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchResult:
    hits: list[Hit]
    mode: SearchMode
    notice: str | None = None


def _indexed(row: dict[str, Any]) -> IndexedBlock:
    vector = row["embedding"]
    return IndexedBlock(
        id=row["id"], document_id=row["document_id"], filename=row["filename"], category=row["category"],
        ordinal=row["ordinal"], page=row["page"], section=row["section"], kind=row["kind"], text=row["text"],
        embedding=np.asarray(vector.to_numpy(), dtype=np.float32) if vector is not None else None,
    )


class SearchService:
    def __init__(self, db: Database, embedder: Embedder, poll_s: float) -> None:
        self.db = db
        self.embedder = embedder
        self.index = HybridIndex()
        self.poll_s = poll_s
        self.state = "empty"
        self.built_in_s: float | None = None
        self._seq = 0
        self._dirty: set[str] = set()
        self._refresh_lock = threading.Lock()
        self._stop = threading.Event()
        self._poller: threading.Thread | None = None

    def build(self) -> None:
        started = time.perf_counter()
        self.state = "building"
        self._seq = store.latest_change(self.db)
        by_document: dict[str, list[IndexedBlock]] = {}
        for rows in store.iter_live_blocks(self.db, self.embedder.model):
            for row in rows:
                by_document.setdefault(row["document_id"], []).append(_indexed(row))
        self.index.replace_documents(by_document)
        self.built_in_s = round(time.perf_counter() - started, 3)
        self.state = "ready"
        log.info("index built: %d documents in %.2fs", len(by_document), self.built_in_s)

    def refresh(self, document_ids: Iterable[str]) -> None:
        """Reload these documents' live blocks and swap them in (an empty list removes a document)."""
        ids = sorted(set(document_ids))
        if not ids:
            return
        with self._refresh_lock:
            rows = store.live_blocks_of(self.db, ids, self.embedder.model)
            changes: dict[str, list[IndexedBlock]] = {doc: [] for doc in ids}
            for row in rows:
                changes[row["document_id"]].append(_indexed(row))
            self.index.replace_documents(changes)

    def notify(self, document_ids: Iterable[str]) -> None:
        """Apply a change this process just committed; if that fails the poller retries it."""
        ids = list(document_ids)
        try:
            self.refresh(ids)
        except Exception:
            log.exception("immediate index refresh failed; the poller will retry")
            self._dirty.update(ids)

    def attach_vectors(self, block_ids: Sequence[str], vectors: np.ndarray, document_ids: Iterable[str]) -> None:
        """New vectors for blocks already indexed: attach them without reloading their documents."""
        try:
            self.index.set_embeddings([str(b) for b in block_ids], vectors)
        except Exception:
            log.exception("attaching vectors failed; the poller will reload the documents")
            self._dirty.update(document_ids)

    def poll_once(self) -> int:
        """Apply changes made by other processes (and retry own changes that failed to apply)."""
        changes = store.changes_since(self.db, self._seq)
        foreign = {row["document_id"] for row in changes if row["origin"] != self.db.origin}
        retry, self._dirty = self._dirty, set()
        try:
            self.refresh(foreign | retry)
        except Exception:
            self._dirty |= retry
            raise
        if changes:
            self._seq = changes[-1]["seq"]
        return len(changes)

    def start(self) -> None:
        self._stop.clear()
        self._poller = threading.Thread(target=self._poll_loop, name="index-poller", daemon=True)
        self._poller.start()

    def stop(self) -> None:
        self._stop.set()
        if self._poller is not None:
            self._poller.join(timeout=5)

    def _poll_loop(self) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                self.poll_once()
            except Exception:
                log.exception("index poll failed; retrying")  # a transient database error must not stop it

    def search(self, query: str, k: int, scope: Scope | None = None, mode: SearchMode = "hybrid") -> SearchResult:
        vector, notice = None, None
        if mode != "sparse":
            try:
                vector = self.embedder.embed([query])[0]
            except (ModelUnavailable, ModelError) as exc:
                notice = f"Keyword search only: the embedding model is unavailable ({exc})."
                if mode == "dense":
                    return SearchResult([], mode, notice)
        hits = self.index.search(query, k, scope=scope, mode=mode, query_vector=vector)
        return SearchResult(hits, mode, notice)

    def known_documents(self, document_ids: Sequence[str]) -> set[str]:
        return set(document_ids) & set(self.index.document_ids())

    def stats(self) -> dict[str, Any]:
        return {"state": self.state, "built_in_s": self.built_in_s, "embed_model": self.embedder.model,
                **self.index.stats()}
