"""Impact lists of the commonest keyword terms (migration 0018), for the Postgres search mode.

A listed term's top `per_term` live blocks by impact (its BM25 contribution without the idf) are kept in
`keyword_impacts`, with the lowest kept impact as the term's `floor`. `build` recomputes all lists in one
transaction (one pass over the live blocks' terms, then a sort of the common terms' occurrences); the
trigger of migration 0018 adds blocks written afterwards. One process builds at a time (an advisory
lock); searches in every process read the same lists.

The build also stores the live blocks, their total length and each listed term's document frequency;
the trigger records every change to them since, so BM25's statistics are the stored counts plus the
changes' sums (`search_sql.collection_stats`, `search_sql.document_frequencies`) instead of counts of
the whole vault.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from backend.store.db import Database, one

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
    with db.connection() as conn:
        row = conn.execute("SELECT blocks, average_length, k1, b, per_term,"
                           " (SELECT count(*) FROM keyword_impact_lists) AS terms,"
                           " (SELECT count(*) FROM keyword_stats_changes) AS changes FROM keyword_impact_build"
                           ).fetchone()
    return None if row is None else ImpactBuild(**row)


def build(db: Database, per_term: int, k1: float, b: float, sort_memory_mb: int = 256) -> ImpactBuild | None:
    """List every term held by more than `per_term` live blocks with its `per_term` best blocks; None if
    another process is building."""
    with db.transaction() as conn:
        # One snapshot for every statement: the counts stored and the changes cleared are of the same
        # moment, so a change committed meanwhile is in neither and its rows stay.
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        if not one(conn.execute("SELECT pg_try_advisory_xact_lock(hashtext(%s)) AS ok", (_LOCK,)))["ok"]:
            return None
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


def floors(db: Database, terms: Sequence[str]) -> dict[str, float]:
    """The floor of each of `terms` that is listed."""
    if not terms:
        return {}
    with db.connection() as conn:
        rows = conn.execute("SELECT term, floor FROM keyword_impact_lists WHERE term = ANY(%s)",
                            (list(terms),)).fetchall()
    return {r["term"]: float(r["floor"]) for r in rows}
