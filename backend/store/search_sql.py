"""SQL of the Postgres search mode: both retrieval channels run in the database, over live blocks only.

Dense: cosine distance with pgvector. `blocks.embedding` is an untyped `vector` (its dimension depends on
the embedding model), so the HNSW index is an expression index over `embedding::vector(D)`, partial on
`is_live AND embed_model = '<model>'` (`ensure_hnsw_index`); a whole-vault query orders by exactly that
expression under exactly that predicate, so the planner uses it. A scoped query (documents and/or
categories) ranks the scope's own rows exactly instead: pgvector 0.6 (the one pgserver bundles) has no
iterative index scans, and HNSW with a filter returns at most `hnsw.ef_search` rows before filtering, so
a small scope would come back short. A large scope (a category) tries HNSW first (`dense_ranking`).

Sparse: Okapi BM25 computed in SQL from the terms ingestion caches (migration 0007): candidates through
the GIN index over `term_array`, the terms as an array (migration 0017), a term's frequency decoded from
`term_counts`, the length from the stored `term_total`. The collection statistics (live blocks, total
length, document frequencies) are counted through the same indexes, or, once the keyword impact lists
are built (migration 0018), are their build's counts plus the changes recorded since.

Scope filters sit in each channel's WHERE clause, before ranking.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql

from backend.store.db import Connection, Database, first_row, one
from backend.store.embedding_model import ModelNotActive, active_on, recorded_active

# The HNSW scan's beam (hnsw.ef_search) at least: beyond the k it must return, dead tuples (blocks that
# stopped being live since the last vacuum) are skipped after the index scan, and a wider beam finds
# more of the true nearest. On the synthetic 1M-block vault (scripts/bench_search.py: vectors of
# uniform noise around 256 topics, a hard case for HNSW) a query's own document was in the top 7 for
# 140 / 155 / 168 of 200 queries at 100 / 400 / 800 (p50 14 / 19 / 25 ms); at 100k, 195 / 199 at 100 / 400.
_EF_SEARCH_MIN = 400
_EF_SEARCH_MAX = 1000  # pgvector's limit
_TIE_ROWS = 16  # rows read beyond an HNSW scan's depth, for the ties of its last row


@dataclass(frozen=True)
class CollectionStats:
    seq: int  # the newest index change when counted: statistics are valid until it moves
    blocks: int  # live blocks
    total_length: int  # their summed BM25 lengths


def _scope_clause(document_ids: Sequence[str], categories: Sequence[str]) -> sql.Composable:
    """`AND (...)` restricting blocks `b` to the scope (union of documents and categories), or nothing."""
    parts: list[sql.Composable] = []
    if document_ids:
        parts.append(sql.SQL("b.document_id = ANY({}::uuid[])").format(sql.Literal(list(document_ids))))
    if categories:
        parts.append(sql.SQL("b.document_id IN (SELECT d.id FROM documents d WHERE d.category = ANY({}))")
                     .format(sql.Literal(list(categories))))
    if not parts:
        return sql.SQL("")
    return sql.SQL(" AND ({})").format(sql.SQL(" OR ").join(parts))


def hnsw_index_name(model: str, dimension: int) -> str:
    digest = hashlib.sha256(f"{model}\0{dimension}".encode()).hexdigest()[:12]
    return f"blocks_hnsw_{digest}"


def _index_state(conn: Connection, index: str) -> str:
    row = conn.execute("SELECT i.indisvalid AS valid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid"
                       " WHERE c.relname = %s", (index,)).fetchone()
    return "missing" if row is None else ("ready" if row["valid"] else "building")


def hnsw_index_state(db: Database, model: str, dimension: int) -> str:
    """'ready', 'building' (exists, not yet valid) or 'missing'."""
    with db.connection() as conn:
        return _index_state(conn, hnsw_index_name(model, dimension))


def ensure_hnsw_index(db: Database, model: str, dimension: int, build_memory_mb: int) -> None:
    """Create the model's HNSW index unless it exists: a one-time build, concurrently (writes go on).

    The building process holds an advisory lock named after the index for the whole build; another
    process finding it taken leaves the build to its holder. An invalid index found while holding the
    lock is a build interrupted by a crash: it is dropped and built again.
    """
    index = hnsw_index_name(model, dimension)
    name = sql.Identifier(index)
    with db.connection() as conn:  # autocommit: CREATE INDEX CONCURRENTLY cannot run in a transaction
        if not one(conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS ok", (index,)))["ok"]:
            return
        try:
            state = _index_state(conn, index)
            if state == "ready":
                return
            if state == "building":
                conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(name))
            conn.execute(sql.SQL("SET maintenance_work_mem = {}").format(sql.Literal(f"{build_memory_mb}MB")))
            conn.execute(sql.SQL(
                "CREATE INDEX CONCURRENTLY IF NOT EXISTS {} ON blocks USING hnsw ((embedding::vector({})) "
                "vector_cosine_ops) WHERE is_live AND embed_model = {}"
            ).format(name, sql.Literal(dimension), sql.Literal(model)))
        finally:
            conn.execute("RESET maintenance_work_mem")
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (index,))


def drop_other_hnsw_indexes(db: Database, model: str, dimension: int) -> list[str]:
    """Drop the HNSW indexes of `blocks` other than this model's at this dimension, if `model` is the vault's
    active embedding model (checked on the same connection first); returns the names dropped. Each is
    partial on its own model, so once another model is active it covers no live block: it only takes disk
    and vacuuming. A switch back to its model builds it again."""
    keep = hnsw_index_name(model, dimension)
    with db.connection() as conn:  # autocommit: DROP INDEX CONCURRENTLY cannot run in a transaction
        if active_on(conn) != model:
            return []
        names = [row["name"] for row in conn.execute(
            "SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            " WHERE i.indrelid = 'blocks'::regclass AND c.relname LIKE 'blocks\\_hnsw\\_%%'"
            " ORDER BY c.relname").fetchall() if row["name"] != keep]
        for name in names:
            conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {}").format(sql.Identifier(name)))
    return names


def stored_dimension(db: Database, model: str) -> int | None:
    """The dimension of this model's stored vectors (one row looked at), None if none is stored yet."""
    row = first_row(db,
        "SELECT vector_dims(embedding) AS d FROM blocks WHERE embed_model = %s"
        " AND embedding IS NOT NULL LIMIT 1",
        (model,),
    )
    return None if row is None else int(row["d"])


def dense_ranking(db: Database, model: str, vector: np.ndarray, depth: int, document_ids: Sequence[str],
                  categories: Sequence[str], large_scope: bool = False) -> tuple[list[str], list[float]]:
    """The `depth` live blocks nearest to `vector` (cosine similarity, best first) within the scope.
    Raises ModelNotActive if `model` is no longer the vault's active model: its vectors are gone (`flip`).

    A `large_scope` (thousands of blocks: exact distances would read them all) is first searched through
    HNSW at the widest beam pgvector allows, keeping the scope's rows among the nearest 1,000; if fewer
    than `depth` of them are, its rows are ranked exactly as a small scope's are.
    """
    dim = int(vector.shape[0])
    scope = _scope_clause(document_ids, categories)
    literal = "[" + ",".join(map(repr, vector.astype(float).tolist())) + "]"
    indexed = sql.SQL("(b.embedding::vector({d})) <=> {v}::vector({d})").format(
        d=sql.Literal(dim), v=sql.Literal(literal))
    # Scoped: exact distances over the scope's rows (the untyped expression matches no HNSW index).
    exact = sql.SQL("b.embedding <=> {}::vector").format(sql.Literal(literal))
    scoped = bool(document_ids or categories)
    attempts = [(indexed, _EF_SEARCH_MAX)] if large_scope and scoped else []
    attempts.append((exact, 0) if scoped else (indexed, max(depth, _EF_SEARCH_MIN)))
    for order, ef_search in attempts:
        # Equal distances (the same vector in two documents) are ordered by block id, as the in-memory mode
        # orders them: in the exact statement itself; through HNSW, whose scan orders by distance only,
        # among a few more rows than needed, so that rows tied with the last one are not cut arbitrarily.
        query = sql.SQL(
            "SELECT b.id::text AS id, 1 - ({order}) AS score FROM blocks b"
            " WHERE b.is_live AND b.embed_model = {model}{scope} ORDER BY {order}{ties} LIMIT {depth}"
        ).format(order=order, model=sql.Literal(model), scope=scope, ties=sql.SQL("" if ef_search else ", b.id"),
                 depth=sql.Literal(depth + (_TIE_ROWS if ef_search else 0)))
        with db.transaction() as conn:
            # One snapshot for the model check and the ranking, so a flip committed between them cannot
            # pass for an empty vault (a read-only transaction never fails to serialise).
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            active = recorded_active(conn)
            if active is not None and active != model:
                raise ModelNotActive(model, active)
            if ef_search:
                conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(ef_search)))
            rows = conn.execute(query).fetchall()
        if len(rows) >= depth:
            break
    ranked = sorted(((float(r["score"]), r["id"]) for r in rows), key=lambda sr: (-sr[0], sr[1]))[:depth]
    return [block for _, block in ranked], [score for score, _ in ranked]


def collection_stats(db: Database) -> CollectionStats:
    """Live blocks and their total BM25 length, with the index change they were counted at: the impact
    lists' build's counts plus the changes since (migration 0018), or counted if there is no build."""
    with db.transaction() as conn:
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")  # one snapshot for all numbers
        seq = one(conn.execute("SELECT coalesce(max(seq), 0) AS seq FROM index_changes"))["seq"]
        row = conn.execute("SELECT k.blocks + coalesce(sum(c.blocks), 0) AS n,"
                           " k.total_length + coalesce(sum(c.length), 0) AS total"
                           " FROM keyword_impact_build k LEFT JOIN keyword_stats_changes c ON true"
                           " GROUP BY k.blocks, k.total_length").fetchone()
        if row is None:
            row = one(conn.execute("SELECT count(*) AS n, coalesce(sum(term_total), 0) AS total FROM blocks"
                                   " WHERE is_live"))
    return CollectionStats(int(seq), int(row["n"]), int(row["total"]))


def latest_change(db: Database) -> int:
    with db.connection() as conn:
        return int(one(conn.execute("SELECT coalesce(max(seq), 0) AS seq FROM index_changes"))["seq"])


def document_frequencies(db: Database, terms: Sequence[str]) -> dict[str, int]:
    """How many live blocks hold each term (terms held by none are left out): a term with an impact list
    has its count at the build plus its changes since (migration 0018); the others are counted."""
    if not terms:
        return {}
    with db.transaction() as conn:
        # Room for the bitmap of a term held by ~every block of a 1M-block vault: past work_mem it turns
        # lossy, and a lossy bitmap re-reads every row's terms (4 s for one such term, against ~0.1 s).
        conn.execute("SET LOCAL work_mem = '64MB'")
        rows = conn.execute(
            "SELECT t.term, CASE WHEN l.term IS NULL THEN (SELECT count(*) FROM blocks b WHERE b.is_live"
            " AND b.term_array @> ARRAY[t.term]) ELSE l.df + coalesce((SELECT sum(c.delta) FROM"
            " keyword_df_changes c WHERE c.term = t.term), 0) END AS df"
            " FROM unnest(%s::text[]) AS t(term) LEFT JOIN keyword_impact_lists l ON l.term = t.term",
            (list(terms),),
        ).fetchall()
    return {r["term"]: int(r["df"]) for r in rows if r["df"]}


def vocabulary_since(db: Database, horizon: str) -> tuple[list[str], str]:
    """The keyword vocabulary's terms written by transactions from `horizon` on (a transaction id; "0":
    all), and the horizon to ask from next time: the oldest transaction still running now. Rows of
    transactions older than it are all visible now if ever, so nothing is missed; rows at or after it may
    come again next time (migration 0023). One statement, so one snapshot for both."""
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,"
            " array(SELECT term FROM keyword_vocabulary WHERE xid >= %s::xid8) AS terms", (horizon,)))
    return list(row["terms"]), str(row["horizon"])


def _candidates(terms: Sequence[str], holding_all: bool, listed: Sequence[str]) -> sql.Composable:
    """A keyword search's candidates: blocks holding any (all) of `terms` — the GIN index — or listed for
    one of `listed` (the impact lists' term index, then the blocks' primary key)."""
    parts: list[sql.Composable] = []
    if terms or not listed:
        parts.append(sql.SQL("b.term_array {} {}::text[]").format(sql.SQL("@>" if holding_all else "&&"),
                                                                  sql.Literal(list(terms))))
    if listed:
        parts.append(sql.SQL("b.id = ANY(ARRAY(SELECT block_id FROM keyword_impacts WHERE term = ANY({}::text[])))")
                     .format(sql.Literal(list(listed))))
    return sql.SQL("({})").format(sql.SQL(" OR ").join(parts))


def sparse_ranking(db: Database, weights: dict[str, float], candidate_terms: Sequence[str], average_length: float,
                   k1: float, b: float, depth: int, document_ids: Sequence[str],
                   categories: Sequence[str], *, holding_all: bool = False, shortest: int | None = None,
                   listed: Sequence[str] = ()) -> tuple[list[str], list[float]]:
    """The `depth` best by BM25 of the live blocks in the scope holding any of `candidate_terms` (all of
    them if `holding_all`) or in the impact list of one of `listed` (migration 0018), scored over all
    query terms (`weights`: each term's qtf × idf).

    `shortest`: score only that many candidates, the shortest (then by id, the same in every process).
    The planner picks the path: the GIN index then a top-N sort when few blocks hold the terms, the
    length index read in order, stopping after `shortest` holders, when most blocks hold them.
    """
    if not weights:
        return [], []
    # One expression per query term over columns computed once per candidate (OFFSET 0 keeps the planner
    # from inlining them into each use): a join of candidates × terms with GROUP BY cost ~5 times more.
    # A term's count is read from its first two bytes: a block is at most 8,000 characters, so no count
    # reaches 65,536.
    positions = [sql.SQL("array_position(arr, {}) AS {}").format(sql.Literal(t), sql.Identifier(f"p{i}"))
                 for i, t in enumerate(weights)]
    contributions = []
    for i, weight in enumerate(weights.values()):
        p = sql.Identifier(f"p{i}")
        tf = sql.SQL("(get_byte(term_counts, 4 * ({p} - 1)) + (get_byte(term_counts, 4 * ({p} - 1) + 1) << 8))"
                     "::float8").format(p=p)
        contributions.append(sql.SQL("CASE WHEN {p} IS NULL THEN 0 ELSE {w} * {tf} * {k1p} / ({tf} + norm) END")
                             .format(p=p, w=sql.Literal(weight), tf=tf, k1p=sql.Literal(k1 + 1)))
    query = sql.SQL("""
        SELECT id::text AS id, {score} AS score FROM (
            SELECT id, term_counts, norm, {positions} FROM (
                SELECT b.id, b.term_array AS arr, b.term_counts,
                       {k1} * (1 - {b} + {b} * b.term_total / {avg}) AS norm
                FROM blocks b
                WHERE b.is_live AND {candidates}{scope}
                {shortest}
                OFFSET 0
            ) c OFFSET 0
        ) t ORDER BY score DESC, id LIMIT {depth}
    """).format(score=sql.SQL(" + ").join(contributions), positions=sql.SQL(", ").join(positions),
                shortest=sql.SQL("") if shortest is None else sql.SQL("ORDER BY b.term_total, b.id LIMIT {}").format(
                    sql.Literal(shortest)),
                candidates=_candidates(candidate_terms, holding_all, listed),
                scope=_scope_clause(document_ids, categories),
                k1=sql.Literal(k1), b=sql.Literal(b), avg=sql.Literal(max(average_length, 1e-9)),
                depth=sql.Literal(depth))
    with db.connection() as conn:
        rows = conn.execute(query).fetchall()
    return [r["id"] for r in rows], [float(r["score"]) for r in rows]


def leading_blocks(db: Database, document_ids: Sequence[str], depth: int) -> list[str]:
    """The documents' first `depth` live blocks in reading order, taking turns by document."""
    with db.connection() as conn:
        rows = conn.execute("SELECT id::text AS id FROM blocks WHERE is_live AND document_id = ANY(%s::uuid[])"
                            " ORDER BY ordinal, document_id LIMIT %s", (list(document_ids), depth)).fetchall()
    return [row["id"] for row in rows]


def scope_size(db: Database, document_ids: Sequence[str], categories: Sequence[str], limit: int) -> int:
    """The live blocks in the scope, counted no further than `limit` + 1."""
    query = sql.SQL("SELECT count(*) AS n FROM (SELECT 1 FROM blocks b WHERE b.is_live{scope} LIMIT {limit}) s"
                    ).format(scope=_scope_clause(document_ids, categories), limit=sql.Literal(limit + 1))
    with db.connection() as conn:
        return int(one(conn.execute(query))["n"])


def iter_stale_terms(db: Database, analyzer: str, batch_rows: int = 2000) -> Iterator[list[dict[str, Any]]]:
    """Live blocks whose cached terms are missing or come from another analyser, in batches (id, text)."""
    with db.connection() as conn, conn.transaction():
        cursor = conn.cursor(name="stale_terms")
        cursor.execute("SELECT id::text AS id, text FROM blocks WHERE is_live"
                       " AND terms_analyzer IS DISTINCT FROM %s", (analyzer,))
        while rows := cursor.fetchmany(batch_rows):
            yield rows


def index_stats(db: Database, model: str) -> dict[str, int]:
    """Live and embedded blocks and documents (counted: meant for the health and vault panels)."""
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT count(*) AS blocks, count(*) FILTER (WHERE embed_model = %s) AS embedded_blocks,"
            " count(DISTINCT document_id) AS documents FROM blocks WHERE is_live", (model,),
        ))
    return {key: int(value) for key, value in row.items()}
