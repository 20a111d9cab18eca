"""Sessions over HTTP: history replayed to the model by whole turns, trimmed to the memory budget, and
rewound (edit / regenerate) at a turn boundary even after tool calls."""

from __future__ import annotations

import json

import httpx
import pytest

from backend.agent.sessions import title_from
from tests.agent.chatting import Library, chat, library, user_messages
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer


@pytest.fixture
def lib(quire: QuireServer, api: httpx.Client) -> Library:
    return library(quire.url, api)


def roles(request: dict) -> list[str]:
    return [m["role"] for m in request["messages"]]


def test_titles_come_from_the_first_question() -> None:
    assert title_from("  What is ATP?\nMore details follow.") == "What is ATP?"
    assert title_from("\n\n" + "word " * 40) == "word word word word word word word word word word word word…"
    assert title_from("x" * 100) == "x" * 60 + "…"


def test_rewind_after_a_turn_with_tool_calls(api: httpx.Client, fake_ollama: FakeOllama, lib: Library) -> None:
    fake_ollama.script(
        Reply(thinking="Search."),
        Reply(tool_calls=[("search_knowledge_base", {"query": "pepsin pH"})]),
        Reply(content="Pepsin works at pH 2 [1]."),
    )
    first = chat(api, "At which pH does pepsin work?", scope=lib.scope("enzymes"))
    sid = first.session_id
    second = chat(api, "Thanks!", session_id=sid)

    # Edit the second question: turn 2 goes, turn 1 (with its tool call and result) stays.
    fake_ollama.script(Reply(thinking="Again."), Reply(content="Trypsin prefers pH 8."))
    edited = chat(api, "And trypsin?", session_id=sid, rewind_to_message_id=second.user_message_id)
    request = fake_ollama.chat_requests[-1]
    assert roles(request) == ["system", "user", "assistant", "tool", "assistant", "user"]
    # Earlier questions are replayed as asked; only the current one carries the scope note.
    assert user_messages(request) == ["At which pH does pepsin work?", "And trypsin?"]
    assert "Thanks!" not in json.dumps(request["messages"])
    assert request["messages"][4]["content"] == "Pepsin works at pH 2 [1]."
    session = api.get(f"/api/chat/sessions/{sid}").json()
    assert [(m["turn"], m["role"]) for m in session["messages"]] == [
        (1, "user"), (1, "assistant"), (1, "tool"), (1, "assistant"), (2, "user"), (2, "assistant")]
    assert session["messages"][4]["content"] == "And trypsin?"

    # Regenerate the last answer: rewinding to the answer's id removes its whole turn too.
    fake_ollama.script(Reply(thinking="Once more."), Reply(content="Trypsin: pH 8 (regenerated)."))
    chat(api, "And trypsin?", session_id=sid, rewind_to_message_id=edited.message_id)
    session = api.get(f"/api/chat/sessions/{sid}").json()
    assert [m["content"] for m in session["messages"] if m["role"] == "user"] == [
        "At which pH does pepsin work?", "And trypsin?"]
    assert session["messages"][-1]["content"] == "Trypsin: pH 8 (regenerated)."

    # Rewinding to the first turn (here: to its tool result) leaves nothing before the new question.
    tool_row = session["messages"][2]["id"]
    fake_ollama.script(Reply(thinking="Fresh."), Reply(content="Fresh start."))
    chat(api, "Start over: what is an enzyme?", session_id=sid, rewind_to_message_id=tool_row)
    assert roles(fake_ollama.chat_requests[-1]) == ["system", "user"]
    session = api.get(f"/api/chat/sessions/{sid}").json()
    assert [(m["turn"], m["role"]) for m in session["messages"]] == [(1, "user"), (1, "assistant")]
    assert session["title"] == "Start over: what is an enzyme?"


def test_memory_drops_the_oldest_whole_turns(api: httpx.Client, fake_ollama: FakeOllama, lib: Library) -> None:
    fake_ollama.script(
        Reply(thinking="Search."),
        Reply(tool_calls=[("search_knowledge_base", {"query": "glycolysis ATP"})]),
        Reply(content="Glycolysis yields two ATP [1]."),
    )
    long_question = "Question {}: please consider this carefully. " + "lorem ipsum dolor sit amet " * 450
    first = chat(api, long_question.format(1), scope=lib.scope("respiration"))
    sid = first.session_id
    assert first.one("memory")["turns_kept"] == 0
    assert first.one("memory")["turns_dropped"] == 0
    for number in (2, 3):
        memory = chat(api, long_question.format(number), session_id=sid).one("memory")
        assert memory["turns_dropped"] == 0
        assert memory["turns_kept"] == number - 1

    memory = chat(api, long_question.format(4), session_id=sid).one("memory")
    assert memory == {"used_chars": memory["used_chars"], "budget_chars": 48_000, "turns_kept": 2,
                      "turns_dropped": 1}
    assert memory["used_chars"] <= 48_000
    request = fake_ollama.chat_requests[-1]
    questions = [q.split(":")[0] for q in user_messages(request)]
    assert questions == ["Question 2", "Question 3", "Question 4"]
    # The dropped turn went whole: its tool call, its result and its answer are gone with its question.
    assert roles(request) == ["system", "user", "assistant", "user", "assistant", "user"]
    # Everything sent counts: the messages and the tool definitions that come with them.
    sent = sum(len(m["content"]) for m in request["messages"]) + len(json.dumps(request["tools"], ensure_ascii=False))
    assert sent - 100 <= memory["used_chars"] <= sent + 100
    # Nothing is deleted: the transcript still holds all four turns.
    session = api.get(f"/api/chat/sessions/{sid}").json()
    assert session["turns"] == 4
