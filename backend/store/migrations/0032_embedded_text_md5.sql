-- A new version's unchanged passages take their vectors from any stored version of the document with the
-- same text and embedding model (backend/store/versions.py, `insert_blocks`), not only from the live one:
-- a file reverted to an earlier version is not embedded again. One index probe per passage, as for the
-- live version (blocks_live_text_md5), over the blocks that have a vector.
CREATE INDEX blocks_embedded_text_md5 ON blocks (document_id, (md5(text)::uuid)) WHERE embedding IS NOT NULL;
