-- Every keyword term a block has held, for typo-tolerant search in the Postgres mode
-- (backend/retrieval/fuzzy.py): each process keeps the correctable ones in a trigram lookup of its own
-- (the embedded Postgres has no pg_trgm) and reads the rows added since it last looked.
--
-- Insert-only, no unique key, on purpose: two uploads bringing the same new word at once each add a row
-- and neither waits for the other (with a unique key, two transactions inserting new terms in different
-- orders could deadlock). Readers drop repeats. A term whose blocks are gone stays: a correction is kept
-- only if a live block holds it, which the search checks. `xid`: the writing transaction, so a reader can
-- take exactly the rows it has not seen (those of transactions not finished at its last read, and later).
CREATE TABLE keyword_vocabulary (
    term text NOT NULL,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX keyword_vocabulary_term ON keyword_vocabulary (term);
CREATE INDEX keyword_vocabulary_xid ON keyword_vocabulary (xid);

INSERT INTO keyword_vocabulary (term)
SELECT DISTINCT u.term FROM blocks b, unnest(b.term_array) AS u(term) WHERE b.term_array IS NOT NULL;

CREATE FUNCTION quire_keyword_vocabulary() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO keyword_vocabulary (term)
    SELECT DISTINCT u.term FROM unnest(NEW.term_array) AS u(term)
    WHERE NOT EXISTS (SELECT 1 FROM keyword_vocabulary v WHERE v.term = u.term);
    RETURN NULL;
END $$;

CREATE TRIGGER blocks_keyword_vocabulary AFTER INSERT OR UPDATE OF terms ON blocks
    FOR EACH ROW WHEN (NEW.terms IS NOT NULL) EXECUTE FUNCTION quire_keyword_vocabulary();
