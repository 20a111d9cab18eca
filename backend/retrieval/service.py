"""The search service every caller uses (chat, the search API, study, MCP): it embeds the query and hands
the search to the configured `SearchBackend`, which keeps the index and ranks.

Two backends implement the one protocol, side by side: `MemoryBackend` (backend/retrieval/memory.py: an
in-process `HybridIndex` kept in step with Postgres) and `PostgresBackend` (backend/retrieval/postgres.py:
the database is the index). Both rank through `pipeline.search`, so BM25, fusion, ties and the relevance
judgement are the same in either. The service adds what does not depend on where the index lives: the
query's vector, and a notice when a search had to run on keywords only.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import anyio.to_thread
import numpy as np

from backend.llm.embedders import AsyncEmbedder, Embedder, LoadableEmbedder
from backend.llm.embedding_models import ActiveEmbedder
from backend.llm.errors import ModelError, ModelUnavailable
from backend.metrics import timed_search
from backend.retrieval.tokenizer import Analyzer
from backend.retrieval.types import Hit, IndexState, Scope, SearchMode
from backend.store.embedding_model import ModelNotActive

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchResult:
    hits: list[Hit]
    mode: SearchMode
    notice: str | None = None


class SearchBackend(Protocol):
    """Where the index lives: kept current as blocks change, and ranked by `pipeline.search`."""

    state: IndexState
    built_in_s: float | None
    embed_model: str  # whose vectors it searches: a query is embedded with this model

    @property
    def analyzer(self) -> Analyzer:
        """The BM25 analyser; ingestion caches each block's terms with it (`store_version`)."""
        ...

    def build(self) -> None:
        """Make the index ready to search (at startup)."""
        ...

    def start(self) -> None:
        """Start the backend's background work (polling, preparation)."""
        ...

    def stop(self) -> None: ...

    def notify(self, document_ids: Iterable[str]) -> None:
        """Apply a change this process just committed to these documents' live blocks."""
        ...

    def attach_vectors(self, block_ids: Sequence[str], vectors: np.ndarray, document_ids: Iterable[str]) -> None:
        """New vectors for blocks already indexed."""
        ...

    def search(self, query: str, k: int, scope: Scope | None, mode: SearchMode,
               query_vector: np.ndarray | None) -> list[Hit]: ...

    def stats(self) -> dict[str, Any]:
        """Figures for the health and vault panels."""
        ...


def _keyword_only(exc: ModelUnavailable | ModelError) -> str:
    return f"Keyword search only: the embedding model is unavailable ({exc})."


class SearchService:
    """Searches go to `backend`, whose model embeds the query; `replace` swaps in a backend over another
    model's vectors (a switch of the vault's model) between two searches, never during one."""

    def __init__(self, backend: SearchBackend, embedder: Embedder) -> None:
        self.backend = backend
        self.embedder = embedder
        # Moves this process onto the vault's active model at once (ModelWatch.run_once, set by the app): a
        # search that finds its model's vectors replaced by a switch calls it instead of waiting for the poll.
        self.follow: Callable[[], object] | None = None

    @property
    def embed_model(self) -> str:
        """The model whose vectors searches use now (the vault's active model, once this process follows it)."""
        return self.backend.embed_model

    def replace(self, backend: SearchBackend) -> SearchBackend:
        """Serve searches from `backend` (ready to search) from now on; returns the one it replaces."""
        old, self.backend = self.backend, backend
        return old

    def _query_embedder(self, backend: SearchBackend) -> Embedder:
        """The embedder of the model whose vectors `backend` holds."""
        if isinstance(self.embedder, ActiveEmbedder):
            return self.embedder.for_model(backend.embed_model)
        return self.embedder

    @property
    def state(self) -> IndexState:
        return self.backend.state

    @property
    def analyzer(self) -> Analyzer:
        """The BM25 analyser; ingestion caches each block's terms with it (`store_version`)."""
        return self.backend.analyzer

    def build(self) -> None:
        self.backend.build()

    def start(self) -> None:
        self.backend.start()

    def stop(self) -> None:
        self.backend.stop()

    def notify(self, document_ids: Iterable[str]) -> None:
        self.backend.notify(document_ids)

    def attach_vectors(self, block_ids: Sequence[str], vectors: np.ndarray, document_ids: Iterable[str],
                       model: str) -> None:
        """New vectors of `model` for blocks already indexed; none if the index holds another model's."""
        backend = self.backend
        if backend.embed_model == model:
            backend.attach_vectors(block_ids, vectors, document_ids)

    @timed_search
    def search(self, query: str, k: int, scope: Scope | None = None, mode: SearchMode = "hybrid",
               query_vector: np.ndarray | None = None) -> SearchResult:
        """Search the index; the query is embedded here unless the caller already has its vector."""
        try:
            return self._search(self.backend, query, k, scope, mode, query_vector)
        except ModelNotActive:
            # The vault switched models since this process last looked (the Postgres mode: the old vectors
            # are gone). Follow now, and embed the query again with the model whose vectors are there.
            pass
        if self._follow():
            try:
                return self._search(self.backend, query, k, scope, mode, None)
            except ModelNotActive:  # switched again meanwhile: the next search follows
                pass
        return self._keyword_search(query, k, scope, mode)

    def _search(self, backend: SearchBackend, query: str, k: int, scope: Scope | None, mode: SearchMode,
                query_vector: np.ndarray | None) -> SearchResult:
        vector, notice = query_vector, None
        if mode != "sparse" and vector is None:
            embedder = self._query_embedder(backend)
            notice = _loading_notice(embedder)
            if notice is None:
                try:
                    vector = embedder.embed([query])[0]
                except (ModelUnavailable, ModelError) as exc:
                    notice = _keyword_only(exc)
            if vector is None and mode == "dense":
                return SearchResult([], mode, notice)
        return SearchResult(backend.search(query, k, scope, mode, vector), mode,
                            notice or self._waiting_notice(mode))

    async def asearch(self, query: str, k: int, scope: Scope | None = None) -> SearchResult:
        """A hybrid `search` for the event loop. The query is embedded without blocking the loop; the search
        runs in a worker thread, since it reads its hits' details from Postgres."""
        try:
            return await self._asearch(self.backend, query, k, scope)
        except ModelNotActive:  # as in `search`
            pass
        if await anyio.to_thread.run_sync(self._follow):
            try:
                return await self._asearch(self.backend, query, k, scope)
            except ModelNotActive:
                pass
        return await anyio.to_thread.run_sync(self._keyword_search, query, k, scope, "hybrid")

    async def _asearch(self, backend: SearchBackend, query: str, k: int, scope: Scope | None) -> SearchResult:
        embedder = self._query_embedder(backend)
        vector, notice = None, _loading_notice(embedder)
        if notice is None:
            try:
                vector = (await _aembed(embedder, query))[0]
            except (ModelUnavailable, ModelError) as exc:
                notice = _keyword_only(exc)
        search = functools.partial(backend.search, query, k, scope, "hybrid", vector)
        return SearchResult(await anyio.to_thread.run_sync(search), "hybrid", notice or self._waiting_notice("hybrid"))

    def _follow(self) -> bool:
        """Move onto the vault's active model now; whether this process is on it."""
        if self.follow is None:
            return False
        try:
            self.follow()
        except Exception:  # the database away, the new model failing to load: this search runs on keywords
            log.warning("following the vault's new embedding model failed", exc_info=True)
            return False
        return True

    def _keyword_search(self, query: str, k: int, scope: Scope | None, mode: SearchMode) -> SearchResult:
        notice = "Keyword search only for a moment: the vault's embedding model just changed."
        if mode == "dense":
            return SearchResult([], mode, notice)
        return SearchResult(self.backend.search(query, k, scope, mode, None), mode, notice)

    def _waiting_notice(self, mode: SearchMode) -> str | None:
        """Passages still waiting for their vectors are found by their words alone: say so."""
        if mode == "sparse":
            return None
        stats = self.stats()
        waiting = int(stats.get("blocks", 0)) - int(stats.get("embedded_blocks", 0))
        if waiting <= 0:
            return None
        return (f"Keyword search only for {waiting:,} passage{'s' if waiting != 1 else ''} still being embedded; "
                "the rest were searched by meaning too.")

    def stats(self) -> dict[str, Any]:
        backend = self.backend
        return {"state": backend.state, "built_in_s": backend.built_in_s, "embed_model": backend.embed_model,
                **backend.stats()}


def _loading_notice(embedder: Embedder) -> str | None:
    """A search does not wait for an in-process model that is still loading (seconds; longer while it is
    first unpacked): it runs on keywords meanwhile and says so."""
    if isinstance(embedder, LoadableEmbedder) and embedder.state == "loading":
        return "Keyword search only for a moment: the embedding model is still loading."
    return None


async def _aembed(embedder: Embedder, query: str) -> np.ndarray:
    if isinstance(embedder, AsyncEmbedder):
        return await embedder.aembed([query])
    return await anyio.to_thread.run_sync(embedder.embed, [query])  # an in-process model: CPU-bound
