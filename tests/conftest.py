"""Shared fixtures: one throwaway Postgres and one fake Ollama per test session, a Quire server
process shared by the API tests, and factories for fresh servers where a test needs its own."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from scripts.shared_data import missing_reason
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer, serve

pytest_plugins = ["tests.support.ordering"]  # the order xdist hands the modules out in

SHARED_UPLOAD_LIMIT_MB = 5
E2E = Path(__file__).parent / "e2e"


# A test module that starts Quire processes itself (a module-scoped server with settings of its own, made
# directly or through tests/support/server.serve; a worker): its tests are slow whatever fixtures they use.
# A module that runs a script starting a server says so with `pytestmark = pytest.mark.slow`.
_STARTS_PROCESSES = ("QuireServer(", "QuireWorker(", "yield from serve(")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Many tests read real documents and a judged collection kept outside the repository. Without them the
    run stops here with one reason, rather than failing each of those tests or passing without them."""
    reason = missing_reason()
    if reason is not None:
        pytest.exit(reason, returncode=pytest.ExitCode.USAGE_ERROR)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tiers (`./scripts/test.sh --fast` runs neither): `e2e`, every browser test (tests/e2e);
    `slow`, besides the tests marked so, every test that starts server processes of its own: through
    `server_factory`, or in a module that starts them itself."""
    starts: dict[Path, bool] = {}
    for item in items:
        if item.path.is_relative_to(E2E):
            item.add_marker(pytest.mark.e2e)
        if item.path not in starts:
            source = item.path.read_text()
            starts[item.path] = any(marker in source for marker in _STARTS_PROCESSES)
        if starts[item.path] or "server_factory" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres() -> Iterator[ThrowawayPostgres]:
    pg = ThrowawayPostgres()
    yield pg
    pg.close()


@pytest.fixture(scope="session")
def fake_ollama_server() -> Iterator[FakeOllama]:
    fake = FakeOllama().start()
    yield fake
    fake.stop()


@pytest.fixture
def fake_ollama(fake_ollama_server: FakeOllama) -> Iterator[FakeOllama]:
    """The session's fake Ollama, reset (and running) for this test."""
    if not fake_ollama_server.running:
        fake_ollama_server.start()
    fake_ollama_server.reset()
    yield fake_ollama_server
    if not fake_ollama_server.running:
        fake_ollama_server.start()
    fake_ollama_server.reset()


@pytest.fixture
def server_factory(
    postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., QuireServer]]:
    """Start extra Quire servers, each with its own database and data folder; all stopped afterwards."""
    started: list[QuireServer] = []

    def make(**env: str) -> QuireServer:
        data_dir = tmp_path_factory.mktemp("quire-data")
        server = QuireServer(postgres.fresh_database(), data_dir, fake_ollama_server.url, **env)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def quire(
    postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[QuireServer]:
    """The Quire server shared by API tests (tests keep to their own uniquely named documents)."""
    yield from serve(postgres, fake_ollama_server, tmp_path_factory.mktemp("quire-shared"),
                     QUIRE_MAX_UPLOAD_MB=str(SHARED_UPLOAD_LIMIT_MB))


@pytest.fixture
def api(quire: QuireServer, fake_ollama: FakeOllama) -> Iterator[httpx.Client]:
    with quire.client() as client:
        yield client


@pytest.fixture
def unique() -> Callable[[str], str]:
    """Make a file name unique to this test, keeping its extension: unique("notes.md") -> "notes-1a2b3c.md"."""
    token = uuid.uuid4().hex[:6]

    def name(filename: str) -> str:
        path = Path(filename)
        return f"{path.stem}-{token}{path.suffix}"

    return name
