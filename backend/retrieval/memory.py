"""The in-memory search backend: keeps this process's `HybridIndex` in step with Postgres.

At startup the index is built from every live block. Afterwards every change to live blocks or
document metadata is recorded in `index_changes`; the process that made the change refreshes the
affected documents at once, and a poller picks up changes made by other processes. A refresh reloads
whole documents and swaps them into the index atomically. Only vectors of the configured embedding
model are loaded, so vector spaces never mix while a re-embed is under way.

The index holds no texts: a search reads its hits' texts and metadata from Postgres (one indexed query,
with the other places of each hit's document holding the same text), and leaves out a hit whose block is
no longer live there, whichever process changed it.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import queue
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

from backend.process import glibc, release_free_memory
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.repeats import live_copies
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Copy, Hit, IndexedBlock, IndexState, Scope, SearchMode
from backend.store import blocks as store
from backend.store.db import Database

log = logging.getLogger(__name__)
T = TypeVar("T")
# A refresh that loaded this many blocks (a long document stored) trims the heap afterwards: its rows
# stayed resident, freed, otherwise (see `release_free_memory`).
_RELEASE_AFTER_BLOCKS = 5000


def _indexed(rows: Sequence[dict[str, Any]], analyzer: Analyzer) -> list[IndexedBlock]:
    """Index records for a batch of rows; the batch's vectors are decoded at once into one matrix (each
    block's `embedding` is a view of it) and texts without cached terms are analysed here."""
    raw = [row["vector"] for row in rows if row["vector"] is not None]
    matrix = iter(store.decode_vectors(raw))
    return [
        IndexedBlock(
            id=row["id"], document_id=row["document_id"], filename=row["filename"], category=row["category"],
            ordinal=row["ordinal"], page=row["page"], section=row["section"], kind=row["kind"], text=row["text"],
            embedding=next(matrix) if row["vector"] is not None else None,
            terms=(row["terms"], row["term_counts"]) if row["terms"] is not None
            else analyzer.term_counts(row["text"]),
            page_label=row["page_label"], document_kind=row["document_kind"],
        )
        for row in rows
    ]


# glibc's mallopt parameters (malloc.h) and the values its adaptive mmap threshold reaches at most.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_BUILD_MMAP_THRESHOLD = 128 * 1024
_MMAP_THRESHOLD_MAX, _TRIM_THRESHOLD_MAX = 32 * 2**20, 64 * 2**20


@contextlib.contextmanager
def large_blocks_mapped() -> Iterator[None]:
    """During a startup build, every block of 128 KiB or more gets its own mapping, returned to the system
    when freed. glibc's default raises that threshold once it sees such a block freed and then serves
    large blocks from its heap, where the build's freed batches (rows and vectors read from Postgres)
    stay resident among the index's growing arrays: measured at 50,000 blocks, resident memory after the
    build 5.1 instead of 5.3 KB per block, the build's peak 465 instead of 684 MiB. Afterwards the
    thresholds are those glibc's adaptive ones reach (searches' large numpy temporaries come from the
    heap again: mapping each one made BM25 several times slower). An operator's MALLOC_MMAP_THRESHOLD_
    or GLIBC_TUNABLES setting is left alone; elsewhere than glibc this does nothing."""
    libc = glibc()
    if libc is None or "MALLOC_MMAP_THRESHOLD_" in os.environ or "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", ""):
        yield
        return
    libc.mallopt(_M_MMAP_THRESHOLD, _BUILD_MMAP_THRESHOLD)
    try:
        yield
    finally:
        libc.mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_MAX)
        libc.mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD_MAX)


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """The cyclic garbage collector paused. A startup build allocates a few container objects per block
    (records, tuples, map entries), none in a cycle; each of the collector's full passes walks all of
    them, and their number grows with the vault, so the build grew faster than the vault did. Measured
    at 100k / 200k blocks (scripts/bench_search.py's vault): 5.2–6.1 / 12.0–12.6 s with the collector,
    5.2 / 9.2 s without (200k/100k: 2.2× → 1.8×)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _prefetched(batches: Iterator[T], ahead: int = 2) -> Iterator[T]:
    """`batches`, produced on a background thread up to `ahead` batches in advance, so that Postgres and
    the network work while this thread processes the previous batch. Errors are re-raised here; if this
    side stops early, the producer stops too and closes `batches` (returning its connection)."""
    slots: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=ahead)
    stop = threading.Event()

    def offer(item: tuple[bool, Any]) -> bool:
        while not stop.is_set():
            try:
                slots.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for batch in batches:
                if not offer((True, batch)):
                    return
            offer((False, None))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, which re-raises it
            offer((False, exc))
        finally:
            close = getattr(batches, "close", None)
            if close is not None:
                close()

    producer = threading.Thread(target=produce, name="index-build-fetch", daemon=True)
    producer.start()
    try:
        while True:
            more, item = slots.get()
            if not more:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        stop.set()
        producer.join()


class MemoryBackend:
    """A `SearchBackend` (backend/retrieval/service.py) holding the index in this process."""

    def __init__(self, db: Database, embed_model: str, poll_s: float) -> None:
        self.db = db
        self.embed_model = embed_model
        # The hits' texts and metadata are read from Postgres, not held: a third of the index's memory.
        self.index = HybridIndex(details=self._copies)
        self.poll_s = poll_s
        self.state: IndexState = "empty"
        self.built_in_s: float | None = None
        self._seq = 0
        self._dirty: set[str] = set()
        self._refresh_lock = threading.Lock()
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None

    @property
    def analyzer(self) -> Analyzer:
        """The BM25 analyser; ingestion caches each block's terms with it (`store_version`)."""
        return self.index.analyzer

    def _copies(self, block_ids: Sequence[str]) -> dict[str, list[Copy]]:
        return live_copies(self.db, block_ids)

    def build(self) -> None:
        """Load every live block into the index. Blocks whose cached terms are missing or came from another
        analyser version are analysed here and their cache rewritten, so the next start is fast again."""
        started = time.perf_counter()
        self.state = "building"
        self._seq = store.latest_change(self.db)
        fingerprint = self.analyzer.fingerprint
        with large_blocks_mapped():
            with _no_cyclic_gc():
                by_document, stale = self._load_all(fingerprint)
                self.index.replace_documents(by_document)
            documents = len(by_document)
            del by_document  # the batches' vectors and term strings: free them before trimming the heap
            release_free_memory()
        self.built_in_s = round(time.perf_counter() - started, 3)
        self.state = "ready"
        log.info("index built: %d documents in %.2fs", documents, self.built_in_s)
        if stale:
            store.save_terms(self.db, fingerprint, stale)
            log.info("cached the terms of %d blocks", len(stale))

    def _load_all(self, fingerprint: str) -> tuple[dict[str, list[IndexedBlock]], list[tuple[str, str, bytes]]]:
        """Every live block by document, and the (block id, terms, counts) analysed here (stale caches).

        A function of its own so that its loop variables — the last batch's rows and vectors, 30–40 MiB
        at 768-d — are gone when `build` trims the heap (measured at 50,000 blocks: 41 MiB kept)."""
        by_document: dict[str, list[IndexedBlock]] = {}
        stale: list[tuple[str, str, bytes]] = []
        for rows in _prefetched(store.iter_live_blocks(self.db, self.embed_model, fingerprint)):
            for row, block in zip(rows, _indexed(rows, self.analyzer), strict=True):
                by_document.setdefault(block.document_id, []).append(block)
                if row["terms"] is None and block.terms is not None:  # analysed just now: cache it
                    stale.append((block.id, *block.terms))
        return by_document, stale

    def refresh(self, document_ids: Iterable[str]) -> None:
        """Reload these documents' live blocks and swap them in (an empty list removes a document)."""
        ids = sorted(set(document_ids))
        if not ids:
            return
        with self._refresh_lock:
            loaded = self._replace(ids)
        if loaded >= _RELEASE_AFTER_BLOCKS:
            release_free_memory()

    def _replace(self, ids: list[str]) -> int:
        """Load and swap in; returns the blocks loaded. A function of its own so that its rows and records
        (a long document's texts among them) are gone before the heap is trimmed."""
        changes: dict[str, list[IndexedBlock]] = {doc: [] for doc in ids}
        loaded = 0
        # Batch by batch: a long document's rows (texts, vectors, cached terms) are let go as each batch
        # becomes index records, not all held at once (26 million characters: 33,000 rows).
        for rows in store.iter_live_blocks(self.db, self.embed_model, self.analyzer.fingerprint,
                                           document_ids=ids):
            for block in _indexed(rows, self.analyzer):
                changes[block.document_id].append(block)
            loaded += len(rows)
        self.index.replace_documents(changes)
        return loaded

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
        """Start the change-feed poller."""
        self._stop.clear()
        self._worker = threading.Thread(target=self._poll_loop, name="index-poller", daemon=True)
        self._worker.start()

    def stop(self) -> None:
        self._stop.set()
        if self._worker is not None:
            self._worker.join(timeout=5)

    def _poll_loop(self) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                self.poll_once()
            except Exception:
                log.exception("index poll failed; retrying")  # a transient database error must not stop it

    def search(self, query: str, k: int, scope: Scope | None, mode: SearchMode,
               query_vector: np.ndarray | None) -> list[Hit]:
        return self.index.search(query, k, scope=scope, mode=mode, query_vector=query_vector)

    def stats(self) -> dict[str, Any]:
        return dict(self.index.stats())
