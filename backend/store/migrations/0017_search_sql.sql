-- The Postgres search mode (QUIRE_SEARCH_BACKEND=postgres, backend/store/search_sql.py): BM25 computed
-- in SQL from the cached terms of migration 0007, and the statistics it needs, kept by Postgres itself.
--
-- `quire_term_count(counts, i)`: the i-th (1-based) little-endian uint32 of a `term_counts` value, i.e.
-- how often the i-th term of `terms` occurs in the block.
CREATE FUNCTION quire_term_count(counts bytea, i integer) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN get_byte(counts, 4 * (i - 1)) + (get_byte(counts, 4 * (i - 1) + 1) << 8)
         + (get_byte(counts, 4 * (i - 1) + 2) << 16) + (get_byte(counts, 4 * (i - 1) + 3) << 24);

-- A block's BM25 length (how many terms it has, repeats counted): the sum of its term counts.
CREATE FUNCTION quire_term_total(counts bytea) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (SELECT coalesce(sum(quire_term_count(counts, i)), 0)::integer
            FROM generate_series(1, length(counts) / 4) AS i);

-- Stored, so that the collection's average length is one index-only scan and a candidate's length is
-- not decoded per query. Filled for existing rows once, by this migration.
ALTER TABLE blocks ADD COLUMN term_total integer GENERATED ALWAYS AS (quire_term_total(term_counts)) STORED;

-- The terms as an array: scoring a candidate looks its query terms up in it, and splitting the text
-- per candidate and query was most of a keyword search's time.
ALTER TABLE blocks ADD COLUMN term_array text[] GENERATED ALWAYS AS (string_to_array(terms, ' ')) STORED;

-- Candidates of a keyword query: live blocks holding any of its terms (`&&`), and each term's document
-- frequency (`@>`).
CREATE INDEX blocks_live_terms ON blocks USING gin (term_array) WHERE is_live;
-- N and the total length of live blocks (BM25's average length) by an index-only scan.
CREATE INDEX blocks_live_length ON blocks (term_total) WHERE is_live;
