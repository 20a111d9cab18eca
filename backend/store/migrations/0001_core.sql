-- Core tables: documents, their blocks, ingestion bookkeeping, the index change feed, outbound requests.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE documents (
    id uuid PRIMARY KEY,
    filename text NOT NULL,
    stored_path text,
    category text,
    sha256 text,
    mime text,
    kind text,
    size_bytes bigint,
    pages integer,
    status text NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued', 'ingesting', 'ready', 'failed', 'deleted')),
    error text,
    warnings jsonb NOT NULL DEFAULT '[]',
    source_url text,
    -- bumped on delete so that the same file added again gets a fresh ingestion workflow id
    generation integer NOT NULL DEFAULT 1,
    last_workflow_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX documents_live_filename ON documents (lower(filename)) WHERE status <> 'deleted';
CREATE INDEX documents_category ON documents (category) WHERE status <> 'deleted';

CREATE TABLE blocks (
    id uuid PRIMARY KEY,
    document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    doc_sha256 text NOT NULL,
    ordinal integer NOT NULL,
    text text NOT NULL,
    page integer,
    section text,
    kind text NOT NULL,
    embedding vector,
    embed_model text,
    is_live boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blocks_document_live ON blocks (document_id, ordinal) WHERE is_live;
CREATE INDEX blocks_document_version ON blocks (document_id, doc_sha256);

-- Every change to live blocks or document metadata appends a row; each app process polls it to keep
-- its in-memory index current (several processes may share one database).
CREATE TABLE index_changes (
    seq bigserial PRIMARY KEY,
    document_id uuid NOT NULL,
    reason text NOT NULL,
    -- the executor id of the process that made the change (it applied the change to its own index)
    origin text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ingest_runs (
    workflow_id text PRIMARY KEY,
    source text NOT NULL,
    phase text NOT NULL DEFAULT 'queued',
    done integer NOT NULL DEFAULT 0,
    total integer NOT NULL DEFAULT 0,
    detail text NOT NULL DEFAULT '',
    -- set before DBOS is asked to cancel, so a step still in flight does not touch documents afterwards
    cancelled boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ingest_items (
    workflow_id text NOT NULL REFERENCES ingest_runs (workflow_id) ON DELETE CASCADE,
    document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    position integer NOT NULL,
    filename text NOT NULL,
    pending_path text NOT NULL,
    sha256 text NOT NULL,
    size_bytes bigint NOT NULL,
    kind text NOT NULL,
    category text,
    generation integer NOT NULL,
    prior_status text,
    prior_sha256 text,
    decision text CHECK (decision IN ('new', 'changed', 'unchanged', 'readded')),
    state text NOT NULL DEFAULT 'queued',
    done integer NOT NULL DEFAULT 0,
    total integer NOT NULL DEFAULT 0,
    detail text NOT NULL DEFAULT '',
    error text,
    warnings jsonb NOT NULL DEFAULT '[]',
    pages integer,
    blocks integer,
    embedded integer,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workflow_id, document_id)
);
CREATE INDEX ingest_items_document ON ingest_items (document_id);

-- Chunks staged by the extract step and moved into `blocks` by the store step; keeping them here
-- rather than in a step's output keeps the DBOS ledger small.
CREATE TABLE ingest_chunks (
    workflow_id text NOT NULL,
    document_id uuid NOT NULL,
    ordinal integer NOT NULL,
    text text NOT NULL,
    page integer,
    section text,
    kind text NOT NULL,
    PRIMARY KEY (workflow_id, document_id, ordinal)
);

-- One row each time an ingestion step starts executing: DBOS runs a step at least once, and this
-- log shows (and lets tests prove) which steps ran again after a crash.
CREATE TABLE ingest_step_runs (
    id bigserial PRIMARY KEY,
    workflow_id text NOT NULL,
    step text NOT NULL,
    key text NOT NULL DEFAULT '',
    started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ingest_step_runs_workflow ON ingest_step_runs (workflow_id);

-- Every outbound HTTP request the app makes (only explicit URL imports), shown in the vault panel.
CREATE TABLE outbound_requests (
    id bigserial PRIMARY KEY,
    url text NOT NULL,
    host text NOT NULL,
    status integer,
    bytes bigint NOT NULL DEFAULT 0,
    ok boolean NOT NULL,
    error text,
    created_at timestamptz NOT NULL DEFAULT now()
);
