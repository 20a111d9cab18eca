"""The services one Quire process runs, built once by its entry point and stopped by it.

`backend/app.py` builds them (`start_services`) for the web server, the worker (`backend/worker.py`)
and the MCP stdio process (`backend/mcp/__main__.py`). Only those entry points, the API's dependencies
(`backend/api/deps.py`) and the MCP tools see this bundle: everything below them is handed exactly the
services it uses (a database, the index, the model client, a settings value ...), never the bundle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from backend.agent.context import ChatServices
    from backend.cluster.membership import Membership
    from backend.config import Settings
    from backend.ingest.backfill import EmbedBackfill
    from backend.ingest.cache_sweeper import CacheSweeper
    from backend.ingest.library import Library
    from backend.ingest.model_switch import ModelSwitch
    from backend.ingest.trash import TrashRetention
    from backend.ingest.uploads import Uploads
    from backend.ingest.url_import import UrlImporter
    from backend.ingest.workflow import IngestRuns
    from backend.llm.client import LLMClient
    from backend.llm.embedding_models import ActiveEmbedder
    from backend.llm.prompts import PromptLibrary
    from backend.progress.events import Activity
    from backend.progress.privacy import ConnectionWatch
    from backend.progress.sessions import Rules
    from backend.retrieval.keyword_fold import KeywordFolder
    from backend.retrieval.model_watch import ModelWatch
    from backend.retrieval.service import SearchService
    from backend.store.db import Database
    from backend.study.jobs import StudyJobs
    from backend.viewer.service import Viewer


@dataclass
class Services:
    settings: Settings
    db: Database
    llm: LLMClient
    embedder: ActiveEmbedder  # embeds with the vault's active model
    prompts: PromptLibrary
    search: SearchService
    membership: Membership
    rules: Rules  # how study activity is counted (idle gap, time zone)
    activity: Activity
    backfill: EmbedBackfill
    ingest: IngestRuns
    library: Library
    uploads: Uploads
    url_importer: UrlImporter
    trash_retention: TrashRetention
    study: StudyJobs
    chat: ChatServices
    viewer: Viewer
    model_watch: ModelWatch  # keeps this process on the vault's active embedding model
    model_switch: ModelSwitch
    switch_to_configured: str | None = None  # the settings' model, when they changed it since the last start
    cache_sweeper: CacheSweeper | None = None  # started with the services, after the startup sweep
    keyword_folder: KeywordFolder | None = None  # started with the services
    connections: ConnectionWatch | None = None  # started with the services: what leaves this machine

    @property
    def executor_id(self) -> str:
        """This process's DBOS executor id (unique among the processes sharing the database)."""
        return self.membership.executor_id
