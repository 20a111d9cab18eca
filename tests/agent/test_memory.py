"""Memory replays stored turns within a character budget and drops only whole, oldest turns."""

from __future__ import annotations

from typing import Any

from backend.agent.memory import IMAGE_CHARS, MemoryWindow, Turn, as_plain_text, message_chars, turns_from_rows
from backend.agent.quoting import RankedPassages


def row(turn: int, seq: int, role: str, content: str = "", **extra: Any) -> dict[str, Any]:
    return {"id": f"{turn}-{seq}", "turn": turn, "seq": seq, "role": role, "content": content,
            "model_content": None, "tool_calls": None, "tool_name": None, "attachments": [], **extra}


def tool_turn(turn: int, size: int) -> list[dict[str, Any]]:
    return [
        row(turn, 0, "user", f"question {turn}"),
        row(turn, 1, "assistant", tool_calls=[{"id": "c1", "name": "search_knowledge_base", "args": {"query": "q"}}]),
        row(turn, 2, "tool", "r" * size, tool_name="search_knowledge_base"),
        row(turn, 3, "assistant", f"answer {turn}"),
    ]


def test_rows_become_model_messages_grouped_by_turn() -> None:
    rows = [*tool_turn(1, 10), row(2, 0, "user", "hi", model_content="<attached_file>x</attached_file>\n\nhi"),
            row(2, 1, "assistant", "", status="partial")]
    turns = turns_from_rows(rows)
    assert [t.number for t in turns] == [1, 2]
    first = turns[0].messages
    assert [m["role"] for m in first] == ["user", "assistant", "tool", "assistant"]
    assert first[1]["tool_calls"] == [{"function": {"name": "search_knowledge_base", "arguments": {"query": "q"}}}]
    assert first[2] == {"role": "tool", "content": "r" * 10, "tool_name": "search_knowledge_base"}
    # The model sees what it was sent (attached files included); an empty placeholder answer is skipped.
    assert turns[1].messages == [{"role": "user", "content": "<attached_file>x</attached_file>\n\nhi"}]


def test_images_count_against_the_budget() -> None:
    rows = [row(1, 0, "user", "look", attachments=[{"kind": "image"}, {"kind": "image"}, {"kind": "document"}])]
    (turn,) = turns_from_rows(rows)
    assert turn.image_message_ids == ["1-0"]
    assert turn.image_count == 2
    assert turn.chars == len("look") + 2 * IMAGE_CHARS


def test_oldest_whole_turns_are_dropped_first() -> None:
    turns = turns_from_rows([r for t in range(1, 6) for r in tool_turn(t, 1000)])
    system = {"role": "system", "content": "s" * 500}
    current = [{"role": "user", "content": "new question"}]
    per_turn = turns[0].chars
    budget = 500 + len("new question") + 3 * per_turn
    window = MemoryWindow(system, turns, current, budget)
    messages = window.messages()
    assert window.turns_dropped == 2
    assert window.turns_kept == 3
    assert window.used_chars <= budget
    questions = [m["content"] for m in messages if m["role"] == "user"]
    assert questions == ["question 3", "question 4", "question 5", "new question"]
    # Never half a turn: every kept tool result comes with its question, its call and its answer.
    assert sum(1 for m in messages if m["role"] == "tool") == 3
    assert sum(1 for m in messages if m["role"] == "assistant") == 6
    assert window.used_chars == sum(message_chars(m) for m in messages)


def test_the_current_turn_grows_and_is_never_dropped() -> None:
    turns = turns_from_rows([r for t in range(1, 3) for r in tool_turn(t, 100)])
    current: list[dict[str, Any]] = [{"role": "user", "content": "q"}]
    window = MemoryWindow({"role": "system", "content": ""}, turns, current, budget=10_000)
    assert window.turns_kept == 2
    current.append({"role": "tool", "content": "x" * 9_900, "tool_name": "search_knowledge_base"})
    window.messages()
    assert window.turns_kept == 0
    assert window.turns_dropped == 2
    current.append({"role": "tool", "content": "x" * 5_000, "tool_name": "search_knowledge_base"})
    assert window.messages()[-1]["content"] == "x" * 5_000
    assert window.used_chars > window.budget  # over budget on its own: reported, not cut in half


def test_empty_history() -> None:
    window = MemoryWindow({"role": "system", "content": "sys"}, [], [{"role": "user", "content": "q"}], 100,
                          current_images=1)
    assert window.messages() == [{"role": "system", "content": "sys"}, {"role": "user", "content": "q"}]
    assert window.used_chars == 4 + IMAGE_CHARS
    assert Turn(1, []).chars == 0


def test_tool_definitions_count_against_the_budget() -> None:
    turns = turns_from_rows([r for t in range(1, 4) for r in tool_turn(t, 300)])
    current = [{"role": "user", "content": "q"}]
    without = MemoryWindow({"role": "system", "content": ""}, turns, current, budget=turns[0].chars * 3 + 1)
    without.fit()
    assert without.turns_kept == 3
    with_tools = MemoryWindow({"role": "system", "content": ""}, turns, current, budget=turns[0].chars * 3 + 1,
                              tools_chars=turns[0].chars)
    with_tools.fit()
    assert with_tools.turns_kept == 2  # the definitions take the room of one turn
    assert with_tools.used_chars == turns[0].chars + len("q") + 2 * turns[0].chars  # tools + question + 2 turns


def ranked(first: int, count: int, size: int) -> RankedPassages:
    return RankedPassages("Search results:", [(n, f"doc.md, page {n}", str(n) * size)
                                              for n in range(first, first + count)])


def test_the_current_turn_loses_its_lowest_ranked_passages_first() -> None:
    system = {"role": "system", "content": "s" * 100}
    window = MemoryWindow(system, turns_from_rows(tool_turn(1, 500)), [{"role": "user", "content": "q"}], 3000)
    ours, theirs = ranked(1, 5, 300), ranked(6, 3, 300)  # Quire's search, then the model's
    for result in (ours, theirs):
        window.add_results({"role": "tool", "content": result.render(), "tool_name": "search_knowledge_base"},
                           result)
    messages = window.messages()
    assert window.turns_dropped == 1  # the old turn goes first, whole
    assert window.used_chars <= 3000
    kept = [n for n, _where, _text in ours.labelled] + [n for n, _where, _text in theirs.labelled]
    # Every search's lowest ranks go before any search's higher ones.
    assert kept[:2] == [1, 2]
    assert 5 not in kept
    assert window.stats()["passages_dropped"] == 8 - len(kept)
    # The longer result is cut down to the shorter one's length before either loses more.
    assert abs(len(ours.labelled) - len(theirs.labelled)) <= 1
    assert "lower-ranked passages of this search were left out" in messages[-2]["content"]
    assert '<passage n="1">' in messages[-2]["content"]


def test_a_model_without_tools_reads_tool_rounds_as_text() -> None:
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "q"},
                {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "x", "arguments": {}}}]},
                {"role": "tool", "content": "found", "tool_name": "search_knowledge_base"},
                {"role": "assistant", "content": "answer"}]
    assert as_plain_text(messages) == [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "q\n\n[Quire: result of search_knowledge_base]\nfound"},
        {"role": "assistant", "content": "answer"}]
