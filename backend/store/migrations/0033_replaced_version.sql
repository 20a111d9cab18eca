-- `replaced_version`: the document's current version when this run's store step made its own current
-- (NULL for a new document). A run cancelled before the document is ready withdraws its version and puts
-- that one back (backend/store/versions.py, `withdraw_unfinished`).
ALTER TABLE ingest_items ADD COLUMN replaced_version integer;
