"""Fixtures for service-level study and progress tests: a fresh migrated database, a model client that
talks to the fake Ollama and the prompt library (no server process, no DBOS)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.config import Settings
from backend.llm.client import LLMClient
from backend.llm.prompts import PromptLibrary
from backend.progress.events import Activity
from backend.progress.sessions import Rules
from backend.store.db import Database
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres


@pytest.fixture(scope="module")
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_study", min_size=1, max_size=4) as database:
        yield database


@pytest.fixture
def llm(fake_ollama: FakeOllama) -> LLMClient:
    settings = Settings(_env_file=None, OLLAMA_HOST=fake_ollama.url)  # type: ignore[call-arg]
    return LLMClient(fake_ollama.url, settings.chat_model, settings.embed_model, timeout_s=10)


@pytest.fixture
def prompts() -> PromptLibrary:
    return PromptLibrary(Settings(_env_file=None).prompts_dir)  # type: ignore[call-arg]


@pytest.fixture
def activity(db: Database) -> Activity:
    return Activity(db, Rules())
