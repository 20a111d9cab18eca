"""SQL for personal FSRS parameters (fitted to the user's review log) and the log they are fitted on."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from typing_extensions import TypedDict

from backend.store.db import Connection, Database, fetch_row, fetch_rows, one


class FitMeasures(TypedDict):
    """How a fit was made and how well it predicts: the log's size, its error before and after."""

    reviews: int
    cards: int
    log_loss_before: float
    log_loss_after: float
    rmse_before: float
    rmse_after: float
    created_at: datetime


class ParamsRow(FitMeasures):
    """A fit: its measures, the job that made it and the parameters themselves."""

    id: str
    job_id: str | None
    parameters: list[float]


class LogRow(TypedDict):
    card: int  # a small number per card, as the optimizer wants integer card ids
    rating: int
    reviewed_at: datetime


_COLUMNS = ("id::text AS id, job_id, parameters, reviews, cards, log_loss_before, log_loss_after, rmse_before,"
            " rmse_after, created_at")


def latest(db: Database) -> ParamsRow | None:
    """The parameters in use: the newest fitted set, if any."""
    return fetch_row(db, ParamsRow, f"SELECT {_COLUMNS} FROM fsrs_parameters ORDER BY created_at DESC LIMIT 1")  # noqa: S608


def insert(conn: Connection, row: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO fsrs_parameters (id, job_id, parameters, reviews, cards, log_loss_before, log_loss_after,"
        " rmse_before, rmse_after) VALUES (%(id)s, %(job_id)s, %(parameters)s, %(reviews)s, %(cards)s,"
        " %(log_loss_before)s, %(log_loss_after)s, %(rmse_before)s, %(rmse_after)s) ON CONFLICT (id) DO NOTHING",
        row,
    )


def review_log(db: Database) -> list[LogRow]:
    """Every review, oldest first, with each card numbered by its first review."""
    return fetch_rows(db, LogRow,
        "SELECT dense_rank() OVER (ORDER BY first, card_id)::int AS card, rating, reviewed_at FROM ("
        "  SELECT card_id, rating, reviewed_at, min(reviewed_at) OVER (PARTITION BY card_id) AS first, id"
        "  FROM card_reviews) r ORDER BY reviewed_at, id",
    )


def log_counts(db: Database) -> dict[str, int]:
    """Reviews, cards reviewed, and reviews a day or more after the card's previous one (the only ones
    the optimizer learns from)."""
    with db.connection() as conn:
        row = one(conn.execute(
            "SELECT count(*) AS reviews, count(DISTINCT card_id) AS cards,"
            " count(*) FILTER (WHERE reviewed_at - previous >= interval '1 day') AS spaced FROM ("
            "  SELECT card_id, reviewed_at, lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id)"
            "  AS previous FROM card_reviews) r"))
    return {key: int(value) for key, value in row.items()}
