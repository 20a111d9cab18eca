"""The running app's services, built once at startup and reachable from DBOS steps.

DBOS steps are plain functions whose arguments are checkpointed, so they cannot be handed a connection
pool or an index; they call `get_context()` instead. Routers receive the same object through
`api/deps.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from backend.cluster.membership import Membership
    from backend.config import Settings
    from backend.ingest.cache_sweeper import CacheSweeper
    from backend.llm.client import LLMClient
    from backend.llm.embedders import Embedder
    from backend.llm.prompts import PromptLibrary
    from backend.progress.privacy import ConnectionWatch
    from backend.retrieval.keyword_fold import KeywordFolder
    from backend.retrieval.service import SearchService
    from backend.store.db import Database


@dataclass
class AppContext:
    settings: Settings
    db: Database
    llm: LLMClient
    embedder: Embedder
    prompts: PromptLibrary
    search: SearchService
    membership: Membership
    cache_sweeper: CacheSweeper | None = None  # started with the services, after the startup sweep
    keyword_folder: KeywordFolder | None = None  # started with the services
    connections: ConnectionWatch | None = None  # started with the services: what leaves this machine

    @property
    def executor_id(self) -> str:
        """This process's DBOS executor id (unique among the processes sharing the database)."""
        return self.membership.executor_id


_current: AppContext | None = None


def set_context(context: AppContext | None) -> None:
    global _current  # noqa: PLW0603 - the process-wide handle DBOS steps need
    _current = context


def get_context() -> AppContext:
    if _current is None:
        raise RuntimeError("Quire's services are not started (get_context() before app startup)")
    return _current
