"""The app factory: wires settings, Postgres, DBOS, the model client and the index into one FastAPI app.

Startup order matters: the database (and its migrations) first, then the index built from it, then
the context that DBOS steps use, and only then `DBOS.launch()`, which may immediately resume workflows
interrupted by a crash.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from backend import durable
from backend.api import chat, documents, health, ingest, progress, search, spa, study
from backend.api.security import RequestGuard
from backend.config import Settings
from backend.context import AppContext, set_context
from backend.errors import install_error_handlers
from backend.ingest.backfill import start_embed_backfill, stop_embed_backfills
from backend.ingest.reconcile import reconcile_stuck_documents
from backend.llm.client import LLMClient
from backend.llm.embedders import build_embedder
from backend.llm.prompts import PromptLibrary
from backend.retrieval.postgres import PostgresSearchService
from backend.retrieval.service import SearchService
from backend.store import ingest as ingest_store
from backend.store.db import Database
from backend.store.embedded import start_embedded_postgres

log = logging.getLogger(__name__)

ROUTERS = (health.router, documents.router, ingest.router, search.router, chat.router, study.router,
           progress.router)


def _build_context(settings: Settings, database_url: str) -> AppContext:
    db = Database(database_url, origin=settings.executor_id)
    db.open()
    llm = LLMClient(settings.ollama_host, settings.chat_model, settings.embed_model, settings.ollama_timeout_s)
    embedder = build_embedder(settings.embedder, llm, settings.embed_model)
    search_service = (PostgresSearchService(db, embedder) if settings.search_backend == "postgres"
                      else SearchService(db, embedder, settings.index_poll_s))
    search_service.build()
    return AppContext(settings=settings, db=db, llm=llm, embedder=embedder,
                      prompts=PromptLibrary(settings.prompts_dir), search=search_service)


def start_services(settings: Settings) -> AppContext:
    settings.docs_dir.mkdir(parents=True, exist_ok=True)
    database_url = settings.database_url or start_embedded_postgres(settings.postgres_dir)
    context = _build_context(settings, database_url)
    set_context(context)
    durable.launch_dbos(settings, context.db.url)
    reconcile_stuck_documents(context)
    context.search.start()
    if ingest_store.count_missing_embeddings(context.db, context.embedder.model):
        start_embed_backfill()
    return context


def stop_services(context: AppContext) -> None:
    context.search.stop()
    try:
        stop_embed_backfills()  # a backfill waiting for Ollama would otherwise hold up the exit
    except Exception:  # the database gone, say: DBOS and the pool must still be shut down
        log.warning("could not end the embedding backfill before stopping", exc_info=True)
    durable.shutdown_dbos()
    context.db.close()
    set_context(None)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.load()
    if not settings.binds_loopback_only and not settings.api_token:
        raise SystemExit(f"Refusing to listen on {settings.host} without QUIRE_API_TOKEN set.")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Startup and shutdown block (database, DBOS); DBOS refuses some calls on the event loop thread.
        context = await run_in_threadpool(start_services, settings)
        app.state.context = context
        try:
            yield
        finally:
            await context.llm.aclose()
            await run_in_threadpool(stop_services, context)

    # FastAPI's built-in OpenTelemetry hooks are off: Quire exports no telemetry, and checking for
    # providers on every request cost more than some endpoints themselves.
    app = FastAPI(title="Quire", version="1.0", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json",
                  telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False})
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    spa.mount(app, settings.frontend_dist)
    app.add_middleware(RequestGuard, settings=settings)
    return app
