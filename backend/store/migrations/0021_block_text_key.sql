-- Passages that repeat within one document (backend/retrieval/repeats.py): each block's text, normalised
-- (NFKC, whitespace runs as one space, trimmed, lower case), hashed. A search finds the other live copies
-- of a hit in its document through the index below, whatever their rank, to collapse them into one
-- result and say where else the text stands. Stored, so that it is computed once per block as it is
-- written; filled for existing rows by this migration (the migration runner's lock makes it run once,
-- whichever process starts first). The search's own test of sameness is Python's (casefold where this
-- has lower case); this key finds the copies it would call the same but for the few letters whose case
-- fold is not their lower case (ß ~ ss), which are then collapsed only when both copies rank.
ALTER TABLE blocks ADD COLUMN text_key uuid
    GENERATED ALWAYS AS (md5(lower(btrim(regexp_replace(normalize(text, NFKC), '\s+', ' ', 'g'))))::uuid) STORED;

CREATE INDEX blocks_live_text_key ON blocks (document_id, text_key) WHERE is_live;
