-- Document identity, versions, trash, content-addressed originals and refusals (issue #11).
--
-- A document is its id: its file name is unique (case-insensitively) only within its category, among
-- documents not in the trash. Every stored version is a row of `document_versions` pointing at its
-- original by SHA-256; the bytes live in Postgres (`originals` + 1 MiB `original_chunks`) so every Quire
-- process on this database can serve and re-ingest them. Blocks of older versions are kept (not live),
-- so restoring a version or a trashed document only flips `blocks.is_live`.

-- Tombstones of documents deleted before trash existed: their blocks and files were removed already;
-- the rows only held a generation counter that workflow ids no longer need.
DELETE FROM documents WHERE status = 'deleted';

ALTER TABLE documents DROP CONSTRAINT documents_status_check;
ALTER TABLE documents ADD CONSTRAINT documents_status_check
    CHECK (status IN ('queued', 'ingesting', 'ready', 'failed', 'trashed'));
ALTER TABLE documents ADD COLUMN current_version integer;
ALTER TABLE documents ADD COLUMN trashed_at timestamptz;

DROP INDEX documents_live_filename;
CREATE UNIQUE INDEX documents_name_in_category
    ON documents (coalesce(lower(category), ''), lower(filename)) WHERE status <> 'trashed';
DROP INDEX documents_category;
CREATE INDEX documents_category ON documents (category) WHERE status <> 'trashed';
CREATE INDEX documents_source_url ON documents (source_url) WHERE source_url IS NOT NULL;
CREATE INDEX documents_trashed ON documents (trashed_at) WHERE status = 'trashed';

-- An `originals` row is written in the same transaction as all its chunks: if the row exists, the
-- bytes are complete.
CREATE TABLE originals (
    sha256 text PRIMARY KEY,
    size_bytes bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE original_chunks (
    sha256 text NOT NULL REFERENCES originals (sha256) ON DELETE CASCADE,
    seq integer NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (sha256, seq)
);

CREATE TABLE document_versions (
    document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    version integer NOT NULL,
    sha256 text NOT NULL,
    filename text NOT NULL,
    kind text,
    mime text,
    size_bytes bigint,
    pages integer,
    warnings jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (document_id, version)
);
CREATE INDEX document_versions_sha256 ON document_versions (sha256);

-- Existing vaults: every stored document becomes version 1 of itself (same id, same blocks).
INSERT INTO document_versions (document_id, version, sha256, filename, kind, mime, size_bytes, pages, warnings,
                               created_at)
SELECT id, 1, sha256, filename, kind, mime, size_bytes, pages, warnings, updated_at
FROM documents WHERE sha256 IS NOT NULL;
UPDATE documents SET current_version = 1 WHERE sha256 IS NOT NULL;

-- NOT VALID: the files of existing vaults are adopted into `originals` at startup (SQL cannot read
-- them); every version written from now on must point at a stored original, and no original a version
-- points at can be deleted. Ingest items are not bound the same way (finished runs stay as history after
-- their version is deleted); an unfinished or failed item keeps its original (see store/originals.py).
ALTER TABLE document_versions ADD CONSTRAINT document_versions_original
    FOREIGN KEY (sha256) REFERENCES originals (sha256) NOT VALID;
CREATE INDEX ingest_items_sha256 ON ingest_items (sha256);

-- `target_version`: a run that re-ingests an existing version (restoring one whose blocks are gone)
-- instead of adding a new one. `stored_version`: the version the store step created, so that a replay of
-- the step after a crash recognises its work as done.
ALTER TABLE ingest_items ADD COLUMN target_version integer;
ALTER TABLE ingest_items ADD COLUMN stored_version integer;
ALTER TABLE ingest_items ALTER COLUMN pending_path DROP NOT NULL;

-- Files refused at upload or URL import, listed in the library until dismissed.
CREATE TABLE upload_refusals (
    id uuid PRIMARY KEY,
    filename text NOT NULL,
    category text,
    code text NOT NULL,
    message text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    dismissed_at timestamptz
);
CREATE INDEX upload_refusals_open ON upload_refusals (created_at) WHERE dismissed_at IS NULL;
