"""The app factory: wires settings, Postgres, DBOS, the model client and the index into one FastAPI app.

Startup order matters: the database (and its migrations) first, then the index built from it, then
the context that DBOS steps use, and only then `DBOS.launch()`, which may immediately resume workflows
interrupted by a crash.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import NoReturn

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from backend import durable
from backend.api import (
    availability,
    chat,
    docs,
    document_versions,
    documents,
    health,
    ingest,
    metrics,
    notes,
    openapi,
    progress,
    search,
    spa,
    study,
    transcribe,
    trash,
    viewer,
)
from backend.api.security import RequestGuard
from backend.cluster.identity import resolve_executor_id
from backend.cluster.membership import Membership
from backend.config import Settings
from backend.context import AppContext, set_context
from backend.errors import install_error_handlers
from backend.ingest.backfill import start_embed_backfill, stop_embed_backfills
from backend.ingest.cache_sweeper import CacheSweeper
from backend.ingest.library import maintain_originals
from backend.ingest.orphans import remove_orphaned_uploads
from backend.ingest.reconcile import reconcile_stuck_documents
from backend.ingest.trash import schedule_trash_retention
from backend.llm.client import LLMClient
from backend.llm.embedders import build_embedder, preload
from backend.llm.prompts import PromptLibrary
from backend.mcp import http as mcp_http
from backend.progress.privacy import ConnectionWatch
from backend.retrieval.keyword_fold import KeywordFolder
from backend.retrieval.memory import MemoryBackend
from backend.retrieval.postgres_backend import PostgresBackend
from backend.retrieval.service import SearchBackend, SearchService
from backend.scratch import remove_abandoned_scratch
from backend.store import embeddings as embedding_store
from backend.store.db import Database, pool_sizes, sibling_database_url
from backend.store.embedded import close_embedded_postgres, start_embedded_postgres, stop_supervising
from backend.store.preflight import DBOS_SUFFIX, check_server
from backend.store.processes import ProcessMode
from backend.store.system_db import system_engine

log = logging.getLogger(__name__)

ROUTERS = (health.router, documents.router, document_versions.router, trash.router, ingest.router, search.router,
           chat.router, study.router, progress.router, transcribe.router, viewer.router, docs.router, metrics.router,
           notes.router)


def _build_context(settings: Settings, database_url: str, membership: Membership) -> AppContext:
    db = Database(database_url, origin=membership.executor_id, max_size=pool_sizes(settings.db_connections).app,
                  application_name=membership.session_name, guard=membership.guard_connection)
    db.open()
    llm = LLMClient(settings.ollama_host, settings.chat_model, settings.embed_model, settings.ollama_timeout_s)
    embedder = build_embedder(settings.embedder, llm, settings.embed_model, settings.local_embed_model)
    backend: SearchBackend = (PostgresBackend(db, embedder.model, settings.search_keyword_candidates or None)
                              if settings.search_backend == "postgres"
                              else MemoryBackend(db, embedder.model, settings.index_poll_s))
    search_service = SearchService(backend, embedder)
    search_service.build()
    return AppContext(settings=settings, db=db, llm=llm, embedder=embedder,
                      prompts=PromptLibrary(settings.prompts_dir), search=search_service, membership=membership)


def start_services(settings: Settings, mode: ProcessMode = "server") -> AppContext:
    """Start everything but HTTP; a worker process (`backend.worker`) runs exactly this."""
    executor_id = resolve_executor_id(settings.executor_id, settings.data_dir)  # before the data folder fills
    started_at = time.time()
    settings.docs_dir.mkdir(parents=True, exist_ok=True)
    database_url = settings.database_url or start_embedded_postgres(settings.postgres_dir)
    address = f"http://{settings.host}:{settings.port}" if mode == "server" else None
    membership = Membership(database_url, executor_id, mode, heartbeat_s=settings.heartbeat_s,
                            takeover_after_s=settings.takeover_after_s, data_dir=settings.data_dir, address=address)
    check_server(database_url, membership.session_name)  # one line if this server or role cannot serve Quire
    membership.claim()  # before the migrations; and DBOS would resume another live process's workflows
    context = _build_context(settings, database_url, membership)  # applies the migrations
    membership.register()
    set_context(context)
    if mode == "server":  # the first search must not wait for an in-process model to load (a worker never searches)
        preload(context.embedder)
    maintain_originals(context)
    context.cache_sweeper = CacheSweeper(context.db, settings.docs_dir, settings.cache_sweep_s)
    context.cache_sweeper.start()
    context.keyword_folder = KeywordFolder(context.db, settings.keyword_fold_s)  # in either search mode
    context.keyword_folder.start()
    context.connections = ConnectionWatch()
    context.connections.start()
    remove_orphaned_uploads(context.db, settings.docs_dir, started_at)
    remove_abandoned_scratch()
    pools = pool_sizes(settings.db_connections)
    durable.launch_dbos(settings, context.db.url, executor_id, system_engine(
        sibling_database_url(context.db.url, DBOS_SUFFIX), pool_size=pools.dbos,
        application_name=membership.session_name, guard=membership.guard_system_database))
    membership.start(context.db)
    schedule_trash_retention(settings)
    reconcile_stuck_documents(context)
    context.search.start()
    if embedding_store.any_missing_embeddings(context.db, context.embedder.model):
        start_embed_backfill()
    return context


def stop_services(context: AppContext) -> None:
    context.search.stop()
    if context.cache_sweeper is not None:
        context.cache_sweeper.stop()
    if context.keyword_folder is not None:
        context.keyword_folder.stop()
    if context.connections is not None:
        context.connections.stop()
    try:
        stop_embed_backfills()  # a backfill waiting for Ollama would otherwise hold up the exit
    except Exception:  # the database gone, say: DBOS and the pool must still be shut down
        log.warning("could not end the embedding backfill before stopping", exc_info=True)
    durable.shutdown_dbos()
    context.membership.stop()
    context.db.close()
    stop_supervising()
    close_embedded_postgres()
    set_context(None)


def end_process(code: int | str | None) -> NoReturn:
    """End a Quire process (server or worker) once its services are stopped, without Python's exit hooks.

    DBOS runs workflows on executor threads, and one may be blocked waiting on other workflows (a run
    waiting for its documents, which another process may finish): after `DBOS.destroy` nothing ends that
    wait, and at interpreter exit `concurrent.futures` joins those threads forever, so the process hung
    until killed. Their state is durable in Postgres (they resume here at the next start, or on another
    process), the embedded Postgres handle is closed (`close_embedded_postgres`), so the process ends here.
    `code` as `SystemExit` takes it: a message is printed and ends with 1.
    """
    close_embedded_postgres()  # a process that failed to start never ran stop_services
    if isinstance(code, str):
        print(code, file=sys.stderr)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 1 if code is not None else 0)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.load()
    if not settings.binds_loopback_only and not settings.api_token:
        raise SystemExit(f"Refusing to listen on {settings.host} without QUIRE_API_TOKEN set.")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Startup and shutdown block (database, DBOS); DBOS refuses some calls on the event loop thread.
        try:
            context = await run_in_threadpool(start_services, settings)
        except SystemExit as refused:  # a duplicate id, a server or role Quire cannot use: one line, no traceback
            end_process(refused.code)
        app.state.context = context
        try:
            yield
        finally:
            await context.llm.aclose()
            await run_in_threadpool(stop_services, context)

    # FastAPI's built-in OpenTelemetry hooks are off: Quire exports no telemetry, and checking for
    # providers on every request cost more than some endpoints themselves.
    # docs_url=None: /api/docs comes from backend/api/docs.py, with Swagger UI served from this server.
    app = FastAPI(title="Quire", version="1.0", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json",
                  telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False})
    install_error_handlers(app)
    openapi.install(app)
    for router in ROUTERS:
        app.include_router(router)
    mcp_http.mount(app, settings)
    spa.mount(app, settings.frontend_dist)
    availability.install(app)
    app.add_middleware(RequestGuard, settings=settings)
    return app
