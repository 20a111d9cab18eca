"""Typed FastAPI dependencies: each of the process's services, taken from `app.state.services` (built
once by the app factory, backend/app.py). A handler names the services it uses, e.g. `db: DatabaseDep`.

They are `async def` although they never await: FastAPI runs a plain `def` dependency in the thread
pool, and three thread hops per request for an attribute lookup were a measurable share of a request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Request

from backend.agent.context import ChatServices
from backend.config import Settings
from backend.ingest.backfill import EmbedBackfill
from backend.ingest.library import Library
from backend.ingest.model_switch import ModelSwitch
from backend.ingest.uploads import Uploads
from backend.ingest.url_import import UrlImporter
from backend.llm.client import LLMClient
from backend.llm.embedding_models import ActiveEmbedder
from backend.progress.events import Activity
from backend.progress.privacy import ConnectionWatch
from backend.progress.sessions import Rules
from backend.retrieval.service import SearchService
from backend.services import Services
from backend.store.db import Database
from backend.study.jobs import Drafting, StudyJobs
from backend.viewer.service import Viewer

T = TypeVar("T")


def _service(pick: Callable[[Services], T]) -> Callable[[Request], Awaitable[T]]:
    async def dependency(request: Request) -> T:
        services: Services = request.app.state.services
        return pick(services)

    return dependency


async def _executor_id(request: Request) -> str:
    services: Services = request.app.state.services
    return services.executor_id


SettingsDep = Annotated[Settings, Depends(_service(lambda s: s.settings))]
DatabaseDep = Annotated[Database, Depends(_service(lambda s: s.db))]
SearchDep = Annotated[SearchService, Depends(_service(lambda s: s.search))]
LLMDep = Annotated[LLMClient, Depends(_service(lambda s: s.llm))]
EmbedderDep = Annotated[ActiveEmbedder, Depends(_service(lambda s: s.embedder))]
ModelSwitchDep = Annotated[ModelSwitch, Depends(_service(lambda s: s.model_switch))]
ExecutorIdDep = Annotated[str, Depends(_executor_id)]
RulesDep = Annotated[Rules, Depends(_service(lambda s: s.rules))]
ActivityDep = Annotated[Activity, Depends(_service(lambda s: s.activity))]
LibraryDep = Annotated[Library, Depends(_service(lambda s: s.library))]
UploadsDep = Annotated[Uploads, Depends(_service(lambda s: s.uploads))]
UrlImporterDep = Annotated[UrlImporter, Depends(_service(lambda s: s.url_importer))]
BackfillDep = Annotated[EmbedBackfill, Depends(_service(lambda s: s.backfill))]
StudyJobsDep = Annotated[StudyJobs, Depends(_service(lambda s: s.study))]
ChatDep = Annotated[ChatServices, Depends(_service(lambda s: s.chat))]
ViewerDep = Annotated[Viewer, Depends(_service(lambda s: s.viewer))]
ConnectionsDep = Annotated[ConnectionWatch | None, Depends(_service(lambda s: s.connections))]
DraftingDep = Annotated[Drafting, Depends(_service(lambda s: s.study.drafting))]
