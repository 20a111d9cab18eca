"""A chat turn is written twice: the question (with a placeholder answer) when it arrives, the tool rounds
and the answer when it ends. The second write must land only in its own turn — never in a turn that
replaced it while the answer was being produced (a rewind) — and costs one round trip."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.agent import sessions
from backend.store.chat import AnswerUpdate, NewMessage
from backend.store.db import Database
from tests.support.postgres import ThrowawayPostgres


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_chat_turns", min_size=1, max_size=2) as database:
        yield database


def question(text: str) -> sessions.Question:
    return sessions.Question(text=text, scope={})


def tool_round(n: int) -> list[NewMessage]:
    return [NewMessage(id=f"00000000-0000-4000-8000-{n:012d}", role="assistant", tool_calls=[
                {"id": "call_1", "name": "search_knowledge_base", "args": {"query": "x"}}]),
            NewMessage(id=f"00000000-0000-4000-9000-{n:012d}", role="tool", content="passages", tool_call_id="call_1",
                       tool_name="search_knowledge_base", tool_summary="1 passage")]


def answer(text: str) -> AnswerUpdate:
    return AnswerUpdate(content=text, citations=[], thinking=None, status="complete", error=None)


def test_a_finished_turn_stores_its_rounds_before_its_answer(db: Database) -> None:
    first = sessions.begin_turn(db, None, None, question("What is osmosis?"))
    assert sessions.finish_turn(db, first, tool_round(1), answer("Water moves [1]."))
    second = sessions.begin_turn(db, first.session_id, None, question("And diffusion?"))
    assert [m["role"] for m in second.history[0].messages] == ["user", "assistant", "tool", "assistant"]
    messages = sessions.get_session(db, first.session_id)["messages"]
    assert [(m["turn"], m["seq"], m["role"]) for m in messages] == [
        (1, 0, "user"), (1, 1, "assistant"), (1, 2, "tool"), (1, 3, "assistant"), (2, 0, "user"), (2, 1, "assistant")]


def test_an_answer_finishing_after_its_turn_was_rewound_writes_nothing(db: Database) -> None:
    first = sessions.begin_turn(db, None, None, question("What is osmosis?"))
    # While the first answer is produced, the user edits the question: turn 1 is replaced.
    again = sessions.begin_turn(db, first.session_id, first.user_message_id, question("What is osmosis, briefly?"))
    assert again.turn == first.turn == 1
    assert not sessions.finish_turn(db, first, tool_round(1), answer("A late answer."))
    assert sessions.finish_turn(db, again, [], answer("Water moves across a membrane."))
    messages = sessions.get_session(db, first.session_id)["messages"]
    assert [(m["role"], m["content"]) for m in messages] == [
        ("user", "What is osmosis, briefly?"), ("assistant", "Water moves across a membrane.")]
