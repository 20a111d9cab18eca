"""`/metrics` in Prometheus's text format: the database's work and every process on it, read per scrape,
plus this process's own search latency and resource use (`backend/metrics.py`).

Series (labels in braces):
- `quire_database_up` — 1 if this process reaches its database.
- `quire_workflows{status}` — DBOS workflows by state (PENDING = running, ENQUEUED = waiting, SUCCESS, ERROR, …).
- `quire_queue_depth{queue, state}` — per DBOS queue, workflows `waiting` (enqueued) and `running`.
- `quire_process_state{executor_id, mode, state}` — 1 for each process's state (alive, silent, fenced,
  taken_over, stopped); `quire_process_silent_seconds` and `quire_process_pending_workflows` alike.
- `quire_pages_read_total`, `quire_documents_read_total`, `quire_passages_embedded_total`
  `{executor_id, mode}` — counters of each process since it started, published with its heartbeat
  (`rate(...[5m])` gives pages/s read and passages/s embedded; a restart resets them, which Prometheus
  expects of a counter). Every server reports every process, so one scrape target shows the database.
- `quire_takeovers_last_week{kind}` — takeovers of dead (`taken_over`) and hung (`fenced`) processes.
- `quire_search_seconds` — histogram of this server's searches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import sqlalchemy as sa
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from backend.cluster.status import cluster_status
from backend.metrics import REGISTRY, WORK_NAMES
from backend.store.db import Database
from backend.store.liveness import DATABASE_LOST
from backend.store.system_db import workflow_counts

# Ours (psycopg) and DBOS's (SQLAlchemy) ways of saying the database went away.
_DATABASE_GONE: tuple[type[Exception], ...] = (*DATABASE_LOST, sa.exc.OperationalError, sa.exc.InterfaceError)
_QUEUE_STATES = {"ENQUEUED": "waiting", "PENDING": "running"}


class ClusterCollector(Collector):
    def __init__(self, db: Database, engine: sa.Engine | None, executor_id: str, takeover_after_s: float) -> None:
        self.db, self.engine = db, engine
        self.executor_id, self.takeover_after_s = executor_id, takeover_after_s

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("quire_database_up", "1 if this process reaches its database")
        try:
            families = [*self._workflows(), *self._processes()]
        except _DATABASE_GONE:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield from families

    def _workflows(self) -> list[Metric]:
        by_status = GaugeMetricFamily("quire_workflows", "DBOS workflows by status", labels=["status"])
        depth = GaugeMetricFamily("quire_queue_depth", "Workflows per DBOS queue, waiting and running",
                                  labels=["queue", "state"])
        if self.engine is None:
            return []
        totals: dict[str, int] = defaultdict(int)
        for row in workflow_counts(self.engine):
            totals[row.status] += row.count
            if row.queue_name and row.status in _QUEUE_STATES:
                depth.add_metric([row.queue_name, _QUEUE_STATES[row.status]], row.count)
        for status, count in sorted(totals.items()):
            by_status.add_metric([status], count)
        return [by_status, depth]

    def _processes(self) -> list[Metric]:
        cluster = cluster_status(self.db, self.executor_id, self.takeover_after_s)
        state = GaugeMetricFamily("quire_process_state", "1 for each process's current state",
                                  labels=["executor_id", "mode", "state"])
        silent = GaugeMetricFamily("quire_process_silent_seconds", "Seconds since each process's last heartbeat",
                                   labels=["executor_id", "mode"])
        pending = GaugeMetricFamily("quire_process_pending_workflows", "Workflows each process is running",
                                    labels=["executor_id", "mode"])
        work = {name: CounterMetricFamily(f"quire_{name}", f"{name.replace('_', ' ').capitalize()} by each process "
                                          "since it started", labels=["executor_id", "mode"]) for name in WORK_NAMES}
        for process in cluster.processes:
            labels = [process.executor_id, process.mode]
            state.add_metric([*labels, process.state], 1)
            silent.add_metric(labels, process.silent_s)
            pending.add_metric(labels, process.activity.pending_workflows)
            for name, family in work.items():
                family.add_metric(labels, process.activity.work.get(name, 0))
        takeovers = GaugeMetricFamily("quire_takeovers_last_week", "Takeovers of dead and of hung (fenced) processes",
                                      labels=["kind"])
        fenced = sum(1 for takeover in cluster.takeovers if takeover.sessions_ended)
        takeovers.add_metric(["fenced"], fenced)
        takeovers.add_metric(["taken_over"], len(cluster.takeovers) - fenced)
        return [state, silent, pending, *work.values(), takeovers]


def render(db: Database, engine: sa.Engine | None, executor_id: str, takeover_after_s: float) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ClusterCollector(db, engine, executor_id, takeover_after_s))
    return generate_latest(registry) + generate_latest(REGISTRY)
