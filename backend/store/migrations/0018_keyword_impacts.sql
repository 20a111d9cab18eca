-- Impact-ordered postings of the commonest keyword terms, for the Postgres search mode's keyword channel
-- (backend/store/keyword_impacts.py, backend/retrieval/postgres.py). A term's impact in a block is its
-- BM25 contribution without the idf: tf × (k1 + 1) / (tf + k1 × (1 − b + b × length / average length)).
-- For each term held by many live blocks, the blocks where it weighs most are listed, so that a query
-- made only of common words scores those few blocks instead of every block holding one of its words.
--
-- The build's parameters (one row): impacts are computed with this average length, k1 and b; the live
-- blocks and their total length when built (BM25's N and average length are these plus the changes since).
CREATE TABLE keyword_impact_build (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    blocks integer NOT NULL,
    total_length bigint NOT NULL,
    average_length double precision NOT NULL,
    k1 double precision NOT NULL,
    b double precision NOT NULL,
    per_term integer NOT NULL,
    built_at timestamptz NOT NULL DEFAULT now()
);

-- The listed terms. `floor`: the lowest impact listed for the term (0 when every holder is listed), so no
-- unlisted block's impact is above it — the bound that tells a capped search its ranking is exact. `df`:
-- its live holders when built (its document frequency is this plus its changes since).
CREATE TABLE keyword_impact_lists (
    term text PRIMARY KEY,
    floor double precision NOT NULL,
    df integer NOT NULL
);

-- (term, block, impact) for the listed terms' top blocks. Rows of blocks no longer live are left to the
-- next build: searches join blocks on is_live. No unique key, on purpose: the trigger below only ever
-- inserts, so block writes never wait on a build that is deleting and rewriting the lists (a block whose
-- terms are cached again may be listed twice until then; searches read ids, so twice is once).
CREATE TABLE keyword_impacts (
    term text NOT NULL,
    block_id uuid NOT NULL,
    impact double precision NOT NULL
);
CREATE INDEX keyword_impacts_term ON keyword_impacts (term);

-- Changes since the build, one row per block written, trashed, restored or deleted (insert-only: writers
-- never wait on each other): to the live blocks and their total length, and to each listed term's
-- document frequency. Counting a common term's holders anew took ~0.2 s at 1M blocks, and the first
-- search after every change needed it; the sums of these rows are exact and cheap.
CREATE TABLE keyword_stats_changes (
    blocks integer NOT NULL,
    length bigint NOT NULL
);
CREATE TABLE keyword_df_changes (
    term text NOT NULL,
    delta integer NOT NULL
);
CREATE INDEX keyword_df_changes_term ON keyword_df_changes (term);

-- Kept by one trigger, and only once lists were built (the in-memory mode never builds them):
-- - a block written after the build (new, or its terms cached again) joins the list of each listed term
--   it holds above the term's floor, so the floor stays a bound on unlisted blocks;
-- - a block entering or leaving the live set (or its terms changing while live) records its changes.
CREATE FUNCTION quire_keyword_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    params keyword_impact_build%ROWTYPE;
    old_live boolean := TG_OP <> 'INSERT' AND OLD.is_live;
    new_live boolean := TG_OP <> 'DELETE' AND NEW.is_live;
    was text[] := '{}';
    now_live text[] := '{}';
    length_delta bigint := 0;
BEGIN
    SELECT * INTO params FROM keyword_impact_build;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF old_live THEN
        was := coalesce(OLD.term_array, '{}');
        length_delta := length_delta - coalesce(OLD.term_total, 0);
    END IF;
    IF new_live THEN
        now_live := coalesce(NEW.term_array, '{}');
        length_delta := length_delta + coalesce(NEW.term_total, 0);
    END IF;
    IF old_live IS DISTINCT FROM new_live OR length_delta <> 0 THEN
        INSERT INTO keyword_stats_changes (blocks, length) VALUES (new_live::integer - old_live::integer, length_delta);
    END IF;
    IF was IS DISTINCT FROM now_live THEN
        INSERT INTO keyword_df_changes (term, delta)
        SELECT c.term, sum(c.delta) FROM (
            SELECT unnest(now_live) AS term, 1 AS delta UNION ALL SELECT unnest(was), -1
        ) c JOIN keyword_impact_lists l ON l.term = c.term
        GROUP BY c.term HAVING sum(c.delta) <> 0;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.term_counts IS NOT NULL
            AND (TG_OP = 'INSERT' OR OLD.term_counts IS DISTINCT FROM NEW.term_counts) THEN
        INSERT INTO keyword_impacts (term, block_id, impact)
        SELECT s.term, NEW.id, s.impact FROM (
            SELECT u.term, l.floor, quire_term_count(NEW.term_counts, u.i::integer)::float8 AS tf
            FROM unnest(NEW.term_array) WITH ORDINALITY AS u(term, i)
            JOIN keyword_impact_lists l ON l.term = u.term
        ) t CROSS JOIN LATERAL (
            SELECT t.term, t.tf * (params.k1 + 1) / (t.tf + params.k1 * (1 - params.b + params.b * NEW.term_total
                                                                           / params.average_length)) AS impact
        ) s
        WHERE s.impact > t.floor;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER blocks_keyword_changes AFTER INSERT OR DELETE OR UPDATE OF is_live, term_counts ON blocks
    FOR EACH ROW EXECUTE FUNCTION quire_keyword_changes();
