"""How the fake Ollama's models behave: the misbehaviour modes measured from real small models.

A `Behaviour` belongs to a model name (`FakeOllama.add_model`). Its wire-level traits — capabilities
in `/api/show`, Ollama's 400 for `think` or `tools` the model lacks, prompts over `num_ctx` truncated
and logged, a slow first line, a stall — apply to every reply. With `simulate`, the model also answers
by itself from what its (possibly truncated) prompt holds, as a small model would:

- chat: a follow-up search in the mode's style (`native` tool call, the call printed as JSON `text`,
  or `tagged` as `<tool_call>…</tool_call>`; `never`), then one sentence from the passage sharing the
  most words with the question, cited as `[n]` unless `cites` is off; with no passage in sight it says
  it does not know.
- structured output (`format`): quiz questions, cards, a workshop outline or a mind map built from the
  prompt's passages; `loose` fills the schema the way small models do — repeated or surplus options, an
  index past the options, a question short of options, too few items — and answers a follow-up request
  (a re-ask) correctly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

_WORD = re.compile(r"\w{4,}", re.UNICODE)
_PASSAGE = re.compile(r'<passage (?:n="(\d+)"|id="(P\d+)")[^>]*>\n?(.*?)\n?</passage>', re.DOTALL)
_COUNT = re.compile(r"(?:write|exactly|Write)\s+(\d+)\s+(?:more\s+)?(questions|cards|lessons)")
CallStyle = Literal["native", "never", "text", "tagged"]


@dataclass
class Behaviour:
    tools: bool = True  # listed in /api/show; False: a request with tools gets Ollama's 400
    thinking: bool = True  # False: `think` gets Ollama's 400 "... does not support thinking"
    vision: bool = False
    context_length: int = 32_768  # model_info["<arch>.context_length"]
    calls: CallStyle = "native"
    cites: bool = True
    first_line_s: float = 0.0  # silence before the first line: the model reads the prompt
    stall_after_lines: int | None = None  # then silence until the client gives up
    schemas: Literal["strict", "loose"] = "strict"
    simulate: bool = True  # answer from the prompt (else: scripted replies, then the default answer)
    lists_capabilities: bool = True  # False: /api/show without `capabilities`, as Ollama before 0.6.4

    def capabilities(self) -> list[str]:
        names = ["completion"]
        names += ["tools"] if self.tools else []
        names += ["thinking"] if self.thinking else []
        names += ["vision"] if self.vision else []
        return names


MODES: dict[str, Behaviour] = {
    "capable": Behaviour(),
    "never_calls_tools": Behaviour(calls="never"),
    "no_tools": Behaviour(tools=False, calls="never"),
    "tool_call_as_text": Behaviour(calls="text"),
    "tool_call_in_tags": Behaviour(calls="tagged"),
    "no_thinking": Behaviour(thinking=False),
    "small_context": Behaviour(context_length=4_096, thinking=False),
    "slow": Behaviour(first_line_s=3.0),
    "loose_schemas": Behaviour(schemas="loose", thinking=False),
    "uncited": Behaviour(cites=False, calls="never"),
    "stuck": Behaviour(stall_after_lines=2, thinking=False, calls="never"),
}


@dataclass
class Answer:
    content: str = ""
    thinking: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] | None = None


def answer(request: dict[str, Any], messages: list[dict[str, Any]], behaviour: Behaviour) -> Answer:
    """What the simulated model replies to `messages` (the prompt as it survived truncation)."""
    if request.get("format"):
        return Answer(content=json.dumps(fill_schema(request["format"], messages, behaviour)))
    question = _question(messages)
    if request.get("think"):
        return Answer(thinking=f"The user asks: {question[:80]}. Let me read the passages.", content="…")
    turn = _current_turn(messages)
    searches = sum(1 for m in turn if m.get("role") == "assistant" and m.get("tool_calls"))
    if behaviour.calls != "never" and searches < 2 and (behaviour.calls != "native" or request.get("tools")):
        return _search_call(question, behaviour.calls)
    passages = [(n, text) for m in turn for n, _key, text in _passages(m.get("content") or "") if n]
    if not passages:
        return Answer(content="I don't know: nothing I was given says.")
    n, text = max(passages, key=lambda item: _overlap(question, item[1]))
    sentence = _first_sentence(text)
    return Answer(content=f"{sentence} [{n}]." if behaviour.cites else f"As far as I know, {sentence.lower()}.")


def _search_call(question: str, style: CallStyle) -> Answer:
    args = {"query": " ".join(_WORD.findall(question)[:6]) or question}
    if style == "native":
        return Answer(tool_calls=[("search_knowledge_base", args)])
    call = json.dumps({"name": "search_knowledge_base", "arguments": args})
    return Answer(content=call if style == "text" else f"<tool_call>\n{call}\n</tool_call>")


def _current_turn(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages of the turn being answered: from the last question on (the question included)."""
    starts = [i for i, m in enumerate(messages) if m.get("role") == "user" and not m["content"].startswith("[Quire")]
    return messages[starts[-1]:] if starts else messages


def _question(messages: list[dict[str, Any]]) -> str:
    turn = _current_turn(messages)
    text = turn[0].get("content", "") if turn else ""
    return _PASSAGE.sub("", text).strip()


def _passages(text: str) -> list[tuple[int | None, str | None, str]]:
    return [(int(n) if n else None, key or None, body.strip()) for n, key, body in _PASSAGE.findall(text)]


def _overlap(question: str, text: str) -> int:
    return len({w.lower() for w in _WORD.findall(question)} & {w.lower() for w in _WORD.findall(text)})


def _first_sentence(text: str) -> str:
    flat = " ".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))
    flat = " ".join(flat.split()) or " ".join(text.split())
    sentence = re.split(r"(?<=[.!?])\s", flat, maxsplit=1)[0]
    return sentence[:200].rstrip(".!? ")


# -- structured output -----------------------------------------------------------------------------
def fill_schema(schema: dict[str, Any], messages: list[dict[str, Any]], behaviour: Behaviour) -> dict[str, Any]:
    prompt = "\n".join(m.get("content") or "" for m in messages if m.get("role") == "user")
    keyed = [(key, text) for _n, key, text in _passages(prompt) if key] or [("P1", "Nothing to study here.")]
    facts = [(key, _first_sentence(text)) for key, text in keyed]
    reasked = any(m.get("role") == "assistant" for m in messages)
    loose = behaviour.schemas == "loose" and not reasked
    properties = schema.get("properties", {})
    wanted = _wanted(schema, messages)
    first = 50 if reasked else 0  # a re-ask gets new items, not the ones already given
    if "questions" in properties:
        return {"questions": _questions(facts, wanted, loose, _allowed_types(schema), first)}
    if "cards" in properties:
        return {"cards": _cards(facts, wanted, loose, first)}
    if "lessons" in properties:
        return _outline(facts, wanted, loose)
    return _mindmap(facts, loose)


def _wanted(schema: dict[str, Any], messages: list[dict[str, Any]]) -> int:
    """How many items the latest request asks for (a re-ask names only the missing ones)."""
    for message in reversed(messages):
        if message.get("role") == "user" and (match := _COUNT.search(message.get("content") or "")):
            return int(match.group(1))
    items = next(iter(schema.get("properties", {}).values()), {})
    return int(items.get("minItems") or 5)


def _allowed_types(schema: dict[str, Any]) -> list[str]:
    item = schema["properties"]["questions"].get("items", {})
    variants = item.get("anyOf") or [item]
    found = [v.get("properties", {}).get("type", {}) for v in variants]
    names = [t.get("const") or (t.get("enum") or [None])[0] for t in found]
    return [n for n in names if n] or ["mcq", "true_false"]


def _questions(facts: list[tuple[str, str]], wanted: int, loose: bool, types: list[str],
               first: int) -> list[dict[str, Any]]:
    out = []
    count = wanted - 1 if loose else wanted
    for i in range(first, first + count):
        key, fact = facts[i % len(facts)]
        if "mcq" in types:
            others = [f for _k, f in facts if f != fact] or ["None of these"]
            distractors = [f"Not: {others[(i + j) % len(others)][:80]}" for j in range(3)]
            options = [fact[:120], *dict.fromkeys(distractors)]
            options += [f"Unrelated claim {j}" for j in range(4 - len(options))]
            item = {"type": "mcq", "question": f"Which statement does the material make ({i + 1})?",
                    "options": options, "correct_index": 0,
                    "explanation": f"The material says: {fact[:120]}", "source_block_ids": [key]}
        else:
            item = {"type": "true_false", "question": f"True or false ({i + 1}): {fact[:150]}",
                    "options": ["True", "False"], "correct_index": 0, "explanation": "The material says so.",
                    "source_block_ids": [key]}
        out.append(_loosen(item, i - first) if loose and item["type"] == "mcq" else item)
    return out


def _loosen(item: dict[str, Any], i: int) -> dict[str, Any]:
    """The defects small models produce, one per question in turn."""
    options = list(item["options"])
    defect = i % 5
    if defect == 0:  # a repeated option: five given, four distinct
        item["options"] = [*options, options[1]]
    elif defect == 1:  # a surplus option
        item["options"] = [*options, "A fifth, surplus option"]
    elif defect == 2:  # an index past the options; the explanation names the right one
        item["correct_index"] = len(options)
    elif defect == 3:  # short of options: nothing mechanical can fix it
        item["options"] = options[:3]
    return item


def _cards(facts: list[tuple[str, str]], wanted: int, loose: bool, first: int) -> list[dict[str, Any]]:
    cards = [{"front": f"What does the material say about item {i + 1}?", "back": facts[i % len(facts)][1],
              "tags": ["Topic", "topic"], "source_block_ids": [facts[i % len(facts)][0]]}
             for i in range(first, first + wanted)]
    if loose and len(cards) > 2:
        cards[1] = dict(cards[0])  # a repeated card
        cards[2] = {**cards[2], "back": ""}  # an empty answer
        cards = cards[:-1]  # one short
    return cards


def _outline(facts: list[tuple[str, str]], wanted: int, loose: bool) -> dict[str, Any]:
    lessons = [{"title": f"Lesson on {fact[:40]}", "estimated_minutes": 15, "summary": f"This lesson covers: {fact}."}
               for _key, fact in (facts * wanted)[: wanted + (2 if loose else 0)]]
    if loose:
        lessons[0]["estimated_minutes"] = 0
        lessons[1]["estimated_minutes"] = 500
    objectives = [f"Explain point {i + 1}" for i in range(10 if loose else 4)]
    return {"title": "A workshop on the material", "summary": "It walks through the material step by step.",
            "objectives": objectives, "key_points": [fact for _k, fact in facts[:6]],
            "lessons": lessons, "source_block_ids": [key for key, _f in facts[:3]]}


def _mindmap(facts: list[tuple[str, str]], loose: bool) -> dict[str, Any]:
    branches = [{"label": fact[:50], "source_block_ids": [key],
                 "children": [{"label": f"Detail {j + 1} of {key}", "source_block_ids": [key],
                               "children": [{"label": f"Fine point {j + 1}", "children": []}]}
                              for j in range(8 if loose else 3)]}
                for key, fact in (facts * 9)[: 9 if loose else 4]]
    if loose:
        branches.append({"label": "  ", "children": []})
    return {"central": "The material", "branches": branches}
