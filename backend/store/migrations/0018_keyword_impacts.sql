-- Impact-ordered postings of the commonest keyword terms, for the Postgres search mode's keyword channel
-- (backend/store/keyword_impacts.py, backend/retrieval/postgres.py). A term's impact in a block is its
-- BM25 contribution without the idf: tf × (k1 + 1) / (tf + k1 × (1 − b + b × length / average length)).
-- For each term held by many live blocks, the blocks where it weighs most are listed, so that a query
-- made only of common words scores those few blocks instead of every block holding one of its words.
--
-- The build's parameters (one row): impacts are computed with this average length, k1 and b.
CREATE TABLE keyword_impact_build (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    blocks integer NOT NULL,
    average_length double precision NOT NULL,
    k1 double precision NOT NULL,
    b double precision NOT NULL,
    per_term integer NOT NULL,
    built_at timestamptz NOT NULL DEFAULT now()
);

-- The listed terms. `floor`: the lowest impact listed for the term (0 when every holder is listed), so no
-- unlisted block's impact is above it — the bound that tells a capped search its ranking is exact.
CREATE TABLE keyword_impact_lists (
    term text PRIMARY KEY,
    floor double precision NOT NULL
);

-- (term, block, impact) for the listed terms' top blocks. Rows of blocks no longer live are left to the
-- next build: searches join blocks on is_live.
CREATE TABLE keyword_impacts (
    term text NOT NULL,
    block_id uuid NOT NULL,
    impact double precision NOT NULL,
    PRIMARY KEY (term, block_id)
);

-- A block written after the build (new, or its terms cached again) joins the list of each listed term it
-- holds above the term's floor, so the floor stays a bound on unlisted blocks.
CREATE FUNCTION quire_list_impacts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    params keyword_impact_build%ROWTYPE;
BEGIN
    SELECT * INTO params FROM keyword_impact_build;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO keyword_impacts (term, block_id, impact)
    SELECT s.term, NEW.id, s.impact FROM (
        SELECT u.term, l.floor, quire_term_count(NEW.term_counts, u.i::integer)::float8 AS tf
        FROM unnest(NEW.term_array) WITH ORDINALITY AS u(term, i)
        JOIN keyword_impact_lists l ON l.term = u.term
    ) t CROSS JOIN LATERAL (
        SELECT t.term, t.tf * (params.k1 + 1) / (t.tf + params.k1 * (1 - params.b + params.b * NEW.term_total
                                                                       / params.average_length)) AS impact
    ) s
    WHERE s.impact > t.floor
    ON CONFLICT (term, block_id) DO UPDATE SET impact = EXCLUDED.impact;
    RETURN NULL;
END $$;

CREATE TRIGGER blocks_list_impacts AFTER INSERT OR UPDATE OF term_counts ON blocks
    FOR EACH ROW WHEN (NEW.term_counts IS NOT NULL) EXECUTE FUNCTION quire_list_impacts();
