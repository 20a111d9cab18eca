-- When each logged execution of an ingestion step finished (NULL: running, or ended by a crash), so a
-- run's snapshot can show every document's steps (read, store, embed) with their times: since documents
-- run as child workflows, the run's own DBOS step list no longer holds them.
ALTER TABLE ingest_step_runs ADD COLUMN finished_at timestamptz;
