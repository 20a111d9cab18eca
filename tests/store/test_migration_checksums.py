"""Migrations are append-only: each applied migration's sha256 is recorded, and a start on a database whose
applied migration's file changed since stops with a message naming that file. Vaults from before the
checksums get them on their first start; new migrations appended to the folder still apply."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import psycopg
import pytest

from backend.store.db import MIGRATIONS_DIR, MigrationChanged, apply_migrations
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import REPO_ROOT, QuireServer


@pytest.fixture
def migrations(tmp_path: Path) -> Path:
    """A copy of the migrations folder this test may change."""
    return Path(shutil.copytree(MIGRATIONS_DIR, tmp_path / "migrations"))


def _recorded(url: str) -> dict[str, str | None]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute("SELECT version, checksum FROM schema_migrations").fetchall())


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_applied_migrations_are_recorded_with_their_checksums(postgres: ThrowawayPostgres, migrations: Path) -> None:
    url = postgres.fresh_database()
    files = sorted(migrations.glob("*.sql"))
    assert apply_migrations(url, migrations) == [p.stem for p in files]
    assert _recorded(url) == {p.stem: _sha256(p) for p in files}
    assert apply_migrations(url, migrations) == []  # a second start applies and changes nothing


def test_a_changed_applied_migration_stops_the_start(postgres: ThrowawayPostgres, migrations: Path) -> None:
    url = postgres.fresh_database()
    apply_migrations(url, migrations)
    before = _recorded(url)
    edited = migrations / "0003_chat.sql"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nALTER TABLE chat_sessions ADD COLUMN x int;\n")
    (migrations / "0999_later.sql").write_text("CREATE TABLE later_one (id int);\n")
    with pytest.raises(MigrationChanged, match=r"0003_chat\.sql was changed after it was applied") as failure:
        apply_migrations(url, migrations)
    assert "append-only" in str(failure.value)
    assert _recorded(url) == before  # nothing applied after the check failed
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT to_regclass('later_one')").fetchone() == (None,)


def test_appending_a_migration_is_fine(postgres: ThrowawayPostgres, migrations: Path) -> None:
    url = postgres.fresh_database()
    apply_migrations(url, migrations)
    added = migrations / "0999_later.sql"
    added.write_text("CREATE TABLE later_one (id int);\n")
    assert apply_migrations(url, migrations) == ["0999_later"]
    assert _recorded(url)["0999_later"] == _sha256(added)


def test_a_vault_from_before_the_checksums_gets_them_then_is_checked(postgres: ThrowawayPostgres,
                                                                     migrations: Path) -> None:
    url = postgres.fresh_database()
    apply_migrations(url, migrations)
    with psycopg.connect(url, autocommit=True) as conn:  # the table as the runner created it before
        conn.execute("ALTER TABLE schema_migrations DROP COLUMN checksum")
    assert apply_migrations(url, migrations) == []
    assert _recorded(url) == {p.stem: _sha256(p) for p in migrations.glob("*.sql")}
    edited = migrations / "0001_core.sql"
    edited.write_text(edited.read_text(encoding="utf-8").replace("CREATE TABLE", "CREATE TABLE  ", 1))
    with pytest.raises(MigrationChanged, match=r"0001_core\.sql"):
        apply_migrations(url, migrations)


def test_a_migration_only_a_newer_quire_knows_is_not_an_edit(postgres: ThrowawayPostgres, migrations: Path) -> None:
    url = postgres.fresh_database()
    (migrations / "0999_later.sql").write_text("CREATE TABLE later_one (id int);\n")
    apply_migrations(url, migrations)
    (migrations / "0999_later.sql").unlink()  # an older checkout on the same database
    assert apply_migrations(url, migrations) == []


@pytest.mark.slow
def test_the_server_refuses_to_start_on_an_edited_migration(postgres: ThrowawayPostgres,
                                                            fake_ollama_server: FakeOllama,
                                                            tmp_path: Path) -> None:
    url = postgres.fresh_database()
    QuireServer(url, tmp_path / "data", fake_ollama_server.url).start().stop()
    # The same code with one applied migration edited, as a checkout of its own.
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO_ROOT / "backend", checkout / "backend", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO_ROOT / "prompts", checkout / "prompts")
    edited = checkout / "backend" / "store" / "migrations" / "0002_activity.sql"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n-- an edit after the fact\n")
    server = QuireServer(url, tmp_path / "data", fake_ollama_server.url, checkout=checkout)
    with pytest.raises(RuntimeError, match="Quire server exited") as failure:
        server.start(timeout_s=60)
    assert f"Migration {edited} was changed after it was applied to this database" in str(failure.value)
    assert "append-only" in str(failure.value)
