"""Fixtures for service-level study and progress tests: a fresh migrated database, and an app context
whose model client talks to the fake Ollama (no server process, no DBOS)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.config import Settings
from backend.context import AppContext
from backend.llm.client import LLMClient
from backend.llm.prompts import PromptLibrary
from backend.store.db import Database
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres


@pytest.fixture(scope="module")
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_study", min_size=1, max_size=4) as database:
        yield database


@pytest.fixture
def ctx(db: Database, fake_ollama: FakeOllama) -> AppContext:
    """Services need only what they use: the database, the model client and the prompt library."""
    settings = Settings(_env_file=None, OLLAMA_HOST=fake_ollama.url)  # type: ignore[call-arg]
    llm = LLMClient(fake_ollama.url, settings.chat_model, settings.embed_model, timeout_s=10)
    return AppContext(settings=settings, db=db, llm=llm, embedder=None, prompts=PromptLibrary(settings.prompts_dir),  # type: ignore[arg-type]
                      search=None, membership=None)  # type: ignore[arg-type]
