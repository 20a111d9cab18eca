"""Workshops over real HTTP: outlines (valid, retried once, failing clearly), lessons written on first
open (202 + job, then the cleaned lesson), regeneration, completion and the recap quiz."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import httpx
import psycopg
import pytest

from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer
from tests.support.study import generate, mcq, outline_reply, study_vault, true_false, wait_job

LESSON = ("Of course! Here is lesson {n}.\n\n## Introduction\nWhy energy matters.\n\n## Core content\n"
          "Mitochondria make ATP.\n\n## Key takeaways\n- ATP is energy.\n\n## Self-check\n1. What makes ATP?\n"
          "**Answer:** Mitochondria.\n\nI hope this helps! Let me know if you need more.")


@pytest.fixture(scope="module")
def vault(quire: QuireServer) -> dict[str, Any]:
    with quire.client() as client:
        return study_vault(client, ("cells", "genetics"))


def new_workshop(api: httpx.Client, fake: FakeOllama, vault: dict[str, Any], lessons: int, *replies: str) -> dict:
    job = generate(api, fake, "/api/study/workshops",
                   {"scope": vault["scope"], "lessons": lessons, "difficulty": "advanced"}, *replies)
    assert job["status"] == "succeeded", job
    return api.get(job["result_url"]).json()


def test_outline_with_more_lessons_than_asked_is_cut(api: httpx.Client, fake_ollama: FakeOllama,
                                                    vault: dict[str, Any]) -> None:
    workshop = new_workshop(api, fake_ollama, vault, 3, outline_reply(5))
    assert [lesson["n"] for lesson in workshop["lessons"]] == [1, 2, 3]
    assert workshop["title"] == "Energy and life"
    assert workshop["difficulty"] == "advanced"
    assert workshop["objectives"]
    assert workshop["key_points"]
    assert workshop["total_minutes"] == 45
    assert workshop["sources"]
    assert not any(lesson["written"] for lesson in workshop["lessons"])
    assert fake_ollama.chat_requests[0]["format"]["properties"]["lessons"]["type"] == "array"


def test_outline_is_retried_once_then_fails_clearly(api: httpx.Client, fake_ollama: FakeOllama,
                                                    vault: dict[str, Any]) -> None:
    workshop = new_workshop(api, fake_ollama, vault, 4, outline_reply(3), "```json\n" + outline_reply(4) + "\n```")
    assert len(workshop["lessons"]) == 4
    reminder = fake_ollama.chat_requests[1]["messages"][-1]["content"]
    assert "exactly 4 are required" in reminder
    job = generate(api, fake_ollama, "/api/study/workshops", {"scope": vault["scope"], "lessons": 4},
                   "not json", '{"title": "half an outline"}')
    assert job["status"] == "failed"
    assert "workshop outline after a retry" in job["error"]["message"]


def test_lessons_are_written_on_first_open_and_the_recap_follows_completion(
        quire: QuireServer, api: httpx.Client, fake_ollama: FakeOllama, vault: dict[str, Any]) -> None:
    workshop = new_workshop(api, fake_ollama, vault, 3, outline_reply(3))
    base = f"/api/study/workshops/{workshop['id']}"
    fake_ollama.script(Reply(content=LESSON.format(n=1), delay_s=0.5))
    opened = api.get(f"{base}/lessons/1")
    assert opened.status_code == 202
    assert opened.json()["kind"] == "lesson"
    assert api.get(f"{base}/lessons/1").json()["job_id"] == opened.json()["job_id"]  # same job while writing
    assert wait_job(api, opened.json()["job_id"])["result_url"] == f"{base}/lessons/1"
    lesson = api.get(f"{base}/lessons/1")
    assert lesson.status_code == 200
    content = lesson.json()["content"]
    assert content.startswith("## Introduction")
    assert content.endswith("**Answer:** Mitochondria.")
    assert lesson.json()["sources"]
    assert lesson.json()["regenerating"] is None
    prompt = fake_ollama.chat_requests[-1]["messages"][0]["content"]
    assert "Lesson 1: mitochondria and energy" in prompt
    assert fake_ollama.chat_requests[-1].get("format") is None  # a lesson is Markdown, not JSON

    # The rewrite first comes back without three of its sections: asked once more, naming them.
    second = LESSON.format(n=1).replace("Why energy matters.", "Why energy matters, second version.")
    fake_ollama.script(Reply(content="## Introduction\nA rewritten lesson, second version.", delay_s=0.5),
                       Reply(content=second))
    rewrite = api.post(f"{base}/lessons/1/regenerate")
    assert rewrite.status_code == 202
    during = api.get(f"{base}/lessons/1").json()
    assert during["content"] == content
    assert during["regenerating"]["job_id"] == rewrite.json()["job_id"]
    wait_job(api, rewrite.json()["job_id"])
    rewritten = api.get(f"{base}/lessons/1").json()["content"]
    assert "Why energy matters, second version." in rewritten
    assert rewritten.endswith("**Answer:** Mitochondria.")
    reminder = fake_ollama.chat_requests[-1]["messages"][-1]["content"]
    assert '"## Core content", "## Key takeaways", "## Self-check"' in reminder

    recap_too_early = api.post(f"{base}/recap")
    assert recap_too_early.status_code == 409
    assert recap_too_early.json()["error"]["code"] == "lessons_incomplete"
    # A lesson never written cannot be completed, and progress does not count it.
    assert api.post(f"{base}/lessons/1/complete").json()["completed"] == 1
    unwritten = api.post(f"{base}/lessons/2/complete")
    assert unwritten.status_code == 409
    assert unwritten.json()["error"]["code"] == "lesson_not_written"
    assert api.get(base).json()["completed_lessons"] == 1
    for n in (2, 3):
        fake_ollama.script(Reply(content=LESSON.format(n=n)))
        wait_job(api, api.get(f"{base}/lessons/{n}").json()["job_id"])
    for n in (1, 2, 3):
        state = api.post(f"{base}/lessons/{n}/complete").json()
    assert state["all_complete"]
    assert state["progress"] == 1.0
    # Lesson 1 was opened three times and completed within minutes: one reading, one study event.
    with psycopg.connect(quire.database_url) as conn:
        reads = dict(conn.execute("SELECT ref, count(*) FROM activity_events WHERE kind = 'lesson_read'"
                                  " AND ref LIKE %s GROUP BY ref", (f"lesson:{workshop['id']}:%",)).fetchall())
    assert reads == {f"lesson:{workshop['id']}:{n}": 1 for n in (1, 2, 3)}
    assert api.get(f"{base}/lessons/11").status_code == 422
    recap = generate(api, fake_ollama, f"{base}/recap", {},
                     json.dumps({"questions": [mcq(1), true_false(2), mcq(3), mcq(4), mcq(5), mcq(6)]}))
    quiz = api.get(recap["result_url"]).json()
    assert quiz["workshop_id"] == workshop["id"]
    assert quiz["question_count"] == 5
    assert api.get(base).json()["recap_quiz_id"] == quiz["id"]
    assert api.post(f"{base}/recap").json()["job_id"] == recap["job_id"]  # asked again: the same recap
    assert [q["id"] for q in api.get("/api/study/quizzes", params={"workshop_id": workshop["id"]}).json()] == \
        [quiz["id"]]
    assert api.delete(base).status_code == 204
    assert api.get(f"/api/study/quizzes/{quiz['id']}").status_code == 404


def test_a_lesson_can_be_read_while_it_is_written(api: httpx.Client, fake_ollama: FakeOllama,
                                                  vault: dict[str, Any]) -> None:
    workshop = new_workshop(api, fake_ollama, vault, 3, outline_reply(3))
    base = f"/api/study/workshops/{workshop['id']}"
    fake_ollama.script(Reply(content=LESSON.format(n=2), chunks=8, delay_s=0.4))
    job_id = api.get(f"{base}/lessons/2").json()["job_id"]
    drafts: list[str] = []
    deadline = time.monotonic() + 30
    while (job := api.get(f"/api/study/jobs/{job_id}").json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline
        if job["draft"] and (not drafts or job["draft"] != drafts[-1]):
            drafts.append(job["draft"])
        time.sleep(0.05)
    assert job["status"] == "succeeded"
    assert job["draft"] is None
    final = api.get(f"{base}/lessons/2").json()["content"]
    assert len(drafts) >= 2  # it grew while being written
    assert all(final.startswith(draft.rstrip()) for draft in drafts), drafts  # never the model's preamble
    assert all(len(a) < len(b) for a, b in itertools.pairwise(drafts))
