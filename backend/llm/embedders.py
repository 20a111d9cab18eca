"""Embedders turn passages and queries into L2-normalised float32 vectors.

`Embedder.model` is recorded with every stored vector (e.g. ``ollama:embeddinggemma``) so vectors of
different models are never mixed. The Ollama embedder is the default; `local` loads an in-process
sentence-embedding model (optional extra, see requirements-local.txt).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from backend.llm.client import LLMClient
    from backend.llm.local_models import LocalModelName


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

    @property
    def model(self) -> str:
        return f"ollama:{self._name}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._client.embed(texts, model=self._name)

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        return await self._client.aembed(texts, model=self._name)


def build_embedder(kind: str, client: LLMClient, ollama_model: str, local_model: LocalModelName,
                   models_dir: Path) -> Embedder:
    """The embedder chosen by QUIRE_EMBEDDER; the local one (QUIRE_LOCAL_EMBED_MODEL, unpacked under
    `models_dir` if need be) is imported only when asked for."""
    if kind == "local":
        from backend.llm.local_embedder import LocalEmbedder

        return LocalEmbedder(models_dir, local_model)
    return OllamaEmbedder(client, ollama_model)
