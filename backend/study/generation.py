"""The one pipeline every study generator runs: prompt → model with a JSON schema → tolerant parse →
mechanical repairs → per-item validation → one re-ask for what is missing → grounding.

- Each generator renders its own template from `prompts/` (or its `prompts/custom/` override) with the
  passages as fenced, keyed data (`passages.render`) plus its own values, and hands the text in here.
- The model gets `format` = the JSON schema of the expected answer (from a pydantic model, `$ref`s
  inlined because Ollama's grammar builder handles a flat schema best), stating every rule the validator
  holds it to (item counts, lengths, ranges, enums, required fields), a low temperature, and the model's
  context as `num_ctx`; the passages are trimmed (fairly across documents) so the prompt and the answer
  fit into it, rather than cut by the server.
- Parsing forgives what models do: ```json fences, chatter before or after, a bare array instead of the
  object, trailing commas. Each item is repaired where the fix is mechanical (backend/study/repairs.py)
  and validated on its own; bad ones are dropped, the rest cut to the requested count. Short of the
  count, the model is asked once more for the missing items, told what was wrong. No valid item at all is
  a `GenerationFailed`. What was asked and what was kept, repaired or dropped is the job's `report`.
- Single objects with no partial success (workshop outlines, mind maps) get one retry with a stricter
  reminder that quotes what was wrong, then fail with a clear message.
- Grounding: an item's `source_block_ids` are checked against the passages actually shown; unknown ids
  are dropped; an item left with none is grounded on the passage(s) it shares the most terms with.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field, ValidationError

from backend.llm.budget import context_tokens, tokens_of
from backend.llm.client import LLMClient
from backend.llm.prompts import PromptLibrary
from backend.retrieval.tokenizer import Analyzer
from backend.study.errors import GenerationFailed
from backend.study.passages import Passage, fair_trim, render
from backend.study.repairs import Report

TEMPERATURE = 0.2
_PREAMBLE_CHARS = 400  # chatter before a first heading further in than this is kept: it may be content
DRAFT_INTERVAL_S = 0.3  # how often a streamed answer's text so far is handed on (a lesson's draft)
_HEADING = re.compile(r"^#{1,6} ", re.MULTILINE)
_analyzer = Analyzer()
_FENCE = re.compile(r"```[a-zA-Z]*\s*\n(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_MAX_JSON_STARTS = 50  # bounds the work on a long answer full of stray brackets
_CHATTER = re.compile(
    r"^\s*(let me know|i hope|hope this|feel free|happy (studying|learning)|good luck|would you like|"
    r"do you want|if you (have|want|need|'d like)|sure[,!.]|certainly[,!.]|here is|here's|of course)",
    re.IGNORECASE,
)
MIN_MARKDOWN_CHARS = 40

ItemT = TypeVar("ItemT", bound=BaseModel)


@dataclass(frozen=True)
class Grounded(Generic[ItemT]):
    item: ItemT
    sources: list[dict[str, Any]]


# -- the model call --------------------------------------------------------------------------------
def cited_ids(most: int, description: str = 'ids of the passages used, e.g. ["P3"]') -> Any:
    """The `source_block_ids` field of an item the model writes: the keys of at most `most` passages it
    used, which `ground` resolves (an item may name none)."""
    return Field(default_factory=list, max_length=most, description=description)


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema with every `$ref` replaced by its definition."""
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(definitions[node["$ref"].rsplit("/", 1)[-1]])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(value) for value in node]
        return node

    inlined: dict[str, Any] = inline(schema)
    return inlined


def with_count(schema: dict[str, Any], key: str, count: int) -> dict[str, Any]:
    """`schema` asking for exactly `count` items under `key` (the validator keeps at most that many)."""
    listed = {**schema["properties"][key], "minItems": count, "maxItems": count}
    return {**schema, "properties": {**schema["properties"], key: listed}, "required": [key]}


def options(llm: LLMClient) -> dict[str, Any]:
    """Low temperature and the model's context, the same `num_ctx` as chat (no reload between them)."""
    return {"temperature": TEMPERATURE, "num_ctx": context_tokens(llm.facts())}


def fitted_prompt(llm: LLMClient, prompts: PromptLibrary, name: str, passages: Sequence[Passage], answer_tokens: int,
                  **values: object) -> tuple[str, list[Passage]]:
    """The rendered prompt `name` with as many of `passages` as fit into the model's context beside an
    answer of `answer_tokens`, trimmed fairly across documents; and the passages it holds."""
    room = context_tokens(llm.facts()) - answer_tokens
    kept = list(passages)
    while True:
        prompt = prompts.render(name, passages=render(kept), **values)
        if tokens_of(len(prompt)) <= room or len(kept) <= 1:
            return prompt, kept
        kept = fair_trim(kept)


def ask(llm: LLMClient, messages: Sequence[dict[str, str]], schema: dict[str, Any] | None) -> str:
    """One model call at low temperature (streamed underneath); ModelUnavailable/ModelError propagate."""
    reply = llm.chat(list(messages), format=schema, options=options(llm))
    return reply.content


def ask_streamed(llm: LLMClient, messages: Sequence[dict[str, str]], on_text: Callable[[str], None]) -> str:
    """Like `ask` (no schema), streamed: `on_text` gets the text so far every DRAFT_INTERVAL_S."""
    parts: list[str] = []
    shown = time.monotonic()
    for delta in llm.chat_stream_sync(list(messages), options=options(llm)):
        parts.append(delta.content)
        if time.monotonic() - shown >= DRAFT_INTERVAL_S:
            on_text("".join(parts))
            shown = time.monotonic()
    return "".join(parts)


def _user(prompt: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": prompt}]


# -- tolerant parsing ------------------------------------------------------------------------------
def loads_lenient(text: str) -> Any:
    """The JSON in a model's answer, forgiving fences, chatter and trailing commas. The first object (or
    array of objects) wins over stray scalars like the `[1]` of a footnote in the chatter."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    fallback: list[Any] = []
    for candidate in candidates:
        starts = [i for i, ch in enumerate(candidate) if ch in "{["][:_MAX_JSON_STARTS]
        for start in starts:
            for attempt in (candidate[start:], _TRAILING_COMMA.sub(r"\1", candidate[start:])):
                try:
                    value = decoder.raw_decode(attempt)[0]
                except json.JSONDecodeError:
                    continue
                if isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, dict) for v in value)):
                    return value
                fallback.append(value)
                break
    if fallback:
        return fallback[0]
    raise ValueError("no JSON object or array found in the model's answer")


def item_list(data: Any, key: str) -> list[Any]:
    """The items of a list answer, whether it came as `{key: [...]}`, a bare array, or another wrapper."""
    if isinstance(data, list):
        return data
    if not isinstance(data, dict):
        return []
    if isinstance(data.get(key), list):
        items: list[Any] = data[key]
        return items
    if isinstance(data.get(key), dict):  # a single item under the list's key
        return [data[key]]
    lists = [value for value in data.values() if isinstance(value, list) and value
             and all(isinstance(v, dict) for v in value)]
    if len(lists) == 1:
        return lists[0]
    return [data] if data else []


# -- generators' entry points ----------------------------------------------------------------------
def generate_items(llm: LLMClient, prompt: str, item_model: type[ItemT], list_model: type[BaseModel], key: str,
                   count: int, passages: Sequence[Passage], report: Report,
                   accept: Callable[[ItemT], bool] = lambda _: True,
                   repair: Callable[[Any, Report], Any] = lambda raw, _report: raw,
                   schema: dict[str, Any] | None = None) -> list[Grounded[ItemT]]:
    """A list answer to `prompt`: every valid, accepted, distinct item (up to `count`), grounded on
    `passages`; asked once more for the missing ones if too few were usable. `schema`: the list's schema
    (default: `list_model`'s), sent with the count required."""
    schema = schema or json_schema(list_model)
    messages = _user(prompt)
    items: list[Grounded[ItemT]] = []
    seen: set[str] = set()
    report.asked = count
    for attempt in range(2):
        wanted = count - len(items)
        answer = ask(llm, messages, with_count(schema, key, wanted))
        try:
            raw_items = item_list(loads_lenient(answer), key)
        except ValueError:
            raw_items = []
            report.dropped["not the JSON asked for"] += 1
        problems = _collect(raw_items, item_model, accept, repair, seen, report)
        for item in problems.items[:wanted]:
            items.append(Grounded(item, ground(item, passages)))
        if len(items) >= count or attempt == 1:
            break
        report.reasked = count - len(items)
        messages = [*messages, {"role": "assistant", "content": answer},
                    {"role": "user", "content": _reask(count - len(items), key, problems.reasons, seen)}]
    report.kept = len(items)
    if not items:
        raise GenerationFailed("The model's answer held no usable items; try again or pick other documents.")
    return items


@dataclass
class _Collected(Generic[ItemT]):
    items: list[ItemT]
    reasons: list[str]


def _collect(raw_items: list[Any], item_model: type[ItemT], accept: Callable[[ItemT], bool],
             repair: Callable[[Any, Report], Any], seen: set[str], report: Report) -> _Collected[ItemT]:
    """The valid, accepted, new items among `raw_items` (their texts join `seen`), and why others failed."""
    items: list[ItemT] = []
    reasons: list[str] = []
    for raw in raw_items:
        try:
            item = item_model.model_validate(repair(raw, report))
        except ValidationError as exc:
            reason = _describe(exc)
            report.dropped[reason] += 1
            reasons.append(reason)
            continue
        text = item_text(item).casefold()
        if not accept(item) or text in seen:
            reason = "a repeat" if text in seen else "not of a requested type"
            report.dropped[reason] += 1
            reasons.append(reason)
            continue
        seen.add(text)
        items.append(item)
    return _Collected(items, reasons)


def _reask(missing: int, key: str, reasons: list[str], seen: set[str]) -> str:
    """The one follow-up request: how many more, what was wrong, and what not to repeat."""
    why = "; ".join(sorted(set(reasons))[:5]) or "too few items"
    done = "\n".join(f"- {text[:120]}" for text in sorted(seen)[:20])
    return (f"Only some of those could be used ({why}). Write exactly {missing} more {key}, new ones, following "
            f"every rule above, different from these:\n{done}\nReply with ONLY the JSON object.")


def generate_object(llm: LLMClient, prompt: str, model: type[ItemT], what: str, report: Report,
                    check: Callable[[ItemT], str | None] = lambda _: None,
                    repair: Callable[[Any, Report], Any] = lambda raw, _report: raw,
                    schema: dict[str, Any] | None = None) -> ItemT:
    """A single-object answer, repaired where that is mechanical and retried once with a stricter
    reminder; `what` names it in errors and `check` adds a rule the schema cannot express (it returns
    what is wrong, or None). `schema`: what the model is sent (default: `model`'s)."""
    messages = _user(prompt)
    schema = schema or json_schema(model)
    problem = ""
    report.asked = 1
    for attempt in range(2):
        answer = ask(llm, messages, schema)
        try:
            result = model.model_validate(repair(loads_lenient(answer), report))
        except (ValueError, ValidationError) as exc:
            problem = _describe(exc)
        else:
            if (problem := check(result) or "") == "":
                report.kept = 1
                return result
        report.dropped[problem] += 1
        if attempt == 0:
            report.reasked = 1
        messages = [*messages, {"role": "assistant", "content": answer}, {"role": "user", "content": (
            f"That answer could not be used: {problem}. Reply again with ONLY one JSON object that matches"
            " the required schema exactly — no prose, no code fences — and respect every limit stated above."
        )}]
    raise GenerationFailed(f"The model did not produce a usable {what} after a retry ({problem}); try again.")


def generate_markdown(llm: LLMClient, prompt: str, sections: Sequence[str] = (),
                      on_text: Callable[[str], None] | None = None) -> str:
    """A Markdown answer (a lesson), cleaned of the model's chatty preamble and sign-off.

    `sections` are headings the answer must have; an answer missing some is retried once with a reminder
    naming them, and then the answer with more of them is kept (a lesson short of a heading still
    teaches; an empty one fails). With `on_text`, the answer is streamed and `on_text` gets the cleaned
    text so far as it grows (a retry starts it again)."""
    messages = _user(prompt)
    best, best_missing = "", list(sections)
    for attempt in range(2):
        if on_text is None:
            answer = ask(llm, messages, None)
        else:
            answer = ask_streamed(llm, messages, lambda text: on_text(_draft(text)))
        text = clean_markdown(answer)
        missing = missing_sections(text, sections)
        if len(text) >= MIN_MARKDOWN_CHARS and (not best or len(missing) < len(best_missing)):
            best, best_missing = text, missing
        if (best and not best_missing) or attempt == 1:
            break
        headings = ", ".join(f'"## {name}"' for name in (missing or sections))
        messages = [*messages, {"role": "assistant", "content": answer}, {"role": "user", "content": (
            f"That answer is missing these sections: {headings}. Write the whole text again with every"
            " required section under exactly those headings, in the order given above, and nothing before"
            " the first heading or after the last section."
        )}]
    if not best:
        raise GenerationFailed("The model returned an empty text; try again.")
    return best


def _draft(partial: str) -> str:
    """A streamed answer so far, cleaned like the final one; nothing yet while it may still be the
    model's preamble (no heading in the first 400 characters so far)."""
    if len(partial) <= _PREAMBLE_CHARS and not _HEADING.search(partial):
        return ""
    return clean_markdown(partial)


def missing_sections(text: str, sections: Sequence[str]) -> list[str]:
    """The `sections` without a heading in the Markdown `text` (any level; case and punctuation aside, a
    heading that starts with the name counts: "## Introduction: why it matters")."""
    present = [_heading_key(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.MULTILINE)]
    return [name for name in sections if not any(key.startswith(_heading_key(name)) for key in present)]


def _heading_key(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", heading.lower())


def clean_markdown(text: str) -> str:
    """Unwrap a fenced answer, drop chatter before the first heading and sign-off paragraphs at the end."""
    fenced = re.fullmatch(r"\s*```(?:markdown|md)?\s*\n(.*?)\n?```\s*", text, re.DOTALL | re.IGNORECASE)
    text = fenced.group(1) if fenced else text
    heading = _HEADING.search(text)
    if heading and heading.start() <= _PREAMBLE_CHARS:
        text = text[heading.start():]
    paragraphs = re.split(r"\n\s*\n", text.strip())
    while len(paragraphs) > 1 and (_CHATTER.match(paragraphs[-1]) or paragraphs[-1].strip() in ("---", "***")):
        paragraphs.pop()
    return "\n\n".join(paragraphs).strip()


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "answer"
        return f"{where}: {first['msg']}"
    return str(exc)


# -- grounding -------------------------------------------------------------------------------------
def resolve_ids(ids: Sequence[str], passages: Sequence[Passage]) -> list[Passage]:
    """Passages named by the model (by key like "P3", a bare number, or a block id); unknown ids dropped."""
    by_name = {p.key.lower(): p for p in passages} | {p.block_id.lower(): p for p in passages}
    found: dict[str, Passage] = {}
    for raw in ids:
        name = str(raw).strip().strip("[]()").lower()
        name = f"p{name}" if name.isdigit() else name
        if name in by_name:
            found.setdefault(by_name[name].block_id, by_name[name])
    return list(found.values())


def ground(item: BaseModel, passages: Sequence[Passage]) -> list[dict[str, Any]]:
    """The item's named passages; else the closest ones; else every passage it was generated from."""
    named = resolve_ids(getattr(item, "source_block_ids", []), passages)
    chosen = named or closest(item_text(item), passages) or list(passages)
    return [p.source() for p in chosen]


def item_text(item: BaseModel) -> str:
    values = item.model_dump(exclude={"source_block_ids"})
    return " ".join(str(v) for v in _flatten(values))


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _flatten(v)]
    if isinstance(value, list):
        return [x for v in value for x in _flatten(v)]
    return [value]


def closest(text: str, passages: Sequence[Passage], limit: int = 2) -> list[Passage]:
    """The passage(s) sharing the most terms with `text`; none if nothing is shared."""
    terms = set(_analyzer.terms(text))
    scored = [(len(terms & set(_analyzer.terms(p.text))), p) for p in passages]
    best = max((score for score, _ in scored), default=0)
    if best == 0:
        return []
    return [p for score, p in sorted(scored, key=lambda sp: -sp[0]) if score >= 0.8 * best][:limit]
