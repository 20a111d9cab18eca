"""Your own Postgres, one clear message: a real Quire server started against a separate Postgres server (a
second pgserver started here) as an ordinary role stops with one line naming the SQL to run and who must
run it; once a superuser has run exactly that, the same role starts Quire and ingests a real document."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from backend.store.db import database_name, url_for_database
from backend.store.preflight import ServerFacts, check_server, problem
from tests.support.corpus import CORPUS
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

pytestmark = pytest.mark.slow


@pytest.fixture
def own_server() -> Iterator[ThrowawayPostgres]:
    """A Postgres server of this test's own, as an administrator would run it."""
    server = ThrowawayPostgres()
    yield server
    server.close()


def _ordinary_role(admin_url: str, database: str) -> str:
    """A login role with no rights beyond the defaults, and the URL through which it reaches `database`."""
    role = f"quire_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(sql.Identifier(role)))
    parts = urlsplit(url_for_database(admin_url, database))
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(parts.username or "postgres", role, 1)))


def _refusal(server: QuireServer) -> list[str]:
    """What the refused server printed after its start line."""
    assert server.process is not None
    server.process.wait(timeout=60)
    lines = [line for line in server.log_tail(200).splitlines() if line.strip()]
    return [line for line in lines if not line.startswith("Quire is starting")]


def test_an_ordinary_role_gets_one_line_saying_what_a_superuser_must_run(
        own_server: ThrowawayPostgres, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    database = database_name(own_server.fresh_database("quire"))  # owned by the superuser, as an admin makes it
    url = _ordinary_role(own_server.admin_url, database)
    server = QuireServer(url, tmp_path / "data", fake_ollama.url)
    with pytest.raises(RuntimeError, match="exited with 1"):
        server.start()
    printed = _refusal(server)
    assert len(printed) == 1, printed
    line = printed[0]
    assert "may not create the pgvector extension" in line
    assert f"{database}_dbos" in line
    assert line.index("A superuser must run once: psql") > 0
    statements = re.findall(r"-c '([^']+)'", line)
    assert statements[0] == "CREATE EXTENSION IF NOT EXISTS vector"
    assert any(s.startswith(f"CREATE DATABASE {database}_dbos OWNER") for s in statements), statements
    # The administrator runs exactly what the line says, in the database it names.
    target = re.search(r"psql -d (\S+)", line)
    assert target is not None
    assert target.group(1) == database
    with psycopg.connect(url_for_database(own_server.admin_url, database), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement.encode())
    server.start()  # the same role, no superuser rights, now runs Quire
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT rolsuper, rolcreatedb FROM pg_roles WHERE rolname = current_user").fetchone()
    assert row == (False, False)
    with server.client() as api:
        snapshot = wait_for_run(api, upload(api, {"hochschulrahmengesetz.md": (
            CORPUS / "hochschulrahmengesetz.md").read_bytes()}).json()["workflow_id"], timeout_s=240)
        assert snapshot["status"] == "SUCCESS", snapshot
        assert api.get("/api/health").json()["postgres"]["ok"]
    server.stop()


def test_a_database_that_is_not_there_is_one_line_too(own_server: ThrowawayPostgres, fake_ollama: FakeOllama,
                                                      tmp_path: Path) -> None:
    url = url_for_database(own_server.admin_url, "no_such_vault")
    server = QuireServer(url, tmp_path / "data", fake_ollama.url)
    with pytest.raises(RuntimeError, match="exited with 1"):
        server.start()
    printed = _refusal(server)
    assert len(printed) == 1, printed
    assert "Quire cannot connect to the database" in printed[0]
    assert "CREATE DATABASE no_such_vault OWNER" in printed[0]


FACTS = ServerFacts(
    version_num=160004, version="16.4", role="quire", superuser=False, createdb=False, database="quire",
    vector_created="0.7.4", vector_available="0.7.4", vector_trusted=False, may_create_in_database=True,
    may_create_in_public=True, migrations_pending=True, dbos_database="quire_dbos", dbos_exists=True,
    dbos_connect=True)


def test_what_the_line_says_for_each_missing_piece() -> None:
    assert problem(FACTS) is None
    missing = problem(ServerFacts(**{**vars(FACTS), "vector_created": None, "vector_available": None,
                                     "version_num": 150008, "version": "15.8"}))
    assert missing is not None
    assert "pgvector is not installed on this PostgreSQL 15 server" in missing
    assert "postgresql-15-pgvector" in missing
    assert "apt.postgresql.org" in missing
    old = problem(ServerFacts(**{**vars(FACTS), "version_num": 130012, "version": "13.12"}))
    assert old is not None
    assert "needs 14 or newer" in old
    stale = problem(ServerFacts(**{**vars(FACTS), "vector_created": "0.4.4"}))
    assert stale is not None
    assert "ALTER EXTENSION vector UPDATE" in stale
    public = problem(ServerFacts(**{**vars(FACTS), "may_create_in_public": False}))
    assert public is not None
    assert "The owner of database quire (or a superuser) must run once" in public
    assert "GRANT CREATE ON SCHEMA public TO quire" in public
    assert problem(ServerFacts(**{**vars(FACTS), "may_create_in_public": False, "migrations_pending": False})) is None
    odd = problem(ServerFacts(**{**vars(FACTS), "role": "Quire-App", "dbos_exists": False}))
    assert odd is not None
    assert 'CREATE DATABASE quire_dbos OWNER "Quire-App"' in odd
    assert problem(ServerFacts(**{**vars(FACTS), "superuser": True, "vector_created": None})) is None


def test_servers_starting_together_each_find_dbos_database(postgres: ThrowawayPostgres) -> None:
    """Quire processes started at the same moment on a new database each create DBOS's database or find it
    made by another: none fails because two `CREATE DATABASE` met (Postgres reports that as a unique
    violation of pg_database's name index when both insert at once). Several rounds of six at once."""
    for _ in range(5):
        url = postgres.fresh_database()
        with ThreadPoolExecutor(6) as pool:
            outcomes = list(pool.map(check_server, [url] * 6, [f"quire-test-{n}" for n in range(6)]))
        assert outcomes == [None] * 6
        with psycopg.connect(url) as conn:
            made = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (f"{database_name(url)}_dbos",))
            assert made.fetchone() is not None
