"""The app factory: wires settings, Postgres, DBOS, the model client and the index into one FastAPI app.

Startup order matters: the database (and its migrations) first, then the index built from it, then the
services whose workflows DBOS runs (they register them with DBOS as they are built), and only then
`DBOS.launch()`, which may immediately resume workflows interrupted by a crash.
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
from backend.agent.context import ChatServices
from backend.api import (
    availability,
    chat,
    docs,
    document_versions,
    documents,
    embedding,
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
from backend.config import FRONTEND_DIST, Settings
from backend.errors import install_error_handlers
from backend.ingest.backfill import EmbedBackfill
from backend.ingest.cache_sweeper import CacheSweeper
from backend.ingest.library import Library
from backend.ingest.model_switch import ModelSwitch
from backend.ingest.orphans import remove_orphaned_uploads
from backend.ingest.reconcile import reconcile_stuck_documents
from backend.ingest.steps import IngestSteps
from backend.ingest.trash import TrashRetention
from backend.ingest.uploads import Uploads
from backend.ingest.url_import import UrlImporter
from backend.ingest.workflow import IngestRuns
from backend.llm.client import LLMClient
from backend.llm.embedders import build_embedder, preload
from backend.llm.embedding_models import ActiveEmbedder
from backend.llm.prompts import PromptLibrary
from backend.mcp import http as mcp_http
from backend.progress.events import Activity
from backend.progress.privacy import ConnectionWatch
from backend.progress.sessions import rules_for
from backend.retrieval.keyword_fold import KeywordFolder
from backend.retrieval.memory import MemoryBackend
from backend.retrieval.model_watch import ModelWatch
from backend.retrieval.postgres_backend import PostgresBackend
from backend.retrieval.service import SearchBackend, SearchService
from backend.scratch import remove_abandoned_scratch
from backend.services import Services
from backend.store import embedding_model as embedding_state
from backend.store.db import Database, pool_sizes, sibling_database_url
from backend.store.embedded import close_embedded_postgres, start_embedded_postgres, stop_supervising
from backend.store.preflight import DBOS_SUFFIX, check_server
from backend.store.processes import ProcessMode
from backend.store.system_db import system_engine
from backend.study.jobs import Drafting, StudyJobs
from backend.study.overview_speech import OverviewSpeech
from backend.study.runners import RUNNERS
from backend.viewer.service import Viewer

log = logging.getLogger(__name__)

ROUTERS = (health.router, documents.router, document_versions.router, trash.router, ingest.router, search.router,
           chat.router, study.router, progress.router, embedding.router, transcribe.router, viewer.router, docs.router,
           metrics.router, notes.router)


def _build_services(settings: Settings, database_url: str, membership: Membership) -> Services:
    """Every service of the process, each handed what it uses. Building the DBOS ones registers their
    workflows, so this runs before `DBOS.launch()`."""
    tuning = settings.tuning
    db = Database(database_url, origin=membership.executor_id, max_size=pool_sizes(tuning.db_connections).app,
                  application_name=membership.session_name, guard=membership.guard_connection)
    db.open()  # applies the migrations
    llm = LLMClient(settings.ollama_host, settings.chat_model, settings.embed_model, tuning.model_silence_s)
    configured = build_embedder(settings.embedder, llm, settings.embed_model, settings.local_embed_model)
    state, setting_changed = embedding_state.ensure(db, configured.model)  # the vault's model, shared
    embedder = ActiveEmbedder(configured, llm)
    embedder.use(state["active"])

    def search_backend(model: str) -> SearchBackend:
        if settings.search_backend == "postgres":
            return PostgresBackend(db, model, tuning.search_keyword_candidates or None)
        return MemoryBackend(db, model, tuning.index_poll_s)

    search = SearchService(search_backend(embedder.model), embedder)
    search.build()
    prompts = PromptLibrary(settings.prompts_dir)
    rules = rules_for(settings)
    activity = Activity(db, rules)
    backfill = EmbedBackfill(db, embedder, search, batch_size=tuning.embed_batch_size,
                             first_pause_s=tuning.embed_retry_s, executor_id=membership.executor_id)
    watch = ModelWatch(db, embedder, search, search_backend, tuning.index_poll_s, on_change=backfill.start_if_missing)
    search.follow = watch.run_once
    switch = ModelSwitch(db, llm, embedder, watch, batch_size=tuning.embed_batch_size,
                         first_pause_s=tuning.embed_retry_s, executor_id=membership.executor_id)
    ingest = IngestRuns(IngestSteps(db, search, embedder, settings), backfill, tuning.embed_batch_size)
    library = Library(db, settings.docs_dir, search, ingest)
    uploads = Uploads(db, settings.docs_dir, settings.max_upload_mb, ingest)
    drafting = Drafting(db, search, llm, prompts)
    return Services(
        settings=settings, db=db, llm=llm, embedder=embedder, prompts=prompts, search=search,
        membership=membership, rules=rules, activity=activity, backfill=backfill, ingest=ingest, library=library,
        uploads=uploads, model_watch=watch, model_switch=switch,
        switch_to_configured=configured.model if setting_changed else None,
        url_importer=UrlImporter(uploads, allow_private=settings.url_import_allow_private),
        trash_retention=TrashRetention(library, settings.trash_retention_days, tuning.trash_sweep_cron),
        study=StudyJobs(db, llm, settings.chat_model, drafting, RUNNERS,
                        {"audio_overview": OverviewSpeech(db).speak}),
        chat=ChatServices(db, search, llm, prompts, activity, settings),
        viewer=Viewer(db, library),
    )


def start_services(settings: Settings, mode: ProcessMode = "server") -> Services:
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
    services = _build_services(settings, database_url, membership)  # applies the migrations
    membership.register()
    if mode == "server":  # the first search must not wait for an in-process model to load (a worker never searches)
        preload(services.embedder.current())
    services.library.maintain_originals()
    services.cache_sweeper = CacheSweeper(services.db, settings.docs_dir, settings.tuning.cache_sweep_s)
    services.cache_sweeper.start()
    services.keyword_folder = KeywordFolder(services.db, settings.tuning.keyword_fold_s)  # in either search mode
    services.keyword_folder.start()
    services.connections = ConnectionWatch()
    services.connections.start()
    remove_orphaned_uploads(services.db, settings.docs_dir, started_at)
    remove_abandoned_scratch()
    pools = pool_sizes(settings.tuning.db_connections)
    durable.launch_dbos(settings, services.db.url, executor_id, system_engine(
        sibling_database_url(services.db.url, DBOS_SUFFIX), pool_size=pools.dbos,
        application_name=membership.session_name, guard=membership.guard_system_database))
    membership.start(services.db)
    services.trash_retention.schedule()
    services.search.notify(reconcile_stuck_documents(services.db))
    services.search.start()
    services.model_watch.start()
    services.backfill.start_if_missing()
    if services.switch_to_configured is not None:  # the settings name another model than at the last start
        services.model_switch.begin(services.switch_to_configured)
    services.model_switch.resume_if_pending()
    return services


def stop_services(services: Services) -> None:
    services.model_watch.stop()
    services.search.stop()
    if services.cache_sweeper is not None:
        services.cache_sweeper.stop()
    if services.keyword_folder is not None:
        services.keyword_folder.stop()
    if services.connections is not None:
        services.connections.stop()
    try:
        services.backfill.stop()  # a backfill waiting for Ollama would otherwise hold up the exit
        services.model_switch.stop()  # so would a model switch
    except Exception:  # the database gone, say: DBOS and the pool must still be shut down
        log.warning("could not end the embedding backfill or model switch before stopping", exc_info=True)
    durable.shutdown_dbos()
    services.membership.stop()
    services.db.close()
    stop_supervising()
    close_embedded_postgres()


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
            services = await run_in_threadpool(start_services, settings)
        except SystemExit as refused:  # a duplicate id, a server or role Quire cannot use: one line, no traceback
            end_process(refused.code)
        app.state.services = services
        try:
            yield
        finally:
            await services.llm.aclose()
            await run_in_threadpool(stop_services, services)

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
    spa.mount(app, FRONTEND_DIST)
    availability.install(app)
    app.add_middleware(RequestGuard, settings=settings)
    return app
