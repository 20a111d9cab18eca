"""`GET /api/health`: is each part of Quire working, and what should the user start or pull if not."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import asdict
from typing import Any, Literal

from dbos import DBOS
from fastapi import APIRouter
from pydantic import BaseModel

from backend.api.deps import (
    ConnectionsDep,
    DatabaseDep,
    EmbedderDep,
    ExecutorIdDep,
    LLMDep,
    SearchDep,
    SettingsDep,
)
from backend.cluster.status import Cluster, ProcessStatus, cluster_status
from backend.config import APPLICATION_VERSION, Settings
from backend.ingest.embed_progress import EmbeddingProgress, embedding_progress
from backend.llm.embedders import LoadState, MeteredEmbedder, embedder_status
from backend.llm.embedding_models import display_name, kind_of
from backend.llm.errors import ModelUnavailable
from backend.progress.privacy import PrivacyOut, privacy_report
from backend.store.liveness import DATABASE_LOST, DatabaseUnavailable
from backend.store.processes import Takeover
from backend.voice.service import transcriber

router = APIRouter(prefix="/api", tags=["health"])
# DBOS waits for its database for as long as it takes (its connections are retried with backoff); health
# asks it in a daemon thread of its own (never one the exit has to wait for) and gives up after this.
DBOS_CHECK_S = 0.75
_dbos_check: Future[None] | None = None


class PostgresHealth(BaseModel):
    ok: bool
    embedded: bool


class DbosHealth(BaseModel):
    ok: bool
    application_version: str
    executor_id: str
    error: str | None = None


class ModelPresence(BaseModel):
    name: str
    present: bool


class OllamaHealth(BaseModel):
    reachable: bool
    host: str
    models: list[str]
    chat_model: ModelPresence
    embed_model: ModelPresence
    error: str | None


class EmbedderHealth(BaseModel):
    kind: Literal["ollama", "local"]
    model: str  # as recorded with each vector, e.g. "local:all-mpnet-base-v2"
    name: str  # the model: Ollama's embedding model, or the in-process one (QUIRE_LOCAL_EMBED_MODEL)
    ready: bool  # false: searches run on keywords only and new passages wait for their vectors
    # The in-process model's load state (it loads in the background at start); null for Ollama, whose
    # model is in `ollama.embed_model`.
    state: LoadState | None
    error: str | None
    passages_per_s: float | None = None  # measured in this process's last batches
    progress: EmbeddingProgress | None = None  # passages waiting for their vectors, and the time left


class VoiceHealth(BaseModel):
    """Speech to text (optional): which local model answers `/api/transcribe`, or what to install."""

    available: bool
    model: str | None
    multilingual: bool
    hint: str | None
class Health(BaseModel):
    status: Literal["ok", "degraded"]
    version: str
    postgres: PostgresHealth
    dbos: DbosHealth
    ollama: OllamaHealth
    embedder: EmbedderHealth
    index: dict[str, Any]
    voice: VoiceHealth
    processes: list[ProcessStatus]
    takeovers: list[Takeover]  # the most recent first (kept a week)
    privacy: PrivacyOut  # settings that send data to another machine, connections seen off it
    hints: list[str]


def _list_one_workflow(result: Future[None]) -> None:
    try:
        DBOS.list_workflows(limit=1, load_input=False, load_output=False)
    except Exception as exc:  # noqa: BLE001 - handed to the health request, which reports it
        result.set_exception(exc)
    else:
        result.set_result(None)


def _dbos_state(database_up: bool) -> dict[str, Any]:
    global _dbos_check  # noqa: PLW0603 - one check in flight at a time, shared by concurrent requests
    if not database_up:
        return {"ok": False, "error": "The database is unreachable."}
    check = _dbos_check
    if check is None or check.done():
        check = _dbos_check = Future()
        threading.Thread(target=_list_one_workflow, args=(check,), name="quire-health-dbos", daemon=True).start()
    try:
        check.result(timeout=DBOS_CHECK_S)
    except FutureTimeout:
        return {"ok": False, "error": "DBOS is reconnecting to its database."}
    except Exception as exc:  # noqa: BLE001 - health reports any failure instead of raising it
        return {"ok": False, "error": str(exc)}
    return {"ok": True}


def _database_hints(postgres_ok: bool, settings: Settings) -> list[str]:
    if postgres_ok:
        return []
    if settings.database_url is None:
        return ["The embedded database stopped; Quire is restarting it and carries on by itself."]
    return ["The database at DATABASE_URL is unreachable; Quire reconnects as soon as it is back."]


def _local_model_hints(problem: ModelUnavailable | None) -> list[str]:
    if problem is None:
        return []
    return [f"{problem.message} Searches use keywords only until the local embedding model is installed: "
            f"`{problem.hint}`, then restart Quire."]


def _hints(reachable: bool, chat_ok: bool, embed_model: str | None, settings: Settings) -> list[str]:
    """`embed_model`: the vault's Ollama embedding model when Ollama lacks it."""
    if not reachable:
        return [f"Start Ollama with `ollama serve` (expected at {settings.ollama_host})."]
    hints = [f"Pull the chat model: `ollama pull {settings.chat_model}`."] if not chat_ok else []
    return hints + ([f"Pull the embedding model: `ollama pull {embed_model}`."] if embed_model else [])


def _embedding_blocked(reachable: bool, state: str | None, model_pulled: bool) -> str | None:
    """Why an Ollama embedder cannot embed now (None: it can, or the embedder is the built-in one)."""
    if state is not None:  # the built-in model: its own state says what it is doing
        return None
    if not reachable:
        return "Ollama is not running"
    return None if model_pulled else "the model is not pulled in Ollama"


@router.get("/health", response_model=Health)
def health(settings: SettingsDep, db: DatabaseDep, llm: LLMDep, search: SearchDep, embedder: EmbedderDep,
           executor_id: ExecutorIdDep, connections: ConnectionsDep) -> dict[str, Any]:
    status = llm.status()
    postgres_ok = db.ping()
    index: dict[str, Any] = {"state": search.state}
    cluster = Cluster(processes=[], takeovers=[], hints=[])
    chat_ok = status.has(settings.chat_model)
    active = embedder.current()  # the vault's embedding model, which a switch may have changed since start
    embed_model = display_name(active.model)
    ollama_has_embed_model = status.has(embed_model)
    embedding = embedder_status(active, embed_model, ollama_has_embed_model)
    progress: EmbeddingProgress | None = None
    if postgres_ok:
        # The database can go between the ping and these reads: health then reports it down, never a 503.
        try:
            index = search.stats()
            cluster = cluster_status(db, executor_id, settings.takeover_after_s)
            progress = embedding_progress(db, active, embedding.name,
                                          _embedding_blocked(status.reachable, embedding.state, ollama_has_embed_model))
        except DATABASE_LOST:
            db.liveness.suspect()
            postgres_ok = False
    dbos_state = _dbos_state(postgres_ok)
    # An in-process embedder (one with a load state) needs no Ollama model.
    ollama_embed_ok = embedding.state is not None or ollama_has_embed_model
    privacy = privacy_report(connections, settings.ollama_host, settings.database_url)
    healthy = (postgres_ok and dbos_state["ok"] and status.reachable and chat_ok and embedding.ready
               and not cluster.hints)
    return {
        "status": "ok" if healthy else "degraded",
        "version": APPLICATION_VERSION,
        "postgres": {"ok": postgres_ok, "embedded": settings.database_url is None},
        "dbos": {**dbos_state, "application_version": APPLICATION_VERSION, "executor_id": executor_id},
        "ollama": {
            "reachable": status.reachable,
            "host": settings.ollama_host,
            "models": status.models,
            "chat_model": {"name": settings.chat_model, "present": chat_ok},
            "embed_model": {"name": embed_model, "present": ollama_has_embed_model},
            "error": status.error,
        },
        "embedder": {"kind": kind_of(active.model) or settings.embedder, "model": active.model,
                     "ready": embedding.ready,
                     "name": embedding.name,
                     "state": embedding.state, "error": embedding.problem.message if embedding.problem else None,
                     "passages_per_s": active.speed.passages_per_s if isinstance(active, MeteredEmbedder) else None,
                     "progress": progress},
        "index": index,
        "voice": asdict(transcriber(settings).status()),
        "processes": cluster.processes,
        "takeovers": cluster.takeovers,
        "privacy": privacy,
        "hints": ([flag.message for flag in privacy.flags] + _database_hints(postgres_ok, settings) + cluster.hints
                  + _hints(status.reachable, chat_ok, None if ollama_embed_ok else embed_model, settings)
                  + _local_model_hints(embedding.problem)),
    }


class Readiness(BaseModel):
    ready: bool
    executor_id: str


@router.get("/health/ready", response_model=Readiness,
            responses={503: {"description": "This process cannot serve now (its database is unreachable)"}})
def ready(db: DatabaseDep, executor_id: ExecutorIdDep) -> dict[str, Any]:
    """For a load balancer: 200 while this process can serve requests, 503 while it cannot. What is missing
    for the whole installation (a model, a silent process) is `/api/health`'s `status`, not a reason to
    take this process out of rotation: every process would share it."""
    if not db.liveness.is_up():
        raise DatabaseUnavailable()
    return {"ready": True, "executor_id": executor_id}
