"""The embedding models a vault can use, and the one this process embeds with now.

A model is named as its vectors are recorded: ``ollama:<name>`` for a model Ollama serves (its `:latest`
tag left out), ``local:<model>-int8`` for a built-in one (backend/llm/local_embedder.py). `choices` lists
those one can switch to: Ollama's models that make embeddings, and the built-in models installed here.

`ActiveEmbedder` is the `Embedder` every service of a process holds: it embeds with the vault's active
model, which the database names and `use` changes while the process runs (backend/retrieval/model_watch.py).
Code that records which model made a vector takes one model for the whole job with `pinned`, so a switch
landing in between never labels one model's vectors with the other's name.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import anyio.to_thread
import numpy as np

from backend.llm.client import LLMClient
from backend.llm.embedders import AsyncEmbedder, Embedder, OllamaEmbedder
from backend.llm.errors import ModelError, ModelUnavailable
from backend.llm.local_models import LOCAL_MODELS, LocalModelName, installed_model

OLLAMA_PREFIX = "ollama:"
LOCAL_PREFIX = "local:"
_LOCAL_SUFFIX = "-int8"
ModelKind = Literal["ollama", "local"]


def ollama_model(name: str) -> str:
    """The recorded name of an Ollama model as Ollama lists it (`nomic-embed-text:latest`)."""
    return OLLAMA_PREFIX + name.removesuffix(":latest")


def local_model(name: LocalModelName) -> str:
    return f"{LOCAL_PREFIX}{name}{_LOCAL_SUFFIX}"


def _local_name(model: str) -> LocalModelName | None:
    name = model.removeprefix(LOCAL_PREFIX).removesuffix(_LOCAL_SUFFIX)
    if not model.startswith(LOCAL_PREFIX) or not model.endswith(_LOCAL_SUFFIX):
        return None
    return next((known for known in get_args(LocalModelName) if known == name), None)


def kind_of(model: str) -> ModelKind | None:
    """Which runtime makes `model`'s vectors; None for a name Quire cannot make (a typo, an old runtime)."""
    if model.startswith(OLLAMA_PREFIX) and len(model) > len(OLLAMA_PREFIX):
        return "ollama"
    return "local" if _local_name(model) is not None else None


def display_name(model: str) -> str:
    """The model's own name, as the user knows it (`nomic-embed-text`, `all-MiniLM-L6-v2`)."""
    local = _local_name(model)
    return local if local is not None else model.removeprefix(OLLAMA_PREFIX)


@dataclass(frozen=True)
class EmbeddingChoice:
    model: str  # as recorded with each vector; what a switch names
    name: str
    kind: ModelKind
    dimension: int | None  # known for the built-in models; Ollama's says so at its first vector


@dataclass(frozen=True)
class EmbeddingChoices:
    ollama_reachable: bool  # False: Ollama's models could not be listed (it is not running)
    models: list[EmbeddingChoice]


def choices(llm: LLMClient, *, patient: bool = False) -> EmbeddingChoices:
    """The models one can switch to now: Ollama's embedding models (none while it is down) and the built-in
    models installed in this environment. `patient`: as `LLMClient.status` (where the answer decides)."""
    found: list[EmbeddingChoice] = []
    status = llm.status(patient=patient)
    for listed in status.models:
        try:
            facts = llm.facts(listed)
        except (ModelUnavailable, ModelError):  # gone or unreadable since the listing: not offered
            continue
        if facts.embedding:
            model = ollama_model(listed)
            found.append(EmbeddingChoice(model, display_name(model), "ollama", None))
    for spec in LOCAL_MODELS.values():
        try:
            installed_model(spec)
        except ModelUnavailable:
            continue
        found.append(EmbeddingChoice(local_model(spec.name), spec.name, "local", spec.dimension))
    return EmbeddingChoices(status.reachable, found)


def embedder_for(model: str, llm: LLMClient) -> Embedder:
    """A new embedder making `model`'s vectors; ValueError for a name no runtime makes."""
    local = _local_name(model)
    if local is not None:
        from backend.llm.local_embedder import LocalEmbedder  # needs the built-in model's packages

        return LocalEmbedder(local)
    if kind_of(model) == "ollama":
        return OllamaEmbedder(llm, model.removeprefix(OLLAMA_PREFIX))
    raise ValueError(f"no embedder makes {model!r}")


class ActiveEmbedder:
    """An `Embedder` that embeds with the vault's active model (`use` changes it). One embedder per model is
    kept for the process's life, so an in-process model loads once and its measured speed stays."""

    def __init__(self, first: Embedder, llm: LLMClient) -> None:
        self._llm = llm
        self._by_model: dict[str, Embedder] = {first.model: first}
        self._current = first
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return self._current.model

    def current(self) -> Embedder:
        """The embedder of the active model, fixed: what a job that records its vectors' model uses."""
        return self._current

    def for_model(self, model: str) -> Embedder:
        """This process's embedder of `model` (made on first use); ValueError for a name no runtime makes."""
        with self._lock:
            known = self._by_model.get(model)
            if known is None:
                known = self._by_model[model] = embedder_for(model, self._llm)
            return known

    def use(self, model: str) -> None:
        """Embed with `model` from now on."""
        self._current = self.for_model(model)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._current.embed(texts)

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        embedder = self._current
        if isinstance(embedder, AsyncEmbedder):
            return await embedder.aembed(texts)
        return await anyio.to_thread.run_sync(embedder.embed, texts)  # an in-process model: CPU-bound


def pinned(embedder: Embedder) -> Embedder:
    """The embedder of one model: the active one's now for an `ActiveEmbedder`, else `embedder` itself."""
    return embedder.current() if isinstance(embedder, ActiveEmbedder) else embedder
