-- The language a document was read in, where the reading decided one (a recording's speech: English or
-- German, detected per recording). It travels with the version like its length: the run's item records
-- it, the stored version keeps it, and the document shows its current version's.
ALTER TABLE ingest_items ADD COLUMN language text;
ALTER TABLE document_versions ADD COLUMN language text;
ALTER TABLE documents ADD COLUMN language text;
