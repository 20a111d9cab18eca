-- The printed page label of a PDF page ("iv", "12") next to its physical page number, for blocks and for
-- the chunks staged during ingestion. NULL where the format or the file has no labels.
ALTER TABLE blocks ADD COLUMN page_label text;
ALTER TABLE ingest_chunks ADD COLUMN page_label text;
