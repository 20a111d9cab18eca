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
    # Turn 1: the question, Quire's search, the model's search, the answer; then the edited question and
    # Quire's search for it.
    assert roles(request) == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "user",
                              "assistant", "tool"]
    # Earlier questions are replayed as asked; only the current one carries the scope note.
    assert user_messages(request) == ["At which pH does pepsin work?", "And trypsin?"]
    assert "Thanks!" not in json.dumps(request["messages"])
    assert request["messages"][6]["content"] == "Pepsin works at pH 2 [1]."
    session = api.get(f"/api/chat/sessions/{sid}").json()
    assert [(m["turn"], m["role"]) for m in session["messages"]] == [
        (1, "user"), (1, "assistant"), (1, "tool"), (1, "assistant"), (1, "tool"), (1, "assistant"),
        (2, "user"), (2, "assistant"), (2, "tool"), (2, "assistant")]
    assert session["messages"][6]["content"] == "And trypsin?"

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
    assert roles(fake_ollama.chat_requests[-1]) == ["system", "user", "assistant", "tool"]  # Quire's search only
    session = api.get(f"/api/chat/sessions/{sid}").json()
    assert [(m["turn"], m["role"]) for m in session["messages"]] == [(1, "user"), (1, "assistant"), (1, "tool"),
                                                                     (1, "assistant")]
    assert session["title"] == "Start over: what is an enzyme?"


def test_memory_drops_the_oldest_whole_turns(api: httpx.Client, fake_ollama: FakeOllama, lib: Library) -> None:
    fake_ollama.script(
        Reply(thinking="Search."),
        Reply(tool_calls=[("search_knowledge_base", {"query": "glycolysis ATP"})]),
        Reply(content="Glycolysis yields two ATP [1]."),
    )
    long_question = "Question {}: please consider this carefully. " + "lorem ipsum dolor sit amet " * 200
    first = chat(api, long_question.format(1), scope=lib.scope("respiration"))
    sid = first.session_id
    assert first.one("memory")["turns_kept"] == 0
    assert first.one("memory")["turns_dropped"] == 0
    number, memory = 1, first.one("memory")
    while memory["turns_dropped"] == 0:
        number += 1
        assert number <= 8, "the budget never filled up"
        memory = chat(api, long_question.format(number), session_id=sid).one("memory")
        assert memory["turns_kept"] + memory["turns_dropped"] == number - 1
    # The budget: the smaller of CHAT_MEMORY_CHARS and the model's context less the answer's share.
    assert memory["budget_chars"] == min(48_000, (memory["context_tokens"] - memory["answer_tokens"]) * 3)
    assert memory["used_chars"] <= memory["budget_chars"]
    assert memory["turns_dropped"] == 1
    request = fake_ollama.chat_requests[-1]
    questions = [q.split(":")[0] for q in user_messages(request)]
    assert questions == [f"Question {n}" for n in range(2, number + 1)]
    # The dropped turn went whole: its searches, their results and its answer are gone with its question.
    assert roles(request)[:2] == ["system", "user"]
    assert len([m for m in request["messages"] if m["role"] == "tool"]) == number - 1  # one search per question
    # Everything sent counts: the messages, their tool calls and the tool definitions that come with them.
    calls = [len(json.dumps(m["tool_calls"], ensure_ascii=False)) if m.get("tool_calls") else 0
             for m in request["messages"]]
    sent = (sum(len(m.get("content") or "") for m in request["messages"]) + sum(calls)
            + len(json.dumps(request["tools"], ensure_ascii=False)))
    assert sent - 200 <= memory["used_chars"] <= sent + 200
    # Nothing is deleted: the transcript still holds every turn.
    session = api.get(f"/api/chat/sessions/{sid}").json()
    assert session["turns"] == number
