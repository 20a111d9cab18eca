"""What the chat model reads besides the conversation: the system prompt (from `prompts/chat_system.md`),
the scope statement and the question as stored for replay. Quoted material is fenced by
backend/agent/quoting.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from backend.agent.context import RequestState
from backend.agent.documents import scoped_documents

MAX_SCOPE_NAMES = 20


def scope_statement(state: RequestState) -> str:
    """One sentence naming what the user limited the conversation to ("" for the whole vault)."""
    scope = state.scope
    if scope.is_empty:
        return ""
    parts = []
    if scope.document_ids:
        names = sorted(d["filename"] for d in scoped_documents(state) if d["id"] in scope.document_ids)
        shown = ", ".join(names[:MAX_SCOPE_NAMES]) + (f" and {len(names) - MAX_SCOPE_NAMES} more"
                                                       if len(names) > MAX_SCOPE_NAMES else "")
        parts.append(f"the documents {shown}")
    if scope.categories:
        parts.append("the categories " + ", ".join(sorted(scope.categories)))
    return "The user limited this conversation to " + " and ".join(parts) + "."


# How the model works, by whether it can call tools. Quire searches for every question either way.
WITH_TOOLS = """- Quire has already searched the documents for the question: the result (numbered passages) follows
  the question as a `search_knowledge_base` result. Answer from it. If it misses, call
  `search_knowledge_base` again with other words (synonyms, names, numbers, the likely heading).
- Use `list_documents` to find out which documents exist, `analyze_document` for an overview of one
  document, and `compare_documents` to set two documents side by side.
- Use `calculator` for every calculation and `current_time` for today's date or the time; do not
  compute in your head."""
WITHOUT_TOOLS = """- Quire searches the documents for every question: the result (numbered passages) follows the
  question. Answer from it. You have no tools: never write a tool call, and if the passages do not answer
  the question, say so.
- Work out calculations step by step and show them."""


def system_prompt(state: RequestState, scope_text: str, tools: bool = True, now: datetime | None = None) -> str:
    moment = (now or datetime.now().astimezone()).strftime("%A, %d %B %Y")
    scope = scope_text + " Searches only see these documents; say so when the answer may lie outside them." \
        if scope_text else "The whole vault: every document the user has added."
    return state.services.prompts.render("chat_system", scope=scope, date=moment,
                                    how_to_work=WITH_TOOLS if tools else WITHOUT_TOOLS)


def question_content(question: str, files: list[str]) -> str:
    """The user's turn as stored for replay: attached files (already fenced), then the question."""
    return "\n\n".join([*files, question])


def attached_files(model_content: str | None, question: str) -> list[str]:
    """The attached files of a stored user turn, as one block (the inverse of `question_content`)."""
    if not model_content or model_content == question:
        return []
    if not model_content.endswith("\n\n" + question):
        raise ValueError("the stored model content does not end with the stored question")
    return [model_content[: -len(question) - 2]]


def with_scope(content: str, scope_text: str) -> str:
    """The current question with the active scope stated in front of it."""
    return f"[Scope: {scope_text}]\n\n{content}" if scope_text else content


def scope_payload(state: RequestState) -> dict[str, Any]:
    return {"document_ids": sorted(state.scope.document_ids), "categories": sorted(state.scope.categories)}
