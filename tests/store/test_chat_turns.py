"""A chat turn is written twice: the question (with a placeholder answer) when it arrives, the tool rounds
and the answer when it ends. The second write must land only in its own turn — never in a turn that
replaced it while the answer was being produced (a rewind) — and costs one round trip."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from backend.agent import sessions
from backend.errors import NotFound
from backend.store.chat import AnswerUpdate, NewMessage
from backend.store.db import Database
from tests.support.postgres import ThrowawayPostgres


@pytest.fixture
def db(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database("quire_chat_turns", min_size=1, max_size=8) as database:
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


def test_a_question_to_an_unknown_session_stores_nothing(db: Database) -> None:
    # The question is written without waiting for the session's lock first; a missing session must still
    # be a 404 with nothing stored, the study event included.
    with pytest.raises(NotFound):
        sessions.begin_turn(db, "00000000-0000-4000-8000-000000000000", None, question("Hello?"))
    with db.connection() as conn:
        counts = conn.execute("SELECT (SELECT count(*) FROM chat_messages) AS messages,"
                              " (SELECT count(*) FROM activity_events) AS events").fetchone()
    assert counts == {"messages": 0, "events": 0}


def test_questions_asked_at_once_get_consecutive_turns(db: Database) -> None:
    # Turn numbers are assigned by the insert itself, under the session's lock: questions arriving
    # together must queue, each numbered after the previous one and seeing it in its history.
    first = sessions.begin_turn(db, None, None, question("Q0"))
    with ThreadPoolExecutor(6) as pool:
        starts = list(pool.map(lambda i: sessions.begin_turn(db, first.session_id, None, question(f"Q{i}")),
                               range(1, 13)))
    assert sorted(s.turn for s in starts) == list(range(2, 14))
    for start in starts:
        assert [t.messages[0]["content"] for t in start.history] == [
            m["content"] for m in sessions.get_session(db, first.session_id)["messages"]
            if m["role"] == "user" and m["turn"] < start.turn]


def test_a_rewind_to_the_first_turn_retitles_the_session(db: Database) -> None:
    first = sessions.begin_turn(db, None, None, question("What is osmosis?"))
    sessions.begin_turn(db, first.session_id, None, question("And diffusion?"))
    assert sessions.get_session(db, first.session_id)["title"] == "What is osmosis?"
    edited = sessions.begin_turn(db, first.session_id, first.user_message_id, question("Explain active transport"))
    assert sessions.get_session(db, first.session_id)["title"] == "Explain active transport"
    sessions.rename_session(db, first.session_id, "Membranes")
    sessions.begin_turn(db, first.session_id, edited.user_message_id, question("Start over"))
    assert sessions.get_session(db, first.session_id)["title"] == "Membranes"
