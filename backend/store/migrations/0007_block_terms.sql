-- The BM25 terms of each block, cached so that building the search index at startup does not have to
-- re-analyse every text: `terms` holds the analyser's distinct terms (space-separated, in order of first
-- occurrence), `term_counts` how often each occurs (little-endian uint32, one per term), and
-- `terms_analyzer` the fingerprint of the analyser that produced them. A row whose fingerprint differs
-- from the running analyser's (or is NULL) is analysed again at startup and its cache rewritten, so a
-- change to the tokenizer can never serve stale terms.
ALTER TABLE blocks ADD COLUMN terms text;
ALTER TABLE blocks ADD COLUMN term_counts bytea;
ALTER TABLE blocks ADD COLUMN terms_analyzer text;

