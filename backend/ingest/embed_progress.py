"""How the embedding of new passages stands, in the words the status light, the library and the upload
card show: "Embedding with the built-in model: 40 of 143 passages, about 2 min left", or, while nothing can
embed them, why: "21 of 21 passages wait for embeddinggemma: Ollama is not running".

A *wave* starts when passages begin waiting for their vectors and ends when none is left; its passages
are the live ones stored since the oldest passage that was waiting when this process first saw the wave,
so "of 143" stays put while the documents of one upload are embedded one after the other (a passage
stored later joins the wave). The time left is the passages still waiting over the speed this process
measured in its last batches (`SpeedMeter`); None until it has measured any.
"""

from __future__ import annotations

import threading
from datetime import datetime

from pydantic import BaseModel

from backend.llm.embedders import Embedder, LoadableEmbedder, MeteredEmbedder
from backend.store import embeddings as store
from backend.store.db import Database

_waves: dict[str, datetime] = {}  # model → start of the wave this process is reporting
_lock = threading.Lock()


class EmbeddingProgress(BaseModel):
    model: str  # as the user knows it: "the built-in model" or Ollama's model name
    embedded: int
    total: int
    waiting_documents: int
    passages_per_s: float | None  # measured here in the last batches
    seconds_left: float | None
    sentence: str


def _wave_start(model: str, oldest: datetime | None) -> datetime | None:
    with _lock:
        if oldest is None:
            _waves.pop(model, None)
            return None
        start = _waves.get(model)
        if start is None or oldest < start:
            start = _waves[model] = oldest
        return start


def _minutes(seconds: float) -> str:
    if seconds < 90:
        return "less than 2 min left" if seconds >= 45 else "less than a minute left"
    return f"about {round(seconds / 60)} min left"


def describe(who: str, embedded: int, total: int, seconds_left: float | None, blocked: str | None = None) -> str:
    if blocked is not None:  # nothing is being embedded: say why rather than "Embedding with …"
        return f"{total - embedded:,} of {total:,} passages wait for {who}: {blocked}"
    sentence = f"Embedding with {who}: {embedded:,} of {total:,} passages"
    return f"{sentence}, {_minutes(seconds_left)}" if seconds_left is not None else sentence


def embedding_progress(db: Database, embedder: Embedder, display_name: str,
                       blocked: str | None = None) -> EmbeddingProgress | None:
    """The current wave, or None when no passage waits for a vector of `embedder`'s model. `blocked` is
    why nothing can be embedded now (Ollama is not running, the model is not pulled), if so."""
    backlog = store.backlog(db, embedder.model)
    start = _wave_start(embedder.model, backlog.oldest)
    if start is None:
        return None
    total, embedded = store.stored_since(db, embedder.model, start)
    total = max(total, embedded + backlog.waiting)  # a wave older than this process's view of it
    speed = embedder.speed.passages_per_s if isinstance(embedder, MeteredEmbedder) else None
    seconds_left = backlog.waiting / speed if speed else None
    who = "the built-in model" if isinstance(embedder, LoadableEmbedder) else display_name
    return EmbeddingProgress(model=who, embedded=embedded, total=total, waiting_documents=backlog.documents,
                             passages_per_s=speed, seconds_left=seconds_left,
                             sentence=describe(who, embedded, total, seconds_left, blocked))
