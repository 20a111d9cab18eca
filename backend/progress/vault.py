"""`GET /api/vault/stats`: what the vault holds, where it lives, which models serve it, and every
outbound request the app has made (logged where the request happens — URL import — not a constant)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from backend.config import Settings
from backend.llm.client import LLMClient, ModelStatus
from backend.llm.embedders import Embedder, LoadState, MeteredEmbedder, embedder_status
from backend.llm.embedding_models import display_name, kind_of, pinned
from backend.progress.privacy import ConnectionWatch, PrivacyOut, privacy_report
from backend.retrieval.service import SearchService
from backend.retrieval.types import IndexState
from backend.store import outbound
from backend.store import vault as store
from backend.store.db import Database


class DocumentCounts(BaseModel):
    total: int
    ready: int
    ingesting: int
    failed: int
    categories: int
    original_bytes: int


class BlockCounts(BaseModel):
    total: int
    embedded: int  # with a vector of the current embedding model
    embedded_share: float


class IndexOut(BaseModel):
    model_config = ConfigDict(extra="allow")  # whatever else the index reports is passed through

    state: IndexState
    built_in_s: float | None
    embed_model: str
    blocks: int
    embedded_blocks: int
    documents: int
    dimension: int | None
    memory_bytes: int


class StorageLocation(BaseModel):
    path: str | None
    bytes: int | None = None


class DatabaseLocation(StorageLocation):
    embedded: bool  # the bundled Postgres (data under `path`) rather than DATABASE_URL


class StorageOut(BaseModel):
    data_dir: StorageLocation
    docs_dir: StorageLocation
    database: DatabaseLocation
    prompts_dir: StorageLocation


class OllamaOut(BaseModel):
    host: str
    reachable: bool
    available: list[str]


class ModelOut(BaseModel):
    name: str
    present: bool


class EmbeddingModelOut(ModelOut):
    """The vault's active embedding model (`GET /api/vault/embedding` switches it). `name`: Ollama's model,
    or the in-process one; `present`: it can make vectors now (pulled in Ollama, or the local model not
    failing to load)."""

    embedder: str  # "ollama" or "local": what runs it
    recorded_as: str
    state: LoadState | None  # the in-process model's load state; None for Ollama
    passages_per_s: float | None  # its speed measured here, in this process's last batches; None until then


class ModelsOut(BaseModel):
    ollama: OllamaOut
    chat: ModelOut
    embedding: EmbeddingModelOut


class OutboundRequest(BaseModel):
    url: str
    host: str
    status: int | None
    ok: bool
    created_at: datetime


class OutboundOut(BaseModel):
    requests: int
    bytes: int
    last_at: datetime | None
    recent: list[OutboundRequest]


class VaultStats(BaseModel):
    documents: DocumentCounts
    blocks: BlockCounts
    index: IndexOut
    storage: StorageOut
    models: ModelsOut
    outbound: OutboundOut
    privacy: PrivacyOut


def folder_size(path: Path) -> int:
    """Bytes of the files under `path` (0 when it does not exist); unreadable entries are skipped."""
    if not path.exists():
        return 0
    total = 0
    for item in path.rglob("*"):
        try:
            if item.is_file() and not item.is_symlink():
                total += item.stat().st_size
        except OSError:  # a file removed or unreadable mid-walk does not make the panel fail
            continue
    return total


def embedding_model(embedder: Embedder, status: ModelStatus) -> EmbeddingModelOut:
    """The active model of `embedder` (an `ActiveEmbedder`'s now), whose Ollama model `status` lists or not."""
    active = pinned(embedder)
    name = display_name(active.model)
    embedding = embedder_status(active, name, status.has(name))
    speed = active.speed.passages_per_s if isinstance(active, MeteredEmbedder) else None
    return EmbeddingModelOut(name=embedding.name, present=embedding.ready, embedder=kind_of(active.model) or "ollama",
                             recorded_as=active.model, state=embedding.state, passages_per_s=speed)


def vault_stats(settings: Settings, db: Database, embedder: Embedder, llm: LLMClient, search: SearchService,
                connections: ConnectionWatch | None) -> VaultStats:
    counts = store.counts(db, embedder.model)
    status = llm.status()
    embedded_share = round(counts["embedded"] / counts["blocks"], 4) if counts["blocks"] else 0.0
    storage = {
        "data_dir": {"path": str(settings.data_dir), "bytes": folder_size(settings.data_dir)},
        "docs_dir": {"path": str(settings.docs_dir), "bytes": folder_size(settings.docs_dir)},
        "database": {"embedded": settings.database_url is None, "bytes": store.database_size(db),
                     "path": str(settings.postgres_dir) if settings.database_url is None else None},
        "prompts_dir": {"path": str(settings.prompts_dir)},
    }
    models = {
        "ollama": {"host": settings.ollama_host, "reachable": status.reachable, "available": status.models},
        "chat": {"name": settings.chat_model, "present": status.has(settings.chat_model)},
        "embedding": embedding_model(embedder, status),
    }
    documents = {"total": counts["documents"], **{k: counts[k] for k in ("ready", "ingesting", "failed",
                                                                         "categories", "original_bytes")}}
    blocks = {"total": counts["blocks"], "embedded": counts["embedded"], "embedded_share": embedded_share}
    return VaultStats.model_validate({"documents": documents, "blocks": blocks, "index": search.stats(),
                                      "storage": storage, "models": models, "outbound": outbound.summary(db),
                                      "privacy": privacy_report(connections, settings.ollama_host,
                                                                settings.database_url)})
