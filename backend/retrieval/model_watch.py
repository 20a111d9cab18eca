"""Keeps this process on the vault's active embedding model, which the database names (every process reads
it there; backend/store/embedding_model.py).

A thread polls the active model (and `wake` wakes it, after this process flipped it; a search that finds
its model's vectors replaced, in the Postgres mode, moves the process at once). When it changes, a search
backend over the new model's vectors is built and made ready while the old one goes on serving, then
swapped in together with the embedder the process embeds with; the old backend is stopped. Each search
uses one backend from its start to its end (SearchService), so no search mixes the two models and none
goes without vectors. Then `on_change` runs (the embedding backfill, for passages another process
stored with the old model as the flip landed).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import sqlalchemy.exc

from backend.llm.embedding_models import ActiveEmbedder
from backend.periodic import Periodic
from backend.retrieval.service import SearchBackend, SearchService
from backend.store import embedding_model as store
from backend.store.db import Database, DatabaseError
from backend.store.liveness import DatabaseUnavailable

log = logging.getLogger(__name__)


class ModelWatch(Periodic):
    """Polls the active model every `poll_s`; `wake` (after this process flipped it) looks at once."""

    thread_name = "embedding-model-watch"
    failure = "following the vault's embedding model"
    # The database away (ours, or DBOS's system database when `on_change` starts the backfill): the next
    # poll retries, and until then searches go on over the model this process is on.
    retry_on = (DatabaseError, DatabaseUnavailable, sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)

    def __init__(self, db: Database, embedder: ActiveEmbedder, search: SearchService,
                 make_backend: Callable[[str], SearchBackend], poll_s: float,
                 on_change: Callable[[], object] | None = None) -> None:
        super().__init__(poll_s)
        self.db = db
        self.embedder = embedder
        self.search = search
        self.make_backend = make_backend
        self.on_change = on_change
        self._moving = threading.Lock()

    def run_once(self) -> None:
        """Move this process to the active model if it is not on it yet. Called by the poll and by a search
        that found its model's vectors gone (SearchService.follow), so one at a time."""
        with self._moving:
            model = store.active_model(self.db)
            if model == self.search.backend.embed_model:
                return
            log.info("the vault's embedding model is now %s: loading its vectors", model)
            backend = self.make_backend(model)
            backend.build()
            backend.start()
            self.embedder.use(model)
            old = self.search.replace(backend)
        # Stopping joins the old backend's thread (up to seconds mid-preparation): a search waiting here
        # to be answered need not wait for that.
        threading.Thread(target=old.stop, name="search-backend-stop", daemon=True).start()
        log.info("searches use %s", model)
        if self.on_change is not None:
            self.on_change()
