"""The one pipeline every study generator runs: prompt → model with a JSON schema → tolerant parse →
per-item validation → grounding.

- Each generator renders its own template from `prompts/` (or its `prompts/custom/` override) with the
  passages as fenced, keyed data (`passages.render`) plus its own values, and hands the text in here.
- The model gets `format` = the JSON schema of the expected answer (from a pydantic model, `$ref`s
  inlined because Ollama's grammar builder handles a flat schema best) and a low temperature.
- Parsing forgives what models do: ```json fences, chatter before or after, a bare array instead of the
  object, trailing commas. Each item is validated on its own; bad ones are dropped, the rest cut to the
  requested count. No valid item at all is a `GenerationFailed`.
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

from pydantic import BaseModel, ValidationError

from backend.llm.client import LLMClient
from backend.retrieval.tokenizer import Analyzer
from backend.study.errors import GenerationFailed
from backend.study.passages import Passage

TEMPERATURE = 0.2
# Ollama's default context (2–4k tokens) would silently cut the passages off the front of the prompt.
NUM_CTX = 12288
_PREAMBLE_CHARS = 400  # chatter before a first heading further in than this is kept: it may be content
DRAFT_INTERVAL_S = 0.3  # how often a streamed answer's text so far is handed on (a lesson's draft)
_OPTIONS = {"temperature": TEMPERATURE, "num_ctx": NUM_CTX}
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


def ask(llm: LLMClient, messages: Sequence[dict[str, str]], schema: dict[str, Any] | None) -> str:
    """One non-streamed model call at low temperature; ModelUnavailable/ModelError propagate."""
    reply = llm.chat(list(messages), format=schema, options=_OPTIONS)
    return reply.content


def ask_streamed(llm: LLMClient, messages: Sequence[dict[str, str]], on_text: Callable[[str], None]) -> str:
    """Like `ask` (no schema), streamed: `on_text` gets the text so far every DRAFT_INTERVAL_S."""
    parts: list[str] = []
    shown = time.monotonic()
    for delta in llm.chat_stream_sync(list(messages), options=_OPTIONS):
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
                   count: int, passages: Sequence[Passage],
                   accept: Callable[[ItemT], bool] = lambda _: True) -> list[Grounded[ItemT]]:
    """A list answer to `prompt`: every valid, accepted, distinct item (up to `count`), grounded on `passages`."""
    answer = ask(llm, _user(prompt), json_schema(list_model))
    try:
        raw_items = item_list(loads_lenient(answer), key)
    except ValueError as exc:
        raise GenerationFailed("The model's answer was not the JSON that was asked for; try again.") from exc
    items: list[Grounded[ItemT]] = []
    seen: set[str] = set()
    for raw in raw_items:
        try:
            item = item_model.model_validate(raw)
        except ValidationError:
            continue
        text = item_text(item).casefold()
        if not accept(item) or text in seen:
            continue
        seen.add(text)
        items.append(Grounded(item, ground(item, passages)))
        if len(items) == count:
            break
    if not items:
        raise GenerationFailed("The model's answer held no usable items; try again or pick other documents.")
    return items


def generate_object(llm: LLMClient, prompt: str, model: type[ItemT], what: str,
                    check: Callable[[ItemT], str | None] = lambda _: None) -> ItemT:
    """A single-object answer, retried once with a stricter reminder; `what` names it in errors and
    `check` adds a rule the schema cannot express (it returns what is wrong, or None)."""
    messages = _user(prompt)
    schema = json_schema(model)
    problem = ""
    for _ in range(2):
        answer = ask(llm, messages, schema)
        try:
            result = model.model_validate(loads_lenient(answer))
        except (ValueError, ValidationError) as exc:
            problem = _describe(exc)
        else:
            if (problem := check(result) or "") == "":
                return result
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
