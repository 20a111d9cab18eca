"""`GET /metrics`: Prometheus's text format (backend/cluster/metrics.py says which series). Behind the same
token rules as the API (`api/security.py`): a scraper sends `Authorization: Bearer <QUIRE_API_TOKEN>`."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST

from backend import durable
from backend.api.deps import DatabaseDep, ExecutorIdDep, SettingsDep
from backend.cluster.metrics import render

router = APIRouter(tags=["metrics"])


@router.get("/metrics", include_in_schema=False)
def metrics(db: DatabaseDep, executor_id: ExecutorIdDep, settings: SettingsDep) -> Response:
    body = render(db, durable.system_database(), executor_id, settings.takeover_after_s)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
