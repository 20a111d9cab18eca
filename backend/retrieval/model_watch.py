"""Keeps this process on the vault's active embedding model, which the database names (every process reads
it there; backend/store/embedding_model.py).

A thread polls the active model (and `check_now` wakes it, after this process flipped it). When it
changes, a search backend over the new model's vectors is built and made ready while the old one goes on
serving, then swapped in together with the embedder the process embeds with; the old backend is stopped.
Each search uses one backend from its start to its end (SearchService), so no search mixes the two models
and none goes without vectors. Then `on_change` runs (the embedding backfill, for passages another process
stored with the old model as the flip landed).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from backend.llm.embedding_models import ActiveEmbedder
from backend.retrieval.service import SearchBackend, SearchService
from backend.store import embedding_model as store
from backend.store.db import Database

log = logging.getLogger(__name__)


class ModelWatch:
    def __init__(self, db: Database, embedder: ActiveEmbedder, search: SearchService,
                 make_backend: Callable[[str], SearchBackend], poll_s: float,
                 on_change: Callable[[], object] | None = None) -> None:
        self.db = db
        self.embedder = embedder
        self.search = search
        self.make_backend = make_backend
        self.poll_s = poll_s
        self.on_change = on_change
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="embedding-model-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def check_now(self) -> None:
        """Look at the active model at once (this process just changed it)."""
        self._wake.set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll_s)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.follow()
            except Exception:  # a transient database error must not stop the watch; the next poll retries
                log.exception("checking the active embedding model failed; retrying")

    def follow(self) -> bool:
        """Move this process to the active model if it is not on it yet; whether it moved."""
        with self._lock:
            model = store.active_model(self.db)
            if model == self.search.backend.embed_model:
                return False
            log.info("the vault's embedding model is now %s: loading its vectors", model)
            backend = self.make_backend(model)
            backend.build()
            backend.start()
            self.embedder.use(model)
            self.search.replace(backend).stop()
            log.info("searches use %s", model)
        if self.on_change is not None:
            self.on_change()
        return True
