"""Impact lists of the commonest keyword terms (migration 0018), for the Postgres search mode.

A listed term's top `per_term` live blocks by impact (its BM25 contribution without the idf) are kept in
`keyword_impacts`, with the lowest kept impact as the term's `floor`. `build` recomputes all lists in one
transaction (one pass over the live blocks' terms, then a sort of the common terms' occurrences); the
trigger of migration 0018 adds blocks written afterwards. One process builds at a time (an advisory
lock); searches in every process read the same lists.

The build also stores the live blocks, their total length and each listed term's document frequency;
the trigger records every change to them since, so BM25's statistics are the stored counts plus the
changes' sums (`search_sql.collection_stats`, `search_sql.document_frequencies`) instead of counts of
the whole vault. `fold` (run by every process, `backend/retrieval/keyword_fold.py`) adds those rows into
the stored counts and deletes them: the statistics stay the same, and the rows stop piling up between
builds — forever, in a vault no process rebuilds (the in-memory mode never builds).

Builds and folds exclude each other through one advisory lock. A build takes it before its transaction
starts, so its snapshot already holds every fold committed before it: with the lock taken inside, a fold
committing between a build's snapshot and its lock would make the build fail (its repeatable-read delete
of rows the fold deleted is a serialization error) and wait for the next rebuild check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from backend.store.db import Connection, Database, first_row, one

_LOCK = "quire.keyword_impacts"


@dataclass(frozen=True)
class ImpactBuild:
    blocks: int  # live blocks when built
    average_length: float
    k1: float
    b: float
    per_term: int
    terms: int  # terms listed
    changes: int = 0  # blocks written, trashed, restored or deleted since


def current(db: Database) -> ImpactBuild | None:
    """The parameters of the lists in place, None if never built."""
    row = first_row(db,
        "SELECT blocks - folded_blocks AS blocks, average_length, k1, b, per_term,"
        " (SELECT count(*) FROM keyword_impact_lists) AS terms,"
        " folded_changes + (SELECT count(*) FROM keyword_stats_changes) AS changes"
        " FROM keyword_impact_build",
    )
    return None if row is None else ImpactBuild(**row)


def build(db: Database, per_term: int, k1: float, b: float, sort_memory_mb: int = 256) -> ImpactBuild | None:
    """List every term held by more than `per_term` live blocks with its `per_term` best blocks; None if
    another process is building or folding."""
    with db.connection() as conn:
        # The lock before the transaction (see the module's docstring), released whatever happens.
        if not one(conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS ok", (_LOCK,)))["ok"]:
            return None
        try:
            with conn.transaction():
                return _build(conn, per_term, k1, b, sort_memory_mb)
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (_LOCK,))


def _build(conn: Connection, per_term: int, k1: float, b: float, sort_memory_mb: int) -> ImpactBuild:
    # One snapshot for every statement: the counts stored and the changes cleared are of the same moment,
    # so a change committed meanwhile is in neither and its rows stay.
    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
    conn.execute(f"SET LOCAL work_mem = '{int(sort_memory_mb)}MB'")
    stats = one(conn.execute("SELECT count(*) AS n, coalesce(sum(term_total), 0) AS total FROM blocks"
                             " WHERE is_live"))
    average = max(int(stats["total"]) / max(int(stats["n"]), 1), 1e-9)  # as BM25 averages
    conn.execute("DELETE FROM keyword_impacts; DELETE FROM keyword_impact_lists; DELETE FROM keyword_impact_build;"
                 " DELETE FROM keyword_stats_changes; DELETE FROM keyword_df_changes")
    conn.execute("CREATE TEMP TABLE common_terms ON COMMIT DROP AS SELECT u.term, count(*) AS df FROM blocks b,"
                 " unnest(b.term_array) AS u(term) WHERE b.is_live GROUP BY u.term HAVING count(*) > %s",
                 (per_term,))
    conn.execute("""
        INSERT INTO keyword_impacts (term, block_id, impact)
        SELECT term, id, impact FROM (
            SELECT term, id, impact, row_number() OVER (PARTITION BY term ORDER BY impact DESC, id) AS r
            FROM (
                SELECT u.term, b.id, quire_term_count(b.term_counts, u.i::integer)::float8 AS tf,
                       %(k1)s * (1 - %(b)s + %(b)s * b.term_total / %(avg)s) AS norm
                FROM blocks b, unnest(b.term_array) WITH ORDINALITY AS u(term, i)
                WHERE b.is_live AND u.term IN (SELECT term FROM common_terms)
            ) o CROSS JOIN LATERAL (SELECT tf * (%(k1)s + 1) / (tf + norm) AS impact) s
        ) ranked WHERE r <= %(per_term)s
    """, {"k1": k1, "b": b, "avg": average, "per_term": per_term})
    conn.execute("INSERT INTO keyword_impact_lists (term, floor, df) SELECT i.term, min(i.impact), c.df"
                 " FROM keyword_impacts i JOIN common_terms c ON c.term = i.term GROUP BY i.term, c.df")
    conn.execute("INSERT INTO keyword_impact_build (blocks, total_length, average_length, k1, b, per_term)"
                 " VALUES (%s, %s, %s, %s, %s, %s)",
                 (int(stats["n"]), int(stats["total"]), average, k1, b, per_term))
    terms = int(one(conn.execute("SELECT count(*) AS n FROM keyword_impact_lists"))["n"])
    return ImpactBuild(int(stats["n"]), average, k1, b, per_term, terms)


@dataclass(frozen=True)
class Fold:
    stats_rows: int  # keyword_stats_changes rows folded (one per block written, trashed, restored, deleted)
    df_rows: int  # keyword_df_changes rows folded


# One statement, so one snapshot: exactly the rows it deletes are summed, and a row committed after it
# started (a block written meanwhile) is neither deleted nor counted — it stays for the next fold. The
# trigger only ever inserts change rows, which never wait on these deletes, and reads the lists and the
# build row without locking them. A df row of a term no longer listed (written by a block change that
# overlapped a build) counts nowhere: it is deleted without effect. The impacts' `average_length` stays:
# the impacts were computed with it.
_FOLD = """
WITH stats AS (DELETE FROM keyword_stats_changes RETURNING blocks, length),
     dfs AS (DELETE FROM keyword_df_changes RETURNING term, delta),
     totals AS (SELECT count(*) AS n, coalesce(sum(blocks), 0) AS blocks, coalesce(sum(length), 0) AS length
                FROM stats),
     listed AS (UPDATE keyword_impact_lists l SET df = l.df + d.delta
                FROM (SELECT term, sum(delta) AS delta FROM dfs GROUP BY term HAVING sum(delta) <> 0) d
                WHERE l.term = d.term),
     built AS (UPDATE keyword_impact_build k SET blocks = k.blocks + t.blocks, total_length = k.total_length + t.length,
                      folded_blocks = k.folded_blocks + t.blocks, folded_changes = k.folded_changes + t.n
               FROM totals t WHERE t.n > 0)
SELECT (SELECT n FROM totals) AS stats_rows, (SELECT count(*) FROM dfs) AS df_rows
"""


def fold(db: Database) -> Fold | None:
    """Add the changes recorded since the build into its stored counts and delete them, in one
    transaction; BM25's statistics are the same before and after. None if another process is building
    or folding."""
    with db.transaction() as conn:
        return fold_in(conn)


def fold_in(conn: Connection) -> Fold | None:
    """`fold` in the caller's transaction (read committed: the lock is taken before the fold's snapshot)."""
    pending = one(conn.execute("SELECT EXISTS (SELECT FROM keyword_stats_changes)"
                               " OR EXISTS (SELECT FROM keyword_df_changes) AS any"))["any"]
    if not pending:  # the common case (no build, or nothing written): not even the lock is taken
        return Fold(0, 0)
    if not one(conn.execute("SELECT pg_try_advisory_xact_lock(hashtext(%s)) AS ok", (_LOCK,)))["ok"]:
        return None
    row = one(conn.execute(_FOLD))
    return Fold(int(row["stats_rows"]), int(row["df_rows"]))


def floors(db: Database, terms: Sequence[str]) -> dict[str, float]:
    """The floor of each of `terms` that is listed."""
    if not terms:
        return {}
    with db.connection() as conn:
        rows = conn.execute("SELECT term, floor FROM keyword_impact_lists WHERE term = ANY(%s)",
                            (list(terms),)).fetchall()
    return {r["term"]: float(r["floor"]) for r in rows}
