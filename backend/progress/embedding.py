"""`GET /api/vault/embedding`: the vault's embedding model (the one searches use, and its speed measured
in this process), the models one can switch to, and the switch under way with its progress."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from backend.llm.client import LLMClient
from backend.llm.embedders import MeteredEmbedder
from backend.llm.embedding_models import ActiveEmbedder, ModelKind, choices, display_name, kind_of
from backend.retrieval.service import SearchService
from backend.store import embedding_model as store
from backend.store.db import Database


class EmbeddingChoiceOut(BaseModel):
    model: str  # what `PUT /api/vault/embedding` takes, as recorded with each vector
    name: str
    kind: ModelKind
    dimension: int | None


class ActiveModelOut(BaseModel):
    model: str
    name: str
    kind: ModelKind | None  # None: a name no runtime of this install makes (an older runtime's vectors)
    passages_per_s: float | None  # measured here, in this process's last batches; None until then


class SwitchOut(BaseModel):
    """A switch under way: searches use the active model until `done` reaches `total`."""

    target: str
    name: str
    done: int  # live passages with a vector of the target
    total: int
    started_at: datetime | None


class EmbeddingOut(BaseModel):
    active: ActiveModelOut
    switch: SwitchOut | None
    choices: list[EmbeddingChoiceOut]
    ollama_reachable: bool  # False: Ollama is not running, so `choices` lacks its models


def speed(embedder: ActiveEmbedder, model: str) -> float | None:
    """Passages per second `model` made in this process's last batches (None before any)."""
    try:
        made_by = embedder.for_model(model)
    except ValueError:
        return None
    return made_by.speed.passages_per_s if isinstance(made_by, MeteredEmbedder) else None


def switch_state(db: Database, target: str | None, started_at: datetime | None) -> SwitchOut | None:
    if target is None:
        return None
    counts = store.progress(db, target)
    return SwitchOut(target=target, name=display_name(target), done=counts["done"], total=counts["total"],
                     started_at=started_at)


def embedding_overview(db: Database, llm: LLMClient, embedder: ActiveEmbedder, search: SearchService) -> EmbeddingOut:
    """`active` is the model this process's searches use: just after a switch completed, for the moment the
    process takes to load the new vectors, that is still the old one, and the switch is reported until then."""
    row = store.current(db)
    active = search.embed_model
    target = row["target"] if row["active"] == active else row["active"]
    offer = choices(llm)
    return EmbeddingOut(
        active=ActiveModelOut(model=active, name=display_name(active), kind=kind_of(active),
                              passages_per_s=speed(embedder, active)),
        switch=switch_state(db, target, row["switch_started_at"] or row["updated_at"]),
        choices=[EmbeddingChoiceOut(model=c.model, name=c.name, kind=c.kind, dimension=c.dimension)
                 for c in offer.models],
        ollama_reachable=offer.ollama_reachable,
    )
