"""Progress and vault APIs over real HTTP, on a server of their own (a fresh database, so every count is
this module's): activity recorded by the study features shows up in the summary, the daily series,
the breakdown, sessions, the day view and badges; the vault panel counts real outbound requests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer, serve
from tests.support.study import generate, mcq, mindmap_reply, study_vault
from tests.support.vault import wait_for_run

ZONE = "Europe/Berlin"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    yield from serve(postgres, fake_ollama_server, tmp_path_factory.mktemp("quire-progress"),
                     QUIRE_TIMEZONE=ZONE, QUIRE_URL_IMPORT_ALLOW_PRIVATE="true")


@pytest.fixture
def client(server: QuireServer, fake_ollama: FakeOllama) -> Iterator[httpx.Client]:
    with server.client() as c:
        yield c


def today() -> date:
    return datetime.now(ZoneInfo(ZONE)).date()


def test_an_empty_vault_has_zeroes_everywhere(client: httpx.Client) -> None:
    summary = client.get("/api/progress/summary").json()
    assert (summary["sessions"], summary["total_seconds"], summary["current_streak"]) == (0, 0, 0)
    assert summary["timezone"] == ZONE
    daily = client.get("/api/progress/daily").json()
    assert len(daily["days"]) == 90
    assert daily["end"] == today().isoformat()
    assert all(day["seconds"] == 0 and day["events"] == 0 for day in daily["days"])
    badges = client.get("/api/progress/badges").json()
    assert (badges["earned"], badges["total"]) == (0, 25)
    assert client.get("/api/progress/daily", params={"days": 366}).status_code == 422
    assert client.get("/api/progress/day/not-a-date").status_code == 422


@pytest.mark.parametrize(("path", "params"), [
    ("/api/progress/day/0", {}), ("/api/progress/day/1700000000", {}),
    ("/api/progress/daily", {"end": "0"}), ("/api/progress/sessions", {"before": "0.5"}),
])
def test_a_number_is_not_taken_for_a_date(client: httpx.Client, path: str, params: dict[str, str]) -> None:
    # pydantic alone reads a number as seconds since 1970 and answered with January 1970.
    response = client.get(path, params=params)
    assert response.status_code == 422, response.text
    assert "written as" in response.json()["error"]["message"]


def test_study_activity_feeds_the_dashboard_and_badges(client: httpx.Client, fake_ollama: FakeOllama) -> None:
    material = study_vault(client, ("cells",))
    job = generate(client, fake_ollama, "/api/study/quizzes", {"scope": material["scope"], "count": 5},
                   json.dumps({"questions": [mcq(1, correct=0)]}))
    quiz = client.get(job["result_url"]).json()
    attempt = client.post(f"/api/study/quizzes/{quiz['id']}/attempts").json()
    question = quiz["questions"][0]
    right = question["options"].index("option 1.0")  # options are shuffled when the quiz is saved
    client.post(f"/api/study/quizzes/{quiz['id']}/attempts/{attempt['id']}/answers",
                json={"question_id": question["id"], "choice_index": right})
    mindmap = generate(client, fake_ollama, "/api/study/mindmaps", {"scope": material["scope"]}, mindmap_reply(3))
    client.post(f"/api/study/mindmaps/{mindmap['result_id']}/exports", json={"format": "pdf"})

    summary = client.get("/api/progress/summary").json()
    assert (summary["sessions"], summary["quiz_answers"], summary["mindmap_exports"]) == (1, 1, 1)
    assert summary["total_seconds"] >= 60
    assert summary["current_streak"] == 1
    days = client.get("/api/progress/daily", params={"days": 7}).json()["days"]
    assert len(days) == 7
    assert days[-1]["date"] == today().isoformat()
    assert days[-1]["by_kind"] == {"quiz_answer": 1, "mindmap_export": 1}
    assert days[-1]["sessions"] == 1
    items = {i["kind"]: i for i in client.get("/api/progress/breakdown", params={"days": 30}).json()["items"]}
    assert items["quiz_answer"]["events"] == 1
    assert items["mindmap_export"]["seconds"] == 60
    sessions = client.get("/api/progress/sessions").json()
    assert len(sessions) == 1
    assert sessions[0]["kinds"] == {"quiz_answer": 1, "mindmap_export": 1}
    day = client.get(f"/api/progress/day/{today().isoformat()}").json()
    assert [e["kind"] for e in day["events"]] == ["quiz_answer", "mindmap_export"]
    assert day["events"][0]["ref"] == f"quiz:{quiz['id']}"

    badges = {b["code"]: b for b in client.get("/api/progress/badges").json()["badges"]}
    for code in ("first_steps", "first_answer", "flawless", "cartographer"):
        assert badges[code]["earned_at"] is not None, code
    assert not badges["quiz_whiz"]["earned"]
    assert badges["quiz_whiz"]["progress"] == 0.01
    assert badges["first_answer"]["next_level"] == "quiz_whiz"
    assert badges["first_answer"]["icon"]


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<html><head><title>Notes</title></head><body><article><p>" + b"Ribosomes make proteins. " * 40 + \
               b"</p></article></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return


def test_vault_stats_count_what_is_stored_and_every_outbound_request(client: httpx.Client) -> None:
    before = client.get("/api/vault/stats").json()
    site = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        accepted = client.post("/api/documents/url", json={"url": f"http://127.0.0.1:{site.server_port}/notes"})
        assert accepted.status_code == 202, accepted.text
        wait_for_run(client, accepted.json()["workflow_id"])
    finally:
        site.shutdown()
    stats = client.get("/api/vault/stats").json()
    assert stats["outbound"]["requests"] == before["outbound"]["requests"] + 1
    assert stats["outbound"]["recent"][0]["url"].startswith("http://127.0.0.1:")
    assert stats["documents"]["total"] == before["documents"]["total"] + 1
    assert stats["blocks"]["total"] > 0
    assert stats["blocks"]["embedded_share"] == 1.0
    assert stats["index"]["blocks"] == stats["blocks"]["total"]
    assert stats["storage"]["database"]["bytes"] > 0
    assert stats["storage"]["docs_dir"]["bytes"] > 0
    assert stats["models"]["chat"] == {"name": "gemma4:e4b", "present": True}
