"""A vault from before migration 0009 (one file per name in `docs/`, tombstones for deleted documents) is
carried over when the new code starts on it: documents keep their ids and blocks, each gets version 1,
its file is adopted into Postgres (verified by SHA-256) and served, tombstones disappear, and the
adoption is idempotent across restarts."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

import psycopg
import pytest

from backend.store.db import MIGRATIONS_DIR, apply_migrations
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

pytestmark = pytest.mark.slow

NOTES = b"# Ecology\n\nMycorrhizal networks let trees share nutrients through fungal threads.\n"


def _apply_migrations_up_to(url: str, last: str) -> None:
    """What the migration runner had done on a vault created before `last`'s successor existed."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_migrations (version text PRIMARY KEY,"
                     " applied_at timestamptz NOT NULL DEFAULT now())")
        for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
            if path.stem > last:
                break
            with conn.transaction():
                conn.execute(path.read_text(encoding="utf-8"))
                conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (path.stem,))


def _legacy_vault(url: str, docs_dir: Path) -> tuple[str, str]:
    """One ready document stored the old way (file at docs/<name>, one live block) and one tombstone."""
    docs_dir.mkdir(parents=True)
    (docs_dir / "ecology.md").write_bytes(NOTES)
    sha = hashlib.sha256(NOTES).hexdigest()
    doc_id, gone_id = str(uuid.uuid4()), str(uuid.uuid4())
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO documents (id, filename, stored_path, category, sha256, mime, kind, size_bytes, status)"
            " VALUES (%s, 'ecology.md', %s, 'Biology', %s, 'text/markdown', 'md', %s, 'ready'),"
            " (%s, 'gone.md', NULL, NULL, NULL, 'text/markdown', 'md', 10, 'deleted')",
            (doc_id, str(docs_dir / "ecology.md"), sha, len(NOTES), gone_id),
        )
        conn.execute(
            "INSERT INTO blocks (id, document_id, doc_sha256, ordinal, text, kind, is_live)"
            " VALUES (%s, %s, %s, 0, %s, 'text', true)",
            (str(uuid.uuid4()), doc_id, sha, NOTES.decode()),
        )
    return doc_id, gone_id


def test_a_pre_0009_vault_is_carried_over(
    postgres: ThrowawayPostgres, fake_ollama: FakeOllama, tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    url = postgres.fresh_database()
    data_dir = tmp_path_factory.mktemp("legacy")
    _apply_migrations_up_to(url, "0008_job_draft")
    doc_id, gone_id = _legacy_vault(url, data_dir / "docs")
    server = QuireServer(url, data_dir, fake_ollama.url).start()
    try:
        with server.client() as api:
            document = api.get(f"/api/documents/{doc_id}").json()
            assert (document["filename"], document["category"], document["status"]) == ("ecology.md", "Biology",
                                                                                         "ready")
            assert (document["current_version"], document["versions"], document["blocks"]) == (1, 1, 1)
            assert api.get(f"/api/documents/{gone_id}").status_code == 404
            assert api.get(f"/api/documents/{doc_id}/file").content == NOTES
            hits = api.get("/api/search", params={"q": "mycorrhizal", "mode": "sparse"}).json()["hits"]
            assert [hit["document_id"] for hit in hits] == [doc_id]
            # the old file moved into the content-addressed cache, its bytes now in Postgres
            sha = hashlib.sha256(NOTES).hexdigest()
            assert not (data_dir / "docs" / "ecology.md").exists()
            assert (data_dir / "docs" / "objects" / sha[:2] / sha).read_bytes() == NOTES
            # a replace works on the carried-over document: version 2, version 1 restorable
            changed = NOTES + b"\nSome orchids depend on them entirely.\n"
            response = upload(api, {"ecology.md": changed}, "Biology", on_conflict="replace")
            assert response.status_code == 202, response.text
            assert wait_for_run(api, response.json()["workflow_id"])["status"] == "SUCCESS"
            versions = api.get(f"/api/documents/{doc_id}/versions").json()["versions"]
            assert [(v["version"], v["current"]) for v in versions] == [(2, True), (1, False)]
            assert api.get(f"/api/documents/{doc_id}/versions/1/file").content == NOTES
        server.restart()  # adoption again finds nothing to do and changes nothing
        with server.client() as api:
            assert api.get(f"/api/documents/{doc_id}").json()["current_version"] == 2
            assert api.post(f"/api/documents/{doc_id}/versions/1/restore").json()["current_version"] == 1
            assert api.get(f"/api/documents/{doc_id}/file").content == NOTES
    finally:
        server.stop()


def test_every_ready_document_keeps_a_version(postgres: ThrowawayPostgres, tmp_path: Path) -> None:
    """The migration itself: ids kept, version 1 for stored documents, none for never-stored ones."""
    url = postgres.fresh_database()
    _apply_migrations_up_to(url, "0008_job_draft")
    doc_id, gone_id = _legacy_vault(url, tmp_path / "docs")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO documents (id, filename, status) VALUES (%s, 'queued.md', 'queued')",
                     (str(uuid.uuid4()),))
    assert apply_migrations(url) == [p.stem for p in sorted(MIGRATIONS_DIR.glob("*.sql")) if p.stem > "0008_job_draft"]
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT d.id::text, d.current_version, count(v.version) FROM documents d"
                            " LEFT JOIN document_versions v ON v.document_id = d.id GROUP BY d.id"
                            " ORDER BY d.filename").fetchall()
    assert [(r[1], r[2]) for r in rows] == [(1, 1), (None, 0)]
    assert rows[0][0] == doc_id
    assert gone_id not in {r[0] for r in rows}

