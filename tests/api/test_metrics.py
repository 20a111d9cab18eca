"""`GET /metrics` of a real server, read with Prometheus's own parser: pages read and passages embedded by
this process, the search latency histogram, workflows by state and queue depths while a run waits, and
the same token rule as the API."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.support.corpus import CORPUS
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest, upload, wait_for_run

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _scrape(api: httpx.Client) -> Samples:
    response = api.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def _value(samples: Samples, name: str, **labels: str) -> float:
    """The sum over the samples of `name` whose labels include `labels`."""
    return sum(value for (sample, have), value in samples.items()
               if sample == name and set(labels.items()) <= set(have))


def test_metrics_count_this_servers_work_and_searches(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    me = api.get("/api/health").json()["dbos"]["executor_id"]
    before = _scrape(api)
    ingest(api, {"metrics-law.md": (CORPUS / "hochschulrahmengesetz.md").read_bytes()}, timeout_s=180)
    for query in ("Hochschule Aufgaben", "Studium Prüfungen"):
        assert api.get("/api/search", params={"q": query}).status_code == 200
    deadline = time.monotonic() + 30  # the counters travel with the next heartbeat report
    while True:
        after = _scrape(api)
        embedded = (_value(after, "quire_passages_embedded_total", executor_id=me)
                    - _value(before, "quire_passages_embedded_total", executor_id=me))
        if embedded > 0 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert embedded > 0
    assert (_value(after, "quire_documents_read_total", executor_id=me)
            - _value(before, "quire_documents_read_total", executor_id=me)) >= 1
    assert _value(after, "quire_database_up") == 1
    assert _value(after, "quire_process_state", executor_id=me, state="alive") == 1
    assert _value(after, "quire_workflows", status="SUCCESS") >= 1
    assert _value(after, "quire_search_seconds_count") - _value(before, "quire_search_seconds_count") >= 2
    assert _value(after, "quire_search_seconds_bucket", le="+Inf") == _value(after, "quire_search_seconds_count")


def test_queue_depth_shows_a_run_in_progress(api: httpx.Client, fake_ollama: FakeOllama) -> None:
    fake_ollama.hold_embeddings()
    workflow_id = upload(api, {"metrics-queue.md": b"# Queue\n\nA run held at its embedding."}).json()["workflow_id"]
    try:
        deadline = time.monotonic() + 120
        while not _value(_scrape(api), "quire_queue_depth", queue="ingest", state="running"):
            assert time.monotonic() < deadline, "the run never showed as running on the ingest queue"
            time.sleep(0.3)
        assert _value(_scrape(api), "quire_workflows", status="PENDING") >= 1
    finally:
        fake_ollama.release_embeddings()
    assert wait_for_run(api, workflow_id, timeout_s=120)["status"] == "SUCCESS"


def test_metrics_need_the_api_token(server_factory: Callable[..., QuireServer]) -> None:
    server = server_factory(QUIRE_API_TOKEN="metrics-secret")
    assert httpx.get(f"{server.url}/metrics", timeout=30).status_code == 401
    assert httpx.get(f"{server.url}/api/health/ready", timeout=30).status_code == 200  # for a load balancer
    scraped = httpx.get(f"{server.url}/metrics", headers={"Authorization": "Bearer metrics-secret"}, timeout=30)
    assert scraped.status_code == 200
    assert "quire_database_up 1.0" in scraped.text
