"""Embedders turn passages and queries into L2-normalised float32 vectors.

`Embedder.model` is recorded with every stored vector (e.g. ``ollama:embeddinggemma``) so vectors of
different models are never mixed. The Ollama embedder is the default; `local` loads an in-process
sentence-embedding model (the built-in model, `scripts/setup.sh --local`), which `preload` loads in the
background at start; searches meanwhile run on keywords (SearchService) instead of waiting for it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import numpy as np

from backend.llm.errors import ModelUnavailable

if TYPE_CHECKING:
    from backend.llm.client import LLMClient
    from backend.llm.local_models import LocalModelName

log = logging.getLogger(__name__)

LoadState = Literal["not loaded", "loading", "ready", "unavailable"]  # of a model that lives in this process


class Embedder(Protocol):
    @property
    def model(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an (n, d) float32 array of L2-normalised vectors; raises ModelUnavailable/ModelError."""
        ...


@runtime_checkable
class AsyncEmbedder(Protocol):
    """An embedder that also embeds on the event loop without blocking it (a network call, no thread)."""

    async def aembed(self, texts: Sequence[str]) -> np.ndarray: ...


@runtime_checkable
class LoadableEmbedder(Protocol):
    """An embedder whose model lives in this process: loaded once, which takes a while, and may fail."""

    @property
    def name(self) -> str: ...  # the model's own name, as QUIRE_LOCAL_EMBED_MODEL gives it

    @property
    def state(self) -> LoadState: ...

    @property
    def problem(self) -> ModelUnavailable | None: ...

    def load(self) -> None: ...


class SpeedMeter:
    """Passages per second of the last batches an embedder made in this process (its measured speed here).
    A query alone (one passage) is not a batch and is not counted: it says nothing about throughput."""

    def __init__(self, window: int = 20) -> None:
        self._batches: deque[tuple[int, float]] = deque(maxlen=window)
        self._lock = threading.Lock()

    def record(self, passages: int, seconds: float) -> None:
        if passages > 1 and seconds > 0:
            with self._lock:
                self._batches.append((passages, seconds))

    def timed(self) -> _Timer:
        return _Timer(self)

    @property
    def passages_per_s(self) -> float | None:
        """None until a batch was embedded in this process."""
        with self._lock:
            passages = sum(n for n, _ in self._batches)
            seconds = sum(s for _, s in self._batches)
        return passages / seconds if seconds else None


class _Timer:
    def __init__(self, meter: SpeedMeter) -> None:
        self._meter, self._start = meter, 0.0

    def __call__(self, passages: int) -> None:
        self._meter.record(passages, time.perf_counter() - self._start)

    def __enter__(self) -> _Timer:
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        return None


@runtime_checkable
class MeteredEmbedder(Protocol):
    """An embedder that measures its own speed (`SpeedMeter`)."""

    @property
    def speed(self) -> SpeedMeter: ...


def _load_logged(embedder: LoadableEmbedder) -> None:
    try:
        embedder.load()
    except ModelUnavailable as exc:  # /api/health shows it with its hint; searches run keyword-only
        log.warning("the local embedding model is unavailable: %s (%s)", exc.message, exc.hint)
    except Exception:  # a daemon thread: the failure is recorded by the embedder and logged
        log.exception("loading the local embedding model failed")


def preload(embedder: Embedder) -> None:
    """Start loading an in-process model in a daemon thread (an Ollama embedder has nothing to load)."""
    if isinstance(embedder, LoadableEmbedder):
        threading.Thread(target=_load_logged, args=(embedder,), name="quire-embedder-load", daemon=True).start()


@dataclass(frozen=True)
class EmbedderStatus:
    """Can the embedder make vectors now? Not ready: searches run on keywords only and new passages wait
    for their vectors (the embedding backfill)."""

    name: str  # the model: Ollama's, or the in-process one
    ready: bool
    state: LoadState | None  # an in-process model's load state; None when the model runs in Ollama
    problem: ModelUnavailable | None  # why an in-process model could not be loaded


def embedder_status(embedder: Embedder, ollama_model: str, ollama_has_model: bool) -> EmbedderStatus:
    """`ollama_model`, `ollama_has_model`: Ollama's embedding model and whether Ollama lists it (what counts
    for an Ollama embedder)."""
    if not isinstance(embedder, LoadableEmbedder):
        return EmbedderStatus(name=ollama_model, ready=ollama_has_model, state=None, problem=None)
    state = embedder.state
    return EmbedderStatus(name=embedder.name, ready=state != "unavailable", state=state, problem=embedder.problem)


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors[None, :]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: np.ndarray = vectors / norms
    return normalised


class OllamaEmbedder:
    """Embeds through Ollama's `/api/embed`; `model` is recorded as ``ollama:<name>``."""

    def __init__(self, client: LLMClient, name: str) -> None:
        self._client = client
        self._name = name
        self.speed = SpeedMeter()

    @property
    def model(self) -> str:
        return f"ollama:{self._name}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self.speed.timed() as done:
            vectors = self._client.embed(texts, model=self._name)
            done(len(texts))
        return vectors

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        with self.speed.timed() as done:
            vectors = await self._client.aembed(texts, model=self._name)
            done(len(texts))
        return vectors


def build_embedder(kind: str, client: LLMClient, ollama_model: str, local_model: LocalModelName) -> Embedder:
    """The embedder chosen by QUIRE_EMBEDDER; the local one (QUIRE_LOCAL_EMBED_MODEL, installed by
    `scripts/setup.sh --local`) is imported only when asked for."""
    if kind == "local":
        from backend.llm.local_embedder import LocalEmbedder

        return LocalEmbedder(local_model)
    return OllamaEmbedder(client, ollama_model)
